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


def grouped_cards(cards: Sequence[str]) -> list[Text]:
    """One item per currency (or kind), in order of first appearance: "Pound 20+40", "Silver ×2".

    A bid of five cards reads in ~30 columns instead of ~50, so it fits a line at 80 columns."""
    values: dict[str, list[int]] = {}
    firsts: dict[str, str] = {}
    for card in cards:
        cur = money_cards.currency(card)
        name = money_cards.CURRENCY_NAMES[cur] if cur else money_cards.label(card)
        values.setdefault(name, []).append(money_cards.value(card))
        firsts.setdefault(name, card)
    items = []
    for name, amounts in values.items():
        if money_cards.currency(firsts[name]):
            label = f"{name} {'+'.join(str(a) for a in amounts)}"
        else:
            label = name if len(amounts) == 1 else f"{name} ×{len(amounts)}"
        items.append(Text(label, style=card_style(firsts[name])))
    return items


def total(cards: Sequence[str]) -> int:
    return sum(money_cards.value(c) for c in cards)
