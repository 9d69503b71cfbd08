"""The normal Sheriff bot as it was on 2026-12-03 before its speed-up (issue 22 item 6), kept
verbatim (imports made absolute, class renamed) so tests/engine/sheriff/test_bot_reference.py
can check that today's bot makes the same decision at every step, and the bench can time both.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence

from engine.bots.base import Bot
from engine.core import HIDDEN, Action, ActionSpace, Game, Seat, Stream, pick_uniform
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

PROMISES = (
    "",
    "It is exactly what I declared.",
    "Nothing to hide, Sheriff.",
    "Open it if you like.",
    "Honest goods for the market.",
)
"""What a merchant says with an offer: drawn uniformly, first, whatever the bag holds."""
DEMANDS = ("More gold, or I open the bag.", "Is that all?", "")

INSPECT_PRIOR = (2.0, 2.0)  # Beta prior on a Sheriff's inspect rate: 0.5 before any bag
LIE_PRIOR = (1.0, 1.2)  # Beta prior on a merchant lying: 0.45 before any evidence
BAG_TEMPERATURE = 2.0  # gold: how sharply a merchant prefers its best-valued bag
INSPECT_TEMPERATURE = 2.5  # gold: how sharply the Sheriff follows the worth of inspecting
KING_RACE = 1.0  # what a legal good on the stand is worth beyond its value (King/Queen race)
BRIBE_LIKELIHOOD = 2.5  # how much likelier a gold bribe comes from a lying bag
NO_BRIBE_LIKELIHOOD = 0.6  # and how much less likely no gold does
HONEST_BRIBE = 0.15  # how often an honest bag bribes anyway (so gold alone is no proof)
CONTRABAND_VALUE, CONTRABAND_PENALTY = 7.0, 4.0  # a typical contraband card
SMUGGLE_BELOW = 0.35  # smuggling pays while bags are opened less often than this


def _value(card: str) -> int:
    return VALUE[IDX[card]]


def _is_legal(card: str) -> bool:
    return IS_LEGAL[IDX[card]]


def _fine(cards: Sequence[str]) -> int:
    return sum(PENALTY[IDX[c]] for c in cards)


def _canonical(cards: Sequence[str]) -> tuple[str, ...]:
    return tuple(sorted(cards, key=IDX.__getitem__))


def _table_mark(v: View, seat: int) -> tuple[int, int, int]:
    """What the table shows of `seat`: gold, cards on its stand, cards in its bag."""
    p = v.players[seat]
    return p.gold, len(p.stand_up) + len(p.stand_down), len(p.bag)


class SheriffBotReference(Bot):
    kind = "heuristic"

    def __init__(self, game: Game, seat: Seat, rng: Stream) -> None:
        super().__init__(game, seat, rng)
        # (round, merchant) -> (sheriff, outcome, honest or None when not opened): what the
        # views of this game showed, so both roles can read the table's history
        self.record: dict[tuple[int, int], tuple[int, str, bool | None]] = {}
        # my last view: (round, Sheriff, {merchant still to be dealt with: _table_mark})
        self.last: tuple[int, int, dict[int, tuple[int, int, int]]] | None = None

    def choose(self, view: View, actions: Sequence[Action] | ActionSpace) -> Action:
        # a dealt game's legal actions name my cards: think in goods, play the cards
        if names_cards(actions):
            action = play_in_goods(self._choose, view, actions)
            return action if action is not None else pick_uniform(actions, self.rng)
        return self._choose(view, actions)

    def _choose(self, view: View, actions: Sequence[Action] | ActionSpace) -> Action:
        self._observe(view)
        if view.step == PAY and isinstance(actions, tuple) and actions:
            return self.choose_payment(actions)
        for pick in self._decide(view):
            if pick in actions:
                return pick
        return pick_uniform(actions, self.rng)

    # ---- what the table has shown -----------------------------------------------------
    def _observe(self, v: View) -> None:
        if self.last is not None and self.last[0] < v.round and not any(p.outcome for p in v.players):
            self._settle_unseen(v)
        for p in v.players:
            if p.seat != v.sheriff and p.outcome:
                honest = p.inspection.honest if p.inspection is not None else None
                self.record[(v.round, p.seat)] = (v.sheriff, p.outcome, honest)
        waiting = [m for m in (*v.pending, v.merchant) if m >= 0 and not v.players[m].outcome]
        self.last = (v.round, v.sheriff, {m: _table_mark(v, m) for m in waiting})

    def _settle_unseen(self, v: View) -> None:
        """The bags of the last round dealt with after my last decision in it, read from what
        they did to their merchants' gold and stands (views only show this round's outcomes)."""
        round_, sheriff, waiting = self.last
        for m, (gold, stand, bag) in waiting.items():
            gold_now, stand_now, _ = _table_mark(v, m)
            if (round_, m) in self.record or not bag:
                continue
            if gold_now > gold:  # the Sheriff paid an honest bag's fines
                self.record[(round_, m)] = (sheriff, "inspected", True)
            elif stand_now - stand >= bag:  # every card reached the stand: it passed
                self.record[(round_, m)] = (sheriff, "passed" if gold_now == gold else "deal", None)
            else:  # cards were confiscated
                self.record[(round_, m)] = (sheriff, "inspected", False)

    def inspect_rate(self, sheriff: int) -> float:
        """How often `sheriff` opens a bag: its own record, starting from the whole table's
        (every Sheriff so far), itself starting from INSPECT_PRIOR."""
        outcomes = [(s, o) for s, o, _ in self.record.values()]
        opened = sum(o == "inspected" for _, o in outcomes)
        table = (INSPECT_PRIOR[0] + opened) / (sum(INSPECT_PRIOR) + len(outcomes))
        mine = [o for s, o in outcomes if s == sheriff]
        weight = 2.0  # the table's rate counts as two bags of this Sheriff's own
        return (weight * table + mine.count("inspected")) / (weight + len(mine))

    def lie_rate(self, v: View, merchant: int) -> float:
        """How likely `merchant`'s bag lies: the bags it was caught with or found honest, and
        of the bags that passed, about as many as the contraband they left face down on its
        stand (public) shows."""
        seen = [(o, h) for (_, m), (_, o, h) in self.record.items() if m == merchant]
        caught = sum(h is False for _, h in seen)
        passed = sum(h is None for _, h in seen)
        smuggled = min(len(v.players[merchant].stand_down) / 1.5, passed)
        return (LIE_PRIOR[0] + caught + smuggled) / (sum(LIE_PRIOR) + len(seen))

    def _chance(self, p: float) -> bool:
        return self.rng.below(10_000) < int(10_000 * min(max(p, 0.0), 1.0))

    # ---- dispatch -----------------------------------------------------------------------
    def _decide(self, v: View) -> tuple[Action, ...]:
        """The bot's picks for this step, best first (the first legal one is played)."""
        me = v.players[self.seat]
        if v.phase == MARKET:
            if v.step == ASIDE:
                return (self._set_aside(v, me.hand),)
            if v.step == DRAW:
                return (self._draw(v, me.hand),)
            if v.step == DISCARD:
                return (Discard(1, tuple(sorted(me.set_aside, key=_value, reverse=True))),)
        if v.phase == LOAD:
            return (Load(_canonical(self._load(v, me.hand))),)
        if v.phase == DECLARE:
            return (Declare(self._declaration(me.bag, me.stand_up)),)
        if v.phase == INSPECT:
            if v.step == CHOOSE:
                return (Choose(max(v.pending, key=lambda p: (self.lie_rate(v, p) * len(v.players[p].bag), -p))),)
            if v.step == OFFER:
                return (self._offer(v), NoOffer())
            if v.step == ANSWER:
                return self._answer(v)
            if v.step == CONFISCATE:  # cheapest card on top: the least help to the next merchant
                return (Confiscate(1, tuple(sorted(v.confiscated, key=_value, reverse=True))),)
        return ()

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
        if self.seat != v.sheriff and self._opened_chance(v) > SMUGGLE_BELOW:
            # a Sheriff who opens this often is met with honest bags: trade contraband for
            # the target good, the cheapest first
            junk += sorted((c for c in hand if not _is_legal(c)), key=_value)
        if v.draw_size == 0 and not any(v.piles):
            junk = []
        return SetAside(_canonical(junk[:5]))

    def _draw(self, v: View, hand: Sequence[str]) -> Action:
        target = self._target(hand, v.players[self.seat].stand_up)
        honest = self.seat != v.sheriff and self._opened_chance(v) > SMUGGLE_BELOW
        if not v.drew_deck:
            best = None
            for pile, cards in ((1, v.piles[0]), (2, v.piles[1])):
                if cards and (cards[0] == target if honest else self._keep(cards[0], target)):
                    score = _value(cards[0]) + (3 if cards[0] == target else 0)
                    if best is None or score > best[0]:
                        best = (score, pile)
            if best is not None:
                return DrawDiscard(best[1])
        return DrawDeck()

    # ---- bag ----------------------------------------------------------------------------
    def _opened_chance(self, v: View) -> float:
        """How likely this round's Sheriff opens my bag: its rate, raised by my lies caught
        (it remembers them) and lowered when it found me honest."""
        mine = [h for (_, m), (_, _, h) in self.record.items() if m == self.seat and h is not None]
        q = self.inspect_rate(v.sheriff) + 0.1 * mine.count(False) - 0.05 * mine.count(True)
        return min(max(q, 0.05), 0.95)

    def bag_value(self, bag: Sequence[str], declared: str, opened: float) -> float:
        """Expected worth of loading `bag` declared as `declared`, opened with chance `opened`."""
        kept = [c for c in bag if c == declared]
        lost = [c for c in bag if c != declared]
        passed = sum(map(_value, bag)) + KING_RACE * len(kept)
        if lost:
            caught = sum(map(_value, kept)) + KING_RACE * len(kept) - _fine(lost)
        else:  # honest: the Sheriff pays the fines if he opens it
            caught = passed + _fine(bag)
        return (1 - opened) * passed + opened * caught

    def bag_choices(self, v: View, hand: Sequence[str]) -> list[tuple[float, list[str]]]:
        """Each bag worth considering (one legal good, then the best contraband), valued."""
        opened = self._opened_chance(v)
        contraband = sorted((c for c in hand if not _is_legal(c)), key=_value, reverse=True)
        stand_up = v.players[self.seat].stand_up
        choices = []
        for good in LEGAL:
            legal = [c for c in hand if c == good][:5]
            if not legal and good != self._declaration((), stand_up):
                continue  # a bag of contraband only is declared one way
            for k in range(0, min(len(contraband), 5 - len(legal)) + 1):
                bag = legal + contraband[:k]
                if bag:
                    choices.append((self.bag_value(bag, good, opened), bag))
        return choices

    def _load(self, v: View, hand: Sequence[str]) -> list[str]:
        choices = self.bag_choices(v, hand)
        if not choices:
            return [min(hand, key=_value)]
        return choices[self._softmax([ev for ev, _ in choices], BAG_TEMPERATURE)][1]

    def _softmax(self, values: Sequence[float], temperature: float) -> int:
        """An index drawn with weight exp(value / temperature)."""
        top = max(values)
        weights = [math.exp((x - top) / temperature) for x in values]
        point = self.rng.below(1_000_000) / 1_000_000 * sum(weights)
        for i, w in enumerate(weights):
            point -= w
            if point < 0:
                return i
        return len(weights) - 1

    def _declaration(self, bag: Sequence[str], stand_up: Sequence[str]) -> str:
        legal = Counter(c for c in bag if _is_legal(c))
        if legal:
            return max(legal, key=lambda g: (legal[g], -IDX[g]))
        have = Counter(stand_up)  # all contraband: claim what we are known to collect
        return max(LEGAL, key=lambda g: (have[g], -IDX[g]))

    # ---- negotiation as a merchant ------------------------------------------------------
    def _offer(self, v: View) -> Action:
        promise = PROMISES[self.rng.below(len(PROMISES))]  # first, whatever the bag: no tell
        me = v.players[self.seat]
        lies = [c for c in me.bag if c != me.declared]
        if not lies:  # honest: an opened bag pays; a small bribe now and then hides the liars
            if v.exchange == 1 and me.gold > 0 and self._chance(HONEST_BRIBE):
                return Offer(gold=1, promise=promise)
            return Offer(promise=promise) if v.exchange == 1 else NoOffer()
        at_risk = sum(map(_value, lies)) + _fine(lies)
        threat = self._opened_chance(v) if v.exchange == 1 else 0.6  # a demand means business
        share = (15 + self.rng.below(31)) / 100  # 15-45 % of what an opening would cost
        gold = min(me.gold, round(at_risk * share * (1 + 0.5 * (v.exchange - 1))))
        if gold > 0 and gold < threat * at_risk and self._chance(min(0.2 + 1.5 * threat, 0.9)):
            return Offer(gold=gold, promise=promise)
        return Offer(promise=promise) if v.exchange == 1 else NoOffer()

    # ---- the Sheriff --------------------------------------------------------------------
    def _denial_weight(self, v: View, merchant: int) -> float:
        """What a gold kept from `merchant` is worth to me: more when it leads the others."""
        def shown(p: int) -> float:
            seat = v.players[p]
            return seat.gold + sum(map(_value, seat.stand_up)) + CONTRABAND_VALUE * len(seat.stand_down)
        others = [p for p in range(v.n_players) if p != self.seat]
        return 0.45 if max(others, key=shown) == merchant else 0.25

    def inspect_worth(self, v: View, merchant: int, lying: float) -> float:
        """Expected gain of opening `merchant`'s bag when it lies with chance `lying`."""
        size = len(v.players[merchant].bag)
        w = self._denial_weight(v, merchant)
        contraband = max(1.0, 0.6 * size)
        if_lying = contraband * (CONTRABAND_PENALTY + w * CONTRABAND_VALUE)
        if_honest = (1 + w) * 2 * size  # every legal good's fine is 2
        return lying * if_lying - (1 - lying) * if_honest

    def _offer_value(self, v: View, offer: Offer) -> float:
        value = offer.gold + sum(map(_value, (c for c in offer.stand_goods if c != HIDDEN)))
        value += 0.5 * sum(map(_value, offer.bag_goods))
        for kind, seat in offer.conditions:
            ev = self.inspect_worth(v, seat, self.lie_rate(v, seat))
            value += ev if kind == "inspect" else -max(ev, 0)
        return value * (1 + self._denial_weight(v, v.merchant))

    def _answer(self, v: View) -> tuple[Action, ...]:
        m, offer = v.merchant, v.offer
        lying = self.lie_rate(v, m)
        # Bayes: liars bribe more often than honest merchants, who rarely do
        odds = lying / (1 - lying) * (BRIBE_LIKELIHOOD if offer is not None and offer.gold > 0 else NO_BRIBE_LIKELIHOOD)
        lying = odds / (1 + odds)
        worth = self.inspect_worth(v, m, lying)
        offered = self._offer_value(v, offer) if offer is not None else 0.0
        settle = (Accept(), Pass()) if offer is not None and offered > 0 else (Pass(), Accept())
        inspect_p = 1 / (1 + math.exp(-(worth - max(offered, 0.0)) / INSPECT_TEMPERATURE))
        if not self._chance(inspect_p):
            return (*settle, Inspect())
        if v.exchange < 3 and offer is not None and offer.gold > 0 and self._chance(0.5):
            return (Demand(DEMANDS[self.rng.below(len(DEMANDS))]), Inspect(), *settle)
        return (Inspect(), *settle)
