"""The zones of a plain game: count vectors of goods (cards of one good are identical).

`Counted` is one of the two zone kinds the rules (rules.py) are written on; the other is a
dealt game's `dealt.Carded`, whose zones list cards. Each operation here is what the plain game
always did, on counts, so that local play keeps its speed and its state encoding (the golden
playthroughs pin its state hashes).
"""

from __future__ import annotations

import operator
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from ..core import HIDDEN
from ..core.deck import draw, shuffle_or_stack
from .cards import (
    HAND_SIZE,
    IDX,
    IS_LEGAL,
    NG,
    PENALTY,
    PILE_START,
    REBUILD_ABOVE,
    VALUE,
    ZERO,
    add,
    counts_of,
    covers,
    hidden_part,
    ids_of,
    lower,
    sub,
)
from .common import PAY_RANK, Draft, counts_named, illegal, put
from .state import PayGoods, State

Counts = tuple[int, ...]


def _draw_deck(d: Draft) -> str | None:
    """Take the top card of the draw pile, rebuilding it from the discard piles (§5.7)."""
    draw_pile, piles = d["draw_pile"], d["piles"]
    if not draw_pile:
        if len(piles[0]) + len(piles[1]) <= REBUILD_ABOVE:
            return None
        rebuilt, d["rng"] = shuffle_or_stack(piles[0] + piles[1], d["rng"], None, "draw pile")
        pile1, rebuilt = draw(rebuilt, PILE_START)
        pile2, draw_pile = draw(rebuilt, PILE_START)
        d["piles"] = (pile1, pile2)
    top, d["draw_pile"] = draw(draw_pile, 1)
    return top[0]


def _take(d: Draft, seat: int, card: str, identified: bool) -> None:
    i = IDX[card]
    hand = list(d["hands"][seat])
    hand[i] += 1
    d["hands"] = put(d["hands"], seat, tuple(hand))
    if identified:
        known = list(d["hand_known"][seat])
        known[i] += 1
        d["hand_known"] = put(d["hand_known"], seat, tuple(known))


def _refill(d: Draft, p: int) -> None:
    """Seat `p` draws up to a full hand at the end of the round (§5.9)."""
    hand = d["hands"][p]
    short = HAND_SIZE - sum(hand)
    if 0 < short <= len(d["draw_pile"]):  # the common case: the draw pile has them all
        cards, d["draw_pile"] = draw(d["draw_pile"], short)  # what the loop below draws
        refilled = list(hand)
        for card in cards:
            refilled[IDX[card]] += 1
        d["hands"] = put(d["hands"], p, tuple(refilled))
        return
    while sum(d["hands"][p]) < HAND_SIZE:
        card = _draw_deck(d)
        if card is None:
            break  # the discard piles do not change: nobody later can draw either (§5.7)
        _take(d, p, card, False)


def _identify(d: Draft, m: int, named: Sequence[str]) -> None:
    """Naming face-down goods of a stand identifies them (§5.4.1, §6); legal goods lie face
    up, so naming them identifies nothing new."""
    hidden = hidden_part(counts_of(named))
    if any(hidden):
        d["stand_known"] = put(d["stand_known"], m, tuple(map(max, d["stand_known"][m], hidden)))


def _split(bag: Counts, declared: str) -> tuple[Counts, Counts]:
    """An inspected bag: (the declared goods, kept; the rest, confiscated)."""
    i = IDX[declared]
    kept = [0] * NG
    kept[i] = bag[i]
    return tuple(kept), sub(bag, kept)


def _fines(zone: Counts) -> int:
    return sum(map(operator.mul, zone, PENALTY))


# ---- the checks of a plain game (checks.py is written on them) ----------------------------
def _in_zone(seat: int, what: str, cards: Any, zone: Counts, missing: str) -> Counts:
    """An action's goods as counts, all of them in `zone` (else `missing` says so)."""
    counts = counts_named(seat, what, cards)
    if not covers(zone, counts):
        raise illegal(seat, what, missing)
    return counts


def _order(seat: int, what: str, order: Any, zone: Counts, which: str) -> None:
    """A Discard or Confiscate order: exactly the goods of `zone`."""
    if not isinstance(order, tuple) or not all(isinstance(c, str) and c in IDX for c in order):
        raise illegal(seat, what, "the order must be a tuple of good ids")
    if counts_of(order) != tuple(zone):
        raise illegal(seat, what, f"the order must hold exactly {', '.join(ids_of(zone))}")


