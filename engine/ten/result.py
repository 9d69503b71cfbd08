"""The reported scoring of a collection (ten.md §8): which card fills each spot of each
colour's run, where each wild goes, and the game's result with its tie-breaks."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..core import Result, plain
from .cards import CELL, COLOURS, wild_uses
from .scoring import _MASK_POINTS, _bit, _split, best_total, longest_run, pool_of, run_points


@plain("ten.RunCell")
@dataclass(frozen=True, slots=True)
class RunCell:
    number: int
    card: str
    """The number card or the wild that fills this number."""


@plain("ten.ColourRun")
@dataclass(frozen=True, slots=True)
class ColourRun:
    colour: str
    low: int
    high: int
    """The longest run low..high (0, 0 = the colour scores nothing)."""
    points: int
    cells: tuple[RunCell, ...]


@plain("ten.WildUse")
@dataclass(frozen=True, slots=True)
class WildUse:
    card: str
    colour: str | None
    number: int | None
    """None, None = unused."""


@plain("ten.CollectionScore")
@dataclass(frozen=True, slots=True)
class CollectionScore:
    total: int
    runs: tuple[ColourRun, ...]
    """One per colour, in colour order."""
    wilds: tuple[WildUse, ...]
    """Every wild of the collection by card id, with the spot it fills."""


def score_collection(cards: Sequence[str]) -> CollectionScore:
    """The best total and the reported assignment (ten.md §8): wilds fixed one at a time by
    card id, each to its first use (unused, then colour by colour, number by number) that
    still allows the best total; per colour the longest run (the lower one on a tie)."""
    masks, wilds = _split(cards)
    target = best_total(tuple(masks), pool_of(wilds))
    left = sorted(wilds)
    placed: dict[tuple[int, int], str] = {}
    uses: list[WildUse] = []
    while left:
        wild, left = left[0], left[1:]
        pool = pool_of(left)
        use: tuple[int, int] | None = None
        if best_total(tuple(masks), pool) != target:
            for c, n in wild_uses(wild):
                trial = list(masks)
                trial[c] |= _bit(n)
                if best_total(tuple(trial), pool) == target:
                    use = (c, n)
                    break
        if use is None:
            uses.append(WildUse(wild, None, None))
        else:
            c, n = use
            masks[c] |= _bit(n)
            placed[use] = wild
            uses.append(WildUse(wild, COLOURS[c], n))
    number_cards: dict[tuple[int, int], str] = {}
    for card in sorted(cards):
        if card in CELL:
            number_cards.setdefault(CELL[card], card)
    runs = []
    for c, colour in enumerate(COLOURS):
        low, high = longest_run(masks[c])
        cells = tuple(
            RunCell(n, number_cards.get((c, n)) or placed[(c, n)]) for n in range(low, high + 1)
        ) if low else ()
        runs.append(ColourRun(colour, low, high, run_points(high - low + 1) if low else 0, cells))
    return CollectionScore(target, tuple(runs), tuple(uses))


def tiebreak_key(currency: int, collection_size: int) -> int:
    """One int ranking ten.md's tie-breaks: most currency tokens, then fewest cards."""
    return currency * 256 - collection_size


def colour_points(cards: Sequence[str]) -> tuple[tuple[str, int], ...]:
    """(colour, points) of each colour's run in the reported assignment of `score_collection`.

    Without wilds that is each colour's longest run as held, which needs no search.
    """
    masks, wilds = _split(cards)
    if not wilds:
        return tuple(zip(COLOURS, map(_MASK_POINTS.__getitem__, masks), strict=True))
    return tuple((run.colour, run.points) for run in score_collection(cards).runs)


def result_of(collections: Sequence[Sequence[str]], currency: Sequence[int]) -> Result:
    """Per seat: points per colour (breakdown), ranked by total then the tie-breaks."""
    breakdown = [colour_points(cards) for cards in collections]
    tiebreak = [tiebreak_key(currency[s], len(cards)) for s, cards in enumerate(collections)]
    return Result.from_breakdown(breakdown, tiebreak)
