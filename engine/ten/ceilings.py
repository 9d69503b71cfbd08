"""Ceilings on what a card adds to or takes from a collection's best total (Ten's bot decides
without a search when its decision holds up to them): the knapsack bound of `best_runs`
without its search, and a number card's most possible gain. Each is never under the real
figure (tests/engine/ten/test_scoring.py, test_bot.py)."""

from __future__ import annotations

from functools import lru_cache

from .cards import NUMBERS
from .scoring import (
    _MASK_POINTS,
    Pool,
    _bit,
    _bounds,
    _colour_options,
    _span,
    run_points,
    with_colour,
)


def ceiling_with(masks: tuple[int, ...], pool: Pool, colour: int, mask: int, own: int) -> int:
    """A ceiling on `best_total` of these masks and pool with `colour` holding `mask` and `own`
    colour wilds instead: the knapsack bound of `best_runs`, without its search. The knapsack
    does not depend on the colours' order, so the other colours' part is shared by every
    change to this colour (`_others_knapsack`)."""
    colour_wilds, numbered, rainbow = pool
    shared = numbered.bit_count() + rainbow
    _, row, _, steps = _colour_options(mask, own, shared, numbered)
    after = _others_knapsack(masks, pool, colour)
    return max([p + after[shared - n] for n, p in steps])


@lru_cache(maxsize=1 << 12)
def _others_knapsack(masks: tuple[int, ...], pool: Pool, colour: int) -> tuple[int, ...]:
    """For k = 0..shared wilds, the most points the colours other than `colour` can make
    together, each with its best for its own need (read only)."""
    colour_wilds, numbered, rainbow = pool
    shared = numbered.bit_count() + rainbow
    after: list[int] | None = None
    for c, m in enumerate(masks):
        if c == colour:
            continue
        _, row, _, steps = _colour_options(m, colour_wilds[c], shared, numbered)
        after = list(row) if after is None else with_colour(after, steps)
    # a tuple: the cache holds thousands, and the collector stops tracking a tuple of ints
    return tuple(after) if after is not None else (0,) * (shared + 1)


@lru_cache(maxsize=1 << 12)
def ceiling_without_shared(masks: tuple[int, ...], pool: Pool) -> int:
    """A ceiling on `best_total` of these masks with one shared wild (numbered or rainbow) of
    the pool fewer, whichever: without it each colour's best points for a need are no higher
    (its intervals are fewer), and one fewer shared wild is there to share, so the knapsack
    bound with one wild less over the rows with every wild is above it."""
    colour_wilds, numbered, rainbow = pool
    shared = numbered.bit_count() + rainbow
    per_colour = [_colour_options(m, colour_wilds[c], shared, numbered) for c, m in enumerate(masks)]
    after = _bounds(per_colour, shared)[1]
    left = shared - 1
    return max([p + after[left - n] for n, p in per_colour[0][3] if n <= left])


_SPANS = tuple(tuple(_span(low, high) if low else 0 for high in range(10)) for low in range(10))
"""_SPANS[low][high]: the mask of the numbers low..high."""
_RUN_POINTS = (0, *(run_points(length) for length in NUMBERS))
"""_RUN_POINTS[length]: the points of a run of that length (0 for none)."""


@lru_cache(maxsize=1 << 14)
def number_gain_ceiling(mask: int, number: int, own: int, numbered: int, rainbow: int) -> int:
    """A ceiling on what a number card adds to `best_total`: `mask` the numbers held in its
    colour, `own` that colour's wilds, `numbered` and `rainbow` the shared wilds.

    In a best assignment with the card, its colour scores some interval; if the card is
    outside it, the same assignment holds without the card. If it is inside, dropping the card
    leaves the part below it or the part above it as a run (the same cards and wilds in
    place), or the colour's longest run of its numbers with no wild, so without the card the
    total is at most this interval's points less the best of those lower. The ceiling is the
    most that difference can be over the intervals through the card whose other gaps the
    wilds could fill (no more gaps than the colour's wilds, the rainbows and the numbered
    wilds of those gaps)."""
    free = ~(mask | numbered | _bit(number))  # spots only the colour's wilds or a rainbow fill
    wilds = own + rainbow
    points = _RUN_POINTS
    plain = _MASK_POINTS[mask & ~_bit(number)]  # the colour without its interval's wilds
    ceiling = 0
    for low in range(number, 0, -1):
        spans = _SPANS[low]
        if (spans[number] & free).bit_count() > wilds:
            break  # lower intervals only add gaps
        kept = max(points[number - low], plain)  # the part below the card, or no wild at all
        for high in range(number, 10):
            if (spans[high] & free).bit_count() > wilds:
                break  # gaps no numbered wild can fill, more than the wilds that fill any
            above = points[high - number]
            rise = points[high - low + 1] - (above if above > kept else kept)
            if rise > ceiling:
                ceiling = rise
    return ceiling
