"""Sheriff of Nottingham rules (sheriff.md): the state transitions, written once for both
kinds of zones.

A plain game keeps its zones as count vectors of goods (`counted.Counted`); a dealt game, whose
deck the network deals face down, lists cards, a token where nobody at this peer has seen the
face (`dealt.Carded`). Every transition takes the kind as `z` and moves cards only through it.
The one step only a dealt game has is the merchant's `Unpack` (only it knows which cards of its
closed bag are legal goods): with every face known the rules empty the bag themselves.

The round runs MARKET -> LOAD (simultaneous, hidden) -> DECLARE -> INSPECTION; every step but
LOAD has one active seat. Transitions are module functions over the immutable State so the
hot path stays short; `Sheriff` (game.py) wires them into the shared Game contract.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .cards import HAND_SIZE, NG, REBUILD_ABOVE, rounds
from .common import Draft, clockwise, declare_step, loaded_seats, loaders_of, move_gold, put
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
    MARKET,
    OFFER,
    OVER,
    PAY,
    UNPACK,
    Accept,
    Choose,
    Confiscate,
    Debt,
    Declare,
    Demand,
    Discard,
    DrawDeck,
    DrawDiscard,
    Inspect,
    NoOffer,
    Offer,
    Pass,
    PayGoods,
    SetAside,
    State,
    Unpack,
    build,
    draft,
)

Zones = type[Counted] | type[Carded]


def zones_of(s: State) -> Zones:
    """The zone kind of a state: a dealt game's set-aside zone is a tuple of at most 5 cards,
    never the count vector (one entry per good) of a plain game."""
    return Carded if len(s.aside) != NG else Counted


# ---- market (§5.1) ----------------------------------------------------------------------
def _market_turn(d: Draft, seat: int, z: Zones) -> None:
    if seat == d["sheriff"]:
        _start_load(d, z)
        return
    d["phase"], d["step"], d["turn"], d["aside"], d["drew_deck"] = MARKET, ASIDE, seat, z.EMPTY, False


def _after_draw(d: Draft, z: Zones) -> None:
    """Keep drawing while the hand is short and a draw is available; else discard."""
    piles = d["piles"]
    if z.size(d["hands"][d["turn"]]) < HAND_SIZE and (
        (not d["drew_deck"] and (piles[0] or piles[1]))
        or d["draw_pile"] or len(piles[0]) + len(piles[1]) > REBUILD_ABOVE
    ):
        return
    d["step"] = DISCARD


def _set_aside(d: Draft, a: SetAside, z: Zones) -> None:
    m = d["turn"]
    if not a.cards:
        _market_turn(d, (m + 1) % d["n_players"], z)
        return
    aside = z.of(a.cards)
    d.update(step=DRAW, aside=aside, hands=put(d["hands"], m, z.without(d["hands"][m], aside)),
             hand_known=put(d["hand_known"], m, z.EMPTY))
    _after_draw(d, z)


def _draw_discard(d: Draft, a: DrawDiscard, z: Zones) -> None:
    k = a.pile - 1
    pile = d["piles"][k]
    d["piles"] = put(d["piles"], k, pile[:-1])
    z.take(d, d["turn"], pile[-1], True)  # it lay face up: everyone saw it taken (§6)
    _after_draw(d, z)


def _draw_from_deck(d: Draft, a: DrawDeck, z: Zones) -> None:
    card = z.draw_deck(d)  # validate made sure there is one
    d["drew_deck"] = True
    z.take(d, d["turn"], card, False)
    _after_draw(d, z)


def _discard(d: Draft, a: Discard, z: Zones) -> None:
    k = a.pile - 1
    d["piles"] = put(d["piles"], k, d["piles"][k] + a.order)
    d["aside"] = z.EMPTY
    _market_turn(d, (d["turn"] + 1) % d["n_players"], z)


# ---- load (§5.2) ------------------------------------------------------------------------
def _start_load(d: Draft, z: Zones) -> None:
    d.update(phase=LOAD, step="", turn=-1, aside=z.EMPTY, drew_deck=False)
    loaders = loaders_of(d["n_players"], d["sheriff"], d["hands"])
    if not loaders:
        _end_round(d, z)
        return
    z.before_load(d, loaders)


def _load(d: Draft, actions: Mapping[int, Any], z: Zones) -> None:
    hands, known, bags = list(d["hands"]), list(d["hand_known"]), list(d["bags"])
    for seat, action in actions.items():
        known[seat] = z.EMPTY  # cards left the hand face down: nobody knows which (§6)
        bag = z.of(action.cards)
        bags[seat] = bag
        hands[seat] = z.without(hands[seat], bag)
    d.update(hands=tuple(hands), hand_known=tuple(known), bags=tuple(bags))
    first = clockwise(d["n_players"], loaded_seats(d), d["sheriff"])[0]
    d.update(phase=DECLARE, step="", turn=first)


# ---- inspection phase (§5.4-§5.6, §5.8) -------------------------------------------------
def _choose(d: Draft, a: Choose, z: Zones) -> None:
    m = a.seat
    d.update(merchant=m, talk=(), offer=None, exchange=1)
    if ("inspect", m) in d["conditions"]:
        _inspect(d, z)
        return
    d.update(step=OFFER, turn=m)


def _offer(d: Draft, a: Offer | NoOffer, z: Zones) -> None:
    m = d["merchant"]
    d.update(step=ANSWER, turn=d["sheriff"], talk=d["talk"] + ((m, a),))
    if type(a) is Offer:
        d["offer"] = a
        if a.stand_goods:  # naming face-down goods identifies them (§5.4.1, §6)
            z.identify(d, m, a.stand_goods)


def _answer(d: Draft, a: Any, z: Zones) -> None:
    d["talk"] = d["talk"] + ((d["sheriff"], a),)
    kind = type(a)
    if kind is Demand:
        d.update(step=OFFER, turn=d["merchant"], exchange=d["exchange"] + 1)
    elif kind is Inspect:
        _inspect(d, z)
    elif z.UNPACKS:  # the merchant empties the bag: only it knows which cards are legal goods
        d.update(step=UNPACK, turn=d["merchant"], held="deal" if kind is Accept else "pass")
    elif kind is Accept:
        _accept(d, z)
    else:
        _pass_bag(d, d["bags"][d["merchant"]], z)
        _finish(d, "passed", z)


def _pass_bag(d: Draft, bag: Any, z: Zones) -> None:
    """The bag's remaining cards onto the merchant's stand (contraband face down, §5.5)."""
    m = d["merchant"]
    d["stands"] = put(d["stands"], m, z.add(d["stands"][m], bag))
    d["bags"] = put(d["bags"], m, z.EMPTY)


def _give(d: Draft, taker: int, cards: Any, z: Zones) -> None:
    """Goods onto a stand; face-down ones stay identified, as the transfer showed them (§6)."""
    d["stands"] = put(d["stands"], taker, z.add(d["stands"][taker], cards))
    hidden = z.face_down(cards)
    if any(hidden):
        d["stand_known"] = put(d["stand_known"], taker, z.add(d["stand_known"][taker], hidden))


def _transfer(d: Draft, giver: int, taker: int, cards: Any, z: Zones) -> None:
    d["stands"] = put(d["stands"], giver, z.without(d["stands"][giver], cards))
    d["stand_known"] = put(d["stand_known"], giver, z.forget(d["stand_known"][giver], cards))
    _give(d, taker, cards, z)


def _deal_terms(d: Draft, z: Zones) -> None:
    """An accepted offer's gold, conditions and stand goods change hands (§5.4.3)."""
    o, m, sheriff = d["offer"], d["merchant"], d["sheriff"]
    if o.gold:
        move_gold(d, m, sheriff, o.gold)
    if o.conditions:
        d["conditions"] = tuple(sorted(set(d["conditions"]) | set(o.conditions),
                                       key=lambda c: (c[1], c[0])))
    if o.stand_goods:
        _transfer(d, m, sheriff, z.of(o.stand_goods), z)


