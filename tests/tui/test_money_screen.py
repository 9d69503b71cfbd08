"""The Money! screen driven through the real app with the Pilot, as a player would."""

from __future__ import annotations

import pytest
from textual.widgets import DataTable

from engine.core import final_state
from engine.money import GAME
from engine.money.state import SwapMarket
from tui.app import GamenightApp
from tui.games.money import MoneyScreen
from tui.local_table import read_save
from tui.screens.end import EndScreen
from tui.screens.new_game import GameSetup
from tui.screens.pass_to import PassToScreen
from tui.widgets import PickList

from .helpers import screen_text, settle


async def play_to_end(app, pilot, max_moves: int = 600) -> None:
    """Bid the first card of the hand each round; when our bid acts, take market side I."""
    for _ in range(max_moves):
        screen = app.screen
        if isinstance(screen, EndScreen):
            return
        assert isinstance(screen, MoneyScreen), f"unexpected screen {screen!r}"
        if screen.bidding:
            await pilot.press("space", "enter")
        elif screen.choosing:
            await pilot.press("1")
        await settle(pilot)
    raise AssertionError("the game did not end")


async def test_full_game_against_three_bots_ends_with_the_engine_result(config):
    app = GamenightApp(start=GameSetup("money", 4, 3, seed=7, names=["Ann"], bot_delay=0), config=config)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, MoneyScreen)
        await play_to_end(app, pilot)
        table = app.tables[0]
        expected = GAME.result(final_state(GAME, table.game_log))
        grid = app.screen.query_one("#end-table", DataTable)
        totals = grid.get_row("total")
        assert [int(str(cell)) for cell in totals[1:]] == list(expected.scores)
        places = grid.get_row("place")
        assert [int(str(cell)[:-2]) for cell in places[1:]] == list(expected.places)
        for seat, rows in enumerate(expected.breakdown):
            for category, points in rows:
                assert str(grid.get_row(category)[seat + 1]) == str(points)
        assert "Ann" in screen_text(app)
        assert grid.region.bottom <= 24 and grid.region.right <= 80  # readable at 80x24
        # The save on disk is the same game: it replays to the same result.
        table.flush_save()
        saved_log, seating = read_save(table.save_path)
        assert saved_log == table.game_log
        assert GAME.result(final_state(GAME, saved_log)) == expected
        assert seating.names == ("Ann", "Bot 1", "Bot 2", "Bot 3")


async def test_key_widgets_fit_at_80_by_24(config):
    app = GamenightApp(start=GameSetup("money", 4, 3, seed=3, names=["Ann"], bot_delay=0), config=config)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = app.screen
        for selector in ("#status", "#market", "#bids", "#hand", "#scoreboard", "#game-log", "#waiting", "GameFooter"):
            widget = screen.query_one(selector)
            region = widget.region
            assert region.height > 0 and region.width > 0, f"{selector} is not visible"
            assert region.right <= 80 and region.bottom <= 24, f"{selector} is clipped: {region}"
        text = screen_text(app)
        for words in ("Side I ", "Side II", "Your hand", "Ann", "Your turn", "Place bid"):
            assert words in text, f"{words!r} not on screen:\n{text}"
        view = screen.view
        # Every card of the hand is on screen with its value and serial.
        assert len(view.hand) <= screen.query_one("#hand").region.height
        assert "#" in text and "Bluff" in text
        # The turn: after bidding, our acting bid offers the legal choices only.
        await pilot.press("space", "enter")
        await settle(pilot)
        if screen.choosing:
            choices = screen.query_one("#choices", PickList)
            enabled = {row.key for row in choices.rows if row.enabled}
            assert enabled == set(screen.legal)
            assert choices.region.bottom <= 24
            assert "Swap with side I" in screen_text(app)


async def test_an_illegal_choice_shows_the_engine_reason(config):
    app = GamenightApp(start=GameSetup("money", 4, 3, seed=3, names=["Ann"], bot_delay=0), config=config)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = app.screen
        await pilot.press("enter")  # an empty bid
        await settle(pilot)
        assert "Choose at least one card" in screen_text(app)
        # A swap during the bid step goes to the engine, which refuses it in words.
        screen.submit(SwapMarket(0))
        await settle(pilot)
        assert "cannot swap with market side I" in screen_text(app)
        assert isinstance(app.screen, MoneyScreen)


async def test_two_player_split_bid_builds_left_and_right(config):
    app = GamenightApp(start=GameSetup("money", 2, 1, seed=5, names=["Ann"], bot_delay=0), config=config)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = app.screen
        hand_before = screen.view.hand
        await pilot.press("l", "r", "enter")  # l / r mark as Space does: the cursor moves on
        await settle(pilot)
        bid = app.tables[0].game_log.steps[0][0][1]
        assert set(bid.left) | set(bid.right) == set(hand_before[:2])
        assert bid.left and bid.right


async def test_space_marks_the_card_and_moves_on(config):
    """One meaning of Space in every list: mark (or unmark) the highlighted row, then the next."""
    app = GamenightApp(start=GameSetup("money", 3, 2, seed=5, names=["Ann"], bot_delay=0), config=config)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = app.screen
        hand = screen.query_one("#hand", PickList)
        first, second, third = (row.key for row in hand.rows[:3])
        await pilot.press("space", "space")
        await settle(pilot)
        assert set(screen.groups) == {first, second}
        assert hand.highlighted == third
        await pilot.press("up", "space")  # back on the second card: Space takes it out again
        await settle(pilot)
        assert set(screen.groups) == {first}
        assert hand.highlighted == third


async def test_hot_seat_pass_screen_hides_the_previous_hand(config):
    app = GamenightApp(start=GameSetup("money", 3, 1, seed=11, names=["Ann", "Bob"], bot_delay=0), config=config)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, PassToScreen)
        assert "Pass the keyboard to Ann" in screen_text(app)
        await pilot.press("enter")
        await settle(pilot)
        game_screen = app.screen
        assert isinstance(game_screen, MoneyScreen) and game_screen.seat == 0
        ann_hand = game_screen.view.hand
        await pilot.press("space", "enter")
        await settle(pilot)
        assert isinstance(app.screen, PassToScreen)
        text = screen_text(app)
        assert "Pass the keyboard to Bob" in text
        assert "Your hand" not in text
        # Behind the pass screen the game screen holds no hand at all.
        assert game_screen.seat is None
        assert game_screen.query_one("#hand", PickList).rows == []
        await pilot.press("enter")
        await settle(pilot)
        assert app.screen is game_screen and game_screen.seat == 1
        assert game_screen.view.hand != ann_hand
        assert "Bob" in screen_text(app)


@pytest.mark.parametrize("keys", [("down", "enter"), ("3",)])
async def test_enter_and_number_keys_take_the_choice_shown(config, keys):
    """Seeds differ in who acts first; find one where our bid acts with another bid pending."""
    for seed in range(1, 40):
        app = GamenightApp(start=GameSetup("money", 4, 3, seed=seed, names=["Ann"], bot_delay=0), config=config)
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot)
            screen = app.screen
            for _ in screen.view.hand:  # the whole hand: most likely the highest bid
                await pilot.press("space")  # marks and moves on
            await pilot.press("enter")
            await settle(pilot)
            if not (screen.choosing and screen.bid_keys):
                continue
            table = app.tables[0]
            expected = SwapMarket(1) if keys[-1] == "enter" else screen.bid_keys[3]
            await pilot.press(*keys)
            await settle(pilot)
            acted = [dict(step).get(0) for step in table.game_log.steps]
            assert expected in acted
            return
    raise AssertionError("no seed gave our bid the first turn")
