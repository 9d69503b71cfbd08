"""The one deck/zone API every game deals through.

Games never shuffle or draw by hand: they call `shuffle_or_stack` to order a deck and `draw`
to take from its top (index 0 is the top card). Keeping every draw here is what lets a later
dealer protocol (mental poker) supply card identities instead of the local shuffle.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import TypeVar

from .errors import InvalidOption
from .hidden import is_masked
from .rng import Rng

T = TypeVar("T")


def shuffle_or_stack(
    cards: Sequence[T], rng: Rng, stacked: Sequence[T] | None, what: str = "deck"
) -> tuple[tuple[T, ...], Rng]:
    """The deck order: `stacked` if given (checked to be exactly `cards`), else a shuffle."""
    if stacked is None:
        return rng.shuffle(cards)
    check_stacked(cards, stacked, what)
    return tuple(stacked), rng


def check_stacked(cards: Sequence[T], stacked: Sequence[T], what: str = "deck") -> None:
    """Raise InvalidOption unless `stacked` holds exactly the cards of `cards`."""
    if isinstance(stacked, (str, bytes)) or not isinstance(stacked, Sequence):
        raise InvalidOption(f"the stacked {what} must be a list of card ids")
    if is_masked(stacked, len(cards)):
        return  # dealt by the deck protocol: every position a token, faces still unknown
    want, got = Counter(cards), Counter(stacked)
    if want == got:
        return
    missing = sorted(map(str, (want - got).elements()))
    extra = sorted(map(str, (got - want).elements()))
    parts = []
    if missing:
        parts.append(f"missing {', '.join(missing[:5])}{' …' if len(missing) > 5 else ''}")
    if extra:
        parts.append(f"not expected {', '.join(extra[:5])}{' …' if len(extra) > 5 else ''}")
    raise InvalidOption(f"the stacked {what} is not the {len(cards)} cards of setup: " + "; ".join(parts))


def draw(deck: tuple[T, ...], n: int = 1) -> tuple[tuple[T, ...], tuple[T, ...]]:
    """(the top n cards, the rest); fewer if the deck runs out."""
    return deck[:n], deck[n:]


def remove(zone: tuple[T, ...], cards: Sequence[T]) -> tuple[T, ...]:
    """The zone without `cards` (each must be there)."""
    out = list(zone)
    for card in cards:
        out.remove(card)
    return tuple(out)