def _accept(d: Draft, z: Zones) -> None:
    """Every face known: the bag goods of the offer are delivered only as far as they are
    really in the bag (§5.4.3), the rest passes."""
    _deal_terms(d, z)
    o, m = d["offer"], d["merchant"]
    bag = d["bags"][m]
    if o.bag_goods:
        delivered = tuple(map(min, z.of(o.bag_goods), bag))
        _give(d, d["sheriff"], delivered, z)
        bag = z.without(bag, delivered)
    _pass_bag(d, bag, z)
    _finish(d, "deal", z)


def _unpack(d: Draft, a: Unpack, z: Zones) -> None:
    """A dealt game: the merchant names what its bag hands over and what it shows (§5.4.3)."""
    m, deal = d["merchant"], d["held"] == "deal"
    d["held"] = ""
    if deal:
        _deal_terms(d, z)
        if a.delivered:
            _give(d, d["sheriff"], a.delivered, z)
    _pass_bag(d, z.without(d["bags"][m], a.delivered), z)  # contraband stays face down
    _finish(d, "deal" if deal else "passed", z)


def _inspect(d: Draft, z: Zones) -> None:
    m = d["merchant"]
    bag = d["bags"][m]  # a dealt bag's faces were shown to the table first (`needs`)
    kept, confiscated = z.split(bag, d["declared"][m])
    d.update(offer=None, bags=put(d["bags"], m, z.EMPTY),
             stands=put(d["stands"], m, z.add(d["stands"][m], kept)),
             revealed=put(d["revealed"], m, z.listed(bag)),
             outcomes=put(d["outcomes"], m, "inspected"))
    if any(confiscated):
        d.update(step=CONFISCATE, turn=d["sheriff"], confiscated=confiscated)
        return
    _settle(d, d["sheriff"], m, z.fines(bag), z)


