"""Action spaces too large to list: card subsets, card orders, and offers.

Each space samples uniformly from its enumeration and answers `in` with the game's own
validation, so `in` accepts exactly what `validate` accepts. Free text is the one place where
the two differ on purpose: an offer's promise or a demand may be any text up to
`PROMISE_MAX` characters, but the enumeration (and so a random bot) uses the stock phrases
below.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator, Sequence
from functools import cache, lru_cache
from itertools import combinations_with_replacement, permutations, product
from math import factorial, prod

from ..core import ActionSpace, IllegalAction, Stream, fast_maker
from .cards import GOODS
from .state import NoOffer, Offer

PROMISES: tuple[str, ...] = (
    "",
    "I will let you pass when I am Sheriff.",
    "It is exactly what I declared.",
)
"""Stock promise texts: "" (no promise) plus phrases a random bot can use."""

DEMANDS: tuple[str, ...] = ("More, or I open the bag.",)
"""Stock demand text of the enumeration (a demand binds nothing, so one phrase is enough)."""


_ONE_DRAW = 1 << 62


def _digits(code: int, radix: Sequence[int]) -> list[int]:
    out = []
    for r in radix:
        code, digit = divmod(code, r)
        out.append(digit)
    return out


def _capped(n: int) -> int:
    return min(n, sys.maxsize)  # len() must fit a machine word; the space may not


class _Validated(ActionSpace):
    """Membership = the game's validation of this seat's action."""

    def __init__(self, check: Callable[[object], None]) -> None:
        self._check = check

    def __contains__(self, action: object) -> bool:
        try:
            self._check(action)
        except IllegalAction:
            return False
        return True


class SubsetSpace(_Validated):
    """Sub-multisets of `counts` with a size in [low, high], as actions made by `make`."""

    def __init__(self, counts: Sequence[int], low: int, high: int,
                 make: Callable[[tuple[str, ...]], object], check: Callable[[object], None]) -> None:
        super().__init__(check)
        self.slots = tuple([(i, n) for i, n in enumerate(counts) if n])
        self.low, self.high, self.make = low, high, make

    def _ok(self, picked: Sequence[int]) -> bool:
        return self.low <= sum(picked) <= self.high

    def _action(self, picked: Sequence[int]) -> object:
        out: list[str] = []
        for (i, _), k in zip(self.slots, picked, strict=True):
            out.extend((GOODS[i],) * k)
        return self.make(tuple(out))

    def __len__(self) -> int:
        ways = [1] + [0] * self.high  # ways[s] = sub-multisets of size s
        for _, n in self.slots:
            ways = [sum(ways[s - k] for k in range(min(n, s) + 1)) for s in range(self.high + 1)]
        return sum(ways[self.low:])

    def __iter__(self) -> Iterator[object]:
        for picked in product(*(range(n + 1) for _, n in self.slots)):
            if self._ok(picked):
                yield self._action(picked)

    def sample(self, rng: Stream) -> object:
        radix = [n + 1 for _, n in self.slots]
        if sum(radix) - len(radix) < self.low:  # fewer cards than the smallest pick
            raise IllegalAction("there is no legal action to choose from")
        size = prod(radix)
        if size <= _TABLE_MAX:  # every hand of the game: each code's pick is precomputed
            table = _subset_table(tuple(radix), self.low, self.high)
            names = [GOODS[i] for i, _ in self.slots]
            below = rng.below
            while True:  # the same draws as the loop below
                positions = table[below(size)]
                if positions is not None:
                    return self.make(tuple(map(names.__getitem__, positions)))
        while True:  # uniform over the product, rejecting sizes out of range
            picked = _digits(rng.below(size), radix)
            if self._ok(picked):
                return self._action(picked)


_TABLE_MAX = 1 << 12


@lru_cache(maxsize=1024)
def _subset_table(radix: tuple[int, ...], low: int, high: int) -> tuple[tuple[int, ...] | None, ...]:
    """Per code of `SubsetSpace.sample`'s mixed-radix draw: the picked cards as slot positions
    (each repeated as many times as picked), or None when the size is out of range."""
    table: list[tuple[int, ...] | None] = []
    for code in range(prod(radix)):
        picked = _digits(code, radix)
        if not low <= sum(picked) <= high:
            table.append(None)
            continue
        table.append(tuple(j for j, k in enumerate(picked) for _ in range(k)))
    return tuple(table)


class OrderSpace(_Validated):
    """Every distinct order of a multiset of cards onto discard pile 1 or 2."""

    def __init__(self, cards: tuple[str, ...], make: Callable[[int, tuple[str, ...]], object],
                 check: Callable[[object], None]) -> None:
        super().__init__(check)
        self.cards, self.make = cards, make

    def __len__(self) -> int:
        n = factorial(len(self.cards))
        for good in set(self.cards):
            n //= factorial(self.cards.count(good))
        return 2 * n

    def __iter__(self) -> Iterator[object]:
        orders = sorted(set(permutations(self.cards)))
        for pile in (1, 2):
            for order in orders:
                yield self.make(pile, order)

    def sample(self, rng: Stream) -> object:
        # A uniform permutation makes every distinct order equally likely (each stands for
        # the same number of permutations of identical cards); one draw picks pile and order.
        n = len(self.cards)
        code = rng.below(2 * factorial(n))
        pile, code = 1 + code % 2, code // 2
        left, order = list(self.cards), []
        for size in range(n, 0, -1):  # the permutation with this Lehmer code
            code, pick = divmod(code, size)
            order.append(left.pop(pick))
        return self.make(pile, tuple(order))


@cache
def claims(goods: tuple[int, ...], most: int) -> tuple[tuple[str, ...], ...]:
    """Every multiset of at most `most` cards over `goods` (bag-goods claims), canonical."""
    ids = [GOODS[i] for i in sorted(goods)]
    return tuple(
        combo for size in range(most + 1) for combo in combinations_with_replacement(ids, size)
    )


class OfferSpace(_Validated):
    """A merchant's move in a negotiation: `NoOffer` or any offer of §5.4.1.

    The enumeration is the product of: gold 0..all, every sub-multiset of the stand, every
    bag-goods claim of at most the bag size, a stock promise, and per other pending merchant
    no condition / inspect / pass (minus the one contradicting an accepted condition). Its
    one all-empty element stands for `NoOffer`, so a uniform sample is uniform over the moves.
    """

    def __init__(self, gold: int, stand: Sequence[int], bag_claims: tuple[tuple[str, ...], ...],
                 condition_choices: tuple[tuple[tuple[str, int] | None, ...], ...],
                 check: Callable[[object], None]) -> None:
        super().__init__(check)
        self.gold = gold
        self.stand = tuple([(i, n) for i, n in enumerate(stand) if n])
        self.bag_claims = bag_claims
        self.condition_choices = condition_choices

    @property
    def size(self) -> int:
        n = (self.gold + 1) * len(self.bag_claims) * len(PROMISES)
        for _, k in self.stand:
            n *= k + 1
        for choices in self.condition_choices:
            n *= len(choices)
        return n

    def __len__(self) -> int:
        return _capped(self.size)

    def _make(self, gold: int, picked: Sequence[int], claim: tuple[str, ...], promise: str,
              conds: Sequence[tuple[str, int] | None]) -> object:
        stand: list[str] = []
        for (i, _), k in zip(self.stand, picked, strict=True):
            stand.extend((GOODS[i],) * k)
        conditions = tuple(c for c in conds if c is not None)
        if not (gold or stand or claim or promise or conditions):
            return NoOffer()
        return Offer(gold, tuple(stand), claim, promise, conditions)

    def __iter__(self) -> Iterator[object]:
        for gold in range(self.gold + 1):
            for picked in product(*(range(k + 1) for _, k in self.stand)):
                for claim in self.bag_claims:
                    for promise in PROMISES:
                        for conds in product(*self.condition_choices):
                            yield self._make(gold, picked, claim, promise, conds)

    def sample(self, rng: Stream) -> object:
        radix = [self.gold + 1, len(self.bag_claims), len(PROMISES)]
        radix += [k + 1 for _, k in self.stand]
        radix += [len(choices) for choices in self.condition_choices]
        size = prod(radix)
        if size >= _ONE_DRAW:  # the stream's draws are 64-bit: draw each part on its own
            digits = [rng.below(r) for r in radix]
            gold, claim, promise = digits[:3]
            picked = digits[3:3 + len(self.stand)]
            conds = [c[i] for c, i in zip(self.condition_choices, digits[3 + len(self.stand):],
                                          strict=True)]
            return self._make(gold, picked, self.bag_claims[claim], PROMISES[promise], conds)
        # one draw, read as mixed-radix digits (`_digits` and `_make` written out: random bots
        # make an offer at every exchange)
        code, gold = divmod(rng.below(size), self.gold + 1)
        code, claim = divmod(code, len(self.bag_claims))
        code, promise = divmod(code, len(PROMISES))
        stand: list[str] = []
        for i, k in self.stand:
            code, n = divmod(code, k + 1)
            if n:
                stand.extend((GOODS[i],) * n)
        conditions = []
        for choices in self.condition_choices:
            code, j = divmod(code, len(choices))
            if choices[j] is not None:
                conditions.append(choices[j])
        bag = self.bag_claims[claim]
        text = PROMISES[promise]
        if not (gold or stand or bag or text or conditions):
            return _NO_OFFER
        return _make_offer(gold, tuple(stand), bag, text, tuple(conditions))


_NO_OFFER = NoOffer()
_make_offer = fast_maker(Offer)
