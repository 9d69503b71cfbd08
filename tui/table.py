"""The table: what a game screen talks to, hiding whether play is local or networked.

A screen reads only `view(seat)` and `legal_actions(seat)` and sends actions with `submit`.
`LocalTable` (tui/local_table.py) runs the engine with local bots and saves after every step;
`NetTable` (tui/net_table.py) drives a lockstep peer over MQTT. Same screen, same code.
"""

from __future__ import annotations

import asyncio
import logging
import os
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine.bots import make_bot
from engine.core import Action, ActionSpace, Game, GameError, Result, Seat, Stream, View

from .clock import ClockSpec, SeatClocks, clock_text

log = logging.getLogger(__name__)
RUN_OUT_GRACE = 30.0
"""Seconds a bank clock holds at least after the bot played a move for its seat: a spent bank
(no increment) would otherwise make the very next move a second run-out."""
CLOCK_POLL = 0.2
"""Seconds between two looks at the clocks of the seats played here."""


@dataclass(frozen=True)
class TableEvent:
    """Something the screen should redraw for.

    kind: "changed" (a step was applied), "waiting" (who is awaited changed), "chat",
    "presence" (a seat went on- or offline), "error" (text for the player), "notice" (news
    for the player that is no error, e.g. a clock ran out), "desync", "over" (the game ended).
    """

    kind: str
    text: str = ""
    data: dict[str, Any] = field(default_factory=dict)
    lines: tuple[str, ...] = ()
    """A step's log lines, all in one event (one redraw a step); `text` is then the last."""

    @property
    def log(self) -> tuple[str, ...]:
        """The lines this event adds to the game log."""
        return self.lines or ((self.text,) if self.text else ())


Listener = Callable[[TableEvent], None]


def deal_text(dealt: bool, verdict: str | None) -> str:
    """The end screen's line on a network deal: what the end audit says ("" for a game whose
    cards no protocol dealt)."""
    if not dealt:
        return ""
    if verdict is None:
        return "Deal: the end audit is replaying every shuffle…"
    if verdict == "verified":
        return "Deal: verified — every shuffle and key replayed at the end"
    return f"Deal: {verdict}"


@dataclass(frozen=True)
class TableSupports:
    """What a table offers beyond playing its seats. A screen asks this declared question
    instead of probing the table's type or its attributes; the methods behind each answer
    exist on every table (the base answers "nothing")."""

    chat: bool = False
    """A chat with the other terminals (`chat`, `chat_lines`)."""
    vote: bool = False
    """The table may vote on a late, gone or cheating seat (`vote_options`, `vote`)."""
    hand_over: bool = False
    """Leaving may hand this terminal's seat to another terminal's bot (`hand_over`)."""
    timed_waits: bool = False
    """Waits on other terminals are timed (`waiting_for`, `deadline_text`)."""
    actions: bool = True
    """Seats here may act (False: a replay, which only shows)."""
    rematch: bool = False
    """A new deal for the same players and options can start from the end (`rematch`)."""


