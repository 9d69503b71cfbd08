"""Money! cards as text: each currency in its colour, gold / silver / coins / the bluff card."""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text

from engine.money import cards as money_cards

SIDES = ("I", "II")
EDITION_NAMES = {"gold_silver": "Gold & Silver", "classic": "classic"}
CURRENCY_STYLE = {
    "dollar": "green", "pound": "magenta", "krona": "cyan", "rouble": "red",
    "yen": "yellow", "franc": "bright_blue", "euro": "bright_white",
}
KIND_STYLE = {"gold": "bold yellow", "silver": "bold white", "coin": "bold yellow", "bluff": "dim italic"}


def card_style(card: str) -> str:
    cur = money_cards.currency(card)
    return CURRENCY_STYLE[cur] if cur else KIND_STYLE.get(money_cards.kind(card), "")


def card_text(card: str) -> Text:
    return Text(money_cards.label(card), style=card_style(card))


def cards_text(cards: Sequence[str], sep: str = " · ") -> Text:
    if not cards:
        return Text("nothing", style="dim")
    return Text(sep).join(card_text(c) for c in cards)


def total(cards: Sequence[str]) -> int:
    return sum(money_cards.value(c) for c in cards)
