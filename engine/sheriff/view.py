"""Views (`make_view`, written once on the zone kind, as the rules are) and what inspections and
offers lead to (§5.4-5.8), from what the viewing seat may know.

A screen shows each declaration with what an inspection would then do, the Sheriff's answers
with what they cost, the fines of an opened bag and of confiscated goods, and what an offer
hands over if accepted. These are rules, so they are worked out here, by pure functions, and
carried in the view (`View.consequences`, `SeatView.inspection`); `accepted` is public so a
screen can show what the offer a player is still building would hand over.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from ..core import HIDDEN
from ..core.plain import fast_maker
from .cards import GOOD_OF, IDX, LEGAL, NG, PENALTY, rounds
from .common import loaders
from .counted import Counted
from .dealt import Carded
from .state import (
    CONFISCATE,
    DECLARE,
    INSPECT,
    LOAD,
    MARKET,
    OPPOSITE,
    OVER,
    Consequences,
    Inspection,
    SeatView,
    State,
    View,
)


def condition_kinds(accepted: Sequence[tuple[str, int]], merchant: int) -> tuple[str, ...]:
    """What an offer may promise about another pending `merchant` (§5.4.1): nothing ("") or
    that the Sheriff inspects / passes them, unless it contradicts a condition the Sheriff
    already accepted this round."""
    return ("",) + tuple(kind for kind in ("inspect", "pass") if (OPPOSITE[kind], merchant) not in accepted)


def market_turn_over(sheriff: int, n_players: int, acting: int, merchant: int) -> bool:
    """Whether `merchant` has had its market turn this round while `acting` has its own: the
    merchants go one by one to the Sheriff's left (§5.1), so its hand is final."""
    order = [(sheriff + k) % n_players for k in range(1, n_players)]
    return merchant in order and acting in order and order.index(merchant) < order.index(acting)


def fines(cards: Sequence[str]) -> int:
    """The penalty of each card's good, added up (unknown cards count nothing); a card is a
    good id (a plain game) or a card id (a dealt game)."""
    return sum(PENALTY[GOOD_OF[card]] for card in cards if card != HIDDEN)


def inspection(bag: Sequence[str], declared: str) -> Inspection:
    """Opening `bag` declared as `declared`: the declared goods are kept, the rest confiscated;
    honest, the Sheriff pays the fines of the whole bag, else the merchant pays for the rest."""
    i = IDX[declared]
    kept = tuple(card for card in bag if GOOD_OF.get(card) == i)
    confiscated = tuple(card for card in bag if GOOD_OF.get(card) != i)
    return Inspection(declared, kept, confiscated, fines(confiscated) if confiscated else fines(bag))


_new_view = fast_maker(View)
_new_seat_view = fast_maker(SeatView)

_inspected = lru_cache(maxsize=4096)(inspection)
"""`inspection` of a bag as a tuple, remembered: views show the same opened bag many times."""


