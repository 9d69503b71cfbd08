"""Sheriff of Nottingham's log lines (event kinds: engine/sheriff/events.py): good names,
never ids."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from engine.core import Event
from engine.sheriff.cards import IDX, NAME

from . import Names, plain_line, who


def lines(events: Sequence[Event], names: Names) -> list[str]:
    out: list[str] = []
    for e in events:
        if e.kind.startswith("promise_") and out:  # an offer's terms, on the offer's line
            other = who(names, e.target)
            out[-1] += f"; you inspect {other}" if e.kind == "promise_inspect" else f"; you let {other} pass"
            continue
        line = _line(e, names)
        out.append(line if line is not None else plain_line(e, names))
    return out


def goods(cards: Sequence[str]) -> str:
    """"Apples ×2, Cheese": goods by name, grouped, in card order."""
    if not cards:
        return "nothing"
    counts = Counter(cards)
    order = sorted(counts, key=lambda g: IDX.get(g, len(IDX)))
    return ", ".join(NAME.get(g, g) + (f" ×{counts[g]}" if counts[g] > 1 else "") for g in order)


def _n(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def _line(e: Event, names: Names) -> str | None:  # noqa: C901 - one short branch per kind
    kind, name, to = e.kind, who(names, e.seat), who(names, e.target)
    if kind == "set_aside":
        return f"{name} sets aside {_n(e.amounts[0], 'card')}" if e.amounts[0] else f"{name} keeps the hand"
    if kind == "draw_deck":
        return f"{name} draws from the draw pile"
    if kind == "draw_discard":
        return f"{name} takes {goods(e.cards)} from discard pile {e.amounts[0]}"
    if kind == "discard":
        return f"{name} discards {goods(e.cards)} onto pile {e.amounts[0]}"
    if kind == "confiscate":
        return f"{name} confiscates {goods(e.cards)} onto pile {e.amounts[0]}"
    if kind == "load":
        return f"{name} loads {_n(e.amounts[0], 'card')} into the bag"
    if kind == "declare":
        return f"{name} declares {e.amounts[0]} × {goods(e.cards)}"
    if kind == "choose":
        return f"{name} deals with {to}"
    if kind == "offer":
        parts = [f"{e.amounts[0]} gold"] if e.amounts and e.amounts[0] else []
        if e.cards:
            parts.append(f"{goods(e.cards)} from the stand")
        if e.other:
            parts.append(f"{goods(e.other)} from the bag")
        if e.text:
            parts.append(f'"{e.text}"')
        return f"{name} offers {to}: " + ("; ".join(parts) or "nothing")
    if kind == "no_offer":
        return f"{name} makes no new offer"
    if kind == "demand":
        return f'{name} demands "{e.text}"' if e.text else f"{name} demands more"
    if kind == "accept":
        return f"{name} accepts {to}'s offer"
    if kind == "pass":
        return f"{name} lets {to}'s bag pass"
    if kind == "inspect":
        return f"{name} inspects {to}'s bag"
    if kind == "bag_opened":
        declared = f" (declared {NAME.get(e.other[0], e.other[0])})" if e.other else ""
        return f"{name}'s bag held {goods(e.cards)}{declared}"
    if kind == "deal_goods":
        return f"{name} hands {to} {goods(e.cards)}"
    if kind == "pay_goods":
        return f"{name} pays {to} with {goods(e.cards)}"
    if kind == "gold":
        amount = e.amounts[0]
        if e.target is not None:
            return f"{name} pays {to} {amount} gold"
        return f"{name} {'gains' if amount > 0 else 'loses'} {abs(amount)} gold"
    if kind == "round":
        return f"Round {e.amounts[0]}: {to} is the Sheriff"
    if kind == "over":
        return "The last round is over: the game ends"
    return None
