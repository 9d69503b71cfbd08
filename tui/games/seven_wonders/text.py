"""7 Wonders cards, costs, effects and cities as text (pure helpers, no widgets)."""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text

from engine.seven_wonders.cards import (
    BOARDS,
    CARDS,
    MANUFACTURED,
    RAW,
    RESOURCES,
    SYMBOLS,
    WONDER_CITY,
    Counts,
    Effects,
)
from engine.seven_wonders.state import OVER, PICK, Conflict, View

AGE_NAMES = {1: "I", 2: "II", 3: "III"}
LETTER = {"wood": "W", "stone": "S", "clay": "C", "ore": "O", "glass": "G", "textile": "T", "papyrus": "P"}
RESOURCE_STYLE = {r: "dark_orange3" for r in RAW} | {r: "grey70" for r in MANUFACTURED}
COLOURS = ("brown", "grey", "yellow", "red", "blue", "green", "purple")
COLOUR_STYLE = {
    "brown": "dark_orange3", "grey": "grey70", "blue": "dodger_blue1", "green": "green3",
    "yellow": "yellow", "red": "red", "purple": "magenta",
}
COLOUR_LABEL = {
    "brown": "raw materials", "grey": "goods", "blue": "civilian", "green": "science",
    "yellow": "commercial", "red": "military", "purple": "guild",
}
SYMBOL_MARK = {"compass": "◎", "gear": "⚙", "tablet": "▤"}


# ---- card data as text ---------------------------------------------------------------------------
def units_text(fixed: Sequence[int], choices: Sequence[Sequence[int]] = ()) -> Text:
    """Resource units as letters, e.g. "WWS O/C" (W wood, S stone, C clay, O ore, G glass,
    T textile, P papyrus); an either/or unit as "O/C"."""
    out = Text()
    for index, count in enumerate(fixed):
        if count:
            out.append(LETTER[RESOURCES[index]] * count, style=RESOURCE_STYLE[RESOURCES[index]])
    for option in choices:
        if out:
            out.append(" ")
        if len(option) == len(RAW) and all(RESOURCES[i] in RAW for i in option):
            out.append("any raw", style=RESOURCE_STYLE["wood"])
        elif len(option) == len(MANUFACTURED) and all(RESOURCES[i] in MANUFACTURED for i in option):
            out.append("any good", style=RESOURCE_STYLE["glass"])
        else:
            out.append("/".join(LETTER[RESOURCES[i]] for i in option), style=RESOURCE_STYLE[RESOURCES[option[0]]])
    return out


def cost_text(coin_cost: int, cost: Sequence[tuple[int, int]]) -> Text:
    """A card's or stage's cost: "1¢", "WWO", or "-" (nothing)."""
    fixed = [0] * len(RESOURCES)
    for index, count in cost:
        fixed[index] += count
    out = Text()
    if coin_cost:
        out.append(f"{coin_cost}¢", style="yellow")
    out.append_text(units_text(fixed))
    return out if out else Text("-", style="dim")


def cost_words(coin_cost: int, cost: Sequence[tuple[int, int]]) -> str:
    parts = [f"{coin_cost} coin{'s' if coin_cost != 1 else ''}"] if coin_cost else []
    parts += [f"{count} {RESOURCES[index]}" if count > 1 else RESOURCES[index] for index, count in cost]
    return ", ".join(parts) if parts else "nothing"


def _counted(counts: Counts, *, short: bool = False) -> str:
    where = ({"self": "you", "left": "◀", "right": "▶"} if short
             else {"self": "yours", "left": "left", "right": "right"})
    cities = ("" if short else "/").join(where[c] for c in counts.cities)
    if counts.kind == "cards":
        what = "/".join(counts.colors) + ("" if short else " card")
    elif counts.kind == "wonder_stages":
        what = "stage"
    else:
        what = "defeat"
    return f"{what} {cities}" if short else f"{what} ({cities})"


