"""Saving after every step, resuming the last game, and refusing a bad save untouched."""

from __future__ import annotations

from engine.core import final_state, state_hash
from engine.money import GAME
from tui.app import GamenightApp
from tui.games.money import MoneyScreen
from tui.local_table import LocalTable, SaveError, last_save_path, load_save, saves_dir
from tui.screens.dialogs import ErrorDialog
from tui.screens.new_game import GameSetup

from .helpers import screen_text, settle


async def test_every_step_is_saved_and_the_last_game_resumes(config):
    app = GamenightApp(start=GameSetup("money", 4, 3, seed=21, names=["Ann"], bot_delay=0), config=config)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        for _ in range(3):  # a few bids and turns
            screen = app.screen
            if screen.bidding:
                await pilot.press("space", "enter")
            elif screen.choosing:
                await pilot.press("2")
            await settle(pilot)
        table = app.tables[0]
        played = table.game_log
        assert len(played.steps) >= 3
        assert last_save_path() == table.save_path
        await pilot.press("escape", "y")
        await settle(pilot)
    resumed = GamenightApp(start="resume", config=config)
    async with resumed.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert isinstance(resumed.screen, MoneyScreen)
        table = resumed.tables[0]
        assert table.game_log.steps[: len(played.steps)] == played.steps
        assert state_hash(table.state) == state_hash(final_state(GAME, table.game_log))
        assert f"round {table.state.round_no}" in screen_text(resumed)


async def test_a_corrupt_save_gives_a_clear_message_and_stays_untouched(config):
    table = LocalTable.new("money", 3, humans=1, seed=1, bot_delay=0)
    path = table.save_path
    garbage = b"\x93not a save at all"
    path.write_bytes(garbage)
    app = GamenightApp(start="resume", config=config)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, ErrorDialog)
        text = screen_text(app)
        assert "is not a gamenight save" in text
        assert "Traceback" not in text
        await pilot.press("enter")
        await settle(pilot)
        assert type(app.screen).__name__ == "MenuScreen"
    assert path.read_bytes() == garbage


def test_an_incompatible_save_is_refused_with_its_reason(config):
    table = LocalTable.new("money", 3, humans=1, seed=1, bot_delay=0)
    path = table.save_path
    good = path.read_bytes()
    # A save whose log no longer replays (an action this version refuses).
    from engine.core import canonical, decode

    data = decode(good)
    log = data["log"]
    bad_step = ((0, log), )  # not a Money! action
    data["log"] = type(log)(log.game, log.n_players, log.seed, log.options, (bad_step,))
    path.write_bytes(canonical(data))
    before = path.read_bytes()
    try:
        load_save(path)
    except SaveError as exc:
        assert "does not replay" in str(exc)
    else:
        raise AssertionError("the bad save was accepted")
    assert path.read_bytes() == before
    data["version"] = 99
    path.write_bytes(canonical(data))
    try:
        load_save(path)
    except SaveError as exc:
        assert "another gamenight version" in str(exc)
    else:
        raise AssertionError("a save of another format version was accepted")


def test_saves_are_written_atomically_into_the_data_dir(config):
    table = LocalTable.new("money", 3, humans=1, seed=2, bot_delay=0)
    assert table.save_path.parent == saves_dir()
    assert table.save_path.name.startswith("money-") and table.save_path.suffix == ".save"
    leftovers = [p.name for p in saves_dir().iterdir() if p.name.endswith(".tmp")]
    assert leftovers == []