class Table(ABC):
    """One game in progress as seen from this terminal."""

    supports: TableSupports = TableSupports()
    game: Game
    names: list[str]
    local_seats: tuple[Seat, ...]
    """Seats played by humans at this terminal (several = hot seat; none = spectator)."""
    leave_warning: str = ""
    """What leaving costs the others (e.g. the host's embedded broker stops), said on leaving."""
    invite: str = ""
    """The code that lets others join this table ("" for a table nobody joins)."""
    save_path: Path | None = None
    """Where the game is saved after every step (None: not saved here)."""

    def __init__(self) -> None:
        self._listeners: list[Listener] = []
        self.log_lines: list[str] = []
        self.chat_lines: list[str] = []
        """The chat so far, for a chat panel opened late (tables that support chat)."""
        self.clocks: SeatClocks | None = None
        self.ran_out: dict[Seat, int | None] = {}
        """Local seats whose clock ran out, with the move it ran out in: this terminal's bot
        plays that one move; a run-out in a later move before a key is pressed is `away`."""
        self.away: set[Seat] = set()
        """Local seats whose clock ran out twice in a row: nobody plays them, the others may vote."""
        self._clock_task: asyncio.Task[None] | None = None

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

    def moves_made(self) -> int | None:
        """Steps played so far: each starts a new move on the clocks (None: not counted)."""
        return None

    @property
    def deal_line(self) -> str:
        """What the end screen says of the deal ("" when no protocol dealt the cards)."""
        return ""

    def waiting_for(self) -> tuple[list[str], float]:
        """Names awaited now and for how many seconds (timed only where `supports.timed_waits`)."""
        return [self.names[s] for s in sorted(self.awaiting()) if s < len(self.names)], 0.0

    def deadline_text(self) -> str:
        """" · vote in 1:48" or " · ^E: vote" on a table whose waits have deadlines ("" here)."""
        return ""

    # ---- the table's vote --------------------------------------------------------------
    def vote_options(self) -> dict[str, Any] | None:
        """What this terminal may vote about now ({"seats", "cause", "names", "voted"}), or None."""
        return None

    def vote(self, choice: str) -> None:
        """Vote "end", "abandon" or "wait"; ValueError with a line for the player otherwise."""
        raise ValueError("this table has no vote")

    def hand_over(self, bot: str = "best") -> None:
        """Leave for good, another terminal's bot playing this seat (ValueError if none can)."""
        raise ValueError("no other terminal can play this seat")

    def rematch(self) -> Any:
        """A new table: the same players in the same seats, the same options and clock, a new
        deal (ValueError where there is none to start). A network table answers with the
        screen that opens it (Host or Join), which closes this table once the new one is up."""
        raise ValueError("this table cannot start a rematch")

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

    # ---- clocks ------------------------------------------------------------------------
    def set_clock(self, spec: ClockSpec) -> None:
        self.clocks = SeatClocks(spec, self.n_players) if spec.on else None

    def clock_line(self) -> str:
        """Every seat's time left, for the side panel ("" without a clock)."""
        if self.clocks is None or self.is_over():
            return ""
        self.clocks.follow(self.awaiting(), self.moves_made())
        parts = []
        for seat, name in enumerate(self.names):
            left = self.clocks.left(seat)
            mark = "▶" if seat in self.clocks.running else " "
            state = " (away)" if seat in self.away else " (bot)" if seat in self.ran_out else ""
            parts.append(f"{mark}{name}{state} {clock_text(left or 0)}")
        return "⏱ " + self.clocks.spec.describe() + "\n" + "\n".join(parts)

    def start_clock_watch(self) -> None:
        """Watch the clocks of the seats played here (called by `start`)."""
        if self.clocks is not None and self._clock_task is None:
            self._clock_task = asyncio.get_running_loop().create_task(self._watch_clocks())

    async def stop_clock_watch(self) -> None:
        task, self._clock_task = self._clock_task, None
        if task is not None:
            task.cancel()
            await asyncio.gather(task, return_exceptions=True)

    async def _watch_clocks(self) -> None:
        while not self.is_over():
            await asyncio.sleep(CLOCK_POLL)
            for seat in self.due_for_autoplay():
                await self.out_of_time(seat)

    def due_for_autoplay(self) -> list[Seat]:
        """Local seats awaited now whose clock ran out (and that are not away already)."""
        if self.clocks is None:
            return []
        awaiting = self.awaiting()
        self.clocks.follow(awaiting, self.moves_made())
        return [seat for seat in self.local_seats
                if seat in awaiting and seat not in self.away and self.clocks.expired(seat)]

    async def out_of_time(self, seat: Seat) -> None:
        """`seat`'s clock ran out: the bot plays this move for it; if it had run out in an
        earlier move already (no key pressed since), the seat is away instead."""
        assert self.clocks is not None
        if seat in self.ran_out and self.ran_out[seat] != self.clocks.move:
            self.away.add(seat)
            name = self.names[seat]
            self.emit(TableEvent("notice", f"{name}'s clock ran out again: {name} is away and the table "
                                           f"waits (press any key to play on)"))
            self.went_away(seat)
            return
        await self.play_for(seat)

    async def play_for(self, seat: Seat) -> None:
        """This terminal's bot plays `seat`'s move: its clock ran out in this move."""
        bot = make_bot(self.game, seat, "best", Stream(os.urandom(16)))
        if seat not in self.ran_out:
            # Said before the move, so the log reads in the order it happened: the clock ran
            # out, then the bot's move (and a screen that shows the move shows why).
            assert self.clocks is not None
            self.ran_out[seat] = self.clocks.move
            self.clocks.grant(seat, RUN_OUT_GRACE)
            name = self.names[seat]
            self.emit(TableEvent("notice", f"{name}'s clock ran out: a bot plays this move for {name} "
                                           "(press any key to take the seat back)"))
        try:
            await self.submit(seat, bot.choose(self.view(seat), self.legal_actions(seat)))
        except GameError as exc:  # the step moved on meanwhile: nothing to do
            log.info("playing for seat %s was refused: %s", seat, exc)

    def went_away(self, seat: Seat) -> None:  # noqa: B027 - optional hook, empty by design
        """A local seat is away (a network table tells the others, who may then vote)."""

    def came_back(self, seats: set[Seat]) -> None:  # noqa: B027 - optional hook, empty by design
        """Local seats that were away are played again from this terminal."""

    def take_back(self) -> bool:
        """A key was pressed here: the bot stops playing this terminal's seats, and seats that
        were away are back. True if anything changed."""
        if not self.ran_out and not self.away:
            return False
        seats = set(self.ran_out) | self.away
        names = ", ".join(self.names[s] for s in sorted(seats))
        back = set(self.away)
        self.ran_out.clear()
        self.away.clear()
        if self.clocks is not None:
            for seat in seats:  # time to play the turn whose clock ran out
                self.clocks.restart(seat, RUN_OUT_GRACE)
        if back:
            self.came_back(back)
        self.emit(TableEvent("changed", f"{names} took the seat back"))
        return True

    # ---- events ------------------------------------------------------------------------
    def subscribe(self, listener: Listener) -> None:
        self._listeners.append(listener)

    def emit(self, event: TableEvent) -> None:
        if event.kind in ("changed", "chat", "error", "notice", "desync", "over", "presence"):
            self.log_lines.extend(event.log)
        for listener in list(self._listeners):
            listener(event)
