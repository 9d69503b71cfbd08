"""Ctrl+Q on a network host asks as Esc does (quitting stops the broker for everyone); where
leaving costs nobody anything it still quits at once."""

from __future__ import annotations

import asyncio

import pytest
from textual.widgets import Input, Static

from net.broker import free_port
from tui.app import GamenightApp
from tui.config import BrokerConfig, Config, PlayerConfig, UiConfig
from tui.games.base import GameScreen
from tui.local_table import LocalTable
from tui.screens.host import HostScreen
from tui.screens.vote import LeaveDialog

from ..net.helpers import pilot_until
from .helpers import settle


async def reachable(port: int) -> bool:
    try:
        _, writer = await asyncio.open_connection("127.0.0.1", port)
    except OSError:
        return False
    writer.close()
    await writer.wait_closed()
    return True


async def host_with_a_bot(pilot, app: GamenightApp) -> GameScreen:
    """Menu -> Host: Money! for 2, one of them a bot, on the embedded broker; its game screen."""
    await pilot.press("h")
    await pilot_until(pilot, lambda: isinstance(app.screen, HostScreen), what="the host screen")
    await pilot.press("down", "left", "left")  # players 4 -> 3 -> 2, the bots follow: 1 bot
    app.screen.query_one("#host-broker", Input).focus()
    await pilot.press("enter")
    await pilot_until(pilot, lambda: isinstance(app.screen, GameScreen), timeout=30, what="the game screen")
    return app.screen


@pytest.mark.net
async def test_ctrl_q_on_a_hosted_game_asks_as_esc_does_and_no_keeps_the_game():
    port = free_port()
    config = Config(player=PlayerConfig("Alice"), ui=UiConfig(bell=False, bot_delay=0.0),
                    broker=BrokerConfig(url=f"mqtt://127.0.0.1:{port}", port=port))
    app = GamenightApp(config=config)
    try:
        async with app.run_test(size=(100, 32)) as pilot:
            game = await host_with_a_bot(pilot, app)
            table = game.table
            await pilot.press("escape")
            await settle(pilot)
            assert isinstance(app.screen, LeaveDialog)
            asked_by_esc = str(app.screen.query_one("#dialog-message", Static).render())
            assert "broker runs in this terminal" in asked_by_esc
            await pilot.press("n")
            await settle(pilot)
            await pilot.press("ctrl+q")
            await settle(pilot)
            assert isinstance(app.screen, LeaveDialog), "ctrl+q quit without asking"
            assert str(app.screen.query_one("#dialog-message", Static).render()) == asked_by_esc
            await pilot.press("n")  # no: the game goes on, the broker with it
            await settle(pilot)
            assert app.screen is game and table in app.tables and app.is_running
            assert await reachable(port)
            await pilot.press("ctrl+q")
            await settle(pilot)
            await pilot.press("y")  # yes: quit, the table closed and its broker stopped
            await pilot_until(pilot, lambda: not app.is_running or app.return_code is not None, what="the app quits")
        assert app.return_code == 0 and app.tables == []
        assert not await reachable(port)
    finally:
        for table in list(app.tables):
            await table.close()


async def test_ctrl_q_on_a_local_game_quits_at_once(config):
    table = LocalTable.new("money", 3, humans=1, seed=1, bot_delay=0)
    app = GamenightApp(start=table, config=config)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, GameScreen)
        await pilot.press("ctrl+q")
        await settle(pilot)
    assert app.return_code == 0 and app.tables == []
