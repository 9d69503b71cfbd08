"""A result for a game the table ended before its end: scored as it stood, marked as such.

The mark is a breakdown row worth 0 points (so every score still equals the sum of its rows);
seats named `last` (a seat that stalled or cheated) are placed after every other seat.
"""

from __future__ import annotations

from collections.abc import Iterable

from .game import Result, Seat

ENDED_EARLY = "ended early"


def ended_early(result: Result, last: Iterable[Seat] = ()) -> Result:
    """`result` with the "ended early" row and the `last` seats ranked below all others."""
    last = frozenset(last)
    breakdown = tuple(rows + ((ENDED_EARLY, 0),) for rows in result.breakdown)
    keys = [(seat not in last, result.scores[seat], result.tiebreak[seat] if result.tiebreak else 0)
            for seat in range(len(result.scores))]
    places = tuple(1 + sum(1 for other in keys if other > key) for key in keys)
    return Result(
        scores=result.scores, breakdown=breakdown, places=places,
        winners=tuple(seat for seat, place in enumerate(places) if place == 1),
        tiebreak=result.tiebreak,
    )


def is_ended_early(result: Result) -> bool:
    return any(rows and rows[-1][0] == ENDED_EARLY for rows in result.breakdown)
