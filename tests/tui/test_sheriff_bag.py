"""Sheriff's bag: marked while the others are still at the market (keys typed while a bot acts
count), and loaded only after the player says yes to it."""

from __future__ import annotations

import asyncio

from engine.sheriff.state import Load
from tui.app import GamenightApp
from tui.games.sheriff import SheriffScreen
from tui.screens.dialogs import ConfirmDialog
from tui.screens.new_game import GameSetup

from .helpers import screen_text, settle
from .test_sheriff_screen import keys_for


async def wait_until(pilot, condition, what: str, rounds: int = 1000) -> None:
    for _ in range(rounds):
        if condition():
            return
        await pilot.pause(0.02)
    raise AssertionError(f"never reached: {what}")


def loads(table) -> list[Load]:
    return [action for step in table.game_log.steps for seat, action in step if seat == 0 and isinstance(action, Load)]


async def test_the_bag_is_marked_during_the_others_market_and_confirmed(config):
    # Ann (seat 0) goes first at the market (the Sheriff is seat 3); the bots then take a while.
    setup = GameSetup("sheriff", 4, 3, options={"first_sheriff": 3}, seed=4, names=["Ann"], bot_delay=0.3)
    app = GamenightApp(start=setup, config=config)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, SheriffScreen)
        while screen.my_turn and screen.mode in ("aside", "draw", "discard"):
            await pilot.press(*keys_for(screen))
            for _ in range(5):  # not settle(): it would wait for the bots' delayed turns too
                await pilot.pause(0.02)
        await wait_until(pilot, lambda: screen.mode == "preload", "the others' market turns")
        assert "mark your bag now" in screen_text(app)
        await pilot.press("space", "space")  # typed while a bot is at the market
        marked = screen._picked_cards()
        assert len(marked) == 2
        await wait_until(pilot, lambda: screen.mode == "load", "the load step")
        await settle(pilot)
        assert screen._picked_cards() == marked, "the marks made during the market were dropped"
        # Enter asks first; "no" keeps the bag open
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, ConfirmDialog)
        assert "sealed" in screen_text(app)
        await pilot.press("n")
        await settle(pilot)
        assert app.screen is screen and screen.mode == "load" and loads(app.tables[0]) == []
        await pilot.press("enter", "y")
        await settle(pilot)
        await asyncio.sleep(0)
        assert [load.cards for load in loads(app.tables[0])] == [marked]
