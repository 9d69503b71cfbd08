"""Validation of Sheriff's actions: one check per step, each raising `IllegalAction` with a
reason written for the player. Written once, like the transitions (rules.py), on the zone kind
of the state: `counted.Counted` (a plain game) or `dealt.Carded` (a dealt game), whose checks
of named cards differ (goods counted, or distinct cards named, shown and identified first).
"""

from __future__ import annotations

from typing import Any

from .cards import ASIDE_MAX, BAG_MAX, NG
from .common import (
    absent_goods,
    check_answer,
    check_choose,
    check_conditions,
    check_declare,
    check_draw,
    check_pile,
    check_text,
    counts_named,
    illegal,
)
from .counted import Counted
from .dealt import Carded
from .state import (
    ANSWER,
    ASIDE,
    CHOOSE,
    CONFISCATE,
    DECLARE,
    DISCARD,
    DRAW,
    LOAD,
    OFFER,
    OVER,
    PAY,
    UNPACK,
    Confiscate,
    Discard,
    Load,
    NoOffer,
    Offer,
    PayGoods,
    SetAside,
    State,
)

Zones = type[Counted] | type[Carded]


def _check_aside(s: State, seat: int, a: Any, z: Zones) -> None:
    if not isinstance(a, SetAside):
        raise illegal(seat, "do that now", "set aside 0-5 cards first")
    hand = s.hands[seat]
    cards = z.named(seat, "set those cards aside", a.cards, hand, "they are not all in your hand")
    most = min(ASIDE_MAX, z.size(hand))
    if z.size(cards) > most:
        raise illegal(seat, "set those cards aside", f"at most {most} cards may be set aside")


def _check_discard(s: State, seat: int, a: Any, z: Zones) -> None:
    if not isinstance(a, Discard):
        raise illegal(seat, "do that now", "discard the set-aside cards onto one pile")
    check_pile(seat, "discard", a.pile)
    z.order(seat, "discard", a.order, s.aside, "set-aside")


def _check_confiscate(s: State, seat: int, a: Any, z: Zones) -> None:
    if not isinstance(a, Confiscate):
        raise illegal(seat, "do that now", "place the confiscated cards on a discard pile")
    check_pile(seat, "confiscate", a.pile)
    z.order(seat, "confiscate", a.order, s.confiscated, "confiscated")


def _check_load(s: State, seat: int, a: Any, z: Zones) -> None:
    if not isinstance(a, Load):
        raise illegal(seat, "do that now", "load your bag")
    hand = s.hands[seat]
    cards = z.named(seat, "load those cards", a.cards, hand, "they are not all in your hand")
    most = min(BAG_MAX, z.size(hand))
    if not 1 <= z.size(cards) <= most:
        raise illegal(seat, "load those cards", f"a bag holds 1 to {most} cards")


def _check_offer(s: State, seat: int, a: Any, z: Zones) -> None:
    if isinstance(a, NoOffer):
        return
    if not isinstance(a, Offer):
        raise illegal(seat, "do that now", "make an offer or no offer")
    what = "make that offer"
    if not isinstance(a.gold, int) or isinstance(a.gold, bool) or a.gold < 0:
        raise illegal(seat, what, "gold must be a whole number of 0 or more")
    if a.gold > s.gold[seat]:
        raise illegal(seat, what, f"you have only {s.gold[seat]} gold")
    z.on_stand(seat, what, a.stand_goods, s.stands[seat], s.stand_known[seat])
    bag_claim = counts_named(seat, what, a.bag_goods)  # words, not cards: good ids
    if a.bag_goods and any(bag_claim[i] for i in absent_goods(s.n_players, s.royal)):
        raise illegal(seat, what, "it claims a good that is not in this game")
    bag = z.size(s.bags[seat])
    if sum(bag_claim) > bag:
        raise illegal(seat, what, f"your bag holds only {bag} cards")
    check_text(seat, what, a.promise)
    check_conditions(s, seat, a.conditions)
    if not (a.gold or a.stand_goods or a.bag_goods or a.promise.strip() or a.conditions):
        raise illegal(seat, what, "an offer must contain something (use no offer instead)")


def _check_pay(s: State, seat: int, a: Any, z: Zones) -> None:
    if not isinstance(a, PayGoods):
        raise illegal(seat, "do that now", "hand over goods for the debt")
    z.check_pay(s, seat, a)  # the order of §5.8, no change given: on goods or on cards


def _check_unpack(s: State, seat: int, a: Any, z: Zones) -> None:
    Carded.check_unpack(s, seat, a)  # the step only a dealt game has


CHECKS = {  # validation by step (load and declare have no sub-step: their phase names it);
    # the checks of words (draw, declaration, choice, answer) are the same for both kinds
    ASIDE: _check_aside, DRAW: check_draw, DISCARD: _check_discard, LOAD: _check_load,
    DECLARE: check_declare, CHOOSE: check_choose, OFFER: _check_offer, ANSWER: check_answer,
    UNPACK: _check_unpack, CONFISCATE: _check_confiscate, PAY: _check_pay,
}


def _check_over(s: State, seat: int, a: Any, z: Zones) -> None:
    raise illegal(seat, "do that now", "the game is over")  # (the guards stop it before)


CHECKS[OVER] = _check_over


def check_step(s: State, seat: int, a: Any) -> None:
    CHECKS[s.step or s.phase](s, seat, a, Carded if len(s.aside) != NG else Counted)
