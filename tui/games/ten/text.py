"""Ten's cards, collections and payments as text (pure helpers, no widgets)."""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text

from engine.core import Result
from engine.ten import score_collection
from engine.ten.cards import (
    CARD_TYPES,
    CELL,
    COLOUR_WILD,
    COLOURS,
    CURRENCY,
    NUMBER,
    NUMBER_VALUE,
    TYPE_OF,
    card_name,
)
from engine.ten.result import CollectionScore, ColourRun
from engine.ten.state import BUY, FINAL_BUY, PAY, SOLO_WILD, Payment, PlayerView

COLOUR_STYLE = {"red": "bold red", "blue": "bold dodger_blue1", "green": "bold green", "orange": "bold dark_orange"}
WILD_STYLE = "bold magenta"
CURRENCY_STYLE = "bold yellow"
SUPERSCRIPT = {2: "²", 3: "³"}
PAYING_PHASES = (PAY, SOLO_WILD)
BUYING_PHASES = (BUY, FINAL_BUY)


# ---- pure helpers: cards and collections as text ---------------------------------------------
def card_style(card: str) -> str:
    kind = CARD_TYPES[TYPE_OF[card]]
    if kind.kind == NUMBER:
        return COLOUR_STYLE[kind.colour]
    if kind.kind == COLOUR_WILD:
        return COLOUR_STYLE[kind.colour] + " italic"
    if kind.kind == CURRENCY:
        return CURRENCY_STYLE
    return WILD_STYLE


def card_text(card: str) -> Text:
    return Text(card_name(card), style=card_style(card))


def cards_text(cards: Sequence[str], sep: str = " · ", empty: str = "none") -> Text:
    if not cards:
        return Text(empty, style="dim")
    return Text(sep).join(card_text(c) for c in cards)


def plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def points(n: int, sign: bool = False) -> str:
    """"1 pt", "3 pts"; with sign "+1 pt", "-2 pts"."""
    number = f"{n:+d}" if sign else str(n)
    return number + (" pt" if abs(n) == 1 else " pts")


def market_text(market: Sequence[str]) -> Text:
    """The market grouped by colour, numbers ascending: it has no size limit, so it stays short."""
    out = Text("Market ", style="bold")
    if not market:
        out.append("empty", style="dim")
        return out
    out.append(f"({len(market)}) ", style="dim")
    parts = []
    for colour in COLOURS:
        numbers = sorted(NUMBER_VALUE[c] for c in market if CARD_TYPES[TYPE_OF[c]].colour == colour)
        if numbers:
            parts.append(Text(f"{colour} " + " ".join(map(str, numbers)), style=COLOUR_STYLE[colour]))
    out.append_text(Text(" · ").join(parts))
    return out


def colour_line(colour_index: int, cards: Sequence[str], score: CollectionScore) -> Text:
    """One colour: 1-9 held (² = two copies), the scoring run bold, wilds placed in reverse."""
    colour = COLOURS[colour_index]
    style = COLOUR_STYLE[colour]
    run = score.runs[colour_index]
    counts = [0] * 10
    for card in cards:
        cell = CELL.get(card)
        if cell and cell[0] == colour_index:
            counts[cell[1]] += 1
    wild_at = {use.number for use in score.wilds if use.colour == colour}
    out = Text(f"{colour:<7}", style=style)
    for n in range(1, 10):
        in_run = run.low <= n <= run.high
        if n in wild_at:
            out.append(str(n), style=style + " reverse")
        elif counts[n]:
            out.append(str(n), style=style if in_run else "dim")
        else:
            out.append("·", style="dim")
        out.append(SUPERSCRIPT.get(counts[n], " "), style="dim")
    out.append(f"{run.points:>3} pt{'s' if run.points != 1 else ' '}", style="bold" if run.points else "dim")
    return out


def placed_wilds(run: ColourRun) -> str:
    """The wilds filling a run: "wild 5 as 5, red wild as 7" ("" when none)."""
    return ", ".join(f"{card_name(cell.card)} as {cell.number}" for cell in run.cells if cell.card not in CELL)


def run_summary(score: CollectionScore) -> Text:
    """Each colour's scoring run, short: "r3-7 b1-2 g– o4" in the colours' styles."""
    out = Text()
    for run in score.runs:
        label = "–" if not run.low else (f"{run.low}" if run.low == run.high else f"{run.low}-{run.high}")
        out.append(f"{run.colour[0]}{label:<5}", style=COLOUR_STYLE[run.colour] if run.low else "dim")
    return out


def collections_text(names: Sequence[str], players: Sequence[PlayerView], result: Result | None = None) -> Text:
    """Every player's collection as runs per colour with the wilds in place (the end screen)."""
    out = Text()
    for player in players:
        score = score_collection(player.collection)
        if player.seat:
            out.append("\n\n")
        out.append(names[player.seat] if player.seat < len(names) else f"seat {player.seat}", style="bold underline")
        total = result.scores[player.seat] if result is not None else score.total
        out.append(f"  {total} points · {plural(player.currency, 'token')} · "
                   f"{plural(player.busts, 'bust token')} · {plural(len(player.collection), 'card')}")
        for index in range(len(COLOURS)):
            out.append("\n")
            out.append_text(colour_line(index, player.collection, score))
            run = score.runs[index]
            placed = placed_wilds(run)
            if run.low:
                out.append(f"  run {run.low}-{run.high}", style="dim")
            if placed:
                out.append(f" ({placed})", style=WILD_STYLE)
        unused = [card_name(use.card) for use in score.wilds if use.colour is None]
        if unused:
            out.append("\n")
            out.append("unused: " + ", ".join(unused), style="dim")
    return out


def payment_text(payment: Payment) -> str:
    """ "2 tokens + 1 bust token + green 1 ×2 + red 7" """
    return " + ".join(payment_parts(payment)) or "nothing"


def payment_parts(payment: Payment) -> list[str]:
    """What a payment gives, a part each: "2 tokens", "1 bust token", "green 1 ×2", "red 7"."""
    parts = []
    if payment.currency:
        parts.append(plural(payment.currency, "token"))
    if payment.busts:
        parts.append(plural(payment.busts, "bust token"))
    names = [card_name(c) for c in payment.cards]
    for name in dict.fromkeys(names):
        count = names.count(name)
        parts.append(name + (f" ×{count}" if count > 1 else ""))
    return parts