def units_words(fixed: Sequence[int], choices: Sequence[Sequence[int]] = ()) -> str:
    parts = [f"{k} {RESOURCES[i]}" if k > 1 else RESOURCES[i] for i, k in enumerate(fixed) if k]
    for option in choices:
        if len(option) == len(RAW) and all(RESOURCES[i] in RAW for i in option):
            parts.append("any raw material")
        elif len(option) == len(MANUFACTURED) and all(RESOURCES[i] in MANUFACTURED for i in option):
            parts.append("any manufactured good")
        else:
            parts.append(" or ".join(RESOURCES[i] for i in option))
    return ", ".join(parts)


def effects_text(e: Effects, *, words: bool = False) -> str:
    """What a card or a stage does, in a few words (resources as letters unless `words`)."""
    return ", ".join(effect_parts(e, words=words)) or "nothing"


def effect_parts(e: Effects, *, words: bool = False, short: bool = False) -> list[str]:
    """Each thing a card or stage does; `short`: the terse form a hand row shows at 80 columns
    ("+1¢/brown you◀▶", "2⚔"), the card's line under the hand saying it in full."""
    parts: list[str] = []
    if any(e.produce) or e.produce_one_of:
        made = units_words(e.produce, e.produce_one_of) if words else units_text(e.produce, e.produce_one_of).plain
        own = ("" if e.tradable else " (own)") if short else ("" if e.tradable else " (not sold)")
        parts.append(made + own if short else "makes " + made + own)
    if e.shields:
        parts.append(f"{e.shields}⚔" if short else f"{e.shields} shield{'s' if e.shields > 1 else ''}")
    if e.science:
        parts.append(SYMBOL_MARK.get(e.science, e.science) if short else e.science)
    if e.science_choice:
        parts.append("any " + "".join(SYMBOL_MARK.values()) if short else "any science symbol")
    if e.coins:
        parts.append(f"+{e.coins}¢" if short else f"+{e.coins} coins")
    if e.coins_per is not None:
        per = "/" if short else " per "
        parts.append(f"+{e.coins_per.amount}¢{per}{_counted(e.coins_per, short=short)}")
    if e.points:
        parts.append(f"{e.points}pt" if short else f"{e.points} points")
    if e.points_per is not None:
        parts.append(f"{e.points_per.amount}pt/{_counted(e.points_per, short=True)}" if short
                     else f"{e.points_per.amount} pt per {_counted(e.points_per)} at the end")
    if e.discounts:
        sides = sorted({side for side, _ in e.discounts})
        kinds = {RESOURCES[i] for _, i in e.discounts}
        what = "raw" if kinds <= set(RAW) else ("goods" if kinds <= set(MANUFACTURED) else "resources")
        mark = {"left": "◀", "right": "▶"}
        parts.append(f"{what} {e.discount_price}¢ {''.join(mark.get(s, s) for s in sides)}" if short
                     else f"buy {what} at {e.discount_price}¢ ({' & '.join(sides)})")
    flags = ((e.free_build_once_per_age, "free build/Age", "a free build once per Age"),
             (e.play_last_card, "last card", "play your last card of each Age"),
             (e.build_from_discard, "build discard", "build a discarded card free"),
             (e.copy_guild, "copy guild", "copy a neighbour's guild"))
    parts += [terse if short else full for on, terse, full in flags if on]
    return parts


def card_info(card_id: str, *, short: bool = False) -> Text:
    """One card in full: name, colour, Age, cost, effect, chains (`short`: no colour or Age,
    resources as letters, for a narrow panel)."""
    card = CARDS[card_id]
    out = Text(card.name, style=f"bold {COLOUR_STYLE[card.color]}")
    if not short:
        out.append(f" ({COLOUR_LABEL[card.color]}, Age {AGE_NAMES[card.age]})", style="dim")
    cost = cost_text(card.coin_cost, card.cost).plain if short else "costs " + cost_words(card.coin_cost, card.cost)
    does = ", ".join(effect_parts(card.effects, short=True)) if short else effects_text(card.effects, words=True)
    out.append(f": {cost} → {does or 'nothing'}")
    if card.chain_from:
        out.append(f"; free with {' or '.join(sorted(card.chain_from))}", style="green")
    if card.chain_to:
        out.append(f"; chains to {', '.join(card.chain_to)}", style="dim")
    return out


