"""Saving after every step, resuming the last game, and refusing a bad save untouched."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import msgpack
import pytest

from engine.bots import make_bot
from engine.core import GameLog, Stream, canonical, final_state, state_hash
from engine.money import GAME
from engine.registry import get_game
from tui.app import GamenightApp, ReplayApp
from tui.cli import main as cli_main
from tui.games.money import MoneyScreen
from tui.local_table import (
    DamagedSave,
    LocalTable,
    SaveError,
    damaged_copy,
    last_save_path,
    load_save,
    recover_save,
    saves_dir,
)
from tui.savefile import SaveTail, check, read_save_file, save_bytes
from tui.screens.dialogs import ConfirmDialog, ErrorDialog
from tui.screens.new_game import GameSetup

from .helpers import screen_text, settle

ROOT = Path(__file__).resolve().parents[2]


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


def _played(game_id: str, players: int, steps: int, seed: int = 1, humans: int = 0) -> LocalTable:
    """A game saved after at least `steps` steps, stopped where a human (seat 0) must act."""
    table = LocalTable.new(game_id, players, humans=humans, seed=seed, bot_delay=0)
    stand_in = make_bot(table.game, 0, "random", Stream(b"stand-in"))
    while len(table.game_log.steps) < steps or (humans and 0 not in table.active()):
        table._pending = {
            s: stand_in.choose(table.view(s), table.legal_actions(s)) if s < humans else table._bot_choice(s)
            for s in table.active()
        }
        table._step()
    table.flush_save()
    return table


def _refused(path, words: str) -> SaveError:
    before = path.read_bytes()
    with pytest.raises(SaveError) as caught:
        load_save(path)
    message = str(caught.value)
    assert words in message and "\n" not in message, message
    assert path.read_bytes() == before  # a refused save is left untouched
    return caught.value


def test_a_save_whose_steps_do_not_replay_says_so():
    table = _played("money", 3, 2)
    wrong = table.game_log.append({0: GameLog("money", 3, b"x")})  # checks hold, the rules refuse it
    table.save_path.write_bytes(save_bytes(wrong, table.seating, table.game.rules_version))
    _refused(table.save_path, "does not replay")


def test_each_unusable_save_gets_its_own_message():
    path = _played("money", 3, 2).save_path
    header, *steps = _records(path.read_bytes())
    newer = dict(header, version=99)
    path.write_bytes(canonical(newer) + b"".join(canonical(s) for s in steps))
    assert "damaged" not in str(_refused(path, "newer gamenight"))
    other = dict(header, log=dict(header["log"], game="chess"))
    path.write_bytes(canonical(other))
    assert "damaged" not in str(_refused(path, "a game this gamenight does not have"))
    pairs = [[0, {"$t": "money.NoSuchThing"}]]  # checked as written, by a gamenight with more actions
    path.write_bytes(canonical(header) + canonical([pairs, check(header["check"], canonical(pairs))]))
    _refused(path, "is damaged: step 1")
    path.write_bytes(b"PK\x03\x04 a zip file, not a save")
    assert "damaged" not in str(_refused(path, "is not a gamenight save"))


def test_a_torn_last_record_is_found_and_the_game_continues_a_step_earlier_if_asked():
    table = _played("money", 3, 4)
    whole = table.save_path.read_bytes()
    cut = len(canonical({"end": len(table.game_log.steps), "check": bytes(8)})) + 5
    table.save_path.write_bytes(whole[:-cut])  # a crash mid-write: the end record, a part of the last step
    damaged = _refused(table.save_path, f"is cut short after step {len(table.game_log.steps) - 1}")
    resumed = recover_save(table.save_path, damaged)
    assert resumed.game_log.steps == table.game_log.steps[:-1]
    assert damaged_copy(table.save_path).name.endswith(".damaged-2")  # the first copy is taken
    assert (table.save_path.parent / (table.save_path.name + ".damaged")).read_bytes() == whole[:-cut]
    resumed._pending = {s: resumed._bot_choice(s) for s in resumed.active()}
    resumed._step()
    resumed.flush_save()
    again = load_save(table.save_path)  # written anew, clean, so the step appended after it reads
    assert again.game_log == resumed.game_log


def test_a_version_1_save_still_opens_and_is_rewritten_in_the_current_format():
    table = _played("sheriff", 3, 5)
    old = canonical({
        "format": "gamenight-save", "version": 1, "rules_version": GAME_OF["sheriff"].rules_version,
        "names": list(table.names), "humans": [], "bot_kind": "best", "log": table.game_log,
    })
    table.save_path.write_bytes(old)
    resumed = load_save(table.save_path)
    assert resumed.game_log == table.game_log
    resumed.flush_save()
    assert table.save_path.read_bytes() != old
    assert load_save(table.save_path).game_log == table.game_log


def test_saving_appends_one_step_at_a_time():
    table = _played("ten", 3, 1)
    sizes = [table.save_path.stat().st_size]
    for _ in range(6):
        table._pending = {s: table._bot_choice(s) for s in table.active()}
        table._step()
        table.flush_save()
        sizes.append(table.save_path.stat().st_size)
    growth = [b - a for a, b in zip(sizes, sizes[1:], strict=False)]
    assert all(0 < g < 200 for g in growth), growth  # one small record, not the whole log


def _records(raw: bytes) -> list:
    unpacker = msgpack.Unpacker(raw=False)
    unpacker.feed(raw)
    return list(unpacker)


GAME_OF = {gid: get_game(gid) for gid in ("money", "sheriff", "ten", "seven_wonders")}
PLAYERS = {"money": 3, "sheriff": 3, "ten": 2, "seven_wonders": 3}

RESUME_IN_A_NEW_PROCESS = """
import asyncio, json, sys
from engine.core import state_hash
from tui.app import GamenightApp
from tui.config import Config, UiConfig