def _confiscate(d: Draft, a: Confiscate, z: Zones) -> None:
    k = a.pile - 1
    owed = z.fines(d["confiscated"])
    d.update(piles=put(d["piles"], k, d["piles"][k] + a.order), confiscated=z.EMPTY)
    _settle(d, d["merchant"], d["sheriff"], owed, z)


def _settle(d: Draft, payer: int, creditor: int, owed: int, z: Zones) -> None:
    """Gold first, automatically; the rest in goods by the payer's own choice (§5.8)."""
    paid = min(d["gold"][payer], owed)
    if paid:
        move_gold(d, payer, creditor, paid)
    rest = owed - paid
    if rest > 0 and any(d["stands"][payer]):
        d.update(step=PAY, turn=payer, debt=Debt(payer, creditor, rest))
        return
    _finish(d, "inspected", z)


def _pay(d: Draft, a: PayGoods, z: Zones) -> None:
    debt = d["debt"]
    _transfer(d, debt.payer, debt.creditor, z.of(a.cards), z)
    _finish(d, "inspected", z)


def _finish(d: Draft, outcome: str, z: Zones) -> None:
    m = d["merchant"]
    pending = tuple(p for p in d["pending"] if p != m)
    d.update(pending=pending, outcomes=put(d["outcomes"], m, outcome), offer=None,
             merchant=-1, exchange=0, debt=None)
    if pending:
        d.update(step=CHOOSE, turn=d["sheriff"])
    else:
        _end_round(d, z)


# ---- end of round (§5.9) ----------------------------------------------------------------
def _end_round(d: Draft, z: Zones) -> None:
    n = d["n_players"]
    if d["round"] + 1 >= rounds(n):
        d.update(phase=OVER, step="", turn=-1, pending=(), merchant=-1)
        return
    outgoing = d["sheriff"]
    for k in range(1, n + 1):  # clockwise from the outgoing Sheriff's left
        z.refill(d, (outgoing + k) % n)
    sheriff = (outgoing + 1) % n
    d.update(round=d["round"] + 1, sheriff=sheriff, bags=(z.EMPTY,) * n, declared=("",) * n,
             pending=(), conditions=(), merchant=-1, exchange=0, offer=None, talk=(),
             outcomes=("",) * n, revealed=((),) * n, debt=None, sealed=(0,) * n, held="")
    _market_turn(d, (sheriff + 1) % n, z)


def _declare(d: Draft, a: Declare, z: Zones) -> None:
    declare_step(d, a)  # no card moves


APPLY = {
    SetAside: _set_aside,
    DrawDiscard: _draw_discard,
    DrawDeck: _draw_from_deck,
    Discard: _discard,
    Declare: _declare,
    Choose: _choose,
    Offer: _offer,
    NoOffer: _offer,
    Demand: _answer,
    Accept: _answer,
    Pass: _answer,
    Inspect: _answer,
    Unpack: _unpack,
    Confiscate: _confiscate,
    PayGoods: _pay,
}
"""Action type -> its transition `(draft, action, zone kind)`, for every step but LOAD."""


def next_state(s: State, actions: Mapping[int, Any]) -> State:
    """The state after one (validated) step: transitions edit a draft, built once at the end."""
    z = Carded if len(s.aside) != NG else Counted
    d = draft(s)
    if s.phase == LOAD:
        _load(d, actions, z)
    else:
        a = actions[s.turn]
        APPLY[type(a)](d, a, z)
    return build(d)
