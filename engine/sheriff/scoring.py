"""Final scoring (§7): gold + the value of every good on the stand + King and Queen bonuses."""

from __future__ import annotations

from collections.abc import Sequence

from ..core import Result
from .cards import COUNTS_AS, IDX, KIND, KING, LEGAL, QUEEN, VALUE


def king_queen_count(stand: Sequence[int], good: str) -> int:
    """Cards of `good` on a stand, each royal good of it counting as its "counts as" number."""
    n = stand[IDX[good]]
    for royal, (base, times) in COUNTS_AS.items():
        if base == good:
            n += stand[IDX[royal]] * times
    return n


def king_queen(counts: Sequence[int], good: str) -> dict[int, tuple[str, int]]:
    """seat -> ("king" | "queen", bonus) for one legal good, ties split and rounded down."""
    king, queen = KING[good], QUEEN[good]
    holders = [c for c in counts if c > 0]
    if not holders:
        return {}
    top = max(holders)
    kings = [s for s, c in enumerate(counts) if c == top]
    if len(kings) > 1:
        share = (king + queen) // len(kings)
        return {s: ("king", share) for s in kings}
    out = {kings[0]: ("king", king)}
    rest = [c for c in holders if c < top]
    if rest:
        second = max(rest)
        queens = [s for s, c in enumerate(counts) if c == second]
        for s in queens:
            out[s] = ("queen", queen // len(queens))
    return out


def breakdown(gold: Sequence[int], stands: Sequence[Sequence[int]]) -> list[list[tuple[str, int]]]:
    """Per seat: gold, value of legal goods, of contraband, of royal goods, then each bonus."""
    rows: list[list[tuple[str, int]]] = []
    for seat, stand in enumerate(stands):
        by_kind = {"legal": 0, "contraband": 0, "royal": 0}
        for i, n in enumerate(stand):
            by_kind[KIND[i]] += n * VALUE[i]
        rows.append([
            ("gold", gold[seat]),
            ("legal goods", by_kind["legal"]),
            ("contraband", by_kind["contraband"]),
            ("royal goods", by_kind["royal"]),
        ])
    # Every seat lists every King and Queen bonus (0 when not earned), so a score table reads
    # good by good in the same order for all players.
    for good in LEGAL:
        counts = [king_queen_count(stand, good) for stand in stands]
        earned = king_queen(counts, good)
        for title in ("king", "queen"):
            for seat in range(len(stands)):
                got = earned.get(seat)
                rows[seat].append((f"{good}_{title}", got[1] if got and got[0] == title else 0))
    return rows


def final_result(gold: Sequence[int], stands: Sequence[Sequence[int]]) -> Result:
    """Equal highest scores share the win (no tie-break)."""
    return Result.from_breakdown(breakdown(gold, stands))


__all__ = ["breakdown", "final_result", "king_queen", "king_queen_count"]