async def main():
    app = GamenightApp(start=sys.argv[1], config=Config(ui=UiConfig(bell=False, bot_delay=0.0)))
    async with app.run_test(size=(120, 40)) as pilot:
        for _ in range(5):
            await pilot.pause()
        table = app.tables[0]
        panel = app.screen.query_one("#game-log")
        print(json.dumps({"screen": type(app.screen).__name__, "hash": state_hash(table.state),
                          "steps": len(table.game_log.steps), "log": table.log_lines,
                          "panel": [line.text for line in panel.lines]}))
asyncio.run(main())
"""


@pytest.mark.parametrize("game_id", sorted(PLAYERS))
@pytest.mark.parametrize("start", ["resume", "file"])
def test_a_save_reopens_in_a_new_process_at_the_same_position(game_id, start, gamenight_home):
    table = _played(game_id, PLAYERS[game_id], 6, seed=7, humans=1)
    expected = state_hash(table.state)
    for hash_seed in ("0", "4242"):
        env = {**os.environ, "GAMENIGHT_HOME": str(gamenight_home), "PYTHONHASHSEED": hash_seed}
        target = "resume" if start == "resume" else str(table.save_path)
        out = subprocess.run(
            [sys.executable, "-c", RESUME_IN_A_NEW_PROCESS, target],
            capture_output=True, text=True, env=env, cwd=ROOT, timeout=120, check=False,
        )
        assert out.returncode == 0, out.stderr[-2000:]
        seen = json.loads(out.stdout.strip().splitlines()[-1])
        assert seen["screen"] != "ErrorDialog"
        assert seen["steps"] == len(table.game_log.steps) and seen["hash"] == expected
        assert seen["log"] == table.log_lines
        assert seen["log"][-1][:30] in "".join(seen["panel"])  # the panel as it was


def test_saves_are_written_atomically_into_the_data_dir(config):
    table = LocalTable.new("money", 3, humans=1, seed=2, bot_delay=0)
    assert table.save_path.parent == saves_dir()
    assert table.save_path.name.startswith("money-") and table.save_path.suffix == ".save"
    leftovers = [p.name for p in saves_dir().iterdir() if p.name.endswith(".tmp")]
    assert leftovers == []


async def test_continue_is_offered_only_when_a_save_exists(config):
    app = GamenightApp(config=config)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert "Continue" not in screen_text(app)  # neither in the menu nor in the footer
        await pilot.press("c")
        await settle(pilot)
        assert type(app.screen).__name__ == "MenuScreen"
    table = _played("ten", 2, 3, humans=1)
    app = GamenightApp(config=config)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert "Continue the last game" in screen_text(app)
        await pilot.press("c")
        await settle(pilot)
        assert app.tables and app.tables[0].game_log.steps[: len(table.game_log.steps)] == table.game_log.steps


# ---- cut short or damaged anywhere (issue 19) ------------------------------------------------
def _boundaries(raw: bytes) -> list[int]:
    """Where each record of a save ends: the header's, each step's, the end record's."""
    unpacker = msgpack.Unpacker(raw=False)
    unpacker.feed(raw)
    ends = []
    for _ in unpacker:
        ends.append(unpacker.tell())
    return ends


def _one_line_or_recovered(path, raw: bytes, steps) -> DamagedSave | None:
    path.write_bytes(raw)
    with pytest.raises(SaveError) as caught:
        read_save_file(path)
    assert "\n" not in str(caught.value) and str(caught.value).startswith(path.name), caught.value
    if not isinstance(caught.value, DamagedSave):
        return None
    kept = caught.value.recovered.game_log.steps
    assert kept == steps[: len(kept)], "recovered steps that were not played"
    return caught.value


