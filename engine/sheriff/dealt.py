"""Sheriff on partial knowledge: a game whose deck the network deals (engine/core/hidden.py).

A plain game keeps hands, bags and stands as count vectors of goods: cards of one good are
identical, so nothing more is needed. A dealt game cannot: a card nobody at this peer has seen
is a token, one physical card, so its zones hold cards. A game is *dealt* when its stacked deck
names each physical card apart (`cards.card_deck`, `good#k`) or is the network's masked deck;
every card zone (hands, bags, stands, set-aside, confiscated, revealed) is then a tuple of card
ids and tokens, and `hand_known` / `stand_known` list the identified cards themselves (§6).
The rules are written once (rules.py) on either kind of zone: `counted.Counted` for the
plain game, `Carded` (here) for a dealt one. A dealt game has one step more, as a physical table
has: only the merchant knows which cards of its closed bag are legal goods, so once the
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
revealed first. The transitions are in rules.py. Validation, legal actions (on the seat's own
knowledge) and what each seat sees are in checks.py (on `Carded`) and dealt_legal.py; views
(in goods, as the plain game's: view.py on the listings here) in view.py; players that think
in goods in dealt_view.py.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from functools import lru_cache
from typing import Any

from ..core import HIDDEN, InvalidOption, Rng
from ..core.deck import draw, shuffle_or_stack
from ..core.hidden import is_token, masked
from ..core.plain import map_strings
from .cards import (
    CARD_GOOD,
    CARD_RANK,
    GOOD_NAME,
    GOODS,
    HAND_SIZE,
    IS_LEGAL,
    NG,
    PENALTY,
    PILE_START,
    REBUILD_ABOVE,
    VALUE,
)
from .common import PAY_RANK, counts_named, illegal, put
from .state import (
    PayGoods,
    State,
    TableRng,
    Unpack,
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
    return card in _LEGAL_CARDS


_LEGAL_CARDS = frozenset(card for card, i in CARD_GOOD.items() if IS_LEGAL[i])


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
    """True over the network: some card of the table is still a token. A draw pile tells at
    its top: nobody sees a card there before it is drawn, so over the network each is a token
    (in plain play and in a replay, a face). Only without one are the other zones looked at."""
    if d["draw_pile"]:
        return is_token(d["draw_pile"][0])
    zones = (*d["hands"], *d["bags"], *d["stands"], d["aside"])
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


# ---- the zone operations of a dealt game (rules.py is written on them) -------------------
def _take(d: Draft, seat: int, card: str, identified: bool) -> None:
    d["hands"] = put(d["hands"], seat, d["hands"][seat] + (card,))
    if identified:
        d["hand_known"] = put(d["hand_known"], seat, d["hand_known"][seat] + (card,))


def _refill(d: Draft, p: int) -> None:
    """Seat `p` draws up to a full hand at the end of the round (§5.9)."""
    while len(d["hands"][p]) < HAND_SIZE:
        card = _draw_deck(d)
        if card is None:
            break
        _take(d, p, card, False)


def _identify(d: Draft, m: int, named: Cards) -> None:
    """Naming face-down goods of a stand identifies them (§5.4.1, §6)."""
    known = d["stand_known"][m]
    named = tuple(c for c in named if not IS_LEGAL[good(c)] and c not in known)
    if named:
        d["stand_known"] = put(d["stand_known"], m, known + named)


def _split(bag: Cards, declared: str) -> tuple[Cards, Cards]:
    """An inspected bag (its faces shown): (the declared goods, kept; the rest, confiscated)."""
    kept = tuple(c for c in bag if GOODS[good(c)] == declared)
    confiscated = tuple(c for c in bag if GOODS[good(c)] != declared)
    return kept, _sorted(confiscated)


def _fines(cards: Cards) -> int:
    return sum(PENALTY[good(c)] for c in cards)


def _face_down(cards: Cards) -> Cards:
    return tuple(c for c in cards if not IS_LEGAL[good(c)])


def _concat(zone: Cards, cards: Cards) -> Cards:
    return zone + cards


def _before_load(d: Draft, loaders: Sequence[int]) -> None:
    """A hand that holds cards the table saw taken is dealt anew before the bags go in (§6)."""
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



# ---- the checks of a dealt game (checks.py is written on them) ---------------------------
def _named(seat: int, what: str, cards: Any, zone: Cards) -> Cards:
    """An action's cards: a tuple of distinct cards of `zone` (ids or tokens)."""
    # plain loops and one set: every set-aside, load, discard, offer and unpack comes here
    if not isinstance(cards, tuple):
        raise illegal(seat, what, "the cards must be a tuple of card ids")
    for card in cards:
        if type(card) is not str:
            raise illegal(seat, what, "the cards must be a tuple of card ids")
    named = set(cards)
    if len(named) != len(cards):
        raise illegal(seat, what, "a card is named twice")
    if not named.issubset(zone):
        raise illegal(seat, what, "they are not all there")
    return cards


