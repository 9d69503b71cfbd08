"""Ten's log lines (event kinds: engine/ten/events.py)."""

from __future__ import annotations

from collections.abc import Sequence

from engine.core import Event
from engine.ten.cards import card_name

from . import Names, each_event, who


def _cards(cards: tuple[str, ...]) -> str:
    return ", ".join(card_name(c) for c in cards) if cards else "nothing"


def _payment(e: Event) -> str:
    currency, busts = e.amounts
    parts = [f"{currency} currency"] if currency else []
    if busts:
        parts.append(f"{busts} bust token{'s' if busts > 1 else ''}")
    if e.other:
        parts.append(_cards(e.other))
    return " + ".join(parts) or "nothing"


def _gains(names: Names, gains: Sequence[int]) -> str:
    got = [f"{who(names, seat)} +{n}" for seat, n in enumerate(gains) if n]
    return f" (currency: {', '.join(got)})" if got else ""


def _line(e: Event, names: Names) -> str | None:
    kind, name = e.kind, who(names, e.seat)
    if kind == "draw":
        return f"{name} drew {_cards(e.cards)}"
    if kind == "bust":
        cause = "currency" if e.amounts[0] else "numbers"
        return f"{name} busts on {cause}: {_cards(e.cards)} to the market{_gains(names, e.amounts[1:])}"
    if kind == "claim_numbers":
        rest = f"; {_cards(e.other)} discarded" if e.other else ""
        return f"{name} claims {_cards(e.cards)}{rest}{_gains(names, e.amounts)}"
    if kind == "claim_currency":
        rest = f"; {_cards(e.cards)} to the market" if e.cards else ""
        return f"{name} claims the currency{_gains(names, e.amounts)}{rest}"
    if kind == "bid":
        return f"{name} bids {e.amounts[0]}"
    if kind == "pass":
        return f"{name} passes"
    if kind == "wild_discarded":
        return f"Nobody bid: {_cards(e.cards)} is discarded"
    if kind == "pay_wild":
        return f"{name} takes {_cards(e.cards)}, paying {_payment(e)}"
    if kind == "buy_wild":
        return f"{name} keeps {_cards(e.cards)}, paying {_payment(e)}"
    if kind == "discard_wild":
        return f"{name} discards {_cards(e.cards)}"
    if kind == "buy":
        return f"{name} buys {_cards(e.cards)} for {_payment(e)}"
    if kind == "skip":
        return f"{name} buys nothing"
    return None


lines = each_event(_line)  # the renderer tui/log_text finds by the game id
