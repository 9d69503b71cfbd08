"""What Ten's heuristic bot reckons a collection worth, a card's loss and gain, and a payment's
cost (engine/bots/ten.py decides with them), with the bounds that let a decision skip the search.

These sums are pure functions of a collection (and a price and the tokens held). Those asked
again and again are cached (a collection's value, its per-card losses, the ceilings on what a
card adds); those a game asks about a collection once or twice (a gain, the cheapest payment:
under a tenth of calls were hits) are not, since each cached entry costs hashing, memory and
the cycle collector's time. Everything computes exactly what the uncached bot did, float for
float, so every decision is the same (tests/engine/ten/test_bot_reference.py holds the bot
before the caches and compares).
"""

from __future__ import annotations

import heapq
from collections import Counter
from collections.abc import Sequence
from functools import lru_cache
from itertools import accumulate

from ..ten.cards import CELL, wild_uses
from ..ten.ceilings import ceiling_with, ceiling_without_shared, number_gain_ceiling
from ..ten.payment import payment_shapes
from ..ten.scoring import (
    _ROLE,
    best_total,
    collection_runs,
    mask_points,
    masks_and_pool,
    run_points,
    with_cards,
)
from ..ten.state import Payment

TOKEN_POINTS = 0.3
"""What one currency token is worth to the bot, in points (a card of price n costs n tokens)."""
BUST_TOKEN_POINTS = 0.75
CELL_POINTS = 0.2
"""Credit for each distinct colour+number held: cards outside the longest run may join it later."""
def value(cards: Sequence[str]) -> float:
    """Score now plus a little for breadth (distinct spots held) and for wilds."""
    return _value(tuple(cards))


@lru_cache(maxsize=1 << 14)
def _value(cards: tuple[str, ...]) -> float:
    masks, pool = masks_and_pool(cards)
    # the distinct colour+number spots held are the bits of the masks
    return best_total(masks, pool) + CELL_POINTS * sum(mask.bit_count() for mask in masks)


