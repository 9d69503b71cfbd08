"""Sheriff of Nottingham rules (sheriff.md): the Game subclass and its state transitions.

The round runs MARKET -> LOAD (simultaneous, hidden) -> DECLARE -> INSPECTION; every step but
LOAD has one active seat. Transitions are module functions over the immutable State so the
hot path stays short; `Sheriff` wires them into the shared Game contract.
"""

from __future__ import annotations

import operator
import re
from collections.abc import Mapping, Sequence
from functools import cache, lru_cache
from typing import Any

from ..core import HIDDEN, Game, IllegalAction, InvalidOption, OptionSpec, Result, Rng
from ..core.deck import draw, shuffle_or_stack
from ..core.hidden import is_token
from .cards import (
    ASIDE_MAX,
    BAG_MAX,
    CARD_GOOD,
    EXCHANGES,
    GOODS,
    HAND_SIZE,
    IDX,
    IS_LEGAL,
    LEGAL,
    NG,
    PAY_ORDER,
    PENALTY,
    PILE_START,
    REBUILD_ABOVE,
    STARTING_GOLD,
    VALUE,
    ZERO,
    add,
    card_deck,
    counts_of,
    covers,
    goods_in_game,
    hidden_part,
    ids_of,
    lower,
    rounds,
    setup_deck,
    sub,
)
from .events import sheriff_events
from .scoring import final_result
from .spaces import DEMANDS, OfferSpace, OrderSpace, SubsetSpace, claims
from .state import (
    ACTIONS,
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
    OVER,
    PAY,
    PROMISE_MAX,
    Accept,
    Choose,
    Condition,
    Confiscate,
    Debt,
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
    SeatView,
    SetAside,
    State,
    View,
    build,
    draft,
)
from .view import OPPOSITE, consequences, inspection

Draft = dict[str, Any]

_PAY_RANK = {GOODS[i]: rank for rank, i in enumerate(PAY_ORDER)}


@cache
def _absent(n_players: int, royal: bool) -> tuple[int, ...]:
    """Indices of the goods not in this game (a bag claim may not name them)."""
    allowed = goods_in_game(n_players, royal)
    return tuple(i for i in range(NG) if i not in allowed)


_DECLARES = tuple(Declare(g) for g in LEGAL)


def _put(seq: tuple, index: int, value: Any) -> tuple:
    return seq[:index] + (value,) + seq[index + 1:]


@lru_cache(maxsize=1024)
def _condition_choices(pending: tuple[int, ...], seat: int, accepted: tuple[Condition, ...]
                       ) -> tuple[tuple[Condition | None, ...], ...]:
    """Per other pending merchant: no condition, or inspect / pass unless it contradicts one
    the Sheriff accepted this round (the condition part of an offer's enumeration)."""
    choices = []
    for x in pending:
        if x == seat:
            continue
        options: list[Condition | None] = [None]
        for kind in ("inspect", "pass"):
            if (OPPOSITE[kind], x) not in accepted:
                options.append((kind, x))
        choices.append(tuple(options))
    return tuple(choices)


@cache
def _bag_claims(n_players: int, royal: bool, bag: int) -> tuple[tuple[str, ...], ...]:
    return claims(goods_in_game(n_players, royal), bag)


def _illegal(seat: int, what: str, why: str) -> IllegalAction:
    return IllegalAction(f"seat {seat} cannot {what}: {why}")


# ---- setup ------------------------------------------------------------------------------
def setup_state(n: int, seed: bytes, royal: bool, first: int | None, stacked: Any) -> State:
    later = None  # a dealt game replayed: decks the table dealt during the game
    if isinstance(stacked, Mapping):  # {"cards": deck, "rebuilds": {...}, "redeals": {...}}
        if "cards" not in stacked or not set(stacked) <= {"cards", "rebuilds", "redeals"}:
            raise InvalidOption('a stacked dealt deck is {"cards": [...], "rebuilds": {...}, "redeals": {...}}')
        stacked, later = stacked["cards"], stacked
    if stacked is not None and (
        not isinstance(stacked, (list, tuple)) or not all(isinstance(c, str) for c in stacked)
    ):
        raise InvalidOption("deck must be a list of good ids (first element = top card)")
    # a deck naming each physical card (the network's deal, engine/sheriff/dealt.py) makes a
    # dealt game: its zones hold cards, not counts of goods
    dealt = bool(stacked) and (is_token(stacked[0]) or stacked[0] in CARD_GOOD)
    if later and not dealt:
        raise InvalidOption("only a dealt deck (card ids) stacks rebuilt draw piles and hands")
    rng = Rng(seed)
    cards = card_deck(n, royal) if dealt else setup_deck(n, royal)
    deck, rng = shuffle_or_stack(cards, rng, stacked, "deck")
    if first is None:
        first, rng = rng.below(n)
    if later:
        rng = _dealt.stacked_rng(rng, later)
    hands = []
    for _ in range(n):
        cards, deck = draw(deck, HAND_SIZE)
        hands.append(tuple(cards) if dealt else counts_of(cards))
    pile1, deck = draw(deck, PILE_START)
    pile2, deck = draw(deck, PILE_START)
    zones = _dealt.dealt_zones(n) if dealt else dict(
        hand_known=(ZERO,) * n, aside=ZERO, bags=(ZERO,) * n, stands=(ZERO,) * n,
        stand_known=(ZERO,) * n, confiscated=ZERO)
    return State(
        n_players=n, royal=royal, rng=rng, phase=MARKET, step=ASIDE, round=0, sheriff=first,
        turn=(first + 1) % n, gold=(STARTING_GOLD,) * n, hands=tuple(hands), drew_deck=False,
        declared=("",) * n, draw_pile=deck, piles=(pile1, pile2), pending=(), conditions=(),
        merchant=-1, exchange=0, offer=None, talk=(), debt=None, outcomes=("",) * n,
        revealed=((),) * n, sealed=(0,) * n, held="", **zones,
    )


