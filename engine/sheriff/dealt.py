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
revealed first (or on the seat's own knowledge, for its legal actions). Views, the log and
players that think in goods are in engine/sheriff/dealt_view.py.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import replace
from typing import Any

from ..core import ActionSpace, IllegalAction, InvalidOption, Rng, Stream
from ..core.deck import draw, shuffle_or_stack
from ..core.hidden import is_token, masked
from .cards import (
    ASIDE_MAX,
    BAG_MAX,
    CARD_GOOD,
    CARD_RANK,
    GOODS,
    HAND_SIZE,
    IS_LEGAL,
    NG,
    PENALTY,
    PILE_START,
    REBUILD_ABOVE,
    VALUE,
    rounds,
)
from .rules import (
    _PAY_RANK,
    _absent,
    _bag_claims,
    _cards,
    _check_answer,
    _check_choose,
    _check_conditions,
    _check_declare,
    _check_draw,
    _clockwise,
    _condition_choices,
    _declare,
    _illegal,
    _loaders,
    _move_gold,
    _pile,
    _put,
    _text,
    pay_options,
)
from .spaces import OfferSpace, OrderSpace, SubsetSpace
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
    Load,
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
    d.update(step=DRAW, aside=a.cards, hands=_put(d["hands"], m, _without(d["hands"][m], a.cards)),
             hand_known=_put(d["hand_known"], m, ()))
    _after_draw(d)


def _take(d: Draft, seat: int, card: str, identified: bool) -> None:
    d["hands"] = _put(d["hands"], seat, d["hands"][seat] + (card,))
    if identified:
        d["hand_known"] = _put(d["hand_known"], seat, d["hand_known"][seat] + (card,))


def _draw_discard(d: Draft, a: DrawDiscard) -> None:
    k = a.pile - 1
    pile = d["piles"][k]
    d["piles"] = _put(d["piles"], k, pile[:-1])
    _take(d, d["turn"], pile[-1], True)  # it lay face up: everyone saw it taken (§6)
    _after_draw(d)


def _draw_from_deck(d: Draft) -> None:
    card = _draw_deck(d)
    d["drew_deck"] = True
    _take(d, d["turn"], card, False)
    _after_draw(d)


def _discard(d: Draft, a: Discard) -> None:
    k = a.pile - 1
    d["piles"] = _put(d["piles"], k, d["piles"][k] + a.order)
    d["aside"] = ()
    _market_turn(d, (d["turn"] + 1) % d["n_players"])


# ---- load (§5.2) ------------------------------------------------------------------------
def _start_load(d: Draft) -> None:
    d.update(phase=LOAD, step="", turn=-1, aside=(), drew_deck=False)
    loaders = _loaders(d["n_players"], d["sheriff"], d["hands"])
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
    d.update(phase=DECLARE, step="", turn=_clockwise(d["n_players"], loaded, d["sheriff"])[0])


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
            d["stand_known"] = _put(d["stand_known"], m, known + named)


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
            _move_gold(d, m, sheriff, o.gold)
        if o.conditions:
            d["conditions"] = tuple(sorted(set(d["conditions"]) | set(o.conditions),
                                           key=lambda c: (c[1], c[0])))
        if o.stand_goods:
            _transfer(d, m, sheriff, o.stand_goods)
        if a.delivered:
            _give(d, sheriff, a.delivered)
    bag = _without(d["bags"][m], a.delivered)
    d["stands"] = _put(d["stands"], m, d["stands"][m] + bag)  # contraband stays face down
    d["bags"] = _put(d["bags"], m, ())
    _finish(d, "deal" if deal else "passed")


def _give(d: Draft, taker: int, cards: Cards) -> None:
    """Goods onto a stand; face-down ones stay identified, as the transfer showed them (§6)."""
    d["stands"] = _put(d["stands"], taker, d["stands"][taker] + cards)
    hidden = tuple(c for c in cards if not IS_LEGAL[good(c)])
    if hidden:
        d["stand_known"] = _put(d["stand_known"], taker, d["stand_known"][taker] + hidden)


def _transfer(d: Draft, giver: int, taker: int, cards: Cards) -> None:
    d["stands"] = _put(d["stands"], giver, _without(d["stands"][giver], cards))
    d["stand_known"] = _put(d["stand_known"], giver, _without(d["stand_known"][giver], cards))
    _give(d, taker, cards)


def _inspect(d: Draft) -> None:
    m = d["merchant"]
    bag = d["bags"][m]  # its faces were shown to the table (`needs`)
    declared = d["declared"][m]
    kept = tuple(c for c in bag if GOODS[good(c)] == declared)
    confiscated = tuple(c for c in bag if GOODS[good(c)] != declared)
    d.update(offer=None, bags=_put(d["bags"], m, ()),
             stands=_put(d["stands"], m, d["stands"][m] + kept),
             revealed=_put(d["revealed"], m, _sorted(bag)),
             outcomes=_put(d["outcomes"], m, "inspected"))
    if confiscated:
        d.update(step=CONFISCATE, turn=d["sheriff"], confiscated=_sorted(confiscated))
        return
    _settle(d, d["sheriff"], m, sum(PENALTY[good(c)] for c in bag))


def _confiscate(d: Draft, a: Confiscate) -> None:
    k = a.pile - 1
    owed = sum(PENALTY[good(c)] for c in d["confiscated"])
    d.update(piles=_put(d["piles"], k, d["piles"][k] + a.order), confiscated=())
    _settle(d, d["merchant"], d["sheriff"], owed)


def _settle(d: Draft, payer: int, creditor: int, owed: int) -> None:
    paid = min(d["gold"][payer], owed)
    if paid:
        _move_gold(d, payer, creditor, paid)
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
    d.update(pending=pending, outcomes=_put(d["outcomes"], m, outcome), offer=None,
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
    Declare: _declare,  # no card moves: the plain transition
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


# ---- validation -------------------------------------------------------------------------
def _named(seat: int, what: str, cards: Any, zone: Cards) -> Cards:
    """An action's cards: a tuple of distinct cards of `zone` (ids or tokens)."""
    if not isinstance(cards, tuple) or not all(type(c) is str for c in cards):
        raise _illegal(seat, what, "the cards must be a tuple of card ids")
    if len(set(cards)) != len(cards):
        raise _illegal(seat, what, "a card is named twice")
    if not set(cards) <= set(zone):
        raise _illegal(seat, what, "they are not all there")
    return cards


def _faces(seat: int, what: str, cards: Cards) -> None:
    """Cards the rules read must have been shown (`needs`); a token here is a broken table."""
    if any(is_token(c) or c not in CARD_GOOD for c in cards):
        raise _illegal(seat, what, "those cards were not shown to the table")


def _identified_first(seat: int, what: str, named: Cards, known: Cards) -> None:
    """A named card of a good whose identified copies are not all named: those go first (§6:
    the cards of one good are alike; naming or handing over one reveals no more than that)."""
    left = {good(c) for c in known if c not in named}
    if any(c not in known and good(c) in left for c in named):
        raise _illegal(seat, what, "name the identified cards of a good first")


def _check_aside(s: State, seat: int, a: Any) -> None:
    if not isinstance(a, SetAside):
        raise _illegal(seat, "do that now", "set aside 0-5 cards first")
    hand = s.hands[seat]
    cards = _named(seat, "set those cards aside", a.cards, hand)
    most = min(ASIDE_MAX, len(hand))
    if len(cards) > most:
        raise _illegal(seat, "set those cards aside", f"at most {most} cards may be set aside")


def _check_onto_pile(seat: int, a: Any, kind: type, what: str, zone: Cards, which: str, how: str) -> None:
    """A Discard or Confiscate: every card of `zone` (the `which` cards) onto one pile."""
    if not isinstance(a, kind):
        raise _illegal(seat, "do that now", how)
    _pile(seat, what, a.pile)
    _named(seat, what, a.order, zone)
    if len(a.order) != len(zone):
        raise _illegal(seat, what, f"the order must hold every {which} card")


def _check_discard(s: State, seat: int, a: Any) -> None:
    _check_onto_pile(seat, a, Discard, "discard", s.aside, "set-aside",
                     "discard the set-aside cards onto one pile")


def _check_load(s: State, seat: int, a: Any) -> None:
    if not isinstance(a, Load):
        raise _illegal(seat, "do that now", "load your bag")
    hand = s.hands[seat]
    cards = _named(seat, "load those cards", a.cards, hand)
    most = min(BAG_MAX, len(hand))
    if not 1 <= len(cards) <= most:
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
    stand = _named(seat, what, a.stand_goods, s.stands[seat])
    _faces(seat, what, stand)
    _identified_first(seat, what, stand, s.stand_known[seat])
    bag_claim = _cards(seat, what, a.bag_goods)  # words, not cards: good ids
    if a.bag_goods and any(bag_claim[i] for i in _absent(s.n_players, s.royal)):
        raise _illegal(seat, what, "it claims a good that is not in this game")
    if sum(bag_claim) > len(s.bags[seat]):
        raise _illegal(seat, what, f"your bag holds only {len(s.bags[seat])} cards")
    _text(seat, what, a.promise)
    _check_conditions(s, seat, a.conditions)
    if not (a.gold or a.stand_goods or a.bag_goods or a.promise.strip() or a.conditions):
        raise _illegal(seat, what, "an offer must contain something (use no offer instead)")


def _check_unpack(s: State, seat: int, a: Any) -> None:
    what = "unpack the bag that way"
    if not isinstance(a, Unpack):
        raise _illegal(seat, "do that now", "empty your bag: hand over the goods, show the legal ones")
    bag = s.bags[seat]
    delivered = _named(seat, what, a.delivered, bag)
    face_up = _named(seat, what, a.face_up, bag)
    _faces(seat, what, delivered + face_up)
    if set(delivered) & set(face_up):
        raise _illegal(seat, what, "a card is both handed over and shown")
    claim = list(_cards(seat, what, s.offer.bag_goods)) if s.held == "deal" else [0] * NG
    for card in delivered:
        claim[good(card)] -= 1
    if min(claim) < 0:
        raise _illegal(seat, what, "hand over only the goods the accepted offer names")
    if not all(IS_LEGAL[good(c)] for c in face_up):
        raise _illegal(seat, what, "only legal goods go face up")
    # what the table cannot check (the faces of the rest) the owner's own state does:
    # its legal actions hand over every claimed good it has and show every legal one
    rest = [c for c in bag if c not in delivered and c not in face_up and not is_token(c)]
    if any(claim[good(c)] > 0 or IS_LEGAL[good(c)] for c in rest):
        raise _illegal(seat, what, "hand over every claimed good the bag holds, show every legal good")


def _check_confiscate(s: State, seat: int, a: Any) -> None:
    _check_onto_pile(seat, a, Confiscate, "confiscate", s.confiscated, "confiscated",
                     "place the confiscated cards on a discard pile")


def _check_pay(s: State, seat: int, a: Any) -> None:
    what = "pay with those goods"
    if not isinstance(a, PayGoods):
        raise _illegal(seat, "do that now", "hand over goods for the debt")
    stand = s.stands[seat]
    cards = _named(seat, what, a.cards, stand)
    if not cards:
        raise _illegal(seat, what, "hand over at least one good")
    _faces(seat, what, cards)
    ranks = [_PAY_RANK[GOODS[good(c)]] for c in cards]
    if ranks != sorted(ranks):
        raise _illegal(seat, what, "list the cards in the order of §5.8")
    _identified_first(seat, what, cards, s.stand_known[seat])
    if any(not IS_LEGAL[good(c)] for c in cards) and any(
            legal_card(c) and c not in cards for c in stand):
        raise _illegal(seat, what, "legal goods must all be handed over before contraband")
    owed = s.debt.amount
    total = sum(VALUE[good(c)] for c in cards)
    if total - VALUE[good(cards[-1])] >= owed:
        raise _illegal(seat, what, "the debt is paid before the last card (no change is given)")
    if total < owed and len(cards) != len(stand):
        raise _illegal(seat, what, f"they cover only {total} of {owed}: hand over more")


_CHECKS = {
    ASIDE: _check_aside, DRAW: _check_draw, DISCARD: _check_discard, LOAD: _check_load,
    DECLARE: _check_declare, CHOOSE: _check_choose, OFFER: _check_offer, ANSWER: _check_answer,
    UNPACK: _check_unpack, CONFISCATE: _check_confiscate, PAY: _check_pay,
}


def check_step(s: State, seat: int, a: Any) -> None:
    check = _CHECKS.get(s.step or s.phase)
    if check is None:
        raise _illegal(seat, "do that now", "the game is over")
    check(s, seat, a)


# ---- legal actions (on the seat's own knowledge: its own cards are faces) ------------------
def _pick(zone: Cards, goods: Sequence[str], first: Cards = ()) -> Cards:
    """Cards of `zone` for a list of goods: `first` ones (identified) before the others."""
    free = [c for c in first if c in zone] + [c for c in zone if c not in first]
    out = []
    for g in goods:
        card = next(c for c in free if GOODS[good(c)] == g)
        free.remove(card)
        out.append(card)
    return tuple(out)


class _Mapped(ActionSpace):
    """A plain space of goods, its actions naming the seat's cards (`convert`)."""

    def __init__(self, inner: Any, convert: Callable[[Any], Any], check: Callable[[Any], None]) -> None:
        self.inner, self.convert, self.check = inner, convert, check

    def __contains__(self, action: object) -> bool:
        try:
            self.check(action)
        except IllegalAction:
            return False
        return True

    def __len__(self) -> int:
        return len(self.inner)

    def __iter__(self) -> Iterator[Any]:
        return map(self.convert, self.inner)

    def sample(self, rng: Stream) -> Any:
        return self.convert(self.inner.sample(rng))


def legal_actions(game: Any, s: State, seat: int) -> Any:
    step = s.step or s.phase

    def check(action: object) -> None:
        check_step(s, seat, action)

    if step == ASIDE:
        hand = s.hands[seat]
        return SubsetSpace(good_counts(hand), 0, min(ASIDE_MAX, len(hand)),
                           lambda goods: SetAside(_pick(hand, goods)), check)
    if step == LOAD:  # a card identified in the hand goes last: the table sees which go
        hand = s.hands[seat]
        unknown = tuple(c for c in hand if c not in s.hand_known[seat])
        return SubsetSpace(good_counts(hand), 1, min(BAG_MAX, len(hand)),
                           lambda goods: Load(_pick(hand, goods, unknown)), check)
    if step == DISCARD:
        return OrderSpace(s.aside, Discard, check)
    if step == CONFISCATE:
        return OrderSpace(s.confiscated, Confiscate, check)
    if step == OFFER:
        stand, known = s.stands[seat], s.stand_known[seat]
        inner = OfferSpace(s.gold[seat], good_counts(stand),
                           _bag_claims(s.n_players, s.royal, len(s.bags[seat])),
                           _condition_choices(s.pending, seat, s.conditions), check)

        def convert(a: Any) -> Any:
            if type(a) is not Offer or not a.stand_goods:
                return a
            return Offer(a.gold, _pick(stand, a.stand_goods, known), a.bag_goods, a.promise,
                         a.conditions)

        return _Mapped(inner, convert, check)
    if step == PAY:
        stand, known = s.stands[seat], s.stand_known[seat]
        return tuple(PayGoods(_pick(stand, p.cards, known))
                     for p in pay_options(good_counts(stand), s.debt.amount))
    if step == UNPACK:
        return (unpacked(s, seat),)
    return game._legal_by_step[step](game, s, seat)


def unpacked(s: State, seat: int) -> Unpack:
    """The one way to empty `seat`'s bag: every claimed good it holds, every legal good shown."""
    bag = s.bags[seat]
    claim = list(_cards(seat, "unpack", s.offer.bag_goods)) if s.held == "deal" else [0] * NG
    delivered = []
    for card in bag:
        if claim[good(card)]:
            claim[good(card)] -= 1
            delivered.append(card)
    face_up = tuple(c for c in bag if c not in delivered and IS_LEGAL[good(c)])
    return Unpack(tuple(delivered), face_up)


# ---- what each seat may see, what a step reads -------------------------------------------
def seen(s: State, seat: int | None) -> frozenset[str]:
    if seat is None:  # face up for the whole table (a stand in full at the end, §7)
        cards = set(s.piles[0]) | set(s.piles[1]) | set(s.confiscated)
        if s.phase == OVER:
            cards.update(c for stand in s.stands for c in stand)
        return frozenset(cards)
    cards = set(s.hands[seat]) | set(s.bags[seat]) | set(s.stands[seat])
    if s.phase == MARKET and s.turn == seat:
        cards.update(s.aside)
    return frozenset(cards)


def in_reach(s: State, seat: int) -> Cards:
    """The cards an action of `seat` may name: its hand, its set-aside cards on its market
    turn, its bag and its stand. (A card it once held and dealt anew is named by its new
    token only: the hand holds that one.)"""
    aside = s.aside if s.phase == MARKET and s.turn == seat else ()
    return (*s.hands[seat], *aside, *s.bags[seat], *s.stands[seat])


def _tokens(cards: Any, zone: Cards) -> set[str]:
    """The tokens of an action's cards that lie in `zone` (a malformed action shows nothing)."""
    if not isinstance(cards, tuple):
        return set()
    return {c for c in cards if type(c) is str and is_token(c)} & set(zone)


def needs(s: State, actions: Mapping[int, Any]) -> frozenset[str]:
    """Faces a step reads: the discard (face up), stand goods named in an offer or paid, a bag
    inspected, the goods an unpacked bag hands over or shows."""
    out: set[str] = set()
    step = s.step
    for seat, a in actions.items():
        kind = type(a)
        if seat != s.turn:
            continue
        if kind is Discard and step == DISCARD:
            out |= _tokens(a.order, s.aside)
        elif kind is Offer and step == OFFER:
            out |= _tokens(a.stand_goods, s.stands[seat])
        elif kind is PayGoods and step == PAY:
            out |= _tokens(a.cards, s.stands[seat])
        elif kind is Unpack and step == UNPACK:
            out |= _tokens(a.delivered, s.bags[seat]) | _tokens(a.face_up, s.bags[seat])
        elif kind is Inspect and step == ANSWER and ("pass", s.merchant) not in s.conditions:
            out |= _tokens(s.bags[s.merchant], s.bags[s.merchant])
        elif kind is Choose and step == CHOOSE and a.seat in s.pending \
                and ("inspect", a.seat) in s.conditions:
            out |= _tokens(s.bags[a.seat], s.bags[a.seat])
    return frozenset(out)