def test_a_save_cut_at_any_byte_says_where_and_keeps_the_steps_before():
    table = _played("money", 3, 6)
    whole, steps = table.save_path.read_bytes(), table.game_log.steps
    ends = _boundaries(whole)
    header_end, step_ends = ends[0], ends[1:-1]
    assert len(step_ends) == len(steps) and ends[-1] == len(whole)
    for cut in range(len(whole)):
        damaged = _one_line_or_recovered(table.save_path, whole[:cut], steps)
        if cut < header_end:  # nothing to continue from
            assert damaged is None
            continue
        assert damaged is not None, f"cut at byte {cut} of {len(whole)} was not found"
        assert damaged.kept == sum(1 for end in step_ends if end <= cut)
        assert f"is cut short after step {damaged.kept}" in str(damaged)


def test_a_save_with_any_byte_changed_is_found_and_keeps_only_the_steps_before():
    table = _played("money", 3, 6)
    whole, steps = table.save_path.read_bytes(), table.game_log.steps
    ends = _boundaries(whole)
    for at in range(len(whole)):
        flipped = whole[:at] + bytes([whole[at] ^ 0x20]) + whole[at + 1:]
        damaged = _one_line_or_recovered(table.save_path, flipped, steps)
        if damaged is not None and at >= ends[0]:  # the steps before the changed one are kept
            assert damaged.kept <= sum(1 for end in ends[1:-1] if end <= at)
    assert len(whole) > 500


def test_a_version_2_save_still_opens_and_is_rewritten_with_checks():
    table = _played("ten", 2, 5)
    tail = SaveTail()
    header = _records(tail.header(table.game_log, table.seating, table.game.rules_version))[0]
    old = dict(header, version=2)
    del old["check"]
    v2 = canonical(old) + b"".join(canonical([list(p) for p in step]) for step in table.game_log.steps)
    table.save_path.write_bytes(v2)
    resumed = load_save(table.save_path)
    assert resumed.game_log == table.game_log
    resumed.flush_save()
    assert read_save_file(table.save_path).clean and _records(table.save_path.read_bytes())[0]["version"] == 3
    table.save_path.write_bytes(v2[:-3])  # a torn last record of a version 2 save is found too
    assert "cut short after step 4" in str(_refused(table.save_path, "cut short"))


def _cut_save() -> tuple[LocalTable, bytes]:
    """The last game played, its save cut short in its last step (the end record gone)."""
    table = _played("money", 3, 5, humans=1)
    whole = table.save_path.read_bytes()
    cut = _boundaries(whole)[-2] - 3
    table.save_path.write_bytes(whole[:cut])
    return table, whole[:cut]


async def test_continue_offers_the_steps_before_the_damage_and_keeps_the_damaged_file(config):
    table, cut = _cut_save()
    kept = len(table.game_log.steps) - 1
    app = GamenightApp(config=config)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        await pilot.press("c")  # Continue
        await settle(pilot)
        assert isinstance(app.screen, ConfirmDialog)
        text = " ".join(screen_text(app).replace("│", " ").split())  # the dialog's lines, as one
        assert f"is cut short after step {kept}: continue from step {kept}?" in text
        assert f"kept as {table.save_path.name}.damaged" in text and "Traceback" not in text
        await pilot.press("n")  # not now: nothing changes
        await settle(pilot)
        assert type(app.screen).__name__ == "MenuScreen" and table.save_path.read_bytes() == cut
        await pilot.press("c")
        await settle(pilot)
        await pilot.press("y")
        await settle(pilot)
        assert isinstance(app.screen, MoneyScreen)
        assert app.tables[0].game_log.steps[:kept] == table.game_log.steps[:kept]
    assert (table.save_path.parent / f"{table.save_path.name}.damaged").read_bytes() == cut
    assert read_save_file(table.save_path).game_log.steps[:kept] == table.game_log.steps[:kept]


def test_gamenight_resume_hands_a_damaged_save_to_the_app_that_offers_it(monkeypatch):
    table, cut = _cut_save()
    started = []
    monkeypatch.setattr("tui.cli._run_app", lambda start, config=None: started.append(start) or 0)
    assert cli_main(["resume"]) == 0 and cli_main(["resume", str(table.save_path)]) == 0
    assert started == [table.save_path, table.save_path]  # the app's Continue dialog takes it from there
    assert table.save_path.read_bytes() == cut


async def test_replay_of_a_damaged_save_says_so_and_shows_the_steps_before(config, capsys):
    table, cut = _cut_save()
    kept = len(table.game_log.steps) - 1
    assert cli_main(["replay", str(table.save_path), "--export", "-"]) == 0
    out = capsys.readouterr()
    assert len(out.out.splitlines()) == kept + 1
    assert out.err.strip() == f"gamenight: {table.save_path.name} is cut short after step {kept}: replaying its first {kept} steps"
    from tui.replay import load_replay

    app = ReplayApp(load_replay(table.save_path), config)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        text = " ".join(screen_text(app).replace("│", " ").split())
        assert isinstance(app.screen, ErrorDialog) and f"replaying its first {kept} steps" in text
        await pilot.press("enter")
        await settle(pilot)
        assert app.screen.table.replay.steps == kept
    assert table.save_path.read_bytes() == cut