# ---- drawing (§5.7) ---------------------------------------------------------------------
def can_draw_deck(s: State) -> bool:
    return bool(s.draw_pile) or len(s.piles[0]) + len(s.piles[1]) > REBUILD_ABOVE


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
    d.update(step=DRAW, aside=aside, hands=_put(d["hands"], m, sub(d["hands"][m], aside)),
             hand_known=_put(d["hand_known"], m, ZERO))
    _after_draw(d)


def _take(d: Draft, seat: int, card: int, identified: bool) -> None:
    hand = list(d["hands"][seat])
    hand[card] += 1
    d["hands"] = _put(d["hands"], seat, tuple(hand))
    if identified:
        known = list(d["hand_known"][seat])
        known[card] += 1
        d["hand_known"] = _put(d["hand_known"], seat, tuple(known))


def _draw_discard(d: Draft, a: DrawDiscard) -> None:
    k = a.pile - 1
    pile = d["piles"][k]
    d["piles"] = _put(d["piles"], k, pile[:-1])
    _take(d, d["turn"], IDX[pile[-1]], True)  # everyone saw it taken (§6)
    _after_draw(d)


def _draw_from_deck(d: Draft) -> None:
    card = _draw_deck(d)  # validate made sure there is one
    d["drew_deck"] = True
    _take(d, d["turn"], IDX[card], False)
    _after_draw(d)


def _discard(d: Draft, a: Discard) -> None:
    k = a.pile - 1
    d["piles"] = _put(d["piles"], k, d["piles"][k] + a.order)
    d["aside"] = ZERO
    _market_turn(d, (d["turn"] + 1) % d["n_players"])


# ---- load and declare (§5.2, §5.3) ------------------------------------------------------
def loaders(s: State) -> tuple[int, ...]:
    return _loaders(s.n_players, s.sheriff, s.hands)


def _loaders(n: int, sheriff: int, hands: Sequence[Sequence[int]]) -> tuple[int, ...]:
    return tuple(p for p in range(n) if p != sheriff and any(hands[p]))


def _clockwise(n: int, seats: Sequence[int], after: int) -> list[int]:
    return sorted(seats, key=lambda p: (p - after - 1) % n)


def _start_load(d: Draft) -> None:
    d.update(phase=LOAD, step="", turn=-1, aside=ZERO, drew_deck=False)
    if not _loaders(d["n_players"], d["sheriff"], d["hands"]):
        _end_round(d)


def _load(d: Draft, actions: Mapping[int, Any]) -> None:
    hands, known, bags = list(d["hands"]), list(d["hand_known"]), list(d["bags"])
    for seat, action in actions.items():
        known[seat] = ZERO  # cards left the hand face down: nobody knows which (§6)
        bag = counts_of(action.cards)
        bags[seat] = bag
        hands[seat] = sub(hands[seat], bag)
    d.update(hands=tuple(hands), hand_known=tuple(known), bags=tuple(bags))
    loaded = _loaded(d)
    first = _clockwise(d["n_players"], loaded, d["sheriff"])[0]
    d.update(phase=DECLARE, step="", turn=first)


def _loaded(d: Draft) -> list[int]:
    """Merchants with a bag this round."""
    bags = d["bags"]
    return [p for p in range(d["n_players"]) if any(bags[p])]


def bag_size(s: State, seat: int) -> int:
    return sum(s.bags[seat])


def _declare(d: Draft, a: Declare) -> None:
    d["declared"] = declared = _put(d["declared"], d["turn"], a.good)
    loaded = _loaded(d)
    waiting = [p for p in _clockwise(d["n_players"], loaded, d["sheriff"]) if not declared[p]]
    if waiting:
        d["turn"] = waiting[0]
        return
    d.update(phase=INSPECT, step=CHOOSE, turn=d["sheriff"], pending=tuple(loaded),
             conditions=(), merchant=-1, talk=())


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
                d["stand_known"] = _put(d["stand_known"], m, known)


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
    d["stands"] = _put(d["stands"], m, add(d["stands"][m], bag))
    d["bags"] = _put(d["bags"], m, ZERO)


def _give(d: Draft, taker: int, cards: Sequence[int]) -> None:
    """Goods onto a stand; face-down ones stay identified, as the transfer showed them (§6)."""
    d["stands"] = _put(d["stands"], taker, add(d["stands"][taker], cards))
    hidden = hidden_part(cards)
    if any(hidden):
        d["stand_known"] = _put(d["stand_known"], taker, add(d["stand_known"][taker], hidden))