def _faces(seat: int, what: str, cards: Cards) -> None:
    """Cards the rules read must have been shown (`needs`); a token here is a broken table
    (a token is never a card id, so one look-up tells both)."""
    for card in cards:
        if card not in CARD_GOOD:
            raise illegal(seat, what, "those cards were not shown to the table")


def _identified_first(seat: int, what: str, named: Cards, known: Cards) -> None:
    """A named card of a good whose identified copies are not all named: those go first (§6:
    the cards of one good are alike; naming or handing over one reveals no more than that)."""
    left = {good(c) for c in known if c not in named}
    if any(c not in known and good(c) in left for c in named):
        raise illegal(seat, what, "name the identified cards of a good first")


def _order(seat: int, what: str, order: Any, zone: Cards, which: str) -> None:
    """A Discard or Confiscate order: every card of `zone` (the `which` cards), once each."""
    _named(seat, what, order, zone)
    if len(order) != len(zone):
        raise illegal(seat, what, f"the order must hold every {which} card")


def _on_stand(seat: int, what: str, cards: Any, stand: Cards, known: Cards) -> Cards:
    """Stand goods an offer names: cards of the stand, shown, the identified ones first."""
    cards = _named(seat, what, cards, stand)
    _faces(seat, what, cards)
    _identified_first(seat, what, cards, known)
    return cards


def _in_zone(seat: int, what: str, cards: Any, zone: Cards, missing: str) -> Cards:
    return _named(seat, what, cards, zone)


def _check_unpack(s: State, seat: int, a: Any) -> None:
    """The merchant empties its bag (this kind's own step): what the table can check."""
    what = "unpack the bag that way"
    if not isinstance(a, Unpack):
        raise illegal(seat, "do that now", "empty your bag: hand over the goods, show the legal ones")
    bag = s.bags[seat]
    delivered = _named(seat, what, a.delivered, bag)
    face_up = _named(seat, what, a.face_up, bag)
    _faces(seat, what, delivered + face_up)
    if set(delivered) & set(face_up):
        raise illegal(seat, what, "a card is both handed over and shown")
    claim = list(counts_named(seat, what, s.offer.bag_goods)) if s.held == "deal" else [0] * NG
    for card in delivered:
        claim[good(card)] -= 1
    if min(claim) < 0:
        raise illegal(seat, what, "hand over only the goods the accepted offer names")
    if not all(IS_LEGAL[good(c)] for c in face_up):
        raise illegal(seat, what, "only legal goods go face up")
    # what the table cannot check (the faces of the rest) the owner's own state does:
    # its legal actions hand over every claimed good it has and show every legal one
    rest = [c for c in bag if c in CARD_GOOD and c not in delivered and c not in face_up]  # faces only
    if any(claim[good(c)] > 0 or IS_LEGAL[good(c)] for c in rest):
        raise illegal(seat, what, "hand over every claimed good the bag holds, show every legal good")


def _check_pay(s: State, seat: int, a: PayGoods) -> None:
    """`checks._check_pay` on cards (the action's type is checked there)."""
    what = "pay with those goods"
    stand = s.stands[seat]
    cards = _named(seat, what, a.cards, stand)
    if not cards:
        raise illegal(seat, what, "hand over at least one good")
    _faces(seat, what, cards)
    ranks = [PAY_RANK[GOODS[good(c)]] for c in cards]
    if ranks != sorted(ranks):
        raise illegal(seat, what, "list the cards in the order of §5.8")
    _identified_first(seat, what, cards, s.stand_known[seat])
    if any(not IS_LEGAL[good(c)] for c in cards) and any(
            legal_card(c) and c not in cards for c in stand):
        raise illegal(seat, what, "legal goods must all be handed over before contraband")
    owed = s.debt.amount
    total = sum(VALUE[good(c)] for c in cards)
    if total - VALUE[good(cards[-1])] >= owed:
        raise illegal(seat, what, "the debt is paid before the last card (no change is given)")
    if total < owed and len(cards) != len(stand):
        raise illegal(seat, what, f"they cover only {total} of {owed}: hand over more")



