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
from .state import Payment

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
    who: str, price: int, payment: object, currency: int, busts: int, collection: Sequence[str]
) -> None:
    """Raise IllegalAction naming what is wrong with `payment` for `price`."""
    if type(payment) is not Payment:
        raise IllegalAction(f"{who} must give a payment")
    paid_currency, paid_busts, cards = payment.currency, payment.busts, payment.cards
    for name, value in (("currency", paid_currency), ("bust", paid_busts)):
        if type(value) is not int or value < 0:
            raise IllegalAction(f"{who} cannot pay {value!r} {name} tokens")
    if paid_currency > currency:
        raise IllegalAction(f"{who} cannot pay {paid_currency} currency tokens: holds {currency}")
    if paid_busts > busts:
        raise IllegalAction(f"{who} cannot pay {paid_busts} bust tokens: holds {busts}")
    if type(cards) is not tuple:
        raise IllegalAction(f"{who} must name the collection cards paid as a list of card ids")
    if cards:
        if not all(type(card) is str for card in cards):
            raise IllegalAction(f"{who} must name the collection cards paid as card ids")
        if any(a >= b for a, b in zip(cards, cards[1:], strict=False)):
            raise IllegalAction(f"{who} must list the cards paid once each, sorted")
        held = set(collection)
        for card in cards:
            if card not in held:
                raise IllegalAction(f"{who} cannot pay with {card}: it is not in their collection")
    problem = _shape_problem_cached(price, paid_currency, paid_busts, len(cards))
    if problem:
        raise IllegalAction(f"{who} cannot pay that way: {problem}")


_shape_problem_cached = lru_cache(maxsize=4096)(shape_problem)


@lru_cache(maxsize=4096)
def _shape_counts(
    price: int, currency: int, busts: int, cards: int
) -> tuple[tuple[tuple[Shape, int], ...], int]:
    """Each valid shape with how many card choices it has (n cards choose k), and their sum."""
    counts = tuple(
        (shape, comb(cards, shape[2])) for shape in payment_shapes(price, currency, busts, cards)
    )
    return counts, sum(k for _, k in counts)


Head = tuple[int, type, "str | None"]
"""(price, action class, market card or None): Buy(card, payment), Pay(payment), BuyWild(payment)."""


def _make(head: Head, payment: Payment) -> Action:
    _, kind, card = head
    return kind(payment) if card is None else kind(card, payment)


class PaymentSpace(ActionSpace):
    """Legal actions with payments: fixed actions plus, for each priced head, every payment.

    The space may be large (which cards of the collection to give), so it counts and samples
    without listing; membership is the game's own validation (`contains`).
    """

    __slots__ = ("fixed", "heads", "currency", "busts", "collection", "contains", "_total")

    def __init__(
        self,
        fixed: tuple[Action, ...],
        heads: Sequence[Head],
        currency: int,
        busts: int,
        collection: tuple[str, ...],
        contains: Callable[[Action], bool],
    ) -> None:
        self.fixed = fixed
        self.heads = tuple(heads)
        self.currency = currency
        self.busts = busts
        self.collection = collection
        self.contains = contains
        self._total = -1

    def _counts(self, head: Head) -> tuple[tuple[tuple[Shape, int], ...], int]:
        return _shape_counts(head[0], self.currency, self.busts, len(self.collection))

    def __contains__(self, action: object) -> bool:
        return self.contains(action)

    def __len__(self) -> int:
        if self._total < 0:
            self._total = len(self.fixed) + sum(self._counts(head)[1] for head in self.heads)
        return self._total

    def __iter__(self) -> Iterator[Action]:
        yield from self.fixed
        ordered = sorted(self.collection)
        for head in self.heads:
            for (c, b, k), _ in self._counts(head)[0]:
                for cards in combinations(ordered, k):
                    yield _make(head, Payment(c, b, cards))

    def sample(self, rng: Stream) -> Action:
        """Uniform over the space: one random index, decoded (it is the index in __iter__)."""
        total = len(self)
        if total == 0:
            raise IllegalAction("there is no legal action to choose from")
        return self._at(rng.below(total))

    def _at(self, r: int) -> Action:
        if r < len(self.fixed):
            return self.fixed[r]
        r -= len(self.fixed)
        for head in self.heads:
            counts, head_total = self._counts(head)
            if r >= head_total:
                r -= head_total
                continue
            for (c, b, k), count in counts:
                if r < count:
                    return _make(head, Payment(c, b, _combination(sorted(self.collection), k, r)))
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