def _transfer(d: Draft, giver: int, taker: int, cards: Sequence[int]) -> None:
    d["stands"] = _put(d["stands"], giver, sub(d["stands"][giver], cards))
    d["stand_known"] = _put(d["stand_known"], giver,
                            lower(d["stand_known"][giver], hidden_part(cards)))
    _give(d, taker, cards)


def _move_gold(d: Draft, payer: int, taker: int, amount: int) -> None:
    gold = list(d["gold"])
    gold[payer] -= amount
    gold[taker] += amount
    d["gold"] = tuple(gold)


def _accept(d: Draft) -> None:
    o, m, sheriff = d["offer"], d["merchant"], d["sheriff"]
    if o.gold:
        _move_gold(d, m, sheriff, o.gold)
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
    d.update(offer=None, bags=_put(d["bags"], m, ZERO),
             stands=_put(d["stands"], m, add(d["stands"][m], kept)),
             revealed=_put(d["revealed"], m, ids_of(bag)),
             outcomes=_put(d["outcomes"], m, "inspected"))
    if any(confiscated):
        d.update(step=CONFISCATE, turn=d["sheriff"], confiscated=confiscated)
        return
    _settle(d, d["sheriff"], m, sum(map(operator.mul, bag, PENALTY)))


def _confiscate(d: Draft, a: Confiscate) -> None:
    k = a.pile - 1
    owed = sum(map(operator.mul, d["confiscated"], PENALTY))
    d.update(piles=_put(d["piles"], k, d["piles"][k] + a.order), confiscated=ZERO)
    _settle(d, d["merchant"], d["sheriff"], owed)


