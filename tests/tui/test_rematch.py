"""Rematch from the end screen: the same players in the same seats, the same options and clock,
a new deal, a new save; the finished game's save stays as it was."""

from __future__ import annotations

from tui.app import GamenightApp
from tui.clock import ClockSpec
from tui.games.base import GameScreen
from tui.local_table import load_save
from tui.screens.end import EndScreen
from tui.screens.new_game import GameSetup

from .helpers import screen_text, settle


async def _until(pilot, predicate, rounds: int = 200) -> None:
    for _ in range(rounds):
        if predicate():
            return
        await pilot.pause(0.05)
    raise AssertionError("not reached")


async def test_r_on_the_end_screen_deals_again_for_the_same_table(config):
    setup = GameSetup("money", 3, 3, seed=7, names=["Ann", "Bob", "Cat"], bot_delay=0,
                      clock=ClockSpec("move", 90))
    app = GamenightApp(start=setup, config=config)
    async with app.run_test(size=(100, 32)) as pilot:
        await _until(pilot, lambda: isinstance(app.screen, EndScreen))
        await settle(pilot)
        old = app.tables[0]
        assert "r Rematch" in screen_text(app).splitlines()[-1]
        await pilot.press("r")
        await _until(pilot, lambda: isinstance(app.screen, (GameScreen, EndScreen)) and app.screen.table is not old)
        await settle(pilot)
        new = app.screen.table
        assert new is not old and old not in app.tables and new in app.tables
        assert new.names == old.names and new.local_seats == old.local_seats
        assert new.game_log.options_dict() == old.game_log.options_dict()
        assert new.seating.clock == ClockSpec("move", 90)
        assert new.game_log.seed != old.game_log.seed  # a new deal
        assert new.save_path != old.save_path
    finished = load_save(old.save_path)
    assert finished.is_over() and finished.game_log.steps == old.game_log.steps

