"""Sheriff on partial knowledge: a game whose deck the network deals (engine/core/hidden.py).

A plain game keeps hands, bags and stands as count vectors of goods: cards of one good are
identical, so nothing more is needed. A dealt game cannot: a card nobody at this peer has seen
is a token, one physical card, so its zones hold cards. A game is *dealt* when its stacked deck
names each physical card apart (`cards.card_deck`, `good#k`) or is the network's masked deck;
every card zone (hands, bags, stands, set-aside, confiscated, revealed) is then a tuple of card
ids and tokens, and `hand_known` / `stand_known` list the identified cards themselves (§6).
The plain game (good ids, count vectors) never comes here: it stays as fast as it was.

The rules are the plain game's, written for cards, with one difference that a physical table
has too: only the merchant knows which cards of its closed bag are legal goods, so once the
Sheriff lets a bag through or deals for it, the merchant names them (`Unpack`: the goods it
hands over and the legal goods it turns face up). The table then reads their faces (`needs`);
contraband stays face down until the end of the game.

A draw pile rebuilt from the discard piles (§5.7) is a deck the table shuffles mid-game:
tokens of `rebuild<k>`, its cards kept in the RNG slot (`state.TableRng`) for `deck_cards`.
A hand holding a card the table saw taken from a discard pile is dealt anew by its owner when
the bags are about to be loaded (§6: nobody sees which cards go in): tokens of
`redeal<round>s<seat>`, whose cards the same slot keeps (`deck_cards`, `deck_owner`).
A plain game dealt alike shuffles there with the game RNG (and keeps a hand as it is) unless
the table's order is stacked (`dealt_options` of every dealt deck: a network game's log
replays so).

Every function here works on a state holding tokens and reads a face only where `needs` had it
revealed first. Validation, legal actions (on the seat's own knowledge) and what each seat sees
are in dealt_checks.py; views, the log and players that think in goods in dealt_view.py.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from ..core import InvalidOption, Rng
from ..core.deck import draw, shuffle_or_stack
from ..core.hidden import is_token, masked
from .cards import (
    CARD_GOOD,
    CARD_RANK,
    GOODS,
    HAND_SIZE,
    IS_LEGAL,
    NG,
    PENALTY,
    PILE_START,
    REBUILD_ABOVE,
    rounds,
)
from .common import clockwise, declare_step, loaders_of, move_gold, put
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
    TableRng,
    Unpack,
    build,
    draft,
)

Draft = dict[str, Any]
Cards = tuple[str, ...]

REBUILT = "rebuild"
"""Label of the k-th draw pile the table rebuilt from the discard piles (§5.7): `rebuild<k>`."""
REDEALT = "redeal"
"""Label of a hand its owner deals anew in round r before loading its bag (§6): `redeal<r>s<seat>`."""


def is_dealt(s: State) -> bool:
    """True for a dealt game: its set-aside zone is a tuple of cards (at most 5), never the
    count vector (one entry per good) of a plain game."""
    return len(s.aside) != NG


def good(card: str) -> int:
    """The good of a card whose face is known (never a token: `needs` shows it first)."""
    return CARD_GOOD[card]


def legal_card(card: str) -> bool:
    """A face-up legal good (a token on a stand is face down: contraband or royal)."""
    return not is_token(card) and IS_LEGAL[CARD_GOOD[card]]


def _without(cards: Cards, gone: Sequence[str]) -> Cards:
    gone = set(gone)
    return tuple([c for c in cards if c not in gone])


def _sorted(cards: Sequence[str]) -> Cards:
    return tuple(sorted(cards, key=CARD_RANK.__getitem__))


def good_counts(cards: Sequence[str]) -> tuple[int, ...]:
    """Count vector of the cards whose faces are known (a token counts nothing)."""
    out = [0] * NG
    for card in cards:
        i = CARD_GOOD.get(card)
        if i is not None:
            out[i] += 1
    return tuple(out)


# ---- setup ------------------------------------------------------------------------------
def dealt_zones(n: int) -> dict[str, Any]:
    """The empty card zones of a dealt game (setup_state fills hands and piles)."""
    return dict(hand_known=((),) * n, aside=(), bags=((),) * n, stands=((),) * n,
                stand_known=((),) * n, confiscated=())


# ---- drawing (§5.7) ---------------------------------------------------------------------
def _on_tokens(d: Draft) -> bool:
    """True over the network: some card of the table is still a token."""
    zones = (*d["hands"], *d["bags"], *d["stands"], d["aside"], d["draw_pile"])
    return any(is_token(card) for zone in zones for card in zone)


def _draw_deck(d: Draft) -> str | None:
    draw_pile, piles = d["draw_pile"], d["piles"]
    if not draw_pile:
        if len(piles[0]) + len(piles[1]) <= REBUILD_ABOVE:
            return None
        cards = piles[0] + piles[1]
        rebuilt, d["rng"] = _rebuild(d["rng"], cards, _on_tokens(d))
        pile1, rebuilt = draw(rebuilt, PILE_START)
        pile2, draw_pile = draw(rebuilt, PILE_START)
        d["piles"] = (pile1, pile2)
    top, d["draw_pile"] = draw(draw_pile, 1)
    return top[0]


def _rebuild(rng: Rng | TableRng, cards: Cards, on_tokens: bool) -> tuple[Cards, TableRng]:
    """The rebuilt draw pile and the RNG after it: over the network, tokens of a new deck the
    table shuffles; with every face known, the stacked order or a shuffle with the game RNG."""
    inner, stacked, count, redealt = (
        (rng.rng, rng.stacked, rng.rebuilds, rng.redealt) if type(rng) is TableRng else (rng, (), 0, ()))
    label = f"{REBUILT}{count + 1}"
    order = dict(stacked).get(label)
    if on_tokens:
        rebuilt = masked(label, len(cards))
    elif order is None:
        rebuilt, inner = shuffle_or_stack(cards, inner, None, "draw pile")
    else:  # a replay: as the table dealt it, drawing nothing
        rebuilt, _ = shuffle_or_stack(cards, inner, order, "rebuilt draw pile")
        stacked = tuple(entry for entry in stacked if entry[0] != label)
    return rebuilt, TableRng(inner, stacked, cards, count + 1, redealt)


def stacked_rng(rng: Rng, stacked: Mapping[str, Any]) -> Rng | TableRng:
    """The game RNG of a dealt game whose rebuilt draw piles and hands dealt anew are stacked
    ({"rebuilds": {label: order}, "redeals": {label: order}})."""
    orders = []
    for key, prefix in (("rebuilds", REBUILT), ("redeals", REDEALT)):
        decks = stacked.get(key) or {}
        if not isinstance(decks, Mapping) or not all(
                isinstance(label, str) and label.startswith(prefix) and isinstance(order, (list, tuple))
                and all(isinstance(c, str) for c in order) for label, order in decks.items()):
            raise InvalidOption(f"{key} must map each {prefix}<...> deck label to its order")
        orders += [(label, tuple(order)) for label, order in decks.items()]
    return TableRng(rng, tuple(sorted(orders)), (), 0) if orders else rng


def dealt_options(orders: Mapping[str, Sequence[str]]) -> dict[str, Any]:
    """The `deck` option of a plain game dealt as the table dealt: the deck in order, and the
    draw piles the table rebuilt (§5.7) and the hands dealt anew (§6) in theirs, if any."""
    deck = list(orders["deck"])
    later = {key: {label: list(order) for label, order in orders.items() if label.startswith(prefix)}
             for key, prefix in (("rebuilds", REBUILT), ("redeals", REDEALT))}
    if not any(later.values()):
        return {"deck": deck}
    return {"deck": {"cards": deck, **{key: decks for key, decks in later.items() if decks}}}


def deck_cards(state: State, label: str) -> Cards | None:
    rng = state.rng
    if type(rng) is not TableRng:
        return None
    if label == f"{REBUILT}{rng.rebuilds}":
        return rng.rebuilt  # the face-up discard piles the table just shuffled
    return next((cards for redeal, _, cards in rng.redealt if redeal == label), None)


def deck_owner(state: State, label: str) -> int | None:
    rng = state.rng
    if type(rng) is not TableRng:
        return None
    return next((seat for redeal, seat, _ in rng.redealt if redeal == label), None)


# ---- market (§5.1) ----------------------------------------------------------------------
def _market_turn(d: Draft, seat: int) -> None:
    if seat == d["sheriff"]:
        _start_load(d)
        return
    d.update(phase=MARKET, step=ASIDE, turn=seat, aside=(), drew_deck=False)


def _after_draw(d: Draft) -> None:
    piles = d["piles"]
    if len(d["hands"][d["turn"]]) < HAND_SIZE and (
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
    d.update(step=DRAW, aside=a.cards, hands=put(d["hands"], m, _without(d["hands"][m], a.cards)),
             hand_known=put(d["hand_known"], m, ()))
    _after_draw(d)


def _take(d: Draft, seat: int, card: str, identified: bool) -> None:
    d["hands"] = put(d["hands"], seat, d["hands"][seat] + (card,))
    if identified:
        d["hand_known"] = put(d["hand_known"], seat, d["hand_known"][seat] + (card,))


def _draw_discard(d: Draft, a: DrawDiscard) -> None:
    k = a.pile - 1
    pile = d["piles"][k]
    d["piles"] = put(d["piles"], k, pile[:-1])
    _take(d, d["turn"], pile[-1], True)  # it lay face up: everyone saw it taken (§6)
    _after_draw(d)


def _draw_from_deck(d: Draft) -> None:
    card = _draw_deck(d)
    d["drew_deck"] = True
    _take(d, d["turn"], card, False)
    _after_draw(d)


def _discard(d: Draft, a: Discard) -> None:
    k = a.pile - 1
    d["piles"] = put(d["piles"], k, d["piles"][k] + a.order)
    d["aside"] = ()
    _market_turn(d, (d["turn"] + 1) % d["n_players"])


# ---- load (§5.2) ------------------------------------------------------------------------
def _start_load(d: Draft) -> None:
    d.update(phase=LOAD, step="", turn=-1, aside=(), drew_deck=False)
    loaders = loaders_of(d["n_players"], d["sheriff"], d["hands"])
    if not loaders:
        _end_round(d)
        return
    _redeal(d, [p for p in loaders if d["hand_known"][p]])


def _redeal(d: Draft, seats: Sequence[int]) -> None:
    """A hand holding cards the table saw taken (from a discard pile) is dealt anew by its
    owner before its bag is loaded, so that nobody sees which cards go in (§6). Over the
    network its cards become tokens of a deck of their own, `redeal<round>s<seat>`, in an
    order only the owner knows (the table keeps what the hand held: `deck_cards`); a replay
    stacks the order the table dealt; plain play keeps the hand as it is. The identified
    cards stay identified in the views until a card leaves the hand (§6)."""
    rng = d["rng"]
    table = type(rng) is TableRng
    stacked = dict(rng.stacked) if table else {}
    on_tokens = _on_tokens(d)
    redealt = []
    hands = list(d["hands"])
    for p in seats:
        label, hand = f"{REDEALT}{d['round']}s{p}", hands[p]
        if on_tokens:
            hands[p] = masked(label, len(hand))
        elif label in stacked:  # a replay: as the table dealt it
            order = stacked.pop(label)
            if sorted(order) != sorted(hand):
                raise InvalidOption(f"the stacked order of {label} is not the cards of that hand")
            hands[p] = order
        else:
            continue
        redealt.append((label, p, hand))
    d["hands"] = tuple(hands)
    if redealt or (table and rng.redealt):
        base = rng if table else TableRng(rng, (), (), 0)
        d["rng"] = replace(base, stacked=tuple(stacked.items()), redealt=tuple(redealt))


def _load(d: Draft, actions: Mapping[int, Any]) -> None:
    hands, known, bags = list(d["hands"]), list(d["hand_known"]), list(d["bags"])
    for seat, action in actions.items():
        known[seat] = ()  # cards left the hand face down: nobody knows which (§6)
        bags[seat] = action.cards
        hands[seat] = _without(hands[seat], action.cards)
    d.update(hands=tuple(hands), hand_known=tuple(known), bags=tuple(bags))
    loaded = [p for p in range(d["n_players"]) if bags[p]]
    d.update(phase=DECLARE, step="", turn=clockwise(d["n_players"], loaded, d["sheriff"])[0])


# ---- inspection phase (§5.4-§5.6, §5.8) -------------------------------------------------
def _choose(d: Draft, a: Choose) -> None:
    m = a.seat
    d.update(merchant=m, talk=(), offer=None, exchange=1)
    if ("inspect", m) in d["conditions"]:
        _inspect(d)
        return
    d.update(step=OFFER, turn=m)


def _offer(d: Draft, a: Offer | NoOffer) -> None:
    m = d["merchant"]
    d.update(step=ANSWER, turn=d["sheriff"], talk=d["talk"] + ((m, a),))
    if type(a) is Offer:
        d["offer"] = a
        known = d["stand_known"][m]
        named = tuple(c for c in a.stand_goods if not IS_LEGAL[good(c)] and c not in known)
        if named:  # naming face-down goods identifies them (§5.4.1, §6)
            d["stand_known"] = put(d["stand_known"], m, known + named)


def _answer(d: Draft, a: Any) -> None:
    d["talk"] = d["talk"] + ((d["sheriff"], a),)
    kind = type(a)
    if kind is Demand:
        d.update(step=OFFER, turn=d["merchant"], exchange=d["exchange"] + 1)
    elif kind is Inspect:
        _inspect(d)
    else:  # the merchant empties the bag: only it knows which cards are legal goods
        d.update(step=UNPACK, turn=d["merchant"], held="deal" if kind is Accept else "pass")


def _unpack(d: Draft, a: Unpack) -> None:
    m, sheriff, deal = d["merchant"], d["sheriff"], d["held"] == "deal"
    d["held"] = ""
    if deal:
        o = d["offer"]
        if o.gold:
            move_gold(d, m, sheriff, o.gold)
        if o.conditions:
            d["conditions"] = tuple(sorted(set(d["conditions"]) | set(o.conditions),
                                           key=lambda c: (c[1], c[0])))
        if o.stand_goods:
            _transfer(d, m, sheriff, o.stand_goods)
        if a.delivered:
            _give(d, sheriff, a.delivered)
    bag = _without(d["bags"][m], a.delivered)
    d["stands"] = put(d["stands"], m, d["stands"][m] + bag)  # contraband stays face down
    d["bags"] = put(d["bags"], m, ())
    _finish(d, "deal" if deal else "passed")


def _give(d: Draft, taker: int, cards: Cards) -> None:
    """Goods onto a stand; face-down ones stay identified, as the transfer showed them (§6)."""
    d["stands"] = put(d["stands"], taker, d["stands"][taker] + cards)
    hidden = tuple(c for c in cards if not IS_LEGAL[good(c)])
    if hidden:
        d["stand_known"] = put(d["stand_known"], taker, d["stand_known"][taker] + hidden)


def _transfer(d: Draft, giver: int, taker: int, cards: Cards) -> None:
    d["stands"] = put(d["stands"], giver, _without(d["stands"][giver], cards))
    d["stand_known"] = put(d["stand_known"], giver, _without(d["stand_known"][giver], cards))
    _give(d, taker, cards)


def _inspect(d: Draft) -> None:
    m = d["merchant"]
    bag = d["bags"][m]  # its faces were shown to the table (`needs`)
    declared = d["declared"][m]
    kept = tuple(c for c in bag if GOODS[good(c)] == declared)
    confiscated = tuple(c for c in bag if GOODS[good(c)] != declared)
    d.update(offer=None, bags=put(d["bags"], m, ()),
             stands=put(d["stands"], m, d["stands"][m] + kept),
             revealed=put(d["revealed"], m, _sorted(bag)),
             outcomes=put(d["outcomes"], m, "inspected"))
    if confiscated:
        d.update(step=CONFISCATE, turn=d["sheriff"], confiscated=_sorted(confiscated))
        return
    _settle(d, d["sheriff"], m, sum(PENALTY[good(c)] for c in bag))


def _confiscate(d: Draft, a: Confiscate) -> None:
    k = a.pile - 1
    owed = sum(PENALTY[good(c)] for c in d["confiscated"])
    d.update(piles=put(d["piles"], k, d["piles"][k] + a.order), confiscated=())
    _settle(d, d["merchant"], d["sheriff"], owed)


def _settle(d: Draft, payer: int, creditor: int, owed: int) -> None:
    paid = min(d["gold"][payer], owed)
    if paid:
        move_gold(d, payer, creditor, paid)
    rest = owed - paid
    if rest > 0 and d["stands"][payer]:
        d.update(step=PAY, turn=payer, debt=Debt(payer, creditor, rest))
        return
    _finish(d, "inspected")


def _pay(d: Draft, a: PayGoods) -> None:
    debt = d["debt"]
    _transfer(d, debt.payer, debt.creditor, a.cards)
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


# ---- end of round (§5.9) ----------------------------------------------------------------
def _end_round(d: Draft) -> None:
    n = d["n_players"]
    if d["round"] + 1 >= rounds(n):
        d.update(phase=OVER, step="", turn=-1, pending=(), merchant=-1)
        return
    outgoing = d["sheriff"]
    for k in range(1, n + 1):  # clockwise from the outgoing Sheriff's left
        p = (outgoing + k) % n
        while len(d["hands"][p]) < HAND_SIZE:
            card = _draw_deck(d)
            if card is None:
                break
            _take(d, p, card, False)
    sheriff = (outgoing + 1) % n
    d.update(round=d["round"] + 1, sheriff=sheriff, bags=((),) * n, declared=("",) * n,
             pending=(), conditions=(), merchant=-1, exchange=0, offer=None, talk=(),
             outcomes=("",) * n, revealed=((),) * n, debt=None, sealed=(0,) * n, held="")
    _market_turn(d, (sheriff + 1) % n)


_APPLY: dict[type, Callable[[Draft, Any], None]] = {
    SetAside: _set_aside,
    DrawDiscard: _draw_discard,
    DrawDeck: lambda d, a: _draw_from_deck(d),
    Discard: _discard,
    Declare: declare_step,  # no card moves: the plain transition
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


def next_state(s: State, actions: Mapping[int, Any]) -> State:
    """The state after one validated step of a dealt game."""
    d = draft(s)
    if s.phase == LOAD:
        _load(d, actions)
    else:
        a = actions[s.turn]
        _APPLY[type(a)](d, a)
    return build(d)