def accepted(bag: Sequence[str], bag_goods: Sequence[str]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """An accepted offer promising `bag_goods` from `bag`: (the goods handed over, as far as
    they are really in the bag; the rest of the bag, which goes to the merchant's stand)."""
    left = Counter(bag)
    delivered = []
    for good in bag_goods:
        if left[good]:
            left[good] -= 1
            delivered.append(good)
    rest = list(bag)
    for good in delivered:
        rest.remove(good)
    return tuple(delivered), tuple(rest)


def consequences(
    seat: int,
    phase: str,
    step: str,
    players: Sequence[SeatView],
    merchant: int,
    confiscated: Sequence[str],
) -> Consequences:
    """The consequences `seat` may know of now: its own bag's, the bag being dealt with
    (public size and declaration) and the confiscated goods' fines."""
    me = players[seat]
    own = me.bag if me.bag and HIDDEN not in me.bag else ()
    dealt = (len(players[merchant].bag), players[merchant].declared) if merchant >= 0 else (0, "")
    return _consequences(phase, step, tuple(own), me.declared, dealt, tuple(confiscated))


@lru_cache(maxsize=4096)
def _consequences(
    phase: str, step: str, own: tuple[str, ...], declared: str, dealt: tuple[int, str],
    confiscated: tuple[str, ...],
) -> Consequences:
    """`consequences` from what they depend on (remembered: a step repeats them for every
    seat and the next steps often do too); `dealt` is the bag dealt with: (size, declared)."""
    declarations = ()
    if phase == DECLARE and own and not declared:
        declarations = tuple(_inspected(own, good) for good in LEGAL)
    if_opened = _inspected(own, declared) if own and declared else None
    honest_fine = 0
    if phase == INSPECT and dealt[1]:
        honest_fine = dealt[0] * PENALTY[IDX[dealt[1]]]
    confiscation_fine = fines(confiscated) if step == CONFISCATE else 0
    return Consequences(declarations, if_opened, honest_fine, confiscation_fine)


# ---- views ------------------------------------------------------------------------------
def make_view(s: State, seat: int | None) -> View:
    """What `seat` may know (None: a spectator), in goods whatever the state's zone kind (a
    dealt game's card ids are read as their goods; a card not known here is HIDDEN)."""
    z = Carded if len(s.aside) != NG else Counted
    over = s.phase == OVER
    players = _seat_views(s, seat, over, z)
    active = () if over else tuple(sorted(loaders(s))) if s.phase == LOAD else (s.turn,)
    confiscated = z.public(s.confiscated)
    # positional, in field order: a frozen dataclass's own __init__ sets each of the 22 fields
    # through object.__setattr__, 7x the cost of the maker (a bot reads a view every decision)
    return _new_view(
        seat, s.n_players, s.royal, s.round, rounds(s.n_players), s.sheriff, s.phase, s.step,
        active, players, len(s.draw_pile), (z.shown(s.piles[0][::-1]), z.shown(s.piles[1][::-1])),
        s.drew_deck, s.pending, s.conditions, s.merchant, s.exchange,
        z.in_goods(s.offer) if s.offer else s.offer, z.in_goods(s.talk) if s.talk else s.talk,
        confiscated, s.debt,
        None if seat is None else consequences(seat, s.phase, s.step, players, s.merchant, confiscated),
    )


def _seat_views(s: State, seat: int | None, over: bool, z: Any) -> tuple[SeatView, ...]:
    """Every seat as `seat` sees it (the arguments of `_listed_seat_view`, seat by seat)."""
    in_market = s.turn if s.phase == MARKET else -1
    empty = z.EMPTY
    views = []
    for p, gold, hand, hand_known, bag, declared, stand, stand_known, outcome, revealed in zip(
            range(s.n_players), s.gold, s.hands, s.hand_known, s.bags, s.declared, s.stands, s.stand_known,
            s.outcomes, s.revealed, strict=True):
        mine = p == seat
        args = (z, p, mine, mine or over, gold, hand, hand_known, s.aside if p == in_market else empty, bag,
                declared, stand, stand_known, outcome, revealed)
        # A seat is mostly as it was at the last view of it from the same side, its zones the
        # very same tuples: comparing with that is cheap, and a seat that changed is seldom
        # seen again as it was (every zone a tuple: equal arguments, equal view)
        last = _LAST_SEEN.get(2 * p + mine)
        if last is None or last[0] != args:
            last = _LAST_SEEN[2 * p + mine] = args, _listed_seat_view(*args)
        views.append(last[1])
    return tuple(views)


def _listed_seat_view(
    z: Any, p: int, mine: bool, down_known: bool, gold: int, hand: Any, hand_known: Any,
    aside: Any, bag: Any, declared: str, stand: Any, stand_known: Any, outcome: str,
    revealed: tuple[str, ...],
) -> SeatView:
    up, down = z.stand_faces(stand)
    revealed = z.shown(revealed)
    return _new_seat_view(
        p, gold,
        z.own(hand) if mine else z.known_first(hand_known, z.size(hand)),
        z.own(aside) if mine else (HIDDEN,) * z.size(aside),
        z.own(bag) if mine else (HIDDEN,) * z.size(bag),
        declared, up,
        z.own(down) if down_known else z.known_first(stand_known, z.size(down)),
        outcome, revealed,
        _inspected(revealed, declared) if revealed else None,
    )


_LAST_SEEN: dict[int, tuple[tuple, SeatView]] = {}
"""2 x seat + (seen by itself) -> the arguments and the view of its last `_seat_views` (two
entries a seat; a SeatView is immutable, so views share it)."""
