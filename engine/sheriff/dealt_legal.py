"""A dealt game's legal actions, and what each seat sees and each step reads (its transitions:
rules.py, its checks: checks.py, both on `dealt.Carded`). Legal actions are computed on the
seat's own knowledge: its own cards are faces there."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any

from ..core import ActionSpace, IllegalAction, Stream
from ..core.hidden import is_token
from .cards import (
    ASIDE_MAX,
    BAG_MAX,
    GOOD_NAME,
    IS_LEGAL,
    NG,
)
from .checks import check_step
from .common import (
    claims_for_bag,
    condition_choices,
    counts_named,
    pay_options,
)
from .dealt import Cards, good, good_counts
from .spaces import OfferSpace, OrderSpace, SubsetSpace
from .state import (
    ANSWER,
    ASIDE,
    CHOOSE,
    CONFISCATE,
    DISCARD,
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
    Offer,
    PayGoods,
    SetAside,
    State,
    Unpack,
)


# ---- legal actions (on the seat's own knowledge: its own cards are faces) ------------------
def _pick(zone: Cards, goods: Sequence[str], first: Cards = ()) -> Cards:
    """Cards of `zone` for a list of goods: `first` ones (identified) before the others."""
    if not goods:
        return ()
    if first and first is not zone:
        free = [c for c in first if c in zone] + [c for c in zone if c not in first]
    else:  # nothing to put first, or the whole zone in its own order
        free = list(zone)
    out = []
    for g in goods:
        for k, card in enumerate(free):
            if GOOD_NAME[card] == g:
                out.append(free.pop(k))
                break
        else:
            raise StopIteration(g)  # a good the zone lacks (dealt_view.play_in_goods catches it)
    return tuple(out)


class OnCards:
    """Marks legal actions that name the seat's cards (a dealt game's): a player that thinks in
    goods, as views are, picks among them in goods (`dealt_view.play_in_goods`)."""

    __slots__ = ()


class CardActions(OnCards, tuple):
    """Legal actions listed, naming the seat's cards."""

    __slots__ = ()


class CardSubsets(OnCards, SubsetSpace):
    """Sub-multisets of a hand's goods, each made into an action naming the hand's cards."""


class CardOrders(OnCards, OrderSpace):
    """Every order of a zone's cards onto a discard pile, naming the cards."""


class _Mapped(OnCards, ActionSpace):
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
        return CardSubsets(good_counts(hand), 0, min(ASIDE_MAX, len(hand)),
                           lambda goods: SetAside(_pick(hand, goods)), check)
    if step == LOAD:  # a card identified in the hand goes last: the table sees which go
        hand, known = s.hands[seat], s.hand_known[seat]
        unknown = tuple(c for c in hand if c not in known) if known else hand  # mostly none known
        return CardSubsets(good_counts(hand), 1, min(BAG_MAX, len(hand)),
                           lambda goods: Load(_pick(hand, goods, unknown)), check)
    if step == DISCARD:
        return CardOrders(s.aside, Discard, check)
    if step == CONFISCATE:
        return CardOrders(s.confiscated, Confiscate, check)
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
        return CardActions(PayGoods(_pick(stand, p.cards, known))
                           for p in pay_options(good_counts(stand), s.debt.amount))
    if step == UNPACK:
        return CardActions((unpacked(s, seat),))
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
