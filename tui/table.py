"""The table: what a game screen talks to, hiding whether play is local or networked.

A screen reads only `view(seat)` and `legal_actions(seat)` and sends actions with `submit`.
`LocalTable` (tui/local_table.py) runs the engine with local bots and saves after every step;
`NetTable` (tui/net_table.py) drives a lockstep peer over MQTT. Same screen, same code.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.core import Action, ActionSpace, Game, Result, Seat, View


@dataclass(frozen=True)
class TableEvent:
    """Something the screen should redraw for.

    kind: "changed" (a step was applied), "waiting" (who is awaited changed), "chat",
    "presence" (a seat went on- or offline), "error" (text for the player), "desync",
    "over" (the game ended).
    """

    kind: str
    text: str = ""
    data: dict[str, Any] = field(default_factory=dict)


Listener = Callable[[TableEvent], None]


class Table(ABC):
    """One game in progress as seen from this terminal."""

    game: Game
    names: list[str]
    local_seats: tuple[Seat, ...]
    """Seats played by humans at this terminal (several = hot seat; none = spectator)."""
    leave_warning: str = ""
    """What leaving costs the others (e.g. the host's embedded broker stops), said on leaving."""

    def __init__(self) -> None:
        self._listeners: list[Listener] = []
        self.log_lines: list[str] = []

    # ---- reading -----------------------------------------------------------------------
    @property
    def n_players(self) -> int:
        return len(self.names)

    @abstractmethod
    def view(self, seat: Seat | None) -> View: ...

    @abstractmethod
    def legal_actions(self, seat: Seat) -> Sequence[Action] | ActionSpace: ...

    @abstractmethod
    def active(self) -> frozenset[Seat]: ...

    def awaiting(self) -> frozenset[Seat]:
        """Active seats whose action has not arrived yet (shown as "waiting for ...")."""
        return self.active()

    @abstractmethod
    def is_over(self) -> bool: ...

    @abstractmethod
    def result(self) -> Result: ...

    def offline(self) -> frozenset[Seat]:
        return frozenset()

    # ---- acting ------------------------------------------------------------------------
    @abstractmethod
    async def submit(self, seat: Seat, action: Action) -> None:
        """Send a local seat's action; raises IllegalAction with a readable reason."""

    async def chat(self, text: str) -> None:
        """Send a chat line (networked tables); local tables just log it."""
        self.emit(TableEvent("chat", text))

    async def start(self) -> None:  # noqa: B027 - optional hook, empty by design
        """Begin play (run bots whose turn it is, connect, ...)."""

    async def close(self) -> None:  # noqa: B027 - optional hook, empty by design
        """Stop cleanly (disconnect, flush the save)."""

    # ---- events ------------------------------------------------------------------------
    def subscribe(self, listener: Listener) -> None:
        self._listeners.append(listener)

    def emit(self, event: TableEvent) -> None:
        if event.kind in ("changed", "chat", "error", "desync", "over", "presence") and event.text:
            self.log_lines.append(event.text)
        for listener in list(self._listeners):
            listener(event)
