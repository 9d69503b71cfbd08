"""Sheriff of Nottingham: other hands, bags, set-aside cards, face-down stands and the deck.

Public: gold, declarations, face-up stands, the discard piles, sizes of every hidden zone and
the cards identified to everyone (§6). Every good not shown to the seat is dealt at random to
those zones, a face-down stand taking contraband and royal goods only. The sampled state is a
plain one (zones as counts of goods), which is how local tables play; a dealt game's view names
goods as the plain game's does, so the same function reads either.
"""

from __future__ import annotations

from collections import Counter

from ...core import HIDDEN, Game, Stream
from ...sheriff.cards import GOODS, IDX, IS_LEGAL, ZERO, counts_of, setup_deck
from ...sheriff.state import LOAD, State, View
from . import fresh_rng


def _goods(cards) -> list[str]:
    """A view's goods, the hidden cards left out."""
    return [c for c in cards if c != HIDDEN]


def _hidden(cards) -> int:
    return sum(1 for c in cards if c == HIDDEN)


def _visible(view: View) -> Counter:
    seen: Counter = Counter()
    for p in view.players:
        for zone in (p.hand, p.set_aside, p.bag, p.stand_up, p.stand_down):
            seen.update(_goods(zone))
    seen.update(_goods(view.piles[0] + view.piles[1] + view.confiscated))
    return seen


def sample(game: Game, view: View, rng: Stream) -> State:
    n = view.n_players
    pool = rng.shuffle(sorted((Counter(setup_deck(n, view.royal_goods)) - _visible(view)).elements()))

    def deal(k: int, face_down_stand: bool = False) -> list[str]:
        out = []
        for _ in range(k):
            i = next((j for j in range(len(pool) - 1, -1, -1)
                      if not (face_down_stand and IS_LEGAL[IDX[pool[j]]])), None)
            out.append(pool.pop(i) if i is not None else GOODS[-1])
        return out

    players = view.players
    stands, stand_known = [], []
    for p in players:  # contraband first: only those goods may fill a face-down stand
        known = _goods(p.stand_down)
        stands.append(counts_of(_goods(p.stand_up) + known + deal(_hidden(p.stand_down), True)))
        stand_known.append(ZERO if p.seat == view.seat else counts_of(known))
    hands, hand_known, bags = [], [], []
    for p in players:
        known = _goods(p.hand)
        hands.append(counts_of(known + deal(_hidden(p.hand))))
        hand_known.append(ZERO if p.seat == view.seat else counts_of(known))
        bags.append(counts_of(_goods(p.bag) + deal(_hidden(p.bag))))
    aside = ZERO
    for p in players:
        if p.set_aside:
            aside = counts_of(_goods(p.set_aside) + deal(_hidden(p.set_aside)))
    draw_pile = tuple(deal(view.draw_size))
    return State(
        n_players=n, royal=view.royal_goods, rng=fresh_rng(rng), phase=view.phase, step=view.step,
        round=view.round, sheriff=view.sheriff,
        turn=view.active[0] if view.active and view.phase != LOAD else -1,
        gold=tuple(p.gold for p in players), hands=tuple(hands), hand_known=tuple(hand_known),
        aside=aside, drew_deck=view.drew_deck, bags=tuple(bags),
        declared=tuple(p.declared for p in players), stands=tuple(stands),
        stand_known=tuple(stand_known), draw_pile=draw_pile,
        piles=(tuple(_goods(view.piles[0]))[::-1], tuple(_goods(view.piles[1]))[::-1]),
        pending=view.pending, conditions=view.conditions, merchant=view.merchant,
        exchange=view.exchange, offer=view.offer, talk=view.talk,
        confiscated=counts_of(_goods(view.confiscated)), debt=view.debt,
        outcomes=tuple(p.outcome for p in players), revealed=tuple(p.revealed for p in players),
        sealed=(0,) * n, held="",
    )