# ---- a city from the view ------------------------------------------------------------------------
def production(view: View, seat: int, *, sold_only: bool) -> tuple[list[int], list[tuple[int, ...]]]:
    """What a city makes every turn (sold_only: what a neighbour may buy from it)."""
    made = view.production[seat]
    if sold_only:
        return list(made.sells), list(made.sells_one_of)
    return list(made.makes), list(made.makes_one_of)


def shields(view: View, seat: int) -> int:
    return view.production[seat].shields


def science(view: View, seat: int) -> tuple[list[int], int]:
    """Symbols (compass, gear, tablet) and wildcards of a city, as the engine counts them."""
    made = view.production[seat]
    return list(made.science), made.science_wild


def wonder_title(view: View, seat: int) -> str:
    return f"{WONDER_CITY[view.wonders[seat]]} {view.sides[seat]}"


def stages_text(view: View, seat: int) -> str:
    return f"{view.stages[seat]}/{len(BOARDS[(view.wonders[seat], view.sides[seat])].stages)}"


def tokens_text(tokens: Sequence[int]) -> str:
    return " ".join(f"{t:+d}".replace("-", "−") for t in tokens)


def conflicts(view: View) -> Conflict | None:
    """The conflicts of the Age just ended while they are news: at the first pick of Age II
    or III, and at the end. None otherwise."""
    if view.phase == OVER:
        age = 3
    elif view.phase == PICK and view.turn == 1 and view.age > 1:
        age = view.age - 1
    else:
        return None
    return next((c for c in view.conflicts if c.age == age), None)


def city_detail(names: Sequence[str], view: View, seat: int) -> Text:
    """Everything public about one city, for the Cities screen."""
    out = Text()
    out.append(f"{names[seat]}", style="bold")
    out.append(f" · {wonder_title(view, seat)} · wonder {stages_text(view, seat)} · {view.coins[seat]} coins"
               f" · {shields(view, seat)} shield{'' if shields(view, seat) == 1 else 's'} · war {tokens_text(view.tokens[seat]) or 'no tokens'}")
    fixed, choices = production(view, seat, sold_only=False)
    out.append("\n  makes ", style="dim")
    out.append_text(units_text(fixed, choices))
    sold, sold_choices = production(view, seat, sold_only=True)
    out.append("  sells ", style="dim")
    out.append_text(units_text(sold, sold_choices))
    counts, wild = science(view, seat)
    out.append("\n  science ", style="dim")
    out.append(" ".join(f"{s} {k}" for s, k in zip(SYMBOLS, counts, strict=True)) + (f" +{wild} any" if wild else ""))
    board = BOARDS[(view.wonders[seat], view.sides[seat])]
    for index, stage in enumerate(board.stages):
        built = index < view.stages[seat]
        out.append(f"\n  stage {index + 1} {'✓' if built else ' '} ", style="bold" if built else "dim")
        out.append_text(cost_text(stage.coin_cost, stage.cost))
        out.append(f" → {effects_text(stage.effects)}", style="" if built else "dim")
    for colour in COLOURS:
        cards = [CARDS[c].name for c in view.cities[seat] if CARDS[c].color == colour]
        if cards:
            out.append(f"\n  {COLOUR_LABEL[colour]:<14}", style=COLOUR_STYLE[colour])
            out.append(", ".join(cards))
    if not view.cities[seat]:
        out.append("\n  no structures yet", style="dim")
    if seat == view.seat:  # only you know these cards
        if view.tucked:
            out.append("\n  under your wonder: ", style="dim")
            out.append(", ".join(CARDS[c].name for c in view.tucked))
        if view.my_discards:
            out.append("\n  you discarded: ", style="dim")
            out.append(", ".join(CARDS[c].name for c in view.my_discards))
    return out
