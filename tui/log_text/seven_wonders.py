"""7 Wonders' log lines (event kinds: engine/seven_wonders/events.py)."""

from __future__ import annotations

from engine.core import Event
from engine.seven_wonders.cards import CARDS

from . import Names, each_event, who


def _card(card: str) -> str:
    return CARDS[card].name if card in CARDS else card.replace("_", " ")


def _pay(e: Event) -> str:
    left, right = e.amounts if len(e.amounts) == 2 else (0, 0)
    return f", paying {left} left and {right} right" if left or right else ""


def _line(e: Event, names: Names) -> str | None:
    kind, name = e.kind, who(names, e.seat)
    if kind == "build":
        return f"{name} builds {_card(e.cards[0])}{_pay(e)}"
    if kind == "build_free":
        return f"{name} builds {_card(e.cards[0])} for free"
    if kind == "stage":
        return f"{name} builds a wonder stage{_pay(e)}"
    if kind == "discard":
        return f"{name} discards a card for 3 coins"
    if kind == "from_discard":
        return f"{name} builds {_card(e.cards[0])} from the discard pile"
    if kind == "decline":
        return f"{name} builds nothing from the discard pile"
    if kind == "conflicts":
        return _conflicts(e, names)
    return None


_AGES = {1: "I", 2: "II", 3: "III"}


def _conflicts(e: Event, names: Names) -> str:
    """"Age I conflicts: Ann +1 +1 · Bob −1 · Cleo 0" (the tokens each city took)."""
    age, tokens = e.amounts[0], e.amounts[1:]
    parts = []
    for seat in range(len(tokens) // 2):
        got = [t for t in tokens[2 * seat: 2 * seat + 2] if t]
        parts.append(f"{who(names, seat)} " + (" ".join(f"{t:+d}".replace("-", "−") for t in got) or "0"))
    return f"Age {_AGES.get(age, age)} conflicts: " + " · ".join(parts)


lines = each_event(_line)  # the renderer tui/log_text finds by the game id
