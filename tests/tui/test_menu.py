"""The menu, new-game form, help screen and the network entries, by keyboard only."""

from __future__ import annotations

import pytest

from tui.app import GamenightApp
from tui.games.money import MoneyScreen
from tui.screens.menu import MenuScreen
from tui.screens.new_game import NewGameScreen
from tui.screens.rules import RulesScreen

from .helpers import screen_text, settle


async def test_new_game_from_the_menu_with_edition_and_seed(config):
    app = GamenightApp(config=config)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, MenuScreen)
        await pilot.press("n")
        await settle(pilot)
        assert isinstance(app.screen, NewGameScreen)
        # Players: 4 -> 5; Edition: gold_silver -> classic.
        await pilot.press("down", "right", "down", "down", "right")
        await pilot.press("tab", *"42")
        await settle(pilot)
        text = screen_text(app)
        assert "classic" in text and "◀ 5 ▶" in text
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, MoneyScreen)
        table = app.tables[0]
        assert table.n_players == 5 and table.local_seats == (0,)
        assert dict(table.game_log.options)["edition"] == "classic"
        assert "classic" in screen_text(app)


async def test_an_impossible_setup_is_explained_not_started(config):
    app = GamenightApp(config=config)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("n")
        await settle(pilot)
        await pilot.press("tab", "tab", *"A,B,C,D,E,F,G")  # seven names for four seats
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, NewGameScreen)
        assert "names" in screen_text(app)
        assert app.tables == []


async def test_f1_and_question_mark_open_the_game_help(config):
    from tui.screens.new_game import GameSetup

    app = GamenightApp(start=GameSetup("money", 3, 2, seed=1, bot_delay=0), config=config)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        for key in ("f1", "question_mark"):
            await pilot.press(key)
            await settle(pilot)
            assert isinstance(app.screen, RulesScreen)
            assert "Money!" in screen_text(app)
            await pilot.press("escape")
            await settle(pilot)
            assert isinstance(app.screen, MoneyScreen)


@pytest.mark.parametrize("entry, screen", [("h", "HostScreen"), ("j", "JoinScreen")])
async def test_network_entries_open_the_host_and_join_screens(config, entry, screen):
    app = GamenightApp(config=config)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press(entry)
        await settle(pilot)
        assert type(app.screen).__name__ == screen


async def test_watching_bots_play_needs_no_keys(config):
    from tui.screens.end import EndScreen
    from tui.screens.new_game import GameSetup

    app = GamenightApp(start=GameSetup("money", 3, 3, seed=2, bot_delay=0), config=config)
    async with app.run_test(size=(80, 24)) as pilot:
        for _ in range(50):
            await settle(pilot)
            if isinstance(app.screen, EndScreen):
                break
        assert isinstance(app.screen, EndScreen)
        assert app.tables[0].local_seats == ()


async def test_the_form_offers_every_playable_option_and_remembers_the_last_choices(config):
    app = GamenightApp(config=config)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("n")
        await settle(pilot)
        form = app.screen
        # Game: Money! -> ... -> 7 Wonders (the order of the registry): its board side is offered.
        while form.game.id != "seven_wonders":
            await pilot.press("right")
        text = screen_text(app)
        assert "Wonder side" in text and "◀ A ▶" in text
        await pilot.press("down", "left")  # players: 4 -> 3
        await pilot.press("down", "down", "right")  # wonder side A -> B
        assert "◀ B ▶" in screen_text(app)
        await pilot.press("tab", "tab", *"Ann")
        await pilot.press("enter")
        await settle(pilot)
        table = app.tables[0]
        assert table.game.id == "seven_wonders" and table.n_players == 3
        assert dict(table.game_log.options)["wonder_side"] == "B"
    # A new app: the form opens on the same game with the same choices.
    app = GamenightApp(config=config)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("n")
        await settle(pilot)
        form = app.screen
        assert form.game.id == "seven_wonders" and form.players == 3 and form.options["wonder_side"] == "B"
        text = screen_text(app)
        assert "◀ B ▶" in text and "Ann" in text


@pytest.mark.parametrize("game, option, label", [("sheriff", "first_sheriff", "First sheriff"),
                                                 ("ten", "first_player", "First player")])
async def test_the_first_seat_can_be_chosen_in_the_form(config, game, option, label):
    app = GamenightApp(config=config)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("n")
        await settle(pilot)
        form = app.screen
        while form.game.id != game:
            await pilot.press("right")
        assert f"{label}" in screen_text(app) and "drawn" in screen_text(app)
        rows = [row.key for row in form.query_one("#settings").rows]
        await pilot.press(*["down"] * rows.index(("option", option)), "right", "right")
        assert "player 2" in screen_text(app)
        await pilot.press("enter")
        await settle(pilot)
        assert dict(app.tables[0].game_log.options)[option] == 1


async def test_the_bot_level_is_chosen_in_the_new_game_form(config):
    app = GamenightApp(config=config, bot_delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("n")
        await settle(pilot)
        assert "Bot level" in screen_text(app) and "◀ normal ▶" in screen_text(app)
        await pilot.press("end", "left")  # the last row, the level: normal -> easy
        await settle(pilot)
        assert "◀ easy ▶" in screen_text(app)
        await pilot.press("enter")
        await settle(pilot)
        table = app.tables[0]
        assert table.seating.bot_kind == "easy"
        assert {bot.kind for bot in table._bots.values()} == {"easy"}
