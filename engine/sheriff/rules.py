"""Sheriff of Nottingham rules (sheriff.md): the plain game's state transitions, on counts of
goods (a dealt game's, on cards: dealt.py).

The round runs MARKET -> LOAD (simultaneous, hidden) -> DECLARE -> INSPECTION; every step but
LOAD has one active seat. Transitions are module functions over the immutable State so the
hot path stays short; `Sheriff` (game.py) wires them into the shared Game contract.
"""

from __future__ import annotations

import operator
from collections.abc import Mapping, Sequence
from typing import Any

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
    rounds,
    sub,
)
from .common import Draft, clockwise, declare_step, loaded_seats, loaders_of, move_gold, put
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
    build,
    draft,
)


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


# ---- market (§5.1) ----------------------------------------------------------------------
def _market_turn(d: Draft, seat: int) -> None:
    if seat == d["sheriff"]:
        _start_load(d)
        return
    d["phase"], d["step"], d["turn"], d["aside"], d["drew_deck"] = MARKET, ASIDE, seat, ZERO, False


def _after_draw(d: Draft) -> None:
    """Keep drawing while the hand is short and a draw is available; else discard."""
    piles = d["piles"]
    if sum(d["hands"][d["turn"]]) < HAND_SIZE and (
        (not d["drew_deck"] and (piles[0] or piles[1]))
        or d["draw_pile"] or len(piles[0]) + len(piles[1]) > REBUILD_ABOVE
    ):
        return
    d["step"] = DISCARD


def _set_aside(d: Draft, a: SetAside) -> None:
    m = d["turn"]
    if not a.cards:
        _market_turn(d, (m + 1) % d["n_players"])
        return
    aside = counts_of(a.cards)
    d.update(step=DRAW, aside=aside, hands=put(d["hands"], m, sub(d["hands"][m], aside)),
             hand_known=put(d["hand_known"], m, ZERO))
    _after_draw(d)


def _take(d: Draft, seat: int, card: int, identified: bool) -> None:
    hand = list(d["hands"][seat])
    hand[card] += 1
    d["hands"] = put(d["hands"], seat, tuple(hand))
    if identified:
        known = list(d["hand_known"][seat])
        known[card] += 1
        d["hand_known"] = put(d["hand_known"], seat, tuple(known))


def _draw_discard(d: Draft, a: DrawDiscard) -> None:
    k = a.pile - 1
    pile = d["piles"][k]
    d["piles"] = put(d["piles"], k, pile[:-1])
    _take(d, d["turn"], IDX[pile[-1]], True)  # everyone saw it taken (§6)
    _after_draw(d)


def _draw_from_deck(d: Draft) -> None:
    card = _draw_deck(d)  # validate made sure there is one
    d["drew_deck"] = True
    _take(d, d["turn"], IDX[card], False)
    _after_draw(d)


def _discard(d: Draft, a: Discard) -> None:
    k = a.pile - 1
    d["piles"] = put(d["piles"], k, d["piles"][k] + a.order)
    d["aside"] = ZERO
    _market_turn(d, (d["turn"] + 1) % d["n_players"])


def _start_load(d: Draft) -> None:
    d.update(phase=LOAD, step="", turn=-1, aside=ZERO, drew_deck=False)
    if not loaders_of(d["n_players"], d["sheriff"], d["hands"]):
        _end_round(d)


def _load(d: Draft, actions: Mapping[int, Any]) -> None:
    hands, known, bags = list(d["hands"]), list(d["hand_known"]), list(d["bags"])
    for seat, action in actions.items():
        known[seat] = ZERO  # cards left the hand face down: nobody knows which (§6)
        bag = counts_of(action.cards)
        bags[seat] = bag
        hands[seat] = sub(hands[seat], bag)
    d.update(hands=tuple(hands), hand_known=tuple(known), bags=tuple(bags))
    loaded = loaded_seats(d)
    first = clockwise(d["n_players"], loaded, d["sheriff"])[0]
    d.update(phase=DECLARE, step="", turn=first)


