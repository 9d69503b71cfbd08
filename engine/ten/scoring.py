"""Final scoring (ten.md §8): the longest run per colour, wilds placed to maximise the total.

The search follows the rules' reference method: per colour choose an interval (or none); the
numbers of the interval not held as number cards are gaps; all gaps together must be filled by
distinct wilds, each allowed where it goes (a bipartite matching). Only intervals that cannot
grow for free (their neighbours are not held) are tried, and branch-and-bound over the four
colours keeps the search small. Totals are cached by (held numbers, wilds held) because bots
ask for the same collections many times.

Numbers are kept as bit masks: bit n set = number n (1..9) is held in that colour.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from .cards import (
    CARD_TYPES,
    CELL,
    COLOUR_INDEX,
    COLOUR_WILD,
    COLOURS,
    FULL_RUN_POINTS,
    IS_WILD,
    NUMBER_WILD,
    NUMBERS,
    RAINBOW_WILD,
    TYPE_OF,
)

N_COLOURS = len(COLOURS)


def _bit(n: int) -> int:
    return 1 << n


def _span(low: int, high: int) -> int:
    return ((1 << (high + 1)) - 1) ^ ((1 << low) - 1)


_FULL_RUN = len(NUMBERS)


def run_points(length: int) -> int:
    """Points of a run: 1 per card, the complete run 1-9 scores FULL_RUN_POINTS."""
    return FULL_RUN_POINTS if length == _FULL_RUN else length


def longest_run(mask: int) -> tuple[int, int]:
    """(low, high) of the longest run in a mask, the lower one on a tie; (0, 0) if empty."""
    best = (0, 0)
    best_len = 0
    start = 0
    for n in (*NUMBERS, 10):
        if n <= 9 and mask >> n & 1:
            if not start:
                start = n
        elif start:
            if n - start > best_len:
                best_len = n - start
                best = (start, n - 1)
            start = 0
    return best


def _points_of_mask(mask: int) -> int:
    low, high = longest_run(mask)
    return run_points(high - low + 1) if low else 0


_MASK_POINTS = tuple(_points_of_mask(mask) for mask in range(1 << (max(NUMBERS) + 1)))
"""mask_points of every mask of numbers (bit n = number n), computed once."""


def mask_points(mask: int) -> int:
    """Points of the longest run in a mask of numbers."""
    return _MASK_POINTS[mask]


# ---- the pool of wilds ------------------------------------------------------------------
# A pool is (colour wilds per colour, numbered wilds as a mask, rainbow wilds): what matters
# for the best total, whatever the physical ids.
Pool = tuple[tuple[int, ...], int, int]


def _pool_size(pool: Pool) -> int:
    colour_wilds, numbered, rainbow = pool
    return sum(colour_wilds) + numbered.bit_count() + rainbow


@lru_cache(maxsize=1 << 14)
def _spanned_candidates(mask: int, wilds: int) -> tuple[tuple[int, int, int, int], ...]:
    """(points, gap mask, span, number of gaps) of the intervals worth trying in one colour,
    best points first; the span (a mask of the numbers low..high, 0 for none) is the first
    interval found with those points and gaps.

    An interval whose neighbour is held grows for free, so only intervals with both
    neighbours missing (or at 1 / 9) are tried; an interval is dropped when another one has at
    least its points with a subset of its gaps. Those of `_all_candidates` with at most `wilds`
    gaps: an interval that drops another has fewer gaps, so the ones kept are the same.
    """
    return tuple([kept for kept in _all_candidates(mask) if kept[3] <= wilds])


@lru_cache(maxsize=1 << 10)
def _all_candidates(mask: int) -> tuple[tuple[int, int, int, int], ...]:
    """`_spanned_candidates` with wilds enough for any gaps."""
    found: dict[int, tuple[int, int]] = {0: (0, 0)}
    for low in NUMBERS:
        if low > 1 and mask >> (low - 1) & 1:
            continue
        for high in range(low, 10):
            if high < 9 and mask >> (high + 1) & 1:
                continue
            span = _span(low, high)
            gaps = span & ~mask
            points = run_points(high - low + 1)
            if found.get(gaps, (-1, 0))[0] < points:
                found[gaps] = (points, span)
    # best points first, then fewest gaps, then in the order found (the index: a stable sort)
    ranked = sorted([(-p, g.bit_count(), i, p, g, s) for i, (g, (p, s)) in enumerate(found.items())])
    # every interval kept before has at least these points: one is dropped when the gaps of
    # one kept before are a subset of its gaps
    kept: list[tuple[int, int, int, int]] = []
    kept_gaps: list[int] = []
    for _, n_gaps, _, points, gaps, span in ranked:
        for other in kept_gaps:
            if other & gaps == other:
                break
        else:
            kept.append((points, gaps, span, n_gaps))
            kept_gaps.append(gaps)
    return tuple(kept)


@lru_cache(maxsize=1 << 14)
def _candidates(mask: int, wilds: int) -> tuple[tuple[int, int], ...]:
    """(points, gap mask) of `_spanned_candidates`, in its order."""
    return tuple((points, gaps) for points, gaps, _, _ in _spanned_candidates(mask, wilds))


def _coverable(needs: list[int], usable: list[int], rainbow: int) -> bool:
    """Can the shared wilds fill what the colour wilds leave open?

    Colour c still needs needs[c] gaps filled by numbered wilds whose number is one of its gaps
    (usable[c], a mask of the numbered wilds held) or by the rainbow. That is a matching of
    colours (capacity needs[c]) to numbered wilds; by Hall's theorem with deficiency it leaves
    max over colour sets S of (needs of S - numbered wilds usable by S) gaps, which the
    rainbow wilds must cover.
    """
    n = len(needs)
    for subset in range(1, 1 << n):
        need = 0
        numbers = 0
        for c in range(n):
            if subset >> c & 1:
                need += needs[c]
                numbers |= usable[c]
        if need - numbers.bit_count() > rainbow:
            return False
    return True


_ONE: dict[tuple, tuple] = {}
_ONE_MAX = 1 << 13


def _one(value: tuple) -> tuple:
    """One copy of each such value: the colour caches hold thousands of the same few rows,
    and each object cached is one more for the garbage collector to visit. Bounded."""
    if len(_ONE) >= _ONE_MAX:
        _ONE.clear()
    return _ONE.setdefault(value, value)


@lru_cache(maxsize=1 << 14)
def _colour_options(
    mask: int, own: int, shared: int, numbered: int
) -> tuple[tuple[tuple[int, int, int, int], ...], tuple[int, ...], int, tuple[tuple[int, int], ...]]:
    """One colour's intervals as (points, need, numbered wilds usable, span) best points first,
    the best points for each total need 0..shared, the span of the best needing none, and the
    (need, points) steps of the best points by need. Cached apart from the whole collection: a
    bot prices a collection without each of its cards in turn, and the other colours stay."""
    rainbow = shared - numbered.bit_count()
    found = []
    # by_need[k] is the points of the first interval needing at most k (best points first);
    # the empty interval needs nothing, so every k has one
    by_need = [0] * (shared + 1)
    reach = shared + 1
    steps: list[tuple[int, int]] = []  # (need, points) where by_need rises, the highest first
    for points, gaps, span, n_gaps in _spanned_candidates(mask, own + shared):
        need = n_gaps - own
        if need <= 0:  # the best needing no shared wild: every later one has no more points
            # and would take shared wilds this one leaves, so no best total needs them
            found.append((points, 0, gaps & numbered, span))
            by_need[0:reach] = [points] * reach
            steps.append((0, points))
            return _one(tuple(found)), _one(tuple(by_need)), span, _one(tuple(steps))
        numbers = gaps & numbered
        # an interval whose gaps this colour cannot fill even with every shared wild
        # (fewer usable numbered wilds and rainbows than it needs) is never part of a total
        if need > numbers.bit_count() + rainbow:
            continue
        found.append((points, need, numbers, span))
        if need < reach:
            by_need[need:reach] = [points] * (reach - need)
            reach = need
            steps.append((need, points))
    raise AssertionError("the empty interval needs no wild")  # pragma: no cover


@lru_cache(maxsize=1 << 14)
def _coverable_cached(needs: tuple[int, ...], usable: tuple[int, ...], rainbow: int) -> bool:
    return _coverable(list(needs), list(usable), rainbow)


def with_colour(after: list[int], steps: tuple[tuple[int, int], ...]) -> list[int]:
    """The knapsack row of one more colour: for each k shared wilds, the most points of that
    colour (its best for a need, `steps` as `_colour_options` gives them: (need, points) where
    its best rises, the need 0 last) and the colours of `after` together."""
    alone = steps[-1][1]
    row = [alone + a for a in after]
    width = len(after)
    for need, points in steps:
        if not need:
            break
        for k in range(need, width):
            total = points + after[k - need]
            if total > row[k]:
                row[k] = total
    return row


def _bounds(per_colour: list, shared: int) -> list[list[int]]:
    """bound[c][k]: the most points colours c.. can make with k shared wilds, each colour
    using its best for its own need (a knapsack that ignores which numbers); bound[0] only
    for k = shared, the only one read. A colour's best points rise with its need only at its
    steps, so only those are tried (the rows after it rise with k too)."""
    after = list(per_colour[-1][1])  # the last colour alone: its best for each need
    bound = [[0] * (shared + 1), after]
    for c in range(N_COLOURS - 2, 0, -1):
        after = with_colour(after, per_colour[c][3])
        bound.append(after)
    top = max([p + after[shared - n] for n, p in per_colour[0][3]])
    bound.append([0] * shared + [top])
    bound.reverse()
    return bound


def best_total(masks: tuple[int, ...], pool: Pool) -> int:
    """The highest total reachable with these held numbers per colour and these wilds."""
    return best_runs(masks, pool)[0]


def _longest_span(mask: int) -> int:
    low, high = longest_run(mask)
    return _span(low, high) if low else 0


Spans = tuple[int, ...]
"""Per colour, the numbers (a mask) of the interval a best assignment scores; 0 for none."""


@lru_cache(maxsize=1 << 14)
def best_runs(masks: tuple[int, ...], pool: Pool) -> tuple[int, Spans]:
    """`best_total` and the intervals of one assignment that reaches it. A number held outside
    its colour's interval can go without lowering the total (the same assignment still holds).

    Branch and bound over the colours. A colour's own colour wilds fill any of its gaps; what
    they leave open (its "need") is filled by the shared wilds (numbered, rainbow). The bound
    is a knapsack of the best points per colour for each total need, ignoring which numbers.
    """
    colour_wilds, numbered, rainbow = pool
    shared = numbered.bit_count() + rainbow
    if shared + sum(colour_wilds) == 0:
        return sum(map(_MASK_POINTS.__getitem__, masks)), tuple(map(_longest_span, masks))
    per_colour = [_colour_options(mask, colour_wilds[c], shared, numbered) for c, mask in enumerate(masks)]
    best = sum([row[0] for _, row, _, _ in per_colour])
    # each colour on its own: its first interval that needs no shared wild has its best points
    alone = tuple([span for _, _, span, _ in per_colour])
    if shared == 0:  # nothing shared to place: each colour takes its best on its own
        return best, alone
    options = [found for found, _, _, _ in per_colour]
    bound = _bounds(per_colour, shared)
    if bound[0][shared] <= best:  # the colours' best on their own reach the bound already
        return best, alone
    return _search(options, bound, shared, rainbow, best, alone)


def _fits(subs: list[tuple[int, int]], need: int, numbers: int, rainbow: int) -> bool:
    """Can one more colour needing `need` shared wilds, `numbers` of them usable numbered
    wilds, join colours whose subsets have the (needs, usable numbers) `subs` (the empty one
    first)? Hall's condition as in `_coverable`, checked only for the subsets with the new
    colour (the others held before it joined; colours needing none never break it)."""
    for n, u in subs:
        if n + need - (u | numbers).bit_count() > rainbow:
            return False
    return True


def _search(
    options: list, bound: list[list[int]], shared: int, rainbow: int, best: int, spans: Spans
) -> tuple[int, Spans]:
    """Branch and bound from the best (`best`, `spans`) found so far: the colours one loop
    each, in the order and with the cuts of a depth-first search over the colours' intervals
    (best points first), so it finds the same total and intervals."""
    if N_COLOURS != 4:
        return _search_any(options, bound, shared, rainbow, best, spans)
    o0, o1, o2, o3 = options
    b1, b2, b3 = bound[1], bound[2], bound[3]
    s0: list[tuple[int, int]] = [(0, 0)]  # the (needs, usable numbers) of the subsets so far
    for p0, n0, u0, x0 in o0:
        if p0 + b1[shared] <= best:
            break  # sorted by points: nothing later in this colour can do better
        l0 = shared - n0
        if l0 < 0 or p0 + b1[l0] <= best:
            continue
        if n0:
            if n0 - u0.bit_count() > rainbow:  # `_fits` with only the empty subset before it
                continue
            s1 = [(0, 0), (n0, u0)]
        else:
            s1 = s0
        for p1, n1, u1, x1 in o1:
            q1 = p0 + p1
            if q1 + b2[l0] <= best:
                break
            l1 = l0 - n1
            if l1 < 0 or q1 + b2[l1] <= best:
                continue
            if n1:
                if not _fits(s1, n1, u1, rainbow):
                    continue
                s2 = s1 + [(n + n1, u | u1) for n, u in s1]
            else:
                s2 = s1
            for p2, n2, u2, x2 in o2:
                q2 = q1 + p2
                if q2 + b3[l1] <= best:
                    break
                l2 = l1 - n2
                if l2 < 0 or q2 + b3[l2] <= best:
                    continue
                if n2:
                    if not _fits(s2, n2, u2, rainbow):
                        continue
                    s3 = s2 + [(n + n2, u | u2) for n, u in s2]
                else:
                    s3 = s2
                for p3, n3, u3, x3 in o3:
                    q3 = q2 + p3
                    if q3 <= best:
                        break
                    if n3 > l2 or (n3 and not _fits(s3, n3, u3, rainbow)):
                        continue
                    best, spans = q3, (x0, x1, x2, x3)
                    break  # later intervals of the last colour have no more points
    return best, spans


def _search_any(
    options: list, bound: list[list[int]], shared: int, rainbow: int, best: int, spans: Spans
) -> tuple[int, Spans]:
    """`_search` for any number of colours."""
    needs: tuple[int, ...] = ()
    usable: tuple[int, ...] = ()
    chosen: Spans = ()

    def search(c: int, points: int, used: int) -> None:
        nonlocal best, spans, needs, usable, chosen
        if c == N_COLOURS:
            if points > best:
                best, spans = points, chosen
            return
        left = shared - used
        after = bound[c + 1]
        outer_needs, outer_usable, outer_chosen = needs, usable, chosen
        for p, need, numbers, span in options[c]:
            if points + p + after[left] <= best:
                break  # sorted by points: nothing later in this colour can do better
            if need > left or points + p + after[left - need] <= best:
                continue
            needs, usable = outer_needs + (need,), outer_usable + (numbers,)
            chosen = outer_chosen + (span,)
            if not need or _coverable_cached(needs, usable, rainbow):
                search(c + 1, points + p, used + need)
        needs, usable, chosen = outer_needs, outer_usable, outer_chosen

    search(0, 0, 0)
    return best, spans


# ---- collections ------------------------------------------------------------------------
def _split(cards: Sequence[str]) -> tuple[list[int], list[str]]:
    masks = [0] * N_COLOURS
    wilds = []
    for card in cards:
        if card in CELL:
            c, n = CELL[card]
            masks[c] |= _bit(n)
        elif card in IS_WILD:
            wilds.append(card)
    return masks, wilds


def pool_of(wilds: Sequence[str]) -> Pool:
    colour_wilds = [0] * N_COLOURS
    numbered = rainbow = 0
    for card in wilds:
        t = CARD_TYPES[TYPE_OF[card]]
        if t.kind == COLOUR_WILD:
            colour_wilds[COLOUR_INDEX[t.colour]] += 1
        elif t.kind == NUMBER_WILD:
            numbered |= _bit(t.number)
        elif t.kind == RAINBOW_WILD:
            rainbow += 1
    return tuple(colour_wilds), numbered, rainbow


def _role(card: str) -> tuple[int, int, int]:
    """(kind, colour index, bit) of a collection card: 0 a number card (its colour and number
    bit), 1 a colour wild (its colour), 2 a numbered wild (its number bit), 3 a rainbow wild."""
    if card in CELL:
        c, n = CELL[card]
        return 0, c, _bit(n)
    t = CARD_TYPES[TYPE_OF[card]]
    if t.kind == COLOUR_WILD:
        return 1, COLOUR_INDEX[t.colour], 0
    if t.kind == NUMBER_WILD:
        return 2, 0, _bit(t.number)
    return 3, 0, 0


_ROLE = {card: _role(card) for card in TYPE_OF if card in CELL or card in IS_WILD}


@lru_cache(maxsize=1 << 14)
def masks_and_pool(cards: tuple[str, ...]) -> tuple[tuple[int, ...], Pool]:
    """A collection's held numbers per colour (bit masks) and its pool of wilds, in one pass:
    what `_split` and `pool_of` give (other cards are ignored). Cached: a tuple of cards."""
    return with_cards(_NO_MASKS, _NO_POOL, cards)


_NO_MASKS: tuple[int, ...] = (0,) * N_COLOURS
_NO_POOL: Pool = ((0,) * N_COLOURS, 0, 0)


def with_cards(masks: tuple[int, ...], pool: Pool, cards: Sequence[str]) -> tuple[tuple[int, ...], Pool]:
    """`masks_and_pool` of a collection with these cards as well (other cards are ignored)."""
    masks = list(masks)
    colour_wilds, numbered, rainbow = pool
    colour_wilds = list(colour_wilds)
    role = _ROLE.get
    for card in cards:
        r = role(card)
        if r is None:
            continue
        kind, c, bit = r
        if kind == 0:
            masks[c] |= bit
        elif kind == 1:
            colour_wilds[c] += 1
        elif kind == 2:
            numbered |= bit
        else:
            rainbow += 1
    return tuple(masks), (tuple(colour_wilds), numbered, rainbow)


def collection_total(cards: Sequence[str]) -> int:
    """The score of a collection (physical card ids) with the best wild assignment."""
    masks, pool = masks_and_pool(tuple(cards))
    return best_total(masks, pool)  # read from the module: bench/ten_bots.py swaps it


def collection_runs(cards: Sequence[str]) -> tuple[int, Spans]:
    """`collection_total` and, per colour, the numbers of the interval it scores (`best_runs`)."""
    return best_runs(*masks_and_pool(tuple(cards)))


__all__ = [
    "best_runs", "best_total", "collection_runs", "collection_total", "longest_run", "mask_points",
    "masks_and_pool", "pool_of", "run_points", "with_cards", "with_colour",
]
