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
from .cards import IDX, LEGAL, PENALTY
from .state import CONFISCATE, DECLARE, INSPECT, Consequences, Inspection, SeatView

OPPOSITE = {"inspect": "pass", "pass": "inspect"}


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