def _settle(d: Draft, payer: int, creditor: int, owed: int) -> None:
    """Gold first, automatically; the rest in goods by the payer's own choice (§5.8)."""
    paid = min(d["gold"][payer], owed)
    if paid:
        _move_gold(d, payer, creditor, paid)
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
    d.update(pending=pending, outcomes=_put(d["outcomes"], m, outcome), offer=None,
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
            d["hands"] = _put(d["hands"], p, tuple(refilled))
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


_APPLY = {
    SetAside: _set_aside,
    DrawDiscard: _draw_discard,
    DrawDeck: lambda d, a: _draw_from_deck(d),
    Discard: _discard,
    Declare: _declare,
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


def _one_step(s: State, seat: int, a: Any) -> State:
    """The state after `seat`'s validated action in a step where it acts alone (not LOAD)."""
    if len(s.aside) != NG:  # a dealt game (`dealt.is_dealt` written out: the hot path)
        return _dealt.next_state(s, {seat: a})
    d = draft(s)
    _APPLY[type(a)](d, a)
    return build(d)


def next_state(s: State, actions: Mapping[int, Any]) -> State:
    """The state after one (validated) step: transitions edit a draft, built once at the end."""
    if len(s.aside) != NG:  # a dealt game
        return _dealt.next_state(s, actions)
    d = draft(s)
    if s.phase == LOAD:
        _load(d, actions)
    else:
        a = actions[s.turn]
        _APPLY[type(a)](d, a)
    return build(d)


# ---- validation -------------------------------------------------------------------------
def _cards(seat: int, what: str, cards: Any, rank: Mapping[str, int] | None = None) -> tuple[int, ...]:
    """A count vector from an action's card tuple; with `rank`, the cards must follow it."""
    if not isinstance(cards, tuple):
        raise _illegal(seat, what, "the cards must be a tuple of good ids")
    if rank is None:  # the tuples seen before (every action names cards): one dict look-up
        try:
            known = _COUNTED.get(cards)
        except TypeError:  # an unhashable element: the loop below names it
            known = None
        if known is not None:
            return known
    out = [0] * NG
    last = -1
    for card in cards:
        r = IDX.get(card) if isinstance(card, str) else None
        if r is None:
            raise _illegal(seat, what, f"{card!r} is not a good")
        if rank is None:
            out[r] += 1
            continue
        r = rank[card]
        if r < last:
            order = sorted(rank, key=rank.__getitem__)
            raise _illegal(seat, what, f"list the cards in the order {', '.join(order)}")
        last = r
        out[IDX[card]] += 1
    counts = tuple(out)
    if rank is None:
        if len(_COUNTED) >= _COUNTED_MAX:
            _COUNTED.clear()
        _COUNTED[cards] = counts
    return counts


_COUNTED: dict[tuple, tuple[int, ...]] = {}
"""Card tuples already checked to be good ids -> their count vectors (see `_cards`)."""
_COUNTED_MAX = 1 << 16


def _pile(seat: int, what: str, pile: Any) -> None:
    if pile not in (1, 2) or isinstance(pile, bool) or not isinstance(pile, int):
        raise _illegal(seat, what, "the discard pile is 1 or 2")


def _order(seat: int, what: str, order: Any, want: Sequence[int]) -> None:
    if not isinstance(order, tuple) or not all(isinstance(c, str) and c in IDX for c in order):
        raise _illegal(seat, what, "the order must be a tuple of good ids")
    if counts_of(order) != tuple(want):
        raise _illegal(seat, what, f"the order must hold exactly {', '.join(ids_of(want))}")


def _text(seat: int, what: str, text: Any) -> None:
    if not isinstance(text, str):
        raise _illegal(seat, what, "the text must be a string")
    if len(text) > PROMISE_MAX:
        raise _illegal(seat, what, f"the text is longer than {PROMISE_MAX} characters")
    if not text.isprintable():
        raise _illegal(seat, what, "the text holds control characters")


def _check_aside(s: State, seat: int, a: Any) -> None:
    hand = s.hands[seat]
    if not isinstance(a, SetAside):
        raise _illegal(seat, "do that now", "set aside 0-5 cards first")
    cards = _cards(seat, "set those cards aside", a.cards)
    if not covers(hand, cards):
        raise _illegal(seat, "set those cards aside", "they are not all in your hand")
    most = min(ASIDE_MAX, sum(hand))
    if sum(cards) > most:
        raise _illegal(seat, "set those cards aside", f"at most {most} cards may be set aside")


def _check_draw(s: State, seat: int, a: Any) -> None:
    if isinstance(a, DrawDiscard):
        _pile(seat, "draw from a discard pile", a.pile)
        if s.drew_deck:
            raise _illegal(seat, "draw from a discard pile",
                           "after drawing from the draw pile only the draw pile is allowed")
        if not s.piles[a.pile - 1]:
            raise _illegal(seat, "draw from a discard pile", f"pile {a.pile} is empty")
    elif isinstance(a, DrawDeck):
        if not can_draw_deck(s):
            raise _illegal(seat, "draw from the draw pile",
                           "it is empty and the discard piles hold 10 cards or fewer")
    else:
        raise _illegal(seat, "do that now", "draw a card from a discard pile or the draw pile")


def _check_discard(s: State, seat: int, a: Any) -> None:
    if not isinstance(a, Discard):
        raise _illegal(seat, "do that now", "discard the set-aside cards onto one pile")
    _pile(seat, "discard", a.pile)
    _order(seat, "discard", a.order, s.aside)


def _check_declare(s: State, seat: int, a: Any) -> None:
    if not isinstance(a, Declare):
        raise _illegal(seat, "do that now", "declare one legal good")
    if a.good not in LEGAL:
        raise _illegal(seat, f"declare {a.good!r}", f"only {', '.join(LEGAL)} may be declared")


def _check_choose(s: State, seat: int, a: Any) -> None:
    if not isinstance(a, Choose):
        raise _illegal(seat, "do that now", "choose the next merchant to deal with")
    if a.seat not in s.pending or isinstance(a.seat, bool):
        raise _illegal(seat, f"deal with seat {a.seat!r}", "that merchant is not waiting")


def _check_confiscate(s: State, seat: int, a: Any) -> None:
    if not isinstance(a, Confiscate):
        raise _illegal(seat, "do that now", "place the confiscated cards on a discard pile")
    _pile(seat, "confiscate", a.pile)
    _order(seat, "confiscate", a.order, s.confiscated)


def _check_load(s: State, seat: int, a: Any) -> None:
    hand = s.hands[seat]
    most = min(BAG_MAX, sum(hand))
    if not isinstance(a, Load):
        raise _illegal(seat, "do that now", "load your bag")
    cards = _cards(seat, "load those cards", a.cards)
    if not covers(hand, cards):
        raise _illegal(seat, "load those cards", "they are not all in your hand")
    if not 1 <= sum(cards) <= most:
        raise _illegal(seat, "load those cards", f"a bag holds 1 to {most} cards")


def _check_offer(s: State, seat: int, a: Any) -> None:
    if isinstance(a, NoOffer):
        return
    if not isinstance(a, Offer):
        raise _illegal(seat, "do that now", "make an offer or no offer")
    what = "make that offer"
    if not isinstance(a.gold, int) or isinstance(a.gold, bool) or a.gold < 0:
        raise _illegal(seat, what, "gold must be a whole number of 0 or more")
    if a.gold > s.gold[seat]:
        raise _illegal(seat, what, f"you have only {s.gold[seat]} gold")
    stand = _cards(seat, what, a.stand_goods)
    if not covers(s.stands[seat], stand):
        raise _illegal(seat, what, "those goods are not all on your stand")
    bag_claim = _cards(seat, what, a.bag_goods)
    if a.bag_goods:
        absent = _absent(s.n_players, s.royal)
        if any(bag_claim[i] for i in absent):
            raise _illegal(seat, what, "it claims a good that is not in this game")
    if sum(bag_claim) > sum(s.bags[seat]):  # the bag size
        raise _illegal(seat, what, f"your bag holds only {bag_size(s, seat)} cards")
    _text(seat, what, a.promise)
    _check_conditions(s, seat, a.conditions)
    if not (a.gold or a.stand_goods or a.bag_goods or a.promise.strip() or a.conditions):
        raise _illegal(seat, what, "an offer must contain something (use no offer instead)")


def _check_conditions(s: State, seat: int, conditions: Any) -> None:
    what = "make that offer"
    if not isinstance(conditions, tuple):
        raise _illegal(seat, what, "conditions must be a tuple of (kind, seat) pairs")
    named: dict[int, str] = {}
    for c in conditions:
        if (not isinstance(c, tuple) or len(c) != 2 or c[0] not in OPPOSITE
                or not isinstance(c[1], int) or isinstance(c[1], bool)):
            raise _illegal(seat, what, f"{c!r} is not a condition (\"inspect\" or \"pass\", seat)")
        kind, x = c
        if x in named:
            if named[x] != kind:
                raise _illegal(seat, what, f"it asks both to inspect and to pass seat {x}")
            raise _illegal(seat, what, f"it names seat {x} twice")
        named[x] = kind
        if x == seat or x not in s.pending:
            raise _illegal(seat, what, f"seat {x} is not another merchant still to be dealt with")
        if (OPPOSITE[kind], x) in s.conditions:
            raise _illegal(seat, what,
                           f"the Sheriff already accepted to {OPPOSITE[kind]} seat {x} this round")


def _check_answer(s: State, seat: int, a: Any) -> None:
    m = s.merchant
    if isinstance(a, Demand):
        if s.exchange >= EXCHANGES:
            raise _illegal(seat, "demand more", "this is the last exchange: accept, pass or inspect")
        _text(seat, "demand that", a.text)
    elif isinstance(a, Accept):
        if s.offer is None:
            raise _illegal(seat, "accept", f"seat {m} has made no offer")
        for kind, x in s.offer.conditions:
            if (OPPOSITE[kind], x) in s.conditions:
                raise _illegal(seat, "accept", f"the offer contradicts the accepted {OPPOSITE[kind]} of seat {x}")
    elif isinstance(a, Inspect):
        if ("pass", m) in s.conditions:
            raise _illegal(seat, "inspect", f"you accepted to let seat {m} pass this round")
    elif not isinstance(a, Pass):
        raise _illegal(seat, "do that now", "demand, accept, pass or inspect")


def _check_pay(s: State, seat: int, a: Any) -> None:
    what = "pay with those goods"
    if not isinstance(a, PayGoods):
        raise _illegal(seat, "do that now", "hand over goods for the debt")
    cards = _cards(seat, what, a.cards, _PAY_RANK)
    stand = s.stands[seat]
    if not a.cards:
        raise _illegal(seat, what, "hand over at least one good")
    if not covers(stand, cards):
        raise _illegal(seat, what, "they are not all on your stand")
    if any(n and not IS_LEGAL[i] for i, n in enumerate(cards)):
        if any(IS_LEGAL[i] and stand[i] > cards[i] for i in range(NG)):
            raise _illegal(seat, what, "legal goods must all be handed over before contraband")
    owed = s.debt.amount
    total = sum(n * v for n, v in zip(cards, VALUE, strict=True))
    if total - VALUE[IDX[a.cards[-1]]] >= owed:
        raise _illegal(seat, what, "the debt is paid before the last card (no change is given)")
    if total < owed and cards != stand:
        raise _illegal(seat, what, f"they cover only {total} of {owed}: hand over more")


def pay_options(stand: Sequence[int], owed: int) -> tuple[PayGoods, ...]:
    """Every valid `pay_goods` (§5.8), each set of cards once, in the fixed order."""
    order = [(i, stand[i]) for i in PAY_ORDER if stand[i]]
    out: list[PayGoods] = []

    def extend(j: int, total: int, picked: list[str], legal_left: bool, all_taken: bool) -> None:
        if picked and (total >= owed or (j == len(order) and all_taken)):
            out.append(PayGoods(tuple(picked)))
            return
        if j == len(order):
            return
        i, have = order[j]
        legal = IS_LEGAL[i]
        if not legal and legal_left:
            return  # a legal good is still on the stand: no contraband yet
        for k in range(have + 1):
            if k and total + (k - 1) * VALUE[i] >= owed:
                break  # the debt would be paid before this card
            extend(j + 1, total + k * VALUE[i], picked + [GOODS[i]] * k,
                   legal_left or (legal and k < have), all_taken and k == have)

    extend(0, 0, [], False, True)
    return tuple(out)


_CHECKS = {  # validation by step (load and declare have no sub-step: their phase names it)
    ASIDE: _check_aside, DRAW: _check_draw, DISCARD: _check_discard, LOAD: _check_load,
    DECLARE: _check_declare, CHOOSE: _check_choose, OFFER: _check_offer, ANSWER: _check_answer,
    CONFISCATE: _check_confiscate, PAY: _check_pay,
    OVER: _check_pay,  # never reached through the guards; what the old else-branch did
}


def _check_step(s: State, seat: int, a: Any) -> None:
    if len(s.aside) != NG:  # a dealt game
        _dealt.check_step(s, seat, a)
        return
    _CHECKS[s.step or s.phase](s, seat, a)


# ---- views ------------------------------------------------------------------------------
def _with_unknown(known: Sequence[int], total: int) -> tuple[str, ...]:
    ids = ids_of(known)
    return ids + (HIDDEN,) * (total - len(ids))


def make_view(s: State, seat: int | None) -> View:
    over = s.phase == OVER
    players = []
    for p in range(s.n_players):
        mine = p == seat
        hand, stand = s.hands[p], s.stands[p]
        down = hidden_part(stand)
        aside = s.aside if (s.phase == MARKET and p == s.turn) else ZERO
        players.append(SeatView(
            seat=p,
            gold=s.gold[p],
            hand=ids_of(hand) if mine else _with_unknown(s.hand_known[p], sum(hand)),
            set_aside=ids_of(aside) if mine else (HIDDEN,) * sum(aside),
            bag=ids_of(s.bags[p]) if mine else (HIDDEN,) * sum(s.bags[p]),
            declared=s.declared[p],
            stand_up=ids_of(tuple(n if IS_LEGAL[i] else 0 for i, n in enumerate(stand))),
            stand_down=ids_of(down) if (mine or over) else _with_unknown(s.stand_known[p], sum(down)),
            outcome=s.outcomes[p],
            revealed=s.revealed[p],
            inspection=inspection(s.revealed[p], s.declared[p]) if s.revealed[p] else None,
        ))
    active = () if over else tuple(sorted(loaders(s))) if s.phase == LOAD else (s.turn,)
    confiscated = ids_of(s.confiscated)
    return View(
        seat=seat, n_players=s.n_players, royal_goods=s.royal, round=s.round,
        rounds=rounds(s.n_players), sheriff=s.sheriff, phase=s.phase, step=s.step,
        active=active, players=tuple(players), draw_size=len(s.draw_pile),
        piles=(s.piles[0][::-1], s.piles[1][::-1]), drew_deck=s.drew_deck, pending=s.pending,
        conditions=s.conditions, merchant=s.merchant, exchange=s.exchange, offer=s.offer,
        talk=s.talk, confiscated=confiscated, debt=s.debt,
        consequences=None if seat is None else consequences(
            seat, s.phase, s.step, players, s.merchant, confiscated),
    )


# ---- the game ---------------------------------------------------------------------------
_DRAW_CHOICES = {  # (pile 1 allowed, pile 2 allowed, draw pile allowed) -> the draw actions
    (one, two, deck): tuple(a for a, ok in zip((DrawDiscard(1), DrawDiscard(2), DrawDeck()),
                                                (one, two, deck), strict=True) if ok)
    for one in (False, True) for two in (False, True) for deck in (False, True)
}
_NOBODY: frozenset[int] = frozenset()
_ONLY = {seat: frozenset((seat,)) for seat in range(8)} | {-1: _NOBODY}  # -1: game over
_CHOOSE = {seat: Choose(seat) for seat in range(8)}
_DEMAND_ACTIONS = tuple(Demand(text) for text in DEMANDS)
_ACCEPT, _PASS, _INSPECT = Accept(), Pass(), Inspect()
_ANSWERS = {  # (may demand, may accept, may inspect) -> the Sheriff's answers, in this order
    (demand, accept, inspect): (
        (_DEMAND_ACTIONS if demand else ()) + ((_ACCEPT,) if accept else ()) + (_PASS,)
        + ((_INSPECT,) if inspect else ())
    )
    for demand in (False, True) for accept in (False, True) for inspect in (False, True)
}


class Sheriff(Game):
    id = "sheriff"
    name = "Sheriff of Nottingham"
    min_players = 3
    max_players = 5
    action_types = ACTIONS
    options = (
        OptionSpec("royal_goods", True, (True, False),
                   "false = the first-game setup without the 12 royal goods"),
        OptionSpec("first_sheriff", None, None, "seat of the first Sheriff (null = drawn)"),
        OptionSpec("deck", None, None, "stacked deck: good ids, top card first (tests, replays); "
                   "card ids (good#k) stack a dealt game"),
    )

    # ---- setup ---------------------------------------------------------------------------
    def _setup(self, n_players: int, seed: bytes, options: dict[str, Any]) -> State:
        royal = options["royal_goods"]
        if not isinstance(royal, bool):
            raise InvalidOption("royal_goods must be true or false")
        first = options["first_sheriff"]
        if first is not None and (
            not isinstance(first, int) or isinstance(first, bool) or not 0 <= first < n_players
        ):
            raise InvalidOption(f"first_sheriff must be null or a seat from 0 to {n_players - 1}")
        return setup_state(n_players, seed, royal, first, options["deck"])

    # ---- turn structure ------------------------------------------------------------------
    def is_over(self, state: State) -> bool:
        return state.phase == OVER

    def _active(self, state: State) -> frozenset[int]:
        if state.phase == LOAD:
            return frozenset(loaders(state))
        return _ONLY[state.turn]  # turn -1 (game over): nobody

    def _legal_actions(self, s: State, seat: int) -> Any:
        if len(s.aside) != NG:  # a dealt game
            return _dealt.legal_actions(self, s, seat)
        # load and declare have no sub-step; every other step name is unique to its phase
        return self._legal_by_step[s.step or s.phase](self, s, seat)

    def _check(self, s: State, seat: int) -> Any:
        def check(action: object) -> None:  # membership of the large spaces = validation
            self._validate(s, seat, action)

        return check

    def _legal_set_aside(self, s: State, seat: int) -> SubsetSpace:
        hand = s.hands[seat]
        return SubsetSpace(hand, 0, min(ASIDE_MAX, sum(hand)), SetAside, self._check(s, seat))

    def _legal_draw(self, s: State, seat: int) -> tuple:
        piles = s.piles
        fresh = not s.drew_deck
        return _DRAW_CHOICES[fresh and bool(piles[0]), fresh and bool(piles[1]), can_draw_deck(s)]

    def _legal_discard(self, s: State, seat: int) -> OrderSpace:
        return OrderSpace(ids_of(s.aside), Discard, self._check(s, seat))

    def _legal_load(self, s: State, seat: int) -> SubsetSpace:
        hand = s.hands[seat]
        return SubsetSpace(hand, 1, min(BAG_MAX, sum(hand)), Load, self._check(s, seat))

    def _legal_declare(self, s: State, seat: int) -> tuple:
        return _DECLARES

    def _legal_choose(self, s: State, seat: int) -> tuple:
        return tuple(_CHOOSE[p] for p in s.pending)

    def _legal_confiscate(self, s: State, seat: int) -> OrderSpace:
        return OrderSpace(ids_of(s.confiscated), Confiscate, self._check(s, seat))

    def _legal_pay(self, s: State, seat: int) -> tuple:
        return pay_options(s.stands[seat], s.debt.amount)

    def _legal_offer(self, s: State, seat: int) -> OfferSpace:
        return self._offer_space(s, seat, self._check(s, seat))

    def _legal_answer(self, s: State, seat: int) -> tuple:
        return self._answers(s)

    _legal_by_step = {
        ASIDE: _legal_set_aside, DRAW: _legal_draw, DISCARD: _legal_discard, LOAD: _legal_load,
        DECLARE: _legal_declare, CHOOSE: _legal_choose, OFFER: _legal_offer,
        ANSWER: _legal_answer, CONFISCATE: _legal_confiscate, PAY: _legal_pay,
    }

    def _offer_space(self, s: State, seat: int, check: Any) -> OfferSpace:
        choices = _condition_choices(s.pending, seat, s.conditions)
        bag_claims = _bag_claims(s.n_players, s.royal, sum(s.bags[seat]))
        return OfferSpace(s.gold[seat], s.stands[seat], bag_claims, choices, check)

    def _answers(self, s: State) -> tuple:
        return _ANSWERS[
            s.exchange < EXCHANGES,
            s.offer is not None and not any(
                (OPPOSITE[kind], x) in s.conditions for kind, x in s.offer.conditions
            ),
            ("pass", s.merchant) not in s.conditions,
        ]

    def _validate(self, s: State, seat: int, a: Any) -> None:
        _check_step(s, seat, a)

    def _apply(self, s: State, actions: Mapping[int, Any]) -> State:
        return next_state(s, actions)

    # ---- views and results ---------------------------------------------------------------
    def _view(self, state: State, seat: int | None) -> View:
        if len(state.aside) != NG:  # a dealt game
            return _dealt_view.make_view(state, seat)
        return make_view(state, seat)

    def _result(self, state: State) -> Result:
        if len(state.aside) != NG:  # a dealt game
            return _dealt_view.result(state)
        return final_result(state.gold, state.stands)

    def events(self, before: State, actions: Mapping[int, Any], after: State) -> tuple:
        """Public events: bags unnamed until an inspection opens them (events.py)."""
        if len(before.aside) != NG:  # a dealt game
            return _dealt_view.events(before, actions, after)
        return sheriff_events(before, actions, after)

    # ---- hidden cards over the network (engine/sheriff/dealt.py) -------------------------
    def decks(self, n_players: int, options: Mapping[str, Any]) -> tuple[tuple[str, tuple[str, ...]], ...]:
        royal = self.check_options(options)["royal_goods"]  # the dealer passes them unchecked
        return (("deck", card_deck(n_players, royal)),)

    def dealt_options(self, n_players: int, orders: Mapping[str, tuple[Any, ...]]) -> dict[str, Any]:
        return _dealt.dealt_options(orders)

    def deck_cards(self, state: State, label: str) -> tuple[str, ...] | None:
        return _dealt.deck_cards(state, label)

    def deck_owner(self, state: State, label: str) -> int | None:
        return _dealt.deck_owner(state, label)

    def seen(self, state: State, seat: int | None) -> frozenset[str]:
        return _dealt.seen(state, seat) if _dealt.is_dealt(state) else frozenset()

    def needs(self, state: State, actions: Mapping[int, Any]) -> frozenset[str]:
        return _dealt.needs(state, actions) if _dealt.is_dealt(state) else frozenset()

    def scored_cards(self, state: State, seat: int) -> tuple[str, ...]:
        # a stand is scored face up, its contraband turned over (§7); the plain game counts goods
        return tuple(state.stands[seat]) if _dealt.is_dealt(state) else ()

    def in_reach(self, state: State, seat: int) -> tuple[str, ...] | None:
        return _dealt.in_reach(state, seat) if _dealt.is_dealt(state) else None

    def describe(self, action: Any) -> str:
        return str(action)

    # ---- test hooks ----------------------------------------------------------------------
    def zones(self, state: State) -> dict[str, tuple[str, ...]]:
        """Every card, named `good#k` (k numbers the copies of a good across zones in order)."""
        return {name: ids for name, ids, _ in _numbered(state)}

    def swap_cards(self, state: State, card: str, other: str) -> State | None:
        return _swap(state, card, other)

    def secret_from(self, state: State, seat: int | None) -> frozenset[str]:
        """Numbered ids of the cards `seat` may not see (identified ones excepted)."""
        out: set[str] = set()
        for _name, ids, (owner, known) in _numbered(state):
            if owner == seat:
                continue
            shown = list(known)
            for card in ids:
                i = IDX[card.split("#")[0]]
                if shown[i]:
                    shown[i] -= 1
                else:
                    out.add(card)
        return frozenset(out)


def _swap(s: State, card: str, other: str) -> State | None:
    """`Sheriff.swap_cards`: the two goods trade places, each zone keeping its count."""
    where = {label: name for name, ids, _ in _numbered(s) for label in ids}
    if card not in where or other not in where:
        return None
    good_a, good_b = IDX[card.split("#")[0]], IDX[other.split("#")[0]]
    zone_a, zone_b = where[card], where[other]
    if good_a == good_b or zone_a == zone_b:
        return None  # goods of one kind are the same card; a zone is told by its counts
    face_down = [zone.endswith("_down") for zone in (zone_a, zone_b)]
    if any(face_down) and (IS_LEGAL[good_a] or IS_LEGAL[good_b]):
        return None  # a face-down stand holds only contraband and royal goods (§5.5)
    if "_up" in zone_a + zone_b or zone_a in _PUBLIC_ZONES or zone_b in _PUBLIC_ZONES:
        return None  # cards face up trade no places unseen
    d = draft(s)
    _trade(d, zone_a, good_a, good_b)
    _trade(d, zone_b, good_b, good_a)
    return build(d)


_PUBLIC_ZONES = frozenset(("confiscated", "pile1", "pile2"))


def _trade(d: Draft, zone: str, out: int, into: int) -> None:
    """In `zone` (a name of `_numbered`), one good `out` becomes a good `into`."""
    if zone == "draw":  # the first copy: copies of a good are alike, only counts are told
        pile = list(d["draw_pile"])
        pile[pile.index(GOODS[out])] = GOODS[into]
        d["draw_pile"] = tuple(pile)
        return
    if zone == "aside":
        d["aside"] = _traded(d["aside"], out, into)
        return
    kind, p = re.fullmatch(r"(hand|bag|stand)(\d+)(?:_up|_down)?", zone).group(1, 2)
    field = kind + "s"
    d[field] = _put(d[field], int(p), _traded(d[field][int(p)], out, into))


def _traded(counts: Sequence[int], out: int, into: int) -> tuple[int, ...]:
    after = list(counts)
    after[out] -= 1
    after[into] += 1
    return tuple(after)


def _numbered(s: State) -> list[tuple[str, tuple[str, ...], tuple[int | None, Sequence[int]]]]:
    """(zone, numbered card ids, (owner, identified counts)) for every zone, in a fixed order.

    Cards of one good are identical, so the ids only number them; the owner and identified
    counts say who may see which: owner None = nobody, `ALL` counts = everyone.
    """
    n = s.n_players
    over = s.phase == OVER
    everyone = (10**6,) * NG
    zones: list[tuple[str, Sequence[int], int | None, Sequence[int]]] = []
    for p in range(n):
        zones.append((f"hand{p}", s.hands[p], p, s.hand_known[p]))
        zones.append((f"bag{p}", s.bags[p], p, ZERO))
        stand = s.stands[p]
        zones.append((f"stand{p}_up", tuple(x if IS_LEGAL[i] else 0 for i, x in enumerate(stand)),
                      p, everyone))
        zones.append((f"stand{p}_down", hidden_part(stand), p, everyone if over else s.stand_known[p]))
    zones.append(("aside", s.aside, s.turn if s.phase == MARKET else None, ZERO))
    zones.append(("confiscated", s.confiscated, None, everyone))
    zones.append(("draw", counts_of(s.draw_pile), None, ZERO))
    zones.append(("pile1", counts_of(s.piles[0]), None, everyone))
    zones.append(("pile2", counts_of(s.piles[1]), None, everyone))
    next_id = [0] * NG
    out = []
    for name, counts, owner, known in zones:
        ids = []
        for i, k in enumerate(counts):
            for _ in range(k):
                ids.append(f"{GOODS[i]}#{next_id[i]}")
                next_id[i] += 1
        out.append((name, tuple(ids), (owner, known)))
    return out


# Game's fast lane: every action is checked by the step it is sent in; every one but a load is
# played by the one seat to act, applied to a draft (a load takes `_apply`, even by one loader).
Sheriff._checks = {kind: _check_step for kind in (*_APPLY, Load)}
Sheriff._steps = {kind: _one_step for kind in _APPLY}

GAME = Sheriff()


from . import dealt as _dealt  # noqa: E402  (last: they build on the helpers above)
from . import dealt_view as _dealt_view  # noqa: E402
