"""Final scoring of a Money! hand (money.md §8): currencies, Gold/Silver or coins, sets."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from ..core import Result
from ..core.hidden import faces_of
from .cards import (
    COMMISSION,
    CURRENCIES,
    CURRENCY,
    KIND,
    SET_BONUS,
    SET_SIZE,
    STRONG_MIN,
    VALUE,
    WEAK_MAX,
)


def currency_points(total: int) -> int:
    """Strong (>= 200) pays in full, moderate (101-199) pays less 100, weak (<= 100) nothing."""
    if total >= STRONG_MIN:
        return total
    if total > WEAK_MAX:
        return total - COMMISSION
    return 0


def score_hand(cards: Iterable[str], edition: str) -> tuple[tuple[str, int], ...]:
    """Per-category points of one hand: each currency held, then "gold" and "silver"
    (gold_silver) or "coins" (classic), then "sets". Accepts physical or type ids.
    """
    totals: dict[str, int] = {}
    twenties: dict[str, int] = {}
    thirties: dict[str, int] = {}
    extras = {"gold": 0, "silver": 0, "coin": 0}
    for card in cards:
        kind = KIND[card]
        if kind == "currency":
            cur = CURRENCY[card]
            val = VALUE[card]
            totals[cur] = totals.get(cur, 0) + val
            if val == 20:
                twenties[cur] = twenties.get(cur, 0) + 1
            elif val == 30:
                thirties[cur] = thirties.get(cur, 0) + 1
        elif kind != "bluff":
            extras[kind] += 1
    rows = [(cur, currency_points(totals[cur])) for cur in CURRENCIES if cur in totals]
    sets = sum(n // SET_SIZE for n in twenties.values())
    sets += sum(n // SET_SIZE for n in thirties.values())
    if edition == "classic":
        rows.append(("coins", extras["coin"] * VALUE["coin"]))
    else:
        rows.append(("gold", extras["gold"] * VALUE["gold"]))
        rows.append(("silver", extras["silver"] * VALUE["silver"]))
        sets += extras["gold"] // SET_SIZE + extras["silver"] // SET_SIZE
    rows.append(("sets", sets * SET_BONUS))
    return tuple(rows)


def hand_total(cards: Iterable[str], edition: str) -> int:
    return sum(points for _, points in score_hand(cards, edition))


def score_hands(hands: Sequence[Iterable[str]], edition: str) -> Result:
    """The game result: highest total wins, equal totals share the win (no tie-break).

    A card nobody turned over (a token of a network game the table ended early, whose owner
    did not show it) scores nothing."""
    return Result.from_breakdown([score_hand(faces_of(hand), edition) for hand in hands], None)