# ---- what a view lists of a dealt game's zones (view.py is written on them) ---------------
# A view names goods, as the plain game's does: copies of a good are alike, so a card id tells
# a player nothing more, and one view shape serves screens and bots in either kind of game. A
# choice goes back to the seat's cards through its legal actions (dealt_view.to_cards).
def _own(cards: Cards) -> tuple[str, ...]:
    """A seat's own cards in its view, as goods in canonical order; over the network a card
    just dealt to it may still be on its way (a token on this machine), shown as a hidden card
    until it arrives."""
    if not cards:
        return ()
    goods = sorted([CARD_GOOD[c] for c in cards if c in CARD_GOOD])
    return tuple([GOODS[i] for i in goods]) + (HIDDEN,) * (len(cards) - len(goods))


def _known_first(known: Cards, total: int) -> tuple[str, ...]:
    """Someone else's zone of `total` cards: the identified goods, then one HIDDEN per other."""
    if not known:  # mostly nothing is identified
        return (HIDDEN,) * total
    return _own(known) + (HIDDEN,) * (total - len(known))


@lru_cache(maxsize=4096)  # a stand changes seldom and is listed for every viewer
def _stand_faces(stand: Cards) -> tuple[tuple[str, ...], Cards]:
    """A stand: (its legal goods, face up, as goods; the rest, face down: tokens to others)."""
    return _own([c for c in stand if c in _LEGAL_CARDS]), tuple([c for c in stand if c not in _LEGAL_CARDS])


@lru_cache(maxsize=8192)
def _shown(cards: Cards) -> tuple[str, ...]:
    """Cards face up for the whole table (piles, confiscated, an opened bag) as their goods, in
    their order; remembered: a pile stays the same over many views."""
    return tuple([GOOD_NAME.get(card, card) for card in cards])


# ---- a dealt game's cards as goods (its log names goods, as a plain game's does) ---------
def in_goods(value: Any) -> Any:
    """An action (or any engine value) with every card id written as its good id (the plain
    game's form)."""
    try:
        return _action_in_goods(value)
    except TypeError:  # not hashable: not an action
        return map_strings(value, GOOD_NAME)


@lru_cache(maxsize=4096)
def _action_in_goods(action: Any) -> Any:
    """An action in goods, remembered: a bot reads its legal actions in goods every decision
    (the same Pass, Accept and draws over and over)."""
    return map_strings(action, GOOD_NAME)


def _opened(bag: Cards) -> tuple[str, ...] | None:
    """An inspected bag's goods, as the log names them (None: its faces were not shown)."""
    if any(map(is_token, bag)):
        return None  # a state whose inspected bag was not shown (not a table's step)
    return tuple(GOODS[CARD_GOOD[c]] for c in _sorted(bag))


class Carded:
    """Zone operations of a dealt game: zones list cards, ids or tokens (`counted.Counted`
    has the same names on counts of goods)."""

    EMPTY: Cards = ()
    UNPACKS = True  # only the merchant knows which cards of its closed bag are legal goods
    size = staticmethod(len)
    of = staticmethod(tuple)  # an action's cards are the zone's cards
    add = staticmethod(_concat)
    without = staticmethod(_without)
    forget = staticmethod(_without)
    listed = staticmethod(_sorted)
    face_down = staticmethod(_face_down)
    draw_deck = staticmethod(_draw_deck)
    take = staticmethod(_take)
    refill = staticmethod(_refill)
    identify = staticmethod(_identify)
    split = staticmethod(_split)
    fines = staticmethod(_fines)
    before_load = staticmethod(_before_load)
    named = staticmethod(_in_zone)
    order = staticmethod(_order)
    on_stand = staticmethod(_on_stand)
    check_pay = staticmethod(_check_pay)
    check_unpack = staticmethod(_check_unpack)
    goods = staticmethod(good_counts)  # a zone as counts of goods (a token counts nothing)
    own = staticmethod(_own)
    in_goods = staticmethod(in_goods)  # an action's card ids as goods, for the log
    opened = staticmethod(_opened)
    public = staticmethod(_shown)  # confiscated cards (shown when the bag was opened), as goods
    shown = staticmethod(_shown)  # a pile or an opened bag, as goods
    known_first = staticmethod(_known_first)
    stand_faces = staticmethod(_stand_faces)
