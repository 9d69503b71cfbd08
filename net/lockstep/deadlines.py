"""Deadlines: every wait on a seat has one, measured on this peer's own clock.

The host fixes them in the table settings (the `start` message carries them, so every peer
and every resume uses the same numbers): seconds to act, seconds to reveal (or open), and the
grace a seat may stay offline. When a deadline passes, or a seat is proven to cheat, this peer
may vote (vote.py). A deadline only lets the others *ask*: nothing is decided by a clock, and
no peer's clock decides for another peer; the vote does.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .context import Context
from .outputs import VOTING

if TYPE_CHECKING:
    from .proofs import Proofs
    from .steps import Steps

DEFAULTS = {"act": 120, "reveal": 30, "grace": 60}
LIMITS = (5, 24 * 3600)  # a setting outside this range is read as the default


def table_settings(settings: dict[str, Any] | None = None) -> dict[str, Any]:
    """The settings a host announces: deadlines in whole seconds (defaults filled in)."""
    out: dict[str, Any] = dict(DEFAULTS)
    for name, value in (settings or {}).items():
        out[name] = value
    return out


class Deadlines:
    """When the wait in progress started, and what it allows now."""

    def __init__(self, ctx: Context, steps: Steps, proofs: Proofs, offline: set[int]) -> None:
        self.ctx = ctx
        self.steps = steps
        self.proofs = proofs
        self.offline = offline  # seats whose presence says offline (social.py keeps it)
        self.mark: tuple[Any, ...] | None = None
        self.since = ctx.clock()
        self.offline_since: dict[int, float] = {}

    def seconds(self, name: str) -> int:
        value = self.ctx.settings.get(name, DEFAULTS[name])
        ok = isinstance(value, int) and not isinstance(value, bool) and LIMITS[0] <= value <= LIMITS[1]
        return value if ok else DEFAULTS[name]

    def follow(self) -> None:
        """Start a new deadline when the awaited seats (or the step) change."""
        ctx = self.ctx
        now = ctx.clock()
        mark = (ctx.phase, ctx.step, ctx.awaited())
        if mark != self.mark:
            self.mark, self.since = mark, now
        for seat in list(self.offline_since):
            if seat not in self.offline:
                del self.offline_since[seat]
        for seat in self.offline:
            self.offline_since.setdefault(seat, now)

    def restart(self) -> None:
        """The table voted to keep waiting: every deadline starts again."""
        now = self.ctx.clock()
        self.since = now
        self.offline_since = dict.fromkeys(self.offline_since, now)

    def limit(self) -> int:
        """Seconds for the wait in progress: to reveal, or to act."""
        steps, r = self.steps, self.steps.round
        if self.ctx.phase in ("seed", "ending") or steps.dealing.busy():  # seed shares, deck passes, keys
            return self.seconds("reveal")  # they go out by themselves: nobody thinks
        mode = steps.step_mode()
        revealing = mode == "commit" and all(s in r.commits for s in steps.active())
        return self.seconds("reveal" if revealing else "act")

    def left(self) -> float | None:
        """Seconds before the seats awaited now are late (None when nobody is awaited)."""
        self.follow()
        if self.ctx.phase not in VOTING or not self.ctx.awaited():
            return None
        return self.limit() - (self.ctx.clock() - self.since)

    def reason(self, own: frozenset[int]) -> tuple[tuple[int, ...], str] | None:
        """(seats, cause) a vote may be about now, as this peer sees it; None if none.

        cause: "proof" (a proven fault), "late" (awaited past the deadline), "offline" (offline
        past the grace). `own` are the seats this peer plays: it never votes about them.
        """
        ctx = self.ctx
        self.follow()
        if ctx.phase not in VOTING and ctx.phase != "over":
            return None
        handed = set(ctx.signers)
        proven = tuple(sorted(s for s in self.proofs.proven if s not in own and s not in handed))
        if proven:
            return proven, "proof"
        now = ctx.clock()
        late = tuple(sorted(ctx.awaited() - own - handed))
        if late and now - self.since >= self.limit():
            return late, "late"
        grace = self.seconds("grace")
        gone = tuple(sorted(s for s, t in self.offline_since.items()
                            if now - t >= grace and s not in own and s not in handed))
        if gone:
            return gone, "offline"
        return None