# ---- inspection phase (§5.4-§5.6, §5.8) -------------------------------------------------
def _choose(d: Draft, a: Choose) -> None:
    m = a.seat
    d.update(merchant=m, talk=(), offer=None, exchange=1)
    if ("inspect", m) in d["conditions"]:
        _decide(d, "inspect")
        return
    d.update(step=OFFER, turn=m)


def _offer(d: Draft, a: Offer | NoOffer) -> None:
    m = d["merchant"]
    d.update(step=ANSWER, turn=d["sheriff"], talk=d["talk"] + ((m, a),))
    if type(a) is Offer:
        d["offer"] = a
        if a.stand_goods:  # naming face-down goods identifies them (§5.4.1, §6)
            named = hidden_part(counts_of(a.stand_goods))
            if any(named):  # (legal goods lie face up: naming them identifies nothing new)
                known = tuple(map(max, d["stand_known"][m], named))
                d["stand_known"] = put(d["stand_known"], m, known)


def _answer(d: Draft, a: Any) -> None:
    d["talk"] = d["talk"] + ((d["sheriff"], a),)
    kind = type(a)
    if kind is Demand:
        d.update(step=OFFER, turn=d["merchant"], exchange=d["exchange"] + 1)
    else:
        _decide(d, "deal" if kind is Accept else "pass" if kind is Pass else "inspect")


def _decide(d: Draft, decision: str) -> None:
    """The Sheriff's final decision about the merchant."""
    _DECISIONS[decision](d)


def _let_pass(d: Draft) -> None:
    _pass_bag(d, d["bags"][d["merchant"]])
    _finish(d, "passed")


def _pass_bag(d: Draft, bag: Sequence[int]) -> None:
    """The bag's remaining cards onto the merchant's stand (contraband face down, §5.5)."""
    m = d["merchant"]
    d["stands"] = put(d["stands"], m, add(d["stands"][m], bag))
    d["bags"] = put(d["bags"], m, ZERO)


def _give(d: Draft, taker: int, cards: Sequence[int]) -> None:
    """Goods onto a stand; face-down ones stay identified, as the transfer showed them (§6)."""
    d["stands"] = put(d["stands"], taker, add(d["stands"][taker], cards))
    hidden = hidden_part(cards)
    if any(hidden):
        d["stand_known"] = put(d["stand_known"], taker, add(d["stand_known"][taker], hidden))


def _transfer(d: Draft, giver: int, taker: int, cards: Sequence[int]) -> None:
    d["stands"] = put(d["stands"], giver, sub(d["stands"][giver], cards))
    d["stand_known"] = put(d["stand_known"], giver,
                            lower(d["stand_known"][giver], hidden_part(cards)))
    _give(d, taker, cards)


def _accept(d: Draft) -> None:
    o, m, sheriff = d["offer"], d["merchant"], d["sheriff"]
    if o.gold:
        move_gold(d, m, sheriff, o.gold)
    if o.conditions:
        d["conditions"] = tuple(sorted(set(d["conditions"]) | set(o.conditions),
                                       key=lambda c: (c[1], c[0])))
    if o.stand_goods:
        _transfer(d, m, sheriff, counts_of(o.stand_goods))
    bag = d["bags"][m]
    if o.bag_goods:  # delivered only as far as they are really in the bag (§5.4.3)
        delivered = tuple(min(c, b) for c, b in zip(counts_of(o.bag_goods), bag, strict=True))
        _give(d, sheriff, delivered)
        bag = sub(bag, delivered)
    _pass_bag(d, bag)
    _finish(d, "deal")


def _inspect(d: Draft) -> None:
    m = d["merchant"]
    bag = d["bags"][m]
    declared = IDX[d["declared"][m]]
    kept = [0] * NG
    kept[declared] = bag[declared]
    confiscated = sub(bag, kept)
    d.update(offer=None, bags=put(d["bags"], m, ZERO),
             stands=put(d["stands"], m, add(d["stands"][m], kept)),
             revealed=put(d["revealed"], m, ids_of(bag)),
             outcomes=put(d["outcomes"], m, "inspected"))
    if any(confiscated):
        d.update(step=CONFISCATE, turn=d["sheriff"], confiscated=confiscated)
        return
    _settle(d, d["sheriff"], m, sum(map(operator.mul, bag, PENALTY)))