class _Losses:
    """The (value lost by giving it alone, card) pairs of a collection, least missed first, as
    sorting every card's loss would order them, but each loss searched for only when the
    order asks for it (a best-total search per card is most of what a decision costs).

    Every card starts with a floor under its loss, exact where no search is needed: a number
    card whose spot is held twice loses nothing; one outside its colour's scored interval
    (`collection_runs`) loses its spot only; one inside loses at least its spot; a wild loses
    at least 0. A floor is never above the loss float for float (the score without a card is
    at most the score with it, and rounding is monotone), so popping the least (floor, card)
    and refining it if it is only a floor yields the exact pairs in sorted order.

    With shared wilds (where a search costs most) a floor popped is first raised without a
    search, from a ceiling on the score without the card (the knapsack bound: `ceiling_with`,
    `ceiling_without_shared`); a number card inside its interval whose ceiling is met by its
    interval cut at it (the part left keeps its cards and wilds) has that loss exactly. Only a
    card popped again is searched."""

    __slots__ = ("held", "base", "masks", "pool", "total", "spans", "n_cells", "heap", "floors",
                 "exact", "shared")  # thousands are cached: no dict each

    def __init__(self, held: tuple[str, ...]) -> None:
        self.held = held
        self.base = _value(held)
        self.masks, self.pool = masks_and_pool(held)
        self.total, self.spans = total, spans = collection_runs(held)
        cells = [CELL.get(card) for card in held]
        copies = Counter(cells)
        self.n_cells = n_cells = len(copies) - (None in copies)
        self.heap: list[tuple[float, str, int, int]] = []  # (floor, card, index, EXACT or how raised)
        for i, (card, cell) in enumerate(zip(held, cells, strict=True)):
            if cell is None:
                self.heap.append((0.0, card, i, _CRUDE))
            elif copies[cell] > 1:
                self.heap.append((self.base - (total + CELL_POINTS * n_cells), card, i, _EXACT))
            else:
                colour, number = cell
                outside = not spans[colour] >> number & 1
                self.heap.append((self.base - (total + CELL_POINTS * (n_cells - 1)), card, i,
                                  _EXACT if outside else _CRUDE))
        self.floors = tuple(accumulate(sorted([entry[0] for entry in self.heap]), initial=0.0))
        heapq.heapify(self.heap)
        self.exact: list[tuple[float, str]] = []
        _, numbered, rainbow = self.pool
        self.shared = numbered.bit_count() + rainbow

    def smallest(self, k: int) -> list[tuple[float, str]]:
        """The first k pairs of the sorted losses."""
        while len(self.exact) < k:
            loss, card, i, stage = heapq.heappop(self.heap)
            if stage == _EXACT:
                self.exact.append((loss, card))
            elif stage == _CRUDE and self.shared:
                heapq.heappush(self.heap, self._raised(card, i))
            else:
                heapq.heappush(self.heap, (self.base - self._value_without(card, i), card, i, _EXACT))
        return self.exact[:k]

    def _value_without(self, card: str, i: int) -> float:
        """`_value` of the collection less its card at `i`: for a number card (its spot held
        once: a spot held twice has its loss from the start) from the masks less its bit."""
        cell = CELL.get(card)
        if cell is None:
            return _value(self.held[:i] + self.held[i + 1 :])
        colour, number = cell
        masks = list(self.masks)
        masks[colour] &= ~(1 << number)
        return _value_of(best_total(tuple(masks), self.pool), self.n_cells - 1)

    def _raised(self, card: str, i: int) -> tuple[float, str, int, int]:
        """A card's floor from a ceiling on the total without it (exact where met)."""
        masks, pool = self.masks, self.pool
        colour_wilds = pool[0]
        cell = CELL.get(card)
        if cell is not None:
            colour, number = cell
            ceiling = min(self.total, ceiling_with(masks, pool, colour, masks[colour] & ~(1 << number),
                                                   colour_wilds[colour]))
            kept = _value_of(ceiling, self.n_cells - 1)
            if ceiling == self.total - _cut_loss(self.spans[colour], number):
                return self.base - kept, card, i, _EXACT  # that cut reaches the ceiling
            return self.base - kept, card, i, _RAISED
        kind, colour, _ = _ROLE[card]
        if kind == 1:  # a colour wild: its colour has one fewer
            ceiling = ceiling_with(masks, pool, colour, masks[colour], colour_wilds[colour] - 1)
        else:
            ceiling = ceiling_without_shared(masks, pool)
        return self.base - _value_of(min(ceiling, self.total), self.n_cells), card, i, _RAISED


_EXACT, _CRUDE, _RAISED = 0, 1, 2
"""How a floor in `_Losses` was found: the loss itself, or a floor (first or raised)."""


def _value_of(total: int, spots: int) -> float:
    """`_value` of a collection with this best total and this many distinct spots."""
    return total + CELL_POINTS * spots


def _cut_loss(span: int, number: int) -> int:
    """What an interval (a mask) loses when cut at `number`: its points less its better part's."""
    low = (span & -span).bit_length() - 1
    high = span.bit_length() - 1
    below = run_points(number - low) if number > low else 0
    above = run_points(high - number) if high > number else 0
    return run_points(high - low + 1) - max(below, above)


@lru_cache(maxsize=1 << 12)
def _losses(held: tuple[str, ...]) -> _Losses:
    return _Losses(held)


SURELY_ABOVE = 0.025
"""Every cost and loss is a multiple of 0.05 point (whole points, 0.2, 0.3, 0.75) up to float
rounding (far below 1e-9), so a float estimate this far above another means a real cost at
least 0.05 above: above it float for float too, however the sums were ordered."""