def _on_stand(seat: int, what: str, cards: Any, stand: Counts, known: Counts) -> Counts:
    """Stand goods an offer names (goods of one kind are alike: no copy is named first)."""
    counts = counts_named(seat, what, cards)  # `_in_zone` written out: every offer comes here
    if not covers(stand, counts):
        raise illegal(seat, what, "those goods are not all on your stand")
    return counts


def _check_pay(s: State, seat: int, a: PayGoods) -> None:
    """`checks._check_pay` on counts (the action's type is checked there)."""
    what = "pay with those goods"
    cards = counts_named(seat, what, a.cards, PAY_RANK)
    stand = s.stands[seat]
    if not a.cards:
        raise illegal(seat, what, "hand over at least one good")
    if not covers(stand, cards):
        raise illegal(seat, what, "they are not all on your stand")
    if any(n and not IS_LEGAL[i] for i, n in enumerate(cards)):
        if any(IS_LEGAL[i] and stand[i] > cards[i] for i in range(NG)):
            raise illegal(seat, what, "legal goods must all be handed over before contraband")
    owed = s.debt.amount
    total = sum(n * v for n, v in zip(cards, VALUE, strict=True))
    if total - VALUE[IDX[a.cards[-1]]] >= owed:
        raise illegal(seat, what, "the debt is paid before the last card (no change is given)")
    if total < owed and cards != stand:
        raise illegal(seat, what, f"they cover only {total} of {owed}: hand over more")


# ---- what a view lists of a plain game's zones (view.py is written on them) --------------
# Views list the same few count vectors over and over (a hand, a stand): each listing is
# remembered, keyed by the state's count tuples (pure functions of them).
_listed = lru_cache(maxsize=4096)(ids_of)


@lru_cache(maxsize=4096)
def _known_first(known: Counts, total: int) -> tuple[str, ...]:
    """Someone else's zone of `total` cards: the identified goods, then one HIDDEN per other."""
    ids = ids_of(known)
    return ids + (HIDDEN,) * (total - len(ids))


@lru_cache(maxsize=4096)
def _stand_faces(stand: Counts) -> tuple[tuple[str, ...], Counts]:
    """A stand: (its legal goods, face up, listed; its contraband and royal goods, face down)."""
    return ids_of(tuple(n if IS_LEGAL[i] else 0 for i, n in enumerate(stand))), hidden_part(stand)


class Counted:
    """Zone operations of the plain game (see `dealt.Carded` for the same names on cards)."""

    EMPTY = ZERO
    UNPACKS = False  # every face is known: the rules empty a passed bag themselves
    size = staticmethod(sum)
    of = staticmethod(counts_of)  # an action's cards -> a zone
    add = staticmethod(add)
    without = staticmethod(sub)
    listed = staticmethod(ids_of)  # a zone as the cards a view or `revealed` lists
    face_down = staticmethod(hidden_part)
    draw_deck = staticmethod(_draw_deck)
    take = staticmethod(_take)
    refill = staticmethod(_refill)
    identify = staticmethod(_identify)
    split = staticmethod(_split)
    fines = staticmethod(_fines)

    @staticmethod
    def forget(known: Counts, cards: Counts) -> Counts:
        """Identified counts after cards leave a zone: identified ones of a good leave first."""
        return lower(known, hidden_part(cards))

    @staticmethod
    def before_load(d: Draft, loaders: Sequence[int]) -> None:
        """Nothing to do: a plain hand is never dealt anew (dealt.Carded deals it anew)."""
    named = staticmethod(_in_zone)
    order = staticmethod(_order)
    on_stand = staticmethod(_on_stand)
    check_pay = staticmethod(_check_pay)
    goods = staticmethod(tuple)  # a zone as counts of goods (for the scores: already so)
    own = staticmethod(_listed)  # the viewing seat's own zone, listed
    opened = staticmethod(ids_of)  # an inspected bag's goods, as the log names them

    @staticmethod
    def in_goods(action: Any) -> Any:
        """An action as the log reads it: a plain game's actions name goods already."""
        return action
    public = staticmethod(_listed)  # a zone face up for everyone, listed
    shown = staticmethod(tuple)  # a pile or an opened bag: goods already
    known_first = staticmethod(_known_first)
    stand_faces = staticmethod(_stand_faces)
