"""The end of a game: every player's breakdown (categories x players), totals and places."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Static

from engine.core import Result

from ..results import category_label, table_rows, winners_line
from ..table import Table, TableEvent
from .vote import ask_vote, vote_offered

log = logging.getLogger(__name__)


class EndScreen(Screen[None]):
    BINDINGS = [
        Binding("m,escape", "menu", "Menu", show=True),
        Binding("b", "board", "Board", show=True),
        Binding("r", "rematch", "Rematch", show=True),  # same players and options, a new deal
        Binding("ctrl+e", "vote", "Vote", show=True),  # the audit proved a seat cheated
        Binding("q", "app.quit", "Quit", show=True),
    ]

    def __init__(self, game_name: str, names: Sequence[str], result: Result, table: Table | None = None) -> None:
        super().__init__(id="end-screen")
        self.table = table  # closed when the player goes back to the menu
        self.game_name = game_name
        self.names = list(names)
        self.result = result

    BOX_CLASSES = ""  # a game's end screen may style its box (classes for #end-box)

    def compose(self) -> ComposeResult:
        with Vertical(id="end-box", classes=self.BOX_CLASSES):
            yield Static(f"{self.game_name}: game over", id="end-title", markup=False)
            yield Static(self.winners_text(), id="end-winners", markup=False)
            # the deal's line: hidden unless a network game dealt hidden cards
            yield Static(self._deal_line(), id="end-deal", markup=False)
            yield DataTable(id="end-table", cursor_type="row", zebra_stripes=True)
            yield from self.compose_more()
        yield Footer()

    def winners_text(self) -> str:
        return winners_line(self.names, self.result)

    def compose_more(self) -> ComposeResult:
        """What a game's end screen shows below the table (nothing here)."""
        return iter(())

    def _deal_line(self) -> str:
        """A network game with hidden cards: what the end audit says of the deal."""
        return self.table.deal_line if self.table is not None else ""

    def _refresh_deal(self) -> None:
        """The audit's verdict, once it is in (it follows the last step by a moment), and what
        the table's vote made of the result if the audit proved a seat cheated."""
        line = self._deal_line()
        for deal in self.query("#end-deal").results(Static):
            deal.update(line)
            deal.display = bool(line)
        result = self._table_result()
        if result is not None and result != self.result:
            self.result = result
            self.query_one("#end-winners", Static).update(self.winners_text())
            self._fill_table()
        self.refresh_bindings()
        if "replaying" not in line and not vote_offered(self.table) and self._deal_timer is not None:
            self._deal_timer.stop()
            self._deal_timer = None

    def _table_result(self) -> Result | None:
        try:
            return self.table.result() if self.table is not None else None
        except Exception:  # a replay's table, or one already closed: the result shown stands
            return None

    def on_mount(self) -> None:
        self._deal_timer = None
        if self.table is not None:
            self.table.subscribe(self._on_table_event)
        self._fill_table()
        self._refresh_deal()
        if "replaying" in self._deal_line() or vote_offered(self.table):
            self._deal_timer = self.set_interval(0.5, self._refresh_deal)
        self.query_one("#end-table", DataTable).focus()

    def _fill_table(self) -> None:
        table = self.query_one("#end-table", DataTable)
        table.clear(columns=True)
        header, *rows = table_rows(self.names, self.result)
        table.add_column("", key="category")
        for seat, name in enumerate(header[1:]):
            table.add_column(name, key=f"seat{seat}")
        for row in rows:
            cells = [Text(category_label(row[0]), style="bold")] + [Text(cell, justify="right") for cell in row[1:]]
            table.add_row(*cells, key=row[0])

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "vote":
            return vote_offered(self.table)
        if action == "rematch":
            return self.table is not None and self.table.supports.rematch
        return True

    def action_rematch(self) -> None:
        """Deal again for the same table: this one closes (its save is complete), the new one opens."""
        if self.table is None or not self.table.supports.rematch:
            return
        try:
            again = self.table.rematch()
        except Exception as exc:  # a save that cannot be written, say: one line, the end stays
            log.exception("starting a rematch failed")
            self.show_message(f"Cannot start a rematch: {exc}", error=True)
            return
        if isinstance(again, Table):
            self.app.leave_table(self.table)
            self.app.open_table(again)
            return
        self.app.show_menu()  # a network table: its Host or Join screen closes it once the new one is up
        self.app.push_screen(rematch_screen(again))

    def _on_table_event(self, event: TableEvent) -> None:
        """The host of a network game offered a rematch: the key is there now."""
        if event.kind == "rematch" and self.is_attached:
            self.refresh_bindings()
            self.show_message(event.text)

    def action_vote(self) -> None:
        ask_vote(self)

    def show_message(self, text: str, error: bool = False) -> None:
        """One line for the player (the vote's answer)."""
        self.notify(text, severity="error" if error else "information")

    def action_board(self) -> None:
        """Look at the final table again (the game screen is below this one)."""
        if len(self.app.screen_stack) > 3:
            self.dismiss(None)

    def action_menu(self) -> None:
        if self.table is not None:
            self.app.leave_table(self.table)
        else:
            self.app.show_menu()


def rematch_screen(rematch: Any) -> Screen[Any]:
    """The screen that opens a network table's rematch (tui/net_table.py `NetRematch`): Host
    with the request it hosted with, or Join with the code of the table the host offered."""
    from .host import HostScreen
    from .join import JoinScreen

    if rematch.host is not None:
        return HostScreen(rematch.host)
    return JoinScreen(code=rematch.code, name=rematch.name, rematch_of=rematch.table)
