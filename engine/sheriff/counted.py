"""The zones of a plain game: count vectors of goods (cards of one good are identical).

`Counted` is one of the two zone kinds the rules (rules.py) are written on; the other is a
dealt game's `dealt.Carded`, whose zones list cards. Each operation here is what the plain game
always did, on counts, so that local play keeps its speed and its state encoding (the golden
playthroughs pin its state hashes).
"""

from __future__ import annotations

import operator
from collections.abc import Sequence

from ..core.deck import draw, shuffle_or_stack
from .cards import (
    HAND_SIZE,
    IDX,
    NG,
    PENALTY,
    PILE_START,
    REBUILD_ABOVE,
    ZERO,
    add,
    counts_of,
    hidden_part,
    ids_of,
    lower,
    sub,
)
from .common import Draft, put

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
