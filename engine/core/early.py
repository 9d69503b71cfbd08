"""A result for a game the table ended before its end: scored as it stood, marked as such.

The mark is a breakdown row worth 0 points (so every score still equals the sum of its rows);
seats named `last` (a seat that stalled or cheated) are placed after every other seat.
"""

from __future__ import annotations

from collections.abc import Iterable

from .game import Result, Seat

ENDED_EARLY = "ended early"


def ended_early(result: Result, last: Iterable[Seat] = (), why: str = "") -> Result:
    """`result` with the "ended early" row (saying `why`) and the `last` seats ranked below
    all others."""
    last = frozenset(last)
    label = f"{ENDED_EARLY}: {why}" if why else ENDED_EARLY
    breakdown = tuple(rows + ((label, 0),) for rows in result.breakdown)
    keys = [(seat not in last, result.scores[seat], result.tiebreak[seat] if result.tiebreak else 0)
            for seat in range(len(result.scores))]
    places = tuple(1 + sum(1 for other in keys if other > key) for key in keys)
    return Result(
        scores=result.scores, breakdown=breakdown, places=places,
        winners=tuple(seat for seat, place in enumerate(places) if place == 1),
        tiebreak=result.tiebreak,
    )


def early_reason(result: Result) -> str | None:
    """None for a game played to its end; otherwise why it ended early ("" if unsaid)."""
    for rows in result.breakdown:
        if rows and rows[-1][0].startswith(ENDED_EARLY):
            return rows[-1][0][len(ENDED_EARLY) + 2:]
    return None


def is_ended_early(result: Result) -> bool:
    return early_reason(result) is not None
