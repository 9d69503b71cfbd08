"""Paying (ten.md §6): currency tokens (1), bust tokens (3, no change) and collection cards (1).

A payment must be worth the price and not larger than needed: leaving out any one item would
make it too little. So it is exact, or it is bust tokens only and overpays by at most 2.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from functools import lru_cache
from itertools import combinations
from math import comb

from ..core import Action, ActionSpace, IllegalAction, Stream
from .cards import BUST_TOKEN_VALUE, CARD_PAYMENT_VALUE
from .state import Payment, new_payment

Shape = tuple[int, int, int]
"""(currency tokens, bust tokens, number of collection cards)."""


def worth(currency: int, busts: int, cards: int) -> int:
    return currency + BUST_TOKEN_VALUE * busts + CARD_PAYMENT_VALUE * cards


def purchasing_power(currency: int, busts: int, collection_size: int) -> int:
    return worth(currency, busts, collection_size)


def shape_problem(price: int, currency: int, busts: int, cards: int) -> str | None:
    """Why a payment of this shape does not pay `price` (None if it does)."""
    paid = worth(currency, busts, cards)
    if paid < price:
        return f"{paid} does not cover the price of {price}"
    items = [(1, "a currency token")] * bool(currency) + [(CARD_PAYMENT_VALUE, "a card")] * bool(cards)
    items += [(BUST_TOKEN_VALUE, "a bust token")] * bool(busts)
    if items:
        smallest, name = min(items)
        if paid - smallest >= price:
            return f"{paid} is more than needed for {price}: it still covers it without {name}"
    return None


@lru_cache(maxsize=4096)
def payment_shapes(price: int, currency: int, busts: int, cards: int) -> tuple[Shape, ...]:
    """Every valid (currency, busts, cards) for a price, given what the payer holds."""
    out: list[Shape] = []
    for b in range(min(busts, price // BUST_TOKEN_VALUE) + 1):
        rest = price - BUST_TOKEN_VALUE * b
        for c in range(max(0, rest - cards), min(currency, rest) + 1):
            out.append((c, b, rest - c))
    over = -(-price // BUST_TOKEN_VALUE)
    if price % BUST_TOKEN_VALUE and over <= busts:
        out.append((0, over, 0))
    return tuple(out)


def check_payment(
    seat: int, price: int, payment: object, currency: int, busts: int, collection: Sequence[str]
) -> None:
    """Raise IllegalAction naming what is wrong with `seat`'s `payment` for `price`."""
    if type(payment) is not Payment:
        raise IllegalAction(f"seat {seat} must give a payment")
    paid_currency, paid_busts, cards = payment.currency, payment.busts, payment.cards
    if type(paid_currency) is not int or paid_currency < 0:
        raise IllegalAction(f"seat {seat} cannot pay {paid_currency!r} currency tokens")
    if type(paid_busts) is not int or paid_busts < 0:
        raise IllegalAction(f"seat {seat} cannot pay {paid_busts!r} bust tokens")
    if paid_currency > currency:
        raise IllegalAction(
            f"seat {seat} cannot pay {paid_currency} currency tokens: holds {currency}"
        )
    if paid_busts > busts:
        raise IllegalAction(f"seat {seat} cannot pay {paid_busts} bust tokens: holds {busts}")
    if type(cards) is not tuple:
        raise IllegalAction(
            f"seat {seat} must name the collection cards paid as a list of card ids"
        )
    if cards:
        _check_cards(seat, cards, collection)
    problem = _shape_problem_cached(price, paid_currency, paid_busts, len(cards))
    if problem:
        raise IllegalAction(f"seat {seat} cannot pay that way: {problem}")


def _check_cards(seat: int, cards: tuple, collection: Sequence[str]) -> None:
    previous = ""
    for card in cards:  # one pass for the usual, valid case; the checks below name the fault
        if type(card) is not str or card <= previous or card not in collection:
            break
        previous = card
    else:
        return
    if not all(type(card) is str for card in cards):
        raise IllegalAction(f"seat {seat} must name the collection cards paid as card ids")
    if any(a >= b for a, b in zip(cards, cards[1:], strict=False)):
        raise IllegalAction(f"seat {seat} must list the cards paid once each, sorted")
    for card in cards:
        if card not in collection:
            raise IllegalAction(
                f"seat {seat} cannot pay with {card}: it is not in their collection"
            )


_shape_problem_cached = lru_cache(maxsize=4096)(shape_problem)


