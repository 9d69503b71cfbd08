"""What inspections and offers lead to (§5.4-5.8), from what the viewing seat may know.

A screen shows each declaration with what an inspection would then do, the Sheriff's answers
with what they cost, the fines of an opened bag and of confiscated goods, and what an offer
hands over if accepted. These are rules, so they are worked out here, by pure functions, and
carried in the view (`View.consequences`, `SeatView.inspection`); `accepted` is public so a
screen can show what the offer a player is still building would hand over.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from ..core import HIDDEN
from .cards import IDX, IS_LEGAL, LEGAL, PENALTY, ZERO, hidden_part, ids_of, rounds
from .common import loaders
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


def fines(goods: Sequence[str]) -> int:
    """The penalty of each good, added up (unknown goods count nothing)."""
    return sum(PENALTY[IDX[good]] for good in goods if good != HIDDEN)


def inspection(bag: Sequence[str], declared: str) -> Inspection:
    """Opening `bag` declared as `declared`: the declared goods are kept, the rest confiscated;
    honest, the Sheriff pays the fines of the whole bag, else the merchant pays for the rest."""
    kept = tuple(good for good in bag if good == declared)
    confiscated = tuple(good for good in bag if good != declared)
    return Inspection(declared, kept, confiscated, fines(confiscated) if confiscated else fines(bag))


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
    declarations = ()
    if phase == DECLARE and own and not me.declared:
        declarations = tuple(inspection(own, good) for good in LEGAL)
    if_opened = inspection(own, me.declared) if own and me.declared else None
    honest_fine = 0
    if phase == INSPECT and merchant >= 0 and players[merchant].declared:
        dealt = players[merchant]
        honest_fine = len(dealt.bag) * PENALTY[IDX[dealt.declared]]
    confiscation_fine = fines(confiscated) if step == CONFISCATE else 0
    return Consequences(declarations, if_opened, honest_fine, confiscation_fine)



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
