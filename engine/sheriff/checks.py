"""Validation of the plain game's actions (a dealt game's: dealt_checks.py): one check per
step, each raising `IllegalAction` with a reason written for the player."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .cards import (
    ASIDE_MAX,
    BAG_MAX,
    IDX,
    IS_LEGAL,
    NG,
    VALUE,
    counts_of,
    covers,
    ids_of,
)
from .common import (
    PAY_RANK,
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
    Confiscate,
    Discard,
    Load,
    NoOffer,
    Offer,
    PayGoods,
    SetAside,
    State,
)


def bag_size(s: State, seat: int) -> int:
    return sum(s.bags[seat])


def _order(seat: int, what: str, order: Any, want: Sequence[int]) -> None:
    if not isinstance(order, tuple) or not all(isinstance(c, str) and c in IDX for c in order):
        raise illegal(seat, what, "the order must be a tuple of good ids")
    if counts_of(order) != tuple(want):
        raise illegal(seat, what, f"the order must hold exactly {', '.join(ids_of(want))}")


def _check_aside(s: State, seat: int, a: Any) -> None:
    hand = s.hands[seat]
    if not isinstance(a, SetAside):
        raise illegal(seat, "do that now", "set aside 0-5 cards first")
    cards = counts_named(seat, "set those cards aside", a.cards)
    if not covers(hand, cards):
        raise illegal(seat, "set those cards aside", "they are not all in your hand")
    most = min(ASIDE_MAX, sum(hand))
    if sum(cards) > most:
        raise illegal(seat, "set those cards aside", f"at most {most} cards may be set aside")


def _check_discard(s: State, seat: int, a: Any) -> None:
    if not isinstance(a, Discard):
        raise illegal(seat, "do that now", "discard the set-aside cards onto one pile")
    check_pile(seat, "discard", a.pile)
    _order(seat, "discard", a.order, s.aside)


def _check_confiscate(s: State, seat: int, a: Any) -> None:
    if not isinstance(a, Confiscate):
        raise illegal(seat, "do that now", "place the confiscated cards on a discard pile")
    check_pile(seat, "confiscate", a.pile)
    _order(seat, "confiscate", a.order, s.confiscated)


def _check_load(s: State, seat: int, a: Any) -> None:
    hand = s.hands[seat]
    most = min(BAG_MAX, sum(hand))
    if not isinstance(a, Load):
        raise illegal(seat, "do that now", "load your bag")
    cards = counts_named(seat, "load those cards", a.cards)
    if not covers(hand, cards):
        raise illegal(seat, "load those cards", "they are not all in your hand")
    if not 1 <= sum(cards) <= most:
        raise illegal(seat, "load those cards", f"a bag holds 1 to {most} cards")


def _check_offer(s: State, seat: int, a: Any) -> None:
    if isinstance(a, NoOffer):
        return
    if not isinstance(a, Offer):
        raise illegal(seat, "do that now", "make an offer or no offer")
    what = "make that offer"
    if not isinstance(a.gold, int) or isinstance(a.gold, bool) or a.gold < 0:
        raise illegal(seat, what, "gold must be a whole number of 0 or more")
    if a.gold > s.gold[seat]:
        raise illegal(seat, what, f"you have only {s.gold[seat]} gold")
    stand = counts_named(seat, what, a.stand_goods)
    if not covers(s.stands[seat], stand):
        raise illegal(seat, what, "those goods are not all on your stand")
    bag_claim = counts_named(seat, what, a.bag_goods)
    if a.bag_goods:
        absent = absent_goods(s.n_players, s.royal)
        if any(bag_claim[i] for i in absent):
            raise illegal(seat, what, "it claims a good that is not in this game")
    if sum(bag_claim) > sum(s.bags[seat]):  # the bag size
        raise illegal(seat, what, f"your bag holds only {bag_size(s, seat)} cards")
    check_text(seat, what, a.promise)
    check_conditions(s, seat, a.conditions)
    if not (a.gold or a.stand_goods or a.bag_goods or a.promise.strip() or a.conditions):
        raise illegal(seat, what, "an offer must contain something (use no offer instead)")


def _check_pay(s: State, seat: int, a: Any) -> None:
    what = "pay with those goods"
    if not isinstance(a, PayGoods):
        raise illegal(seat, "do that now", "hand over goods for the debt")
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


CHECKS = {  # validation by step (load and declare have no sub-step: their phase names it)
    ASIDE: _check_aside, DRAW: check_draw, DISCARD: _check_discard, LOAD: _check_load,
    DECLARE: check_declare, CHOOSE: check_choose, OFFER: _check_offer, ANSWER: check_answer,
    CONFISCATE: _check_confiscate, PAY: _check_pay,
    OVER: _check_pay,  # never reached through the guards; what the old else-branch did
}


def check_step(s: State, seat: int, a: Any) -> None:
    CHECKS[s.step or s.phase](s, seat, a)
