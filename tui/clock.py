"""Table clocks: off, a limit per move, or a time bank with an increment per move (Fischer).

A clock belongs to the terminal that plays the seat: when a seat played here runs out of time,
this terminal plays that move for it (its heuristic bot) and says so, then waits for the
player again; a run-out in a later move before any key is pressed makes the seat away (a
network table tells the others, who may vote as for a leaver). Clocks of seats played
elsewhere are only shown, never acted on: no terminal's clock
decides for another terminal's seat.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from engine.core import Seat

MAX_SECONDS = 24 * 3600


class ClockError(ValueError):
    """A clock setting that does not parse; the message is one line for the player."""


@dataclass(frozen=True)
class ClockSpec:
    """`kind` is "off", "move" (`seconds` per move) or "bank" (`seconds` in all, `increment` per move)."""

    kind: str = "off"
    seconds: int = 0
    increment: int = 0

    @property
    def on(self) -> bool:
        return self.kind != "off"

    def __str__(self) -> str:
        """The setting as `parse` reads it: off, move:30, bank:600+5."""
        if self.kind == "move":
            return f"move:{self.seconds}"
        if self.kind == "bank":
            return f"bank:{self.seconds}+{self.increment}"
        return "off"

    def describe(self) -> str:
        """The setting for people: "30 s a move", "10 min + 5 s a move"."""
        if self.kind == "move":
            return f"{clock_text(self.seconds)} a move"
        if self.kind == "bank":
            return f"{clock_text(self.seconds)} + {self.increment} s a move"
        return "no clock"

    @staticmethod
    def parse(text: str) -> ClockSpec:
        """Read "off", "move:30" (seconds a move) or "bank:600+5" (a bank of seconds + increment).

        A number may carry a unit: "move:1m", "bank:10m+5s".
        """
        raw = text.strip().lower()
        if raw in ("", "off", "none", "no"):
            return ClockSpec()
        kind, _, rest = raw.partition(":")
        if kind == "move":
            return ClockSpec("move", _seconds(rest, text), 0)
        if kind == "bank":
            bank, _, increment = rest.partition("+")
            return ClockSpec("bank", _seconds(bank, text), _seconds(increment or "0", text, allow_zero=True))
        raise ClockError(f"clock {text!r}: use off, move:SECONDS or bank:SECONDS+INCREMENT (e.g. bank:10m+5s)")


NO_CLOCK = ClockSpec()


def _seconds(part: str, text: str, allow_zero: bool = False) -> int:
    match = re.fullmatch(r"\s*(\d+)\s*(s|m|min|h)?\s*", part)
    if match is None:
        raise ClockError(f"clock {text!r}: {part.strip() or 'a number'!r} is not a time (e.g. 30, 90s, 5m)")
    value = int(match.group(1)) * {"s": 1, "m": 60, "min": 60, "h": 3600}.get(match.group(2) or "s", 1)
    if value > MAX_SECONDS or (value == 0 and not allow_zero):
        raise ClockError(f"clock {text!r}: times go from 1 s to 24 h")
    return value


def clock_text(seconds: float) -> str:
    """1:05 for a clock on screen, 0:07 near the end; whole hours as 1:00:00."""
    whole = max(0, int(seconds + 0.999))
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


class SeatClocks:
    """Every seat's clock as this terminal sees it. `now` is injected (monotonic seconds)."""

    def __init__(self, spec: ClockSpec, n_players: int, now: Callable[[], float] = time.monotonic) -> None:
        self.spec = spec
        self._now = now
        self.bank = [float(spec.seconds)] * n_players
        self.running: dict[Seat, float] = {}
        """Seat -> when its current move started."""
        self._granted: dict[Seat, float] = {}
        self.move: int | None = None
        """The table's step count the running clocks were started in."""

    def follow(self, awaited: Iterable[Seat], move: int | None = None) -> None:
        """Start the clocks of newly awaited seats and stop (with increment) the others; a new
        `move` (the table's step count) is a new move for every seat still awaited."""
        if not self.spec.on:
            return
        awaited = set(awaited)
        now = self._now()
        if move is not None and move != self.move:
            self.move = move
            awaited_before = set(self.running)
        else:
            awaited_before = set(self.running) - awaited
        for seat in sorted(awaited_before):
            self._stop(seat, now)
        for seat in sorted(awaited - set(self.running)):
            self.running[seat] = now

    def grant(self, seat: Seat, seconds: float) -> None:
        """A bank clock holds at least `seconds` once this seat's move ends (a move clock
        starts every move full anyway)."""
        self._granted[seat] = seconds

    def restart(self, seat: Seat, grace: float) -> None:
        """A player back at a running clock that had run out: a move clock starts the move
        again, a bank holds at least `grace` seconds from now."""
        if seat not in self.running:
            return
        if self.spec.kind == "bank":
            self.bank[seat] = max(self.left(seat) or 0.0, grace)
        self.running[seat] = self._now()

    def _stop(self, seat: Seat, now: float) -> None:
        started = self.running.pop(seat)
        if self.spec.kind == "bank":
            left = max(0.0, self.bank[seat] - (now - started)) + self.spec.increment
            self.bank[seat] = max(left, self._granted.pop(seat, 0.0))

    def left(self, seat: Seat) -> float | None:
        """Seconds this seat has left now (None without a clock)."""
        if not self.spec.on:
            return None
        started = self.running.get(seat)
        if self.spec.kind == "move":
            return float(self.spec.seconds) - (self._now() - started if started is not None else 0.0)
        return self.bank[seat] - (self._now() - started if started is not None else 0.0)

    def expired(self, seat: Seat) -> bool:
        left = self.left(seat)
        return seat in self.running and left is not None and left <= 0
