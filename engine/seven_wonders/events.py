"""7 Wonders' public log events: the picks every seat saw revealed. Kinds:

- "build" / "build_free": cards = (the card,); amounts = (coins to the left neighbour,
  to the right neighbour)
- "stage": a wonder stage built (the card tucked under it stays unnamed); amounts as build
- "discard": a card sold for 3 coins (unnamed: it goes face down to the discard pile)
- "from_discard": Halikarnassos builds cards[0] from the discard pile; "decline": it builds none
- "conflicts" (seat None): an Age's military conflicts (§7); amounts = (age, then per seat the
  token taken against the left neighbour and against the right one, 0 for a tie)

Picks are made in secret; this step's events exist only once the step applied all of them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..core import Event
from .state import BuildFromDiscard, Pick, State

_UNNAMED = frozenset({"stage", "discard"})


def seven_wonders_events(actions: Mapping[int, Any]) -> tuple[Event, ...]:
    out = []
    for seat in sorted(actions):
        a = actions[seat]
        if isinstance(a, Pick):
            cards = () if a.kind in _UNNAMED else (a.card,)
            pay = (a.pay_left, a.pay_right) if a.kind != "discard" else ()
            out.append(Event(seat, a.kind, cards, amounts=pay))
        elif isinstance(a, BuildFromDiscard):
            out.append(Event(seat, "from_discard", (a.card,)))
        else:
            out.append(Event(seat, "decline"))
    return tuple(out)


def conflict_events(before: State, after: State) -> tuple[Event, ...]:
    """The conflicts of every Age that ended in this step (the whole table sees them)."""
    return tuple(
        Event(None, "conflicts", amounts=(c.age, *(token for pair in c.results for token in pair)))
        for c in after.conflicts[len(before.conflicts):]
    )
