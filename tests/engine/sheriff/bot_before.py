"""The Sheriff heuristic bot as it was before issue 22 (the reference of bench/sheriff_exploits.py,
kept verbatim so one run shows before and after). It was:

Heuristic Sheriff of Nottingham bot: smuggles when it pays, declares plausibly, bribes
and inspects by expected value. It reads only its view and picks from its legal actions.

The numbers are rough table estimates, not a solved game: a bag is inspected about one time
in three, a lying bag costs about two gold per card of penalties, and an honest merchant
rarely bribes.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from engine.bots.base import Bot
from engine.core import HIDDEN, Action, ActionSpace, pick_uniform
from engine.sheriff.cards import IDX, IS_LEGAL, KING, LEGAL, PENALTY, VALUE
from engine.sheriff.dealt_view import names_cards, play_in_goods
from engine.sheriff.state import (
    ANSWER,
    ASIDE,
    CHOOSE,
    CONFISCATE,
    DECLARE,
    DISCARD,
    DRAW,
    INSPECT,
    LOAD,
    MARKET,
    OFFER,
    PAY,
    Accept,
    Choose,
    Confiscate,
    Declare,
    Demand,
    Discard,
    DrawDeck,
    DrawDiscard,
    Inspect,
    Load,
    NoOffer,
    Offer,
    Pass,
    PayGoods,
    SetAside,
    View,
)

P_INSPECT = 0.35  # how often the bot expects its bag to be opened
LYING_LOSS_PER_CARD = 2.5  # what the bot expects to collect per card from a lying bag
HONEST_SHARE = 0.25  # share of bags it expects to be honest

_DEMAND = "More gold, or I open the bag."
_PROMISE = "It is exactly what I declared."


def _value(card: str) -> int:
    return VALUE[IDX[card]]


def _is_legal(card: str) -> bool:
    return IS_LEGAL[IDX[card]]


def _canonical(cards: Sequence[str]) -> tuple[str, ...]:
    return tuple(sorted(cards, key=IDX.__getitem__))


class SheriffBotBefore(Bot):
    kind = "before"

    def choose(self, view: View, actions: Sequence[Action] | ActionSpace) -> Action:
        if names_cards(actions):  # a dealt game's actions name its cards: think in goods
            action = play_in_goods(self._choose, view, actions)
            return action if action is not None else pick_uniform(actions, self.rng)
        return self._choose(view, actions)

    def _choose(self, view: View, actions: Sequence[Action] | ActionSpace) -> Action:
        if view.step == PAY and isinstance(actions, tuple) and actions:
            return self.choose_payment(actions)
        pick = self._decide(view)
        if pick is not None and pick in actions:
            return pick
        return pick_uniform(actions, self.rng)

    # ---- dispatch -----------------------------------------------------------------------
    def _decide(self, v: View) -> Action | None:
        me = v.players[self.seat]
        if v.phase == MARKET:
            if v.step == ASIDE:
                return self._set_aside(v, me.hand)
            if v.step == DRAW:
                return self._draw(v, me.hand)
            if v.step == DISCARD:
                return Discard(1, tuple(sorted(me.set_aside, key=_value, reverse=True)))
        if v.phase == LOAD:
            return Load(_canonical(self._best_bag(me.hand, me.stand_up)[0]))
        if v.phase == DECLARE:
            return Declare(self._declaration(me.bag, me.stand_up))
        if v.phase == INSPECT:
            if v.step == CHOOSE:
                return Choose(max(v.pending, key=lambda p: (len(v.players[p].bag), -p)))
            if v.step == OFFER:
                return self._offer(v)
            if v.step == ANSWER:
                return self._answer(v)
            if v.step == CONFISCATE:  # cheapest card on top: the least help to the next merchant
                return Confiscate(1, tuple(sorted(v.confiscated, key=_value, reverse=True)))
        return None

    def choose_payment(self, actions: Sequence[PayGoods]) -> PayGoods:
        """The payment that gives away the least value."""
        return min(actions, key=lambda a: (sum(map(_value, a.cards)), len(a.cards)))

    # ---- market -------------------------------------------------------------------------
    def _target(self, hand: Sequence[str], stand_up: Sequence[str]) -> str:
        """The legal good to collect: most copies in hand and on the stand, then King bonus."""
        have = Counter(hand) + Counter(stand_up)
        return max(LEGAL, key=lambda g: (have[g] * 4 + KING[g] // 5, -IDX[g]))

    def _keep(self, card: str, target: str) -> bool:
        return card == target or not _is_legal(card)

    def _set_aside(self, v: View, hand: Sequence[str]) -> Action:
        target = self._target(hand, v.players[self.seat].stand_up)
        junk = [c for c in hand if not self._keep(c, target)]
        if v.draw_size == 0 and not any(v.piles):
            junk = []
        return SetAside(_canonical(junk[:5]))

    def _draw(self, v: View, hand: Sequence[str]) -> Action:
        target = self._target(hand, v.players[self.seat].stand_up)
        if not v.drew_deck:
            best = None
            for pile, cards in ((1, v.piles[0]), (2, v.piles[1])):
                if cards and self._keep(cards[0], target):
                    score = _value(cards[0]) + (3 if cards[0] == target else 0)
                    if best is None or score > best[0]:
                        best = (score, pile)
            if best is not None:
                return DrawDiscard(best[1])
        return DrawDeck()

    # ---- bag ----------------------------------------------------------------------------
    def _bag_ev(self, bag: Sequence[str], declared: str) -> float:
        total = sum(map(_value, bag))
        kept = [c for c in bag if c == declared]
        lost = [c for c in bag if c != declared]
        if not lost:  # honest: the Sheriff pays 2 a card if he opens it
            caught = total + sum(PENALTY[IDX[c]] for c in bag)
        else:
            caught = sum(map(_value, kept)) - sum(PENALTY[IDX[c]] for c in lost)
        risk = P_INSPECT + 0.1 * len(lost)  # bigger lies look worse
        risk = min(risk, 0.9)
        bonus = 1.5 * len(kept)  # King/Queen race for the declared good
        return (1 - risk) * total + risk * caught + bonus

    def _best_bag(self, hand: Sequence[str], stand_up: Sequence[str]) -> tuple[list[str], str]:
        contraband = sorted((c for c in hand if not _is_legal(c)), key=_value, reverse=True)
        best: tuple[float, list[str], str] | None = None
        for good in LEGAL:
            legal = [c for c in hand if c == good][:5]
            for k in range(0, min(len(contraband), 5 - len(legal)) + 1):
                bag = legal + contraband[:k]
                if not bag:
                    continue
                ev = self._bag_ev(bag, good)
                if best is None or ev > best[0]:
                    best = (ev, bag, good)
        if best is None:
            return [min(hand, key=_value)], LEGAL[0]
        return best[1], best[2]

    def _declaration(self, bag: Sequence[str], stand_up: Sequence[str]) -> str:
        legal = Counter(c for c in bag if _is_legal(c))
        if legal:
            return max(legal, key=lambda g: (legal[g], -IDX[g]))
        have = Counter(stand_up)  # all contraband: claim what we are known to collect
        return max(LEGAL, key=lambda g: (have[g], -IDX[g]))

    # ---- negotiation as a merchant ------------------------------------------------------
    def _offer(self, v: View) -> Action:
        me = v.players[self.seat]
        lies = [c for c in me.bag if c != me.declared]
        if not lies:
            return NoOffer()  # an honest bag wants to be opened: the Sheriff pays
        at_risk = sum(map(_value, lies)) + sum(PENALTY[IDX[c]] for c in lies)
        if v.exchange == 1:
            return Offer(promise=_PROMISE)  # free: it only makes "accept" possible
        share = 0.25 if v.exchange == 2 else 0.4
        gold = min(me.gold, int(at_risk * share))
        if gold <= 0:
            return Offer(promise=_PROMISE)
        return Offer(gold=gold, promise=_PROMISE)

    # ---- the Sheriff --------------------------------------------------------------------
    def _inspect_ev(self, v: View, merchant: int) -> float:
        size = len(v.players[merchant].bag)
        lying = (1 - HONEST_SHARE) * LYING_LOSS_PER_CARD * size
        honest = HONEST_SHARE * 2 * size
        return lying - honest

    def _offer_value(self, v: View, offer: Offer) -> float:
        value = offer.gold + sum(map(_value, (c for c in offer.stand_goods if c != HIDDEN)))
        value += 0.5 * sum(map(_value, offer.bag_goods))
        for kind, seat in offer.conditions:
            ev = self._inspect_ev(v, seat)
            value += ev if kind == "inspect" else -max(ev, 0)
        return value

    def _answer(self, v: View) -> Action:
        m = v.merchant
        ev = self._inspect_ev(v, m)
        can_inspect = ("pass", m) not in v.conditions
        offer = v.offer
        if offer is not None:
            worth = self._offer_value(v, offer)
            if worth >= ev or not can_inspect:
                return Accept()
            if v.exchange < 3 and worth > 0:
                return Demand(_DEMAND)
        if not can_inspect:
            return Pass()
        if ev > 0:
            return Inspect()
        return Pass()
