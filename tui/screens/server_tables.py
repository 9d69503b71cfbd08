"""Tables on this server: what the visitors of this door host "open to this server".

Read from the door's table list (net/doors/tables.py) every REFRESH seconds. Enter joins the
picked table when it has a free seat and watches it once it plays, w watches it, both through
its invite code and the Join screen; h hosts a table.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import Footer, Static

from engine.registry import get_game
from net.doors.tables import TableEntry, read_tables

from ..widgets import PickList, PickRow

STYLES = Path(__file__).resolve().parent.parent / "styles"
REFRESH = 1.5  # seconds between two readings of the list
EMPTY = "No table here yet: press h to host one."


def game_name(game_id: str) -> str:
    try:
        return get_game(game_id).name
    except Exception:  # a game this client does not have: its id says what it is
        return game_id


def table_row(entry: TableEntry) -> Text:
    """"Money!   2 of 4 free   host Ann" (or "playing" for a started table)."""
    state = "playing" if entry.started else f"{entry.free} of {entry.players} free"
    return Text.assemble((f"{game_name(entry.game):<22}", "bold"), f" {state:<13} host ", (entry.host, "bold"))


class ServerTablesScreen(Screen[None]):
    CSS_PATH = STYLES / "server_tables.tcss"
    BINDINGS = [
        Binding("enter", "open", "Join or watch", show=True),
        Binding("w", "watch", "Watch", show=True),
        Binding("h", "host", "Host a table", show=True),
        Binding("escape", "back", "Back", show=True),
    ]

    def __init__(self) -> None:
        super().__init__(id="tables-screen")
        self.entries: dict[str, TableEntry] = {}

    def compose(self) -> ComposeResult:
        with Vertical(id="tables-box"):
            yield Static("Tables on this server", id="tables-title")
            yield Static("Enter: take a free seat, or watch a table that is playing.", id="tables-hint")
            yield PickList(id="tables-list", empty=EMPTY)
            yield Static("", id="tables-status", markup=False)
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#tables-list", PickList).focus()
        self.refresh_tables()
        self.set_interval(REFRESH, self.refresh_tables)

    def on_screen_resume(self) -> None:
        self.refresh_tables()  # back from a game or the Host screen

    @work(exclusive=True, group="tables")
    async def refresh_tables(self) -> None:
        door = self.app.door
        entries = await asyncio.to_thread(read_tables, door.tables, broker=door.broker) if door else []
        self._show(entries)

    def _show(self, entries: list[TableEntry]) -> None:
        table_list = self.query_one_optional("#tables-list", PickList)
        status = self.query_one_optional("#tables-status", Static)
        if table_list is None or status is None:  # left while the tables were read: nobody to show
            return
        self.entries = {entry.gid: entry for entry in entries}
        table_list.set_rows([PickRow(e.gid, table_row(e)) for e in entries])
        playing = sum(1 for e in entries if e.started)
        status.update(
            f"{len(entries)} table{'s' if len(entries) != 1 else ''}, {playing} playing." if entries
            else "A table hosted \"open to this server\" shows up here as it opens.")

    def _picked(self) -> TableEntry | None:
        return self.entries.get(str(self.query_one("#tables-list", PickList).highlighted))

    def action_open(self) -> None:
        entry = self._picked()
        if entry is not None:
            self._go(entry, watch=entry.started or not entry.free)

    def action_watch(self) -> None:
        entry = self._picked()
        if entry is not None:
            self._go(entry, watch=True)

    def _go(self, entry: TableEntry, watch: bool) -> None:
        from .join import JoinScreen

        self.app.push_screen(JoinScreen(code=entry.invite, watch=watch))

    def action_host(self) -> None:
        self.app.open_network_screen("host")

    def action_back(self) -> None:
        self.app.pop_screen()
