"""Money!'s log lines (event kinds: engine/money/events.py)."""

from __future__ import annotations

from collections.abc import Sequence

from engine.core import Event
from engine.money.cards import SIDE_NAMES, labels

from . import Names, plain_line, who


def lines(events: Sequence[Event], names: Names) -> list[str]:
    split = {e.seat for e in events if e.kind == "bid" and e.amounts[1] == 1}
    out = []
    for e in events:
        line = _line(e, names, split)
        out.append(line if line is not None else plain_line(e, names))
    return out


def _cards(cards: tuple[str, ...]) -> str:
    return labels(cards) if cards else "nothing"


def _bid(names: Names, seat: int | None, slot: int, two_bids: bool) -> str:
    name = who(names, seat)
    return f"{name}'s {'right' if slot else 'left'} bid" if two_bids else name


def _line(e: Event, names: Names, split: set) -> str | None:
    kind, name = e.kind, who(names, e.seat)
    if kind == "round":
        return f"Round {e.amounts[0]}{' (final round)' if e.amounts[1] else ''}: bids revealed"
    if kind == "bid":
        value, slot = e.amounts
        side = f" ({'right' if slot else 'left'})" if e.seat in split else ""
        return f"{name} bid{side} {_cards(e.cards)} ({value})"
    if kind == "bluff_only":
        return f"{name} bid only the bluff card: no turn"
    if kind == "swap_market":
        side, slot = e.amounts
        return (f"{_bid(names, e.seat, slot, bool(slot))} took side {SIDE_NAMES[side]}: "
                f"{_cards(e.cards)}; left {_cards(e.other)}")
    if kind == "swap_bid":
        slot, target_slot = e.amounts
        return (f"{_bid(names, e.seat, slot, bool(slot))} swapped with {who(names, e.target)}: "
                f"took {_cards(e.cards)}; {who(names, e.target)} acts next with {_cards(e.other)}")
    if kind == "keep":
        return f"{name} kept {_cards(e.cards)}"
    if kind == "refill":
        dealt1, dealt2, left = e.amounts
        return (f"Round ends: side {SIDE_NAMES[0]} +{dealt1}, side {SIDE_NAMES[1]} +{dealt2}; "
                f"{left} left in the deck")
    return _FIXED.get(kind)


_FIXED = {
    "over": "The final round is over: the game ends",
    "deck_empty": "The deck is empty: the next round is the final round",
    "last_dealt": "The last card was dealt: the next round is the final round",
}