def cheapest(price: int, currency: int, busts: int, held: tuple[str, ...]) -> tuple[float, Payment]:
    """The payment that costs a holder least (tokens, bust tokens, then its least useful
    cards), with that cost in points; (inf, an empty payment) if it cannot pay. The first way
    of the least cost in `payment_shapes` order, float for float as when every way was priced.

    The ways are priced from the lowest floor up (tokens and their k least floors of losses;
    exact for a way without cards), keeping the least (cost, order). A way whose floor is
    surely above the least cost so far cannot be that one, nor can any after it, so their
    cards' losses are never searched (`payment_shapes` lists the ways with most cards first)."""
    shapes = payment_shapes(price, currency, busts, len(held))
    losses = _losses(held)
    floors = losses.floors
    by_floor = sorted(
        (c * TOKEN_POINTS + b * BUST_TOKEN_POINTS + floors[k] + k * TOKEN_POINTS, i)
        for i, (c, b, k) in enumerate(shapes)
    )
    best_cost, best_i, best_paid = float("inf"), -1, ()
    for floor, i in by_floor:
        if floor >= best_cost + SURELY_ABOVE:
            break  # this way and every later one cost surely more than the best
        c, b, k = shapes[i]
        paid = losses.smallest(k)
        cost = c * TOKEN_POINTS + b * BUST_TOKEN_POINTS + sum(loss for loss, _ in paid)
        cost += k * TOKEN_POINTS  # a card paid is also purchasing power gone
        if cost < best_cost or (cost == best_cost and i < best_i):
            best_cost, best_i, best_paid = cost, i, paid
    if best_i < 0:
        return float("inf"), Payment()
    c, b, _ = shapes[best_i]
    return best_cost, Payment.of(c, b, [card for _, card in best_paid])


def gain_ceiling(held: tuple[str, ...], numbers: tuple[str, ...]) -> float:
    """A ceiling on `_value(held + numbers) - _value(held)` for number cards, without a search:
    each card in turn adds at most `number_gain_ceiling` points to the total (with the cards
    before it held) and CELL_POINTS if its spot is new."""
    rise, spots = _rise_ceiling(held, numbers)
    return rise + CELL_POINTS * spots


@lru_cache(maxsize=1 << 14)
def _rise_ceiling(held: tuple[str, ...], numbers: tuple[str, ...]) -> tuple[int, int]:
    """(a ceiling on what number cards add to the best total, the new spots they fill)."""
    masks, (colour_wilds, numbered, rainbow) = masks_and_pool(held)
    masks = list(masks)
    rise = 0
    spots = 0
    for card in numbers:
        c, n = CELL[card]
        if masks[c] >> n & 1:
            continue  # a spot held already: the same masks, the same total
        rise += number_gain_ceiling(masks[c], n, colour_wilds[c], numbered, rainbow)
        spots += 1
        masks[c] |= 1 << n
    return rise, spots


def _grown(mask: int, low: int, high: int) -> int:
    """The points of the run low..high grown over the numbers of `mask` next to it."""
    while low > 1 and mask >> (low - 1) & 1:
        low -= 1
    while high < 9 and mask >> (high + 1) & 1:
        high += 1
    return run_points(high - low + 1)


_ENDS = tuple(((span & -span).bit_length() - 1, span.bit_length() - 1) for span in range(1 << 10))
_ends = _ENDS.__getitem__
"""(low, high) of an interval's mask (a span of the numbers 1..9)."""


def _rise_floor(held: tuple[str, ...], numbers: tuple[str, ...]) -> int:
    """A floor under what number cards add to the best total, without a search: a best
    assignment of `held` (`collection_runs`) still holds, each colour's interval grown over the
    numbers now next to it, or the colour's longest run of held numbers with no wild."""
    masks, _ = masks_and_pool(held)
    _, spans = collection_runs(held)
    more = list(masks)
    for card in numbers:
        c, n = CELL[card]
        more[c] |= 1 << n
    rise = 0
    for c, span in enumerate(spans):
        if more[c] == masks[c]:
            continue
        before = run_points(span.bit_count()) if span else 0
        after = mask_points(more[c])
        if span:
            after = max(after, _grown(more[c], *_ends(span)))
        rise += max(0, after - before)
    return rise


