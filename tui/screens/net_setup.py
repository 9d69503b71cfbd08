"""What the Host and Join screens share: a table being set up, a status line, and Back."""

from __future__ import annotations

from typing import Any, ClassVar

from textual.screen import Screen
from textual.widgets import Static

from ..net_table import NetTable


class TableSetupScreen(Screen[None]):
    """A screen that gets a network table ready, then hands it to the game screen."""

    STATUS_ID: ClassVar[str] = ""
    """Id of the Static that carries the status line."""

    def __init__(self, *, id: str) -> None:
        super().__init__(id=id)
        self.table: NetTable | None = None
        self.session: Any = None
        self._opened = False

    def _status(self, text: str, error: bool = False) -> None:
        status = self.query_one(f"#{self.STATUS_ID}", Static)
        status.update(text)
        status.set_class(error, "error")

    def action_back(self) -> None:
        """Leave; a table that never reached its game screen is closed (it has no other owner)."""
        if self.table is not None and not self._opened:
            self.app.run_worker(self.table.close(), group="close")
        self.app.pop_screen()
