"""Sheriff of Nottingham bot (the `normal` level): merchants bluff with a mixed strategy, the
Sheriff judges by expected value. It reads only its view and picks from its legal actions.

Merchant: each bag it could load is valued by what it brings if passed and if opened, with the
chance of being opened read from this Sheriff's inspections so far (and how often this merchant
was caught); it then draws a bag with weights growing with that value (a softmax), so a
Sheriff who always opens meets honest bags and one who never opens meets contraband. Bribes
are drawn too, honest bags sometimes bribe, and every phrase is drawn before anything else in
the decision, from one list with fixed weights: talk carries no tell.

Sheriff: inspecting a bag is worth the fines and the denied contraband if it lies, minus the
fines paid if it is honest; the chance it lies comes from this merchant's record (caught lying,
found honest, contraband face down on its stand) and from a gold bribe (a liar bribes more
often than an honest merchant). It inspects with a probability rising smoothly with that
worth over the best bribe or a free pass, so it is never predictable.

All randomness comes from the bot's own stream (`rng`); the record is what earlier views of
this game showed (each round's outcomes and opened bags).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from functools import lru_cache

from ..core import HIDDEN, Action, ActionSpace, Game, Seat, Stream, pick_uniform
from ..sheriff.cards import IDX, IS_LEGAL, KING, LEGAL, PENALTY, VALUE
from ..sheriff.dealt_view import names_cards, play_in_goods
from ..sheriff.state import (
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
from .base import Bot

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
BRIBES_SEARCHED = (1, 2, 4, 7)  # gold bribes the hard bot tries (and half its gold)


VALUE_OF = {good: VALUE[i] for good, i in IDX.items()}
PENALTY_OF = {good: PENALTY[i] for good, i in IDX.items()}
_value = VALUE_OF.__getitem__  # a good's value (a sort key too)


def _is_legal(card: str) -> bool:
    return IS_LEGAL[IDX[card]]


def _fine(cards: Sequence[str]) -> int:
    return sum(map(PENALTY_OF.__getitem__, cards))


def _canonical(cards: Sequence[str]) -> tuple[str, ...]:
    return tuple(sorted(cards, key=IDX.__getitem__))


# ---- pure parts, remembered by their arguments (the same hands and stands come back) ----
def _target_of(hand: tuple[str, ...], stand_up: tuple[str, ...]) -> str:
    """`SheriffBot._target`: the copies of each legal good counted in place (no Counter)."""
    return max(LEGAL, key=lambda g: ((hand.count(g) + stand_up.count(g)) * 4 + KING[g] // 5, -IDX[g]))


def _declaration_of(bag: tuple[str, ...], stand_up: tuple[str, ...]) -> str:
    """The good to declare: the most copies of a legal good in the bag, the first on a tie
    (the copies counted in place: the keys are distinct, so no Counter order matters)."""
    legal = [g for g in LEGAL if g in bag]
    if legal:
        return max(legal, key=lambda g: (bag.count(g), -IDX[g]))
    # all contraband: claim what we are known to collect
    return max(LEGAL, key=lambda g: (stand_up.count(g), -IDX[g]))


def bag_value(bag: Sequence[str], declared: str, opened: float) -> float:
    """Expected worth of loading `bag` declared as `declared`, opened with chance `opened`."""
    kept = [c for c in bag if c == declared]
    lost = [c for c in bag if c != declared]
    passed = sum(map(_value, bag)) + KING_RACE * len(kept)
    if lost:
        caught = sum(map(_value, kept)) + KING_RACE * len(kept) - _fine(lost)
    else:  # honest: the Sheriff pays the fines if he opens it
        caught = passed + _fine(bag)
    return (1 - opened) * passed + opened * caught


@lru_cache(maxsize=64)  # asked again by the hard bot's shortlist; a hand seldom comes back later
def _bag_choices(
    hand: tuple[str, ...], stand_up: tuple[str, ...], opened: float,
) -> tuple[tuple[float, tuple[str, ...]], ...]:
    """`SheriffBot.bag_choices` from what it depends on: (worth, bag) in the order drawn from."""
    contraband = sorted((c for c in hand if not _is_legal(c)), key=_value, reverse=True)
    # bag_value of each bag, its sums over the contraband taken as running totals
    values, fines = [0], [0]
    for card in contraband:
        values.append(values[-1] + VALUE_OF[card])
        fines.append(fines[-1] + PENALTY_OF[card])
    choices = []
    for good in LEGAL:
        n = min(hand.count(good), 5)
        if not n and good != _declaration_of((), stand_up):
            continue  # a bag of contraband only is declared one way
        legal = [good] * n
        legal_value, legal_fine, race = n * VALUE_OF[good], n * PENALTY_OF[good], KING_RACE * n
        for k in range(0, min(len(contraband), 5 - n) + 1):
            if not n and not k:
                continue
            passed = legal_value + values[k] + race
            if k:  # contraband is never the declared good: it is lost
                caught = legal_value + race - fines[k]
            else:  # honest: the Sheriff pays the fines if he opens it
                caught = passed + legal_fine
            choices.append(((1 - opened) * passed + opened * caught, tuple(legal + contraband[:k])))
    return tuple(choices)


class Record(dict):
    """(round, merchant) -> (sheriff, outcome, honest or None when not opened), counting its
    changes (`version`) so the rates read from it are worked out once per change."""

    version = 0

    def __setitem__(self, key: tuple[int, int], value: tuple[int, str, bool | None]) -> None:
        self.version += 1
        super().__setitem__(key, value)

    def __delitem__(self, key: tuple[int, int]) -> None:
        self.version += 1
        super().__delitem__(key)

    def update(self, *args: object, **kwargs: object) -> None:
        self.version += 1
        super().update(*args, **kwargs)

    def clear(self) -> None:
        self.version += 1
        super().clear()

    def pop(self, *args: object) -> object:
        self.version += 1
        return super().pop(*args)

    def popitem(self) -> tuple:
        self.version += 1
        return super().popitem()

    def setdefault(self, key: tuple[int, int], default: object = None) -> object:
        self.version += 1
        return super().setdefault(key, default)


def _table_mark(v: View, seat: int) -> tuple[int, int, int]:
    """What the table shows of `seat`: gold, cards on its stand, cards in its bag."""
    p = v.players[seat]
    return p.gold, len(p.stand_up) + len(p.stand_down), len(p.bag)


class SheriffBot(Bot):
    kind = "heuristic"

    def __init__(self, game: Game, seat: Seat, rng: Stream) -> None:
        super().__init__(game, seat, rng)
        # (round, merchant) -> (sheriff, outcome, honest or None when not opened): what the
        # views of this game showed, so both roles can read the table's history
        self.record: dict[tuple[int, int], tuple[int, str, bool | None]] = Record()
        # the rates worked out from the record, by their arguments, for its version `memo_of`
        self.memo: dict[tuple, float] = {}
        self.memo_of = -1
        # my last view: (round, Sheriff, {merchant still to be dealt with: _table_mark})
        self.last: tuple[int, int, dict[int, tuple[int, int, int]]] | None = None

    def choose(self, view: View, actions: Sequence[Action] | ActionSpace) -> Action:
        return self.in_own_terms(self._choose, view, actions)

    def in_own_terms(self, decide: Callable[..., Action], view: View, actions: Sequence[Action] | ActionSpace) -> Action:
        # a dealt game's legal actions name my cards: think in goods (as the view is), play
        # the cards
        if names_cards(actions):
            action = play_in_goods(decide, view, actions)
            return action if action is not None else pick_uniform(actions, self.rng)
        return decide(view, actions)

    def _choose(self, view: View, actions: Sequence[Action] | ActionSpace) -> Action:
        self._observe(view)
        if view.step == PAY and isinstance(actions, tuple) and actions:
            return self.choose_payment(actions)
        for pick in self._decide(view):
            if pick in actions:
                return pick
        return pick_uniform(actions, self.rng)

    # ---- for the hard bot (engine/bots/search.py) ---------------------------------------
    def shortlist(self, view: View, actions: Sequence[Action] | ActionSpace) -> list[Action] | None:
        """Bags best valued first; bribes; nothing as the Sheriff (a sampled closed bag is random
        goods, nearly always a lie: rollouts would open every bag). Asked after `choose`."""
        me = view.players[self.seat]
        if view.phase == LOAD and me.hand:
            choices = _bag_choices(tuple(me.hand), tuple(me.stand_up), self._opened_chance(view))
            ranked = sorted(choices, key=lambda choice: -choice[0])
            return [Load(_canonical(bag)) for _, bag in ranked]
        if view.phase == INSPECT and view.step == OFFER:
            gold = sorted({*BRIBES_SEARCHED, me.gold // 2} - {0})
            offers = [Offer(), NoOffer(), *(Offer(gold=g) for g in gold if g <= me.gold)]
            return [offer for offer in offers if offer in actions]
        if view.seat == view.sheriff and view.phase == INSPECT:
            return []
        return None

    def share_memory(self, other: Bot) -> None:
        """My record of the table (every entry read from public outcomes) for a rollout bot."""
        if isinstance(other, SheriffBot):
            other.record = Record(self.record)

    # ---- what the table has shown -----------------------------------------------------
    def _observe(self, v: View) -> None:
        if self.last is not None and self.last[0] < v.round and not any(p.outcome for p in v.players):
            self._settle_unseen(v)
        record, players = self.record, v.players
        for p in players:
            if p.outcome and p.seat != v.sheriff:
                honest = p.inspection.honest if p.inspection is not None else None
                seen = (v.sheriff, p.outcome, honest)
                if record.get((v.round, p.seat)) != seen:  # written once: the rates stay known
                    record[(v.round, p.seat)] = seen
        waiting = [m for m in (*v.pending, v.merchant) if m >= 0 and not players[m].outcome]
        self.last = (v.round, v.sheriff, {m: _table_mark(v, m) for m in waiting} if waiting else {})

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

    def _remembered(self, key: tuple) -> float | None:
        """A rate worked out already from this version of the record (None: not yet)."""
        version = getattr(self.record, "version", None)
        if version is None or version != self.memo_of:  # a plain dict (a test's) is never trusted
            self.memo.clear()
            self.memo_of = -1 if version is None else version
            return None
        return self.memo.get(key)

    def _remember(self, key: tuple, rate: float) -> float:
        if self.memo_of >= 0:
            self.memo[key] = rate
        return rate

    def inspect_rate(self, sheriff: int) -> float:
        """How often `sheriff` opens a bag: its own record, starting from the whole table's
        (every Sheriff so far), itself starting from INSPECT_PRIOR."""
        rate = self._remembered(("inspect", sheriff))
        return rate if rate is not None else self._remember(("inspect", sheriff), self._inspect_rate(sheriff))

    def _inspect_rate(self, sheriff: int) -> float:
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
        key = ("lie", merchant, len(v.players[merchant].stand_down))
        rate = self._remembered(key)
        return rate if rate is not None else self._remember(key, self._lie_rate(v, merchant))

    def _lie_rate(self, v: View, merchant: int) -> float:
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
        return _target_of(tuple(hand), tuple(stand_up))

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
        rate = self._remembered(("opened", v.sheriff))
        return rate if rate is not None else self._remember(("opened", v.sheriff), self._opened(v))

    def _opened(self, v: View) -> float:
        mine = [h for (_, m), (_, _, h) in self.record.items() if m == self.seat and h is not None]
        q = self.inspect_rate(v.sheriff) + 0.1 * mine.count(False) - 0.05 * mine.count(True)
        return min(max(q, 0.05), 0.95)

    def bag_value(self, bag: Sequence[str], declared: str, opened: float) -> float:
        """Expected worth of loading `bag` declared as `declared`, opened with chance `opened`."""
        return bag_value(bag, declared, opened)

    def bag_choices(self, v: View, hand: Sequence[str]) -> list[tuple[float, list[str]]]:
        """Each bag worth considering (one legal good, then the best contraband), valued."""
        choices = _bag_choices(tuple(hand), tuple(v.players[self.seat].stand_up), self._opened_chance(v))
        return [(ev, list(bag)) for ev, bag in choices]

    def _load(self, v: View, hand: Sequence[str]) -> Sequence[str]:
        choices = _bag_choices(tuple(hand), tuple(v.players[self.seat].stand_up), self._opened_chance(v))
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
        return _declaration_of(tuple(bag), tuple(stand_up))

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