def _confiscate(d: Draft, a: Confiscate) -> None:
    k = a.pile - 1
    owed = sum(map(operator.mul, d["confiscated"], PENALTY))
    d.update(piles=put(d["piles"], k, d["piles"][k] + a.order), confiscated=ZERO)
    _settle(d, d["merchant"], d["sheriff"], owed)


def _settle(d: Draft, payer: int, creditor: int, owed: int) -> None:
    """Gold first, automatically; the rest in goods by the payer's own choice (§5.8)."""
    paid = min(d["gold"][payer], owed)
    if paid:
        move_gold(d, payer, creditor, paid)
    rest = owed - paid
    if rest > 0 and any(d["stands"][payer]):
        d.update(step=PAY, turn=payer, debt=Debt(payer, creditor, rest))
        return
    _finish(d, "inspected")


def _pay(d: Draft, a: PayGoods) -> None:
    debt = d["debt"]
    _transfer(d, debt.payer, debt.creditor, counts_of(a.cards))
    _finish(d, "inspected")


def _finish(d: Draft, outcome: str) -> None:
    m = d["merchant"]
    pending = tuple(p for p in d["pending"] if p != m)
    d.update(pending=pending, outcomes=put(d["outcomes"], m, outcome), offer=None,
             merchant=-1, exchange=0, debt=None)
    if pending:
        d.update(step=CHOOSE, turn=d["sheriff"])
    else:
        _end_round(d)


_DECISIONS = {"deal": _accept, "pass": _let_pass, "inspect": _inspect}


# ---- end of round (§5.9) ----------------------------------------------------------------
def _end_round(d: Draft) -> None:
    n = d["n_players"]
    if d["round"] + 1 >= rounds(n):
        d.update(phase=OVER, step="", turn=-1, pending=(), merchant=-1)
        return
    outgoing = d["sheriff"]
    for k in range(1, n + 1):  # clockwise from the outgoing Sheriff's left
        p = (outgoing + k) % n
        hand = d["hands"][p]
        short = HAND_SIZE - sum(hand)
        if 0 < short <= len(d["draw_pile"]):  # the common case: the draw pile has them all
            cards, d["draw_pile"] = draw(d["draw_pile"], short)  # what the loop below draws
            refilled = list(hand)
            for card in cards:
                refilled[IDX[card]] += 1
            d["hands"] = put(d["hands"], p, tuple(refilled))
            continue
        while sum(d["hands"][p]) < HAND_SIZE:
            card = _draw_deck(d)
            if card is None:
                break  # the discard piles do not change: nobody later can draw either (§5.7)
            _take(d, p, IDX[card], False)
    sheriff = (outgoing + 1) % n
    d.update(round=d["round"] + 1, sheriff=sheriff, bags=(ZERO,) * n, declared=("",) * n,
             pending=(), conditions=(), merchant=-1, exchange=0, offer=None, talk=(),
             outcomes=("",) * n, revealed=((),) * n, debt=None, sealed=(0,) * n, held="")
    _market_turn(d, (sheriff + 1) % n)


APPLY = {
    SetAside: _set_aside,
    DrawDiscard: _draw_discard,
    DrawDeck: lambda d, a: _draw_from_deck(d),
    Discard: _discard,
    Declare: declare_step,
    Choose: _choose,
    Offer: _offer,
    NoOffer: _offer,
    Demand: _answer,
    Accept: _answer,
    Pass: _answer,
    Inspect: _answer,
    Confiscate: _confiscate,
    PayGoods: _pay,
}


def next_state(s: State, actions: Mapping[int, Any]) -> State:
    """The state after one (validated) step: transitions edit a draft, built once at the end."""
    d = draft(s)
    if s.phase == LOAD:
        _load(d, actions)
    else:
        a = actions[s.turn]
        APPLY[type(a)](d, a)
    return build(d)
