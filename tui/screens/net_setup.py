"""What the Host and Join screens share: a table being set up, a status line, and Back."""

from __future__ import annotations

from typing import Any, ClassVar

from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import Static

from ..messages import CloseTable
from ..net_table import NetTable
from .vote import ask_vote, vote_offered


class TableSetupScreen(Screen[None]):
    """A screen that gets a network table ready, then hands it to the game screen."""

    STATUS_ID: ClassVar[str] = ""
    """Id of the Static that carries the status line."""

    # A seat that withholds its seed share, its pass of the deal or its keys for the first
    # hands stalls the deal: the table votes here, before any game screen exists (the same
    # vote as in a game).
    BINDINGS: ClassVar = [Binding("ctrl+e", "vote", "Vote", show=True)]

    def __init__(self, *, id: str) -> None:
        super().__init__(id=id)
        self.table: NetTable | None = None
        self.session: Any = None
        self._opened = False
        self._vote_shown = False

    def on_mount(self) -> None:
        self.set_interval(1.0, self._watch_seed_deadline)

    def _status(self, text: str, error: bool = False) -> None:
        status = self.query_one_optional(f"#{self.STATUS_ID}", Static)
        if status is None:  # a worker answering after the screen was replaced: nobody to tell
            return
        status.update(text)
        status.set_class(error, "error")

    def show_message(self, text: str, error: bool = False) -> None:
        """The vote dialog's answer, on the status line."""
        self._status(text, error)

    def seed_text(self) -> str:
        """"Agreeing on the seed…" (then "Dealing the cards…" at a table with hidden cards)
        with the deadline or the vote key once a seat is late."""
        table = self.table
        if table is None:
            return "Agreeing on the seed…"
        dealing = table.lockstep.seed is not None and table.lockstep.dealt
        return ("Dealing the cards…" if dealing else "Agreeing on the seed…") + table.deadline_text()

    def _watch_seed_deadline(self) -> None:
        """Once a second while the seed is agreed and the cards are dealt (until the first
        hands are in): the deadline counts down, the vote key shows."""
        table = self.table
        if table is None or self._opened or table.drawable or table.lockstep.phase not in ("seed", "play"):
            return
        offered = vote_offered(table)
        if offered != self._vote_shown:
            self._vote_shown = offered
            self.refresh_bindings()
        self.on_seed_tick()

    def on_seed_tick(self) -> None:
        """Redraw the status line (each screen knows its own)."""

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return self.vote_allowed() if action == "vote" else True

    def vote_allowed(self) -> bool:
        return self.table is not None and not self._opened and vote_offered(self.table)

    def action_vote(self) -> None:
        if self.vote_allowed():
            ask_vote(self)

    def action_back(self) -> None:
        """Leave; a table that never reached its game screen is closed (it has no other owner)."""
        if self.table is not None and not self._opened:
            self.app.post_message(CloseTable(self.table))  # posted to the app: this screen goes
        self.app.pop_screen()