ShapeCounts = tuple[tuple[tuple[Shape, int], ...], int]
"""Each valid shape with its number of payments (card choices), and their sum."""


@lru_cache(maxsize=4096)
def _shape_counts(price: int, currency: int, busts: int, cards: int) -> ShapeCounts:
    """Each valid shape with how many card choices it has (n cards choose k), and their sum."""
    counts = tuple(
        (shape, comb(cards, shape[2])) for shape in payment_shapes(price, currency, busts, cards)
    )
    return counts, sum(k for _, k in counts)


HeadCounts = tuple[ShapeCounts, ...]
"""Per head of a space (or per price): its `_shape_counts`."""


@lru_cache(maxsize=4096)
def _counts_by_price(currency: int, busts: int, cards: int) -> HeadCounts:
    """`_shape_counts` for every price from 0 to the payer's purchasing power (above it
    there is no payment): one look-up per space, whatever its prices."""
    power = worth(currency, busts, cards)
    return tuple(_shape_counts(price, currency, busts, cards) for price in range(power + 1))


Head = tuple[int, "Callable[..., Action]", "str | None"]
"""(price, action maker, market card or None): makes Buy(card, payment), Pay(payment) or
BuyWild(payment)."""


def _make(head: Head, payment: Payment) -> Action:
    _, make, card = head
    return make(payment) if card is None else make(card, payment)


class PaymentSpace(ActionSpace):
    """Legal actions with payments: fixed actions plus, for each priced head, every payment.

    The space may be large (which cards of the collection to give), so it counts and samples
    without listing; membership is the game's own validation (`contains`).
    """

    __slots__ = (
        "fixed", "heads", "currency", "busts", "collection", "contains", "_counts", "_total",
    )

    def __init__(
        self,
        fixed: tuple[Action, ...],
        heads: tuple[Head, ...],
        currency: int,
        busts: int,
        collection: tuple[str, ...],
        contains: Callable[[Action], bool],
    ) -> None:
        self.fixed = fixed
        self.heads = heads
        self.currency = currency
        self.busts = busts
        self.collection = collection
        self.contains = contains
        self._counts: HeadCounts | None = None
        self._total = 0

    def _head_counts(self) -> HeadCounts:
        counts = self._counts
        if counts is None:
            currency, busts, cards = self.currency, self.busts, len(self.collection)
            table = _counts_by_price(currency, busts, cards)
            listed = []
            total = 0
            for price, _, _ in self.heads:
                entry = table[price] if price < len(table) else _shape_counts(
                    price, currency, busts, cards
                )
                listed.append(entry)
                total += entry[1]
            self._counts = counts = tuple(listed)
            self._total = total
        return counts

    def __contains__(self, action: object) -> bool:
        return self.contains(action)

    def __len__(self) -> int:
        if self._counts is None:
            self._head_counts()
        return len(self.fixed) + self._total

    def __iter__(self) -> Iterator[Action]:
        yield from self.fixed
        ordered = sorted(self.collection)
        for head, (counts, _) in zip(self.heads, self._head_counts(), strict=True):
            for (c, b, k), _ in counts:
                for cards in combinations(ordered, k):
                    yield _make(head, new_payment(c, b, cards))

    def sample(self, rng: Stream) -> Action:
        """Uniform over the space: one random index, decoded (it is the index in __iter__)."""
        counts = self._counts
        if counts is None:
            counts = self._head_counts()
        fixed = self.fixed
        total = len(fixed) + self._total
        if total == 0:
            raise IllegalAction("there is no legal action to choose from")
        r = rng.below(total)
        if r < len(fixed):
            return fixed[r]
        r -= len(fixed)
        for head, (shapes, head_total) in zip(self.heads, counts, strict=True):
            if r >= head_total:
                r -= head_total
                continue
            for (c, b, k), count in shapes:
                if r < count:
                    cards = _combination(sorted(self.collection), k, r) if k else ()
                    return _make(head, new_payment(c, b, cards))
                r -= count
        raise IndexError("action index out of range")


def _combination(items: list[str], k: int, rank: int) -> tuple[str, ...]:
    """The rank-th k-subset of items in itertools.combinations order."""
    out = []
    n = len(items)
    for i in range(n):
        if k == 0:
            break
        with_item = comb(n - i - 1, k - 1)
        if rank < with_item:
            out.append(items[i])
            k -= 1
        else:
            rank -= with_item
    return tuple(out)