def _wild_rise_floor(held: tuple[str, ...], wild: str) -> int:
    """A floor under what a wild adds to the best total, without a search: a best assignment
    of `held` still holds with the wild next to a colour's interval (grown over the numbers
    next to it), or in a colour that scores nothing, on the run it joins."""
    masks, _ = masks_and_pool(held)
    _, spans = collection_runs(held)
    best = 0
    for c, n in wild_uses(wild):
        mask = masks[c]
        if mask >> n & 1:
            continue
        span = spans[c]
        if span:
            low, high = _ends(span)
            if n == low - 1:
                rise = _grown(mask, n, high) - run_points(high - low + 1)
            elif n == high + 1:
                rise = _grown(mask, low, n) - run_points(high - low + 1)
            else:
                continue
        else:
            rise = _grown(mask, n, n)
        best = max(best, rise)
    return best


def gain_floor(held: tuple[str, ...], added: tuple[str, ...]) -> float:
    """A floor under `_value(held + added) - _value(held)` for number cards or one wild,
    without a search (`_rise_floor`, `_wild_rise_floor`, and the new spots)."""
    if all(card in CELL for card in added):
        return _rise_floor(held, added) + CELL_POINTS * _rise_ceiling(held, added)[1]
    (wild,) = added
    return float(_wild_rise_floor(held, wild))


def gain(held: tuple[str, ...], added: tuple[str, ...]) -> float:
    """`_value(held + added) - _value(held)`, float for float, for number cards or one wild:
    without a search when a floor and a ceiling on what they add to the best total meet (the
    value is then the total plus the spots, as `_value` sums them)."""
    if all(card in CELL for card in added):
        ceiling, spots = _rise_ceiling(held, added)
        exact = _rise_floor(held, added) == ceiling
    elif len(added) == 1:
        ceiling, spots = wild_gain_ceiling(held, added[0]), 0
        exact = _wild_rise_floor(held, added[0]) == ceiling
    else:
        exact = False
    if not exact:  # `_value(held + added)` from the masks: no count of the whole collection
        masks, pool = with_cards(*masks_and_pool(held), added)
        return _value_of(best_total(masks, pool), sum(mask.bit_count() for mask in masks)) - _value(held)
    masks, pool = masks_and_pool(held)
    spots += sum(mask.bit_count() for mask in masks)
    return _value_of(best_total(masks, pool) + ceiling, spots) - _value(held)


@lru_cache(maxsize=1 << 12)
def wild_gain_ceiling(held: tuple[str, ...], wild: str) -> int:
    """A ceiling on what a wild adds to the best total of `held`, without a search: in a best
    assignment with it, the wild fills a spot its collection lacks (or nothing), and dropping
    it leaves what a number card there would leave (`number_gain_ceiling`)."""
    masks, (colour_wilds, numbered, rainbow) = masks_and_pool(held)
    return max(
        (number_gain_ceiling(masks[c], n, colour_wilds[c], numbered, rainbow)
         for c, n in wild_uses(wild) if not masks[c] >> n & 1),
        default=0,
    )


@lru_cache(maxsize=1 << 12)
def cost_floor(price: int, currency: int, busts: int, n_cards: int) -> float:
    """A floor under `cheapest`'s cost that needs no card losses: each shape's cost with its
    losses left out. Losses are never negative (a card given never raises the value kept) and
    rounded addition is monotone, so every shape's cost, float for float, is at least this."""
    floors = [c * TOKEN_POINTS + b * BUST_TOKEN_POINTS + k * TOKEN_POINTS
              for c, b, k in payment_shapes(price, currency, busts, n_cards)]
    return min(floors, default=float("inf"))
