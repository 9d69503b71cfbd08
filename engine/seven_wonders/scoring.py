"""End of game scoring (seven_wonders.md §9): seven categories, wildcards, Olympia B's copy.

Works on plain per-seat tuples so the engine and the score pad share it.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations_with_replacement

from ..core import Result
from .cards import BOARDS, CARD_RANK, CARDS, SYMBOLS, Counts
from .state import SeatScore

CATEGORIES = ("military", "treasury", "wonder", "civilian", "science", "commercial", "guilds")
_FLAT_CATEGORY = {"blue": "civilian", "yellow": "commercial", "purple": "guilds"}


def science_symbols(cities_cards: Sequence[str], stage_effects: Sequence) -> tuple[tuple[int, ...], int]:
    """(symbols per `SYMBOLS`, wildcards) of one city: its cards and built wonder stages."""
    symbols = [0] * len(SYMBOLS)
    wildcards = 0
    for e in [CARDS[c].effects for c in cities_cards] + list(stage_effects):
        if e.science is not None:
            symbols[SYMBOLS.index(e.science)] += 1
        wildcards += e.science_choice
    return tuple(symbols), wildcards


def science_points(counts: Sequence[int]) -> int:
    return sum(c * c for c in counts) + 7 * min(counts)


def best_science(counts: Sequence[int], wildcards: int) -> tuple[int, tuple[str, ...]]:
    """The best score with `wildcards` free symbols, and the symbols chosen (first best)."""
    best, chosen = science_points(counts), ()
    if wildcards == 0:
        return best, chosen
    best = -1
    for combo in combinations_with_replacement(range(len(SYMBOLS)), wildcards):
        c = list(counts)
        for i in combo:
            c[i] += 1
        pts = science_points(c)
        if pts > best:
            best, chosen = pts, tuple(SYMBOLS[i] for i in combo)
    return best, chosen


class Table:
    """The final holdings of every seat, as scoring needs them."""

    def __init__(
        self,
        wonders: Sequence[str],
        sides: Sequence[str],
        stages: Sequence[int],
        cities: Sequence[Sequence[str]],
        coins: Sequence[int],
        tokens: Sequence[Sequence[int]],
    ) -> None:
        self.n = len(wonders)
        self.wonders, self.sides, self.stages = wonders, sides, stages
        self.cities, self.coins, self.tokens = cities, coins, tokens

    def seat_of(self, seat: int, where: str) -> int:
        return {"self": seat, "left": (seat + 1) % self.n, "right": (seat - 1) % self.n}[where]

    def stage_effects(self, seat: int):
        return [s.effects for s in BOARDS[(self.wonders[seat], self.sides[seat])].stages[: self.stages[seat]]]

    def count(self, seat: int, counts: Counts) -> int:
        total = 0
        for where in counts.cities:
            other = self.seat_of(seat, where)
            if counts.kind == "cards":
                total += sum(1 for c in self.cities[other] if CARDS[c].color in counts.colors)
            elif counts.kind == "wonder_stages":
                total += self.stages[other]
            elif counts.kind == "defeat_tokens":
                total += sum(1 for t in self.tokens[other] if t < 0)
            else:
                raise ValueError(f"unknown count kind {counts.kind!r}")
        return total


def score_table(table: Table) -> tuple[SeatScore, ...]:
    return tuple(_score_seat(table, seat) for seat in range(table.n))


def result_of(scores: Sequence[SeatScore]) -> Result:
    return Result.from_breakdown([s.categories for s in scores], tiebreak=[s.coins for s in scores])


def _score_seat(table: Table, seat: int) -> SeatScore:
    points = dict.fromkeys(CATEGORIES, 0)
    points["military"] = sum(table.tokens[seat])
    points["treasury"] = table.coins[seat] // 3
    symbols = [0] * len(SYMBOLS)
    wildcards = 0
    copies = False
    for e in table.stage_effects(seat):
        points["wonder"] += e.points
        wildcards += e.science_choice
        copies = copies or e.copy_guild
    for card_id in table.cities[seat]:
        card = CARDS[card_id]
        e = card.effects
        if e.points:
            points[_FLAT_CATEGORY.get(card.color, "civilian")] += e.points
        if e.points_per is not None:
            key = "guilds" if card.is_guild else "commercial"
            points[key] += e.points_per.amount * table.count(seat, e.points_per)
        if e.science is not None:
            symbols[SYMBOLS.index(e.science)] += 1
        wildcards += e.science_choice
    science, chosen = best_science(symbols, wildcards)
    copied, copied_from = None, None
    if copies:
        copied, copied_from, gain, science_copy = _best_copy(table, seat, symbols, wildcards, science)
        if copied is not None:
            if science_copy is not None:
                science, chosen = science_copy
            else:
                points["guilds"] += gain
    points["science"] = science
    categories = tuple((c, points[c]) for c in CATEGORIES)
    return SeatScore(
        categories=categories,
        total=sum(points.values()),
        coins=table.coins[seat],
        wildcards=chosen,
        copied_guild=copied,
        copied_from=copied_from,
    )


def _best_copy(table: Table, seat: int, symbols: list[int], wildcards: int, science: int):
    """Olympia B: the neighbour guild worth most in her city (ties: left first, card order)."""
    best = None
    for where in ("left", "right"):
        owner = table.seat_of(seat, where)
        guilds = sorted((c for c in table.cities[owner] if CARDS[c].is_guild), key=CARD_RANK.__getitem__)
        for guild in guilds:
            e = CARDS[guild].effects
            science_copy = None
            gain = 0
            if e.science_choice:
                science_copy = best_science(symbols, wildcards + e.science_choice)
                gain = science_copy[0] - science
            if e.points_per is not None:
                gain += e.points_per.amount * table.count(seat, e.points_per)
            gain += e.points
            if best is None or gain > best[2]:
                best = (guild, owner, gain, science_copy)
    return best if best is not None else (None, None, 0, None)
