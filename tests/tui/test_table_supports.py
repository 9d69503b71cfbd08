"""A table declares what it supports (tui/table.py TableSupports); screens ask that, never probe
the table's attributes; widgets hand data up as messages (the chat line); and keys typed ahead
reach the screen the first key opened (so going to another screen is a call, not a message)."""

from __future__ import annotations

import ast
from pathlib import Path

from textual import events

from tui.app import GamenightApp
from tui.games.base import GameScreen
from tui.local_table import LocalTable
from tui.screens.dialogs import ConfirmDialog
from tui.screens.end import EndScreen
from tui.screens.menu import MenuScreen
from tui.screens.new_game import NewGameScreen
from tui.screens.vote import LeaveDialog, vote_offered
from tui.table import TableSupports
from tui.widgets.chat import ChatPanel

from .helpers import settle

TUI = Path(__file__).resolve().parents[2] / "tui"


def probes(source: str) -> list[str]:
    """getattr/hasattr calls on a table, a screen or the app: what a declared capability (or a
    plain attribute every such object has) replaces."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("getattr", "hasattr"):
            target = ast.unparse(node.args[0]) if node.args else ""
            if any(word in target for word in ("table", "screen", "app")):
                found.append(f"line {node.lineno}: {ast.unparse(node)}")
    return found


def test_the_probe_check_finds_a_probe_and_passes_a_declared_question():
    assert probes("x = getattr(self.table, 'invite', '')\ny = hasattr(screen, 'table')\n"
                  "z = getattr(self.app.config.ui, 'bell', False)\n") == [
        "line 1: getattr(self.table, 'invite', '')", "line 2: hasattr(screen, 'table')",
        "line 3: getattr(self.app.config.ui, 'bell', False)"]
    assert probes("x = self.table.supports.chat\ny = getattr(args, 'port', None)\n") == []


def test_no_module_of_tui_probes_a_table_or_a_screen():
    found = {str(path.relative_to(TUI)): probes(path.read_text(encoding="utf-8")) for path in sorted(TUI.rglob("*.py"))}
    assert {path: lines for path, lines in found.items() if lines} == {}


def test_a_local_table_declares_nothing_beyond_play_and_every_question_has_an_answer():
    table = LocalTable.new("money", 3, humans=1, seed=1, bot_delay=0, save=False)
    assert table.supports == TableSupports(rematch=True)  # a new deal from the end, nothing else
    assert (table.invite, table.save_path, table.deal_line, table.chat_lines, table.deadline_text()) == ("", None, "", [], "")
    assert table.vote_options() is None and not vote_offered(table)
    try:
        table.hand_over()
    except ValueError as exc:
        assert "no other terminal" in str(exc)
    else:
        raise AssertionError("a local table cannot hand a seat over")


class HandOverTable(LocalTable):
    """A local table that says another terminal's bot could take its seat (as a network one)."""

    supports = TableSupports(hand_over=True)
    handed: list[str] = []

    def hand_over(self, bot: str = "best") -> None:
        self.handed.append(bot)


async def test_leaving_asks_then_the_app_closes_the_table_and_shows_the_menu(config):
    table = LocalTable.new("money", 3, humans=1, seed=1, bot_delay=0)
    app = GamenightApp(start=table, config=config)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, GameScreen) and app.tables == [table]
        await pilot.press("escape")
        await settle(pilot)
        assert isinstance(app.screen, ConfirmDialog) and "It is saved" in app.screen.question
        await pilot.press("y")
        await settle(pilot)
        assert isinstance(app.screen, MenuScreen) and app.tables == []


async def test_a_table_that_declares_hand_over_offers_the_bot_when_leaving(config):
    table = HandOverTable.new("money", 3, humans=1, seed=1, bot_delay=0, save=False)
    app = GamenightApp(start=table, config=config)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("escape")
        await settle(pilot)
        assert isinstance(app.screen, LeaveDialog) and "It is saved" not in app.screen.question
        await pilot.press("b")
        await settle(pilot)
        assert table.handed == ["best"] and isinstance(app.screen, MenuScreen) and app.tables == []


async def test_a_chat_line_goes_up_from_the_panel_to_the_screen_and_on_to_the_table(config):
    table = LocalTable.new("money", 3, humans=1, seed=1, bot_delay=0, save=False)
    table.supports = TableSupports(chat=True)  # a local table echoes a line as a "chat" event
    said: list[str] = []
    table.subscribe(lambda event: said.append(event.text) if event.kind == "chat" else None)
    app = GamenightApp(start=table, config=config)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("ctrl+t", *"hi all", "enter", "escape")
        await settle(pilot)
        assert said == ["hi all"]
        panel = app.screen.query_one(ChatPanel)
        assert [strip.text.strip() for strip in panel.query_one("RichLog").lines] == ["hi all"]


def type_ahead(app, *keys: str) -> None:
    """Keys that arrive in one read from the terminal: all queued before the first is handled."""
    for key in keys:
        app.post_message(events.Key(key, key))


async def test_keys_typed_ahead_on_the_end_screen_reach_the_menu_it_opened(config):
    table = LocalTable.new("money", 3, humans=0, seed=1, bot_delay=0, save=False)  # bots only
    app = GamenightApp(start=table, config=config)
    async with app.run_test(size=(80, 24)) as pilot:
        for _ in range(100):
            await settle(pilot)
            if isinstance(app.screen, EndScreen):
                break
        assert isinstance(app.screen, EndScreen)
        type_ahead(app, "m", "n")  # menu, then New game
        await settle(pilot)
        assert isinstance(app.screen, NewGameScreen)


async def test_keys_typed_ahead_through_the_leave_question_reach_the_menu(config):
    table = LocalTable.new("money", 3, humans=1, seed=1, bot_delay=0, save=False)
    app = GamenightApp(start=table, config=config)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        type_ahead(app, "escape", "y", "n")  # leave? yes, then New game
        await settle(pilot)
        assert isinstance(app.screen, NewGameScreen) and app.tables == []
