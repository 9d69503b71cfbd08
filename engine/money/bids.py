"""Money! bids (money.md §5-6): the canonical bid, why a bid is not legal, every bid of a hand."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from itertools import compress

from ..core import (
    ActionSpace,
    IllegalAction,
    Stream,
)
from .cards import (
    KIND,
    SERIAL,
    SORT_KEY,
    VALUE,
)
from .state import (
    Bid,
    new_bid,
)

_SORT = SORT_KEY.__getitem__
_BIT_BYTES = bytes.maketrans(b"01", b"\x00\x01")  # "0"/"1" digits to falsy/truthy bytes
# _PICK12[v][i] is bit i of v (v < 2^12): `compress` picks a subset of up to 12 cards with it.
_PICK12 = tuple(format(v, "012b")[::-1].encode().translate(_BIT_BYTES) for v in range(4096))


def _acts_before(a: tuple[str, ...], b: tuple[str, ...]) -> bool:
    """True if group a acts before group b (§5.3: higher value, then lower key serial)."""
    va = sum(VALUE[c] for c in a)
    vb = sum(VALUE[c] for c in b)
    if va != vb:
        return va > vb
    return SERIAL[a[0]] < SERIAL[b[0]]


def make_bid(left_cards, right_cards=(), n_players: int = 3) -> Bid:
    """The canonical Bid for the groups a player built (bluff ids dropped, sorted, oriented).

    3-5 players: both groups form one bid. 2 players: one non-empty group becomes `left`;
    of two non-empty groups the one that acts first becomes `left` (money.md §6). A card
    named in both groups stays in the left one.
    """
    for card in (*left_cards, *right_cards):
        if card not in KIND:
            raise IllegalAction(f"{card!r} is not a card")
    left = tuple(sorted({c for c in left_cards if KIND[c] != "bluff"}, key=_SORT))
    right = tuple(sorted({c for c in right_cards if KIND[c] != "bluff"} - set(left), key=_SORT))
    if n_players != 2:
        return Bid(tuple(sorted(set(left) | set(right), key=_SORT)), ())
    if not left or (right and not _acts_before(left, right)):
        left, right = right, left
    return Bid(left, right)


def _group_problem(group: object, hand: frozenset[str], what: str) -> str | None:
    if not isinstance(group, tuple):
        return f"the {what} must be a tuple of card ids (build bids with make_bid)"
    last = 0
    for card in group:
        if not isinstance(card, str) or card not in SERIAL:
            return f"{card!r} is not a card"
        if KIND[card] == "bluff":
            return f"{card} is a bluff card: a bid names only money cards (the bluff card is implied)"
        if card not in hand:
            return f"{card} is not in your hand"
        serial = SERIAL[card]
        if serial <= last:
            return f"the {what} must list each card once, in serial order"
        last = serial
    return None


def bid_problem(hand: frozenset[str], two_player: bool, bid: object) -> str | None:
    """Why `bid` is not a legal bid from `hand` (None if it is). O(size of the bid)."""
    if type(bid) is not Bid:
        return "it is the bidding step: choose a bid"
    problem = _group_problem(bid.left, hand, "bid") or _group_problem(bid.right, hand, "right group")
    if problem:
        return problem
    if not bid.right:
        return None
    if not two_player:
        return "with 3 or more players the bluff card does not split a bid: use one group"
    if not bid.left:
        return "a single group goes in `left` (use make_bid)"
    if not set(bid.left).isdisjoint(bid.right):
        return "a card cannot be in both groups"
    if not _acts_before(bid.left, bid.right):
        return "the group that acts first goes in `left` (use make_bid)"
    return None


class BidSpace(ActionSpace):
    """Every distinct canonical bid from a hand's money cards (uniform `sample`).

    3-5 players: the 2^m subsets. 2 players: the 2^m single groups plus the
    (3^m - 2*2^m + 1) / 2 unordered pairs of disjoint non-empty groups.
    """

    __slots__ = ("cards", "two_player", "_hand")

    def __init__(self, cards: tuple[str, ...], two_player: bool) -> None:
        self.cards = cards
        self.two_player = two_player
        self._hand: frozenset[str] | None = None

    @property
    def size(self) -> int:
        """The exact number of distinct bids (may exceed what `len` can return)."""
        m = len(self.cards)
        if not self.two_player:
            return 2**m
        return 2**m + (3**m - 2 * 2**m + 1) // 2

    def __len__(self) -> int:
        # len() must fit a C ssize_t: a 2-player hand of 40+ money cards has more bids.
        return min(self.size, sys.maxsize)

    def __contains__(self, action: object) -> bool:
        if self._hand is None:
            self._hand = frozenset(self.cards)
        return bid_problem(self._hand, self.two_player, action) is None

    def _subset(self, mask: int) -> tuple[str, ...]:
        return tuple(c for i, c in enumerate(self.cards) if mask >> i & 1)

    def __iter__(self) -> Iterator[Bid]:
        m = len(self.cards)
        for mask in range(2**m):
            yield Bid(self._subset(mask))
        if not self.two_player:
            return
        full = 2**m - 1
        for lmask in range(1, 2**m):
            rest = full & ~lmask
            sub = rest
            while sub:
                left, right = self._subset(lmask), self._subset(sub)
                if _acts_before(left, right):
                    yield Bid(left, right)
                sub = (sub - 1) & rest

    def sample(self, rng: Stream) -> Bid:
        cards = self.cards
        m = len(cards)
        if not self.two_player:
            if m <= 60:  # one draw: bit i of a uniform m-bit number picks card i
                mask = rng.below(1 << m)
                if m <= 12:
                    return new_bid(tuple(compress(cards, _PICK12[mask])), ())
                if m <= 24:
                    bits = _PICK12[mask & 4095] + _PICK12[mask >> 12]
                else:
                    bits = format(mask, "b")[::-1].encode().translate(_BIT_BYTES)
                return new_bid(tuple(compress(cards, bits)), ())
            picked: list[str] = []
            for start in range(0, m, 60):
                chunk = cards[start:start + 60]
                bits = format(rng.below(1 << len(chunk)), "b")[::-1].encode().translate(_BIT_BYTES)
                picked.extend(compress(chunk, bits))
            return Bid(tuple(picked))
        while True:  # an ordered (L, R) uniformly, kept only in canonical form: uniform
            left: list[str] = []
            right: list[str] = []
            for start in range(0, m, 40):
                chunk = cards[start:start + 40]
                code = rng.below(3 ** len(chunk))
                for card in chunk:
                    code, digit = divmod(code, 3)
                    if digit == 1:
                        left.append(card)
                    elif digit == 2:
                        right.append(card)
            lt, rt = tuple(left), tuple(right)
            if not rt or (lt and _acts_before(lt, rt)):
                return Bid(lt, rt)
