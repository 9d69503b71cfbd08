"""A dealt game's validation, legal actions, and what each seat sees and each step reads
(its transitions: dealt.py). Legal actions are computed on the seat's own knowledge: its
own cards are faces there."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any

from ..core import ActionSpace, IllegalAction, Stream
from ..core.hidden import is_token
from .cards import (
    ASIDE_MAX,
    BAG_MAX,
    CARD_GOOD,
    GOODS,
    IS_LEGAL,
    NG,
    VALUE,
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
    claims_for_bag,
    condition_choices,
    counts_named,
    illegal,
    pay_options,
)
from .dealt import Cards, good, good_counts, legal_card
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
    Choose,
    Confiscate,
    Discard,
    Inspect,
    Load,
    NoOffer,
    Offer,
    PayGoods,
    SetAside,
    State,
    Unpack,
)


# ---- validation -------------------------------------------------------------------------
def _named(seat: int, what: str, cards: Any, zone: Cards) -> Cards:
    """An action's cards: a tuple of distinct cards of `zone` (ids or tokens)."""
    if not isinstance(cards, tuple) or not all(type(c) is str for c in cards):
        raise illegal(seat, what, "the cards must be a tuple of card ids")
    if len(set(cards)) != len(cards):
        raise illegal(seat, what, "a card is named twice")
    if not set(cards) <= set(zone):
        raise illegal(seat, what, "they are not all there")
    return cards


def _faces(seat: int, what: str, cards: Cards) -> None:
    """Cards the rules read must have been shown (`needs`); a token here is a broken table."""
    if any(is_token(c) or c not in CARD_GOOD for c in cards):
        raise illegal(seat, what, "those cards were not shown to the table")


def _identified_first(seat: int, what: str, named: Cards, known: Cards) -> None:
    """A named card of a good whose identified copies are not all named: those go first (§6:
    the cards of one good are alike; naming or handing over one reveals no more than that)."""
    left = {good(c) for c in known if c not in named}
    if any(c not in known and good(c) in left for c in named):
        raise illegal(seat, what, "name the identified cards of a good first")


def _check_aside(s: State, seat: int, a: Any) -> None:
    if not isinstance(a, SetAside):
        raise illegal(seat, "do that now", "set aside 0-5 cards first")
    hand = s.hands[seat]
    cards = _named(seat, "set those cards aside", a.cards, hand)
    most = min(ASIDE_MAX, len(hand))
    if len(cards) > most:
        raise illegal(seat, "set those cards aside", f"at most {most} cards may be set aside")


def _check_onto_pile(seat: int, a: Any, kind: type, what: str, zone: Cards, which: str, how: str) -> None:
    """A Discard or Confiscate: every card of `zone` (the `which` cards) onto one pile."""
    if not isinstance(a, kind):
        raise illegal(seat, "do that now", how)
    check_pile(seat, what, a.pile)
    _named(seat, what, a.order, zone)
    if len(a.order) != len(zone):
        raise illegal(seat, what, f"the order must hold every {which} card")


def _check_discard(s: State, seat: int, a: Any) -> None:
    _check_onto_pile(seat, a, Discard, "discard", s.aside, "set-aside",
                     "discard the set-aside cards onto one pile")


def _check_load(s: State, seat: int, a: Any) -> None:
    if not isinstance(a, Load):
        raise illegal(seat, "do that now", "load your bag")
    hand = s.hands[seat]
    cards = _named(seat, "load those cards", a.cards, hand)
    most = min(BAG_MAX, len(hand))
    if not 1 <= len(cards) <= most:
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
    stand = _named(seat, what, a.stand_goods, s.stands[seat])
    _faces(seat, what, stand)
    _identified_first(seat, what, stand, s.stand_known[seat])
    bag_claim = counts_named(seat, what, a.bag_goods)  # words, not cards: good ids
    if a.bag_goods and any(bag_claim[i] for i in absent_goods(s.n_players, s.royal)):
        raise illegal(seat, what, "it claims a good that is not in this game")
    if sum(bag_claim) > len(s.bags[seat]):
        raise illegal(seat, what, f"your bag holds only {len(s.bags[seat])} cards")
    check_text(seat, what, a.promise)
    check_conditions(s, seat, a.conditions)
    if not (a.gold or a.stand_goods or a.bag_goods or a.promise.strip() or a.conditions):
        raise illegal(seat, what, "an offer must contain something (use no offer instead)")


def _check_unpack(s: State, seat: int, a: Any) -> None:
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
    rest = [c for c in bag if c not in delivered and c not in face_up and not is_token(c)]
    if any(claim[good(c)] > 0 or IS_LEGAL[good(c)] for c in rest):
        raise illegal(seat, what, "hand over every claimed good the bag holds, show every legal good")


def _check_confiscate(s: State, seat: int, a: Any) -> None:
    _check_onto_pile(seat, a, Confiscate, "confiscate", s.confiscated, "confiscated",
                     "place the confiscated cards on a discard pile")


def _check_pay(s: State, seat: int, a: Any) -> None:
    what = "pay with those goods"
    if not isinstance(a, PayGoods):
        raise illegal(seat, "do that now", "hand over goods for the debt")
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


_CHECKS = {
    ASIDE: _check_aside, DRAW: check_draw, DISCARD: _check_discard, LOAD: _check_load,
    DECLARE: check_declare, CHOOSE: check_choose, OFFER: _check_offer, ANSWER: check_answer,
    UNPACK: _check_unpack, CONFISCATE: _check_confiscate, PAY: _check_pay,
}


def check_step(s: State, seat: int, a: Any) -> None:
    check = _CHECKS.get(s.step or s.phase)
    if check is None:
        raise illegal(seat, "do that now", "the game is over")
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
                           claims_for_bag(s.n_players, s.royal, len(s.bags[seat])),
                           condition_choices(s.pending, seat, s.conditions), check)

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
    claim = list(counts_named(seat, "unpack", s.offer.bag_goods)) if s.held == "deal" else [0] * NG
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
