"""The 7 Wonders screen: your city, your neighbours, your hand with what each card costs you.

Top: both neighbours on one line each (wonder, stages, shields, coins, what they sell; on a
big terminal also their cards). Then your city: coins, shields, conflict tokens, production,
science, wonder stages and the cards grouped by colour. Below, your hand: per card its cost,
and whether you can build it (free / chain / pay N / not possible). Enter on a card lists
every legal way to play it — build with each offered payment, Olympia's free build, the next
wonder stage with each payment, discard for 3 coins — and Enter again plays the one shown;
b / s / d / f do it straight away when there is only one way. Halikarnassos picks from the
discard pile (Enter) or declines (n); Babylon plays its kept card like any pick.

Everything is read from the view (and the card data); actions are taken only from the legal
ones. Each Age's conflict results come with the view; they are shown at the first turn of
the next Age and at the end, and logged once.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import DataTable, Footer, Static

from engine.core import Result
from engine.seven_wonders.cards import (
    BOARDS,
    CARDS,
    DISCARD_COINS,
    MANUFACTURED,
    RAW,
    RESOURCES,
    SYMBOLS,
    WONDER_CITY,
    Counts,
    Effects,
)
from engine.seven_wonders.state import (
    BABYLON,
    BUILD,
    BUILD_FREE,
    DISCARD,
    HALIKARNASSOS,
    OVER,
    PICK,
    STAGE,
    BuildFromDiscard,
    CardOption,
    Conflict,
    Decline,
    Payment,
    Pick,
    View,
)

from ..results import winners_line
from ..screens.end import EndScreen
from ..widgets import PickList, PickRow
from ..widgets.panel import Panel
from .base import STYLES, GameScreen, Legal

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


def _counted(counts: Counts) -> str:
    where = {"self": "yours", "left": "left", "right": "right"}
    cities = "/".join(where[c] for c in counts.cities)
    if counts.kind == "cards":
        what = "/".join(counts.colors) + " card"
    elif counts.kind == "wonder_stages":
        what = "stage"
    else:
        what = "defeat"
    return f"{what} ({cities})"


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
    parts: list[str] = []
    if any(e.produce) or e.produce_one_of:
        made = units_words(e.produce, e.produce_one_of) if words else units_text(e.produce, e.produce_one_of).plain
        parts.append("makes " + made + ("" if e.tradable else " (not sold)"))
    if e.shields:
        parts.append(f"{e.shields} shield{'s' if e.shields > 1 else ''}")
    if e.science:
        parts.append(e.science)
    if e.science_choice:
        parts.append("any science symbol")
    if e.coins:
        parts.append(f"+{e.coins} coins")
    if e.coins_per is not None:
        parts.append(f"+{e.coins_per.amount}¢ per {_counted(e.coins_per)}")
    if e.points:
        parts.append(f"{e.points} points")
    if e.points_per is not None:
        parts.append(f"{e.points_per.amount} pt per {_counted(e.points_per)} at the end")
    if e.discounts:
        sides = sorted({side for side, _ in e.discounts})
        kinds = {RESOURCES[i] for _, i in e.discounts}
        what = "raw" if kinds <= set(RAW) else ("goods" if kinds <= set(MANUFACTURED) else "resources")
        parts.append(f"buy {what} at {e.discount_price}¢ ({' & '.join(sides)})")
    if e.free_build_once_per_age:
        parts.append("a free build once per Age")
    if e.play_last_card:
        parts.append("play your last card of each Age")
    if e.build_from_discard:
        parts.append("build a discarded card free")
    if e.copy_guild:
        parts.append("copy a neighbour's guild")
    return ", ".join(parts) or "nothing"


def card_info(card_id: str) -> Text:
    """One card in full: name, colour, Age, cost, effect, chains."""
    card = CARDS[card_id]
    out = Text.assemble((card.name, f"bold {COLOUR_STYLE[card.color]}"),
                        (f" ({COLOUR_LABEL[card.color]}, Age {AGE_NAMES[card.age]})", "dim"))
    out.append(f": costs {cost_words(card.coin_cost, card.cost)} → {effects_text(card.effects, words=True)}")
    if card.chain_from:
        out.append(f"; free with {' or '.join(sorted(card.chain_from))}", style="green")
    if card.chain_to:
        out.append(f"; chains to {', '.join(card.chain_to)}", style="dim")
    return out


# ---- a city from the view ------------------------------------------------------------------------
def city_effects(view: View, seat: int) -> list[Effects]:
    board = BOARDS[(view.wonders[seat], view.sides[seat])]
    return [CARDS[c].effects for c in view.cities[seat]] + [s.effects for s in board.stages[: view.stages[seat]]]


def production(view: View, seat: int, *, sold_only: bool) -> tuple[list[int], list[tuple[int, ...]]]:
    """What a city makes every turn (sold_only: what a neighbour may buy from it)."""
    made = view.production[seat]
    if sold_only:
        return list(made.sells), list(made.sells_one_of)
    return list(made.makes), list(made.makes_one_of)


def shields(view: View, seat: int) -> int:
    return view.production[seat].shields


def science(view: View, seat: int) -> tuple[list[int], int]:
    """Symbols (compass, gear, tablet) and wildcards of a city."""
    counts = [0] * len(SYMBOLS)
    wild = 0
    for e in city_effects(view, seat):
        if e.science:
            counts[SYMBOLS.index(e.science)] += 1
        wild += e.science_choice
    return counts, wild


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


class SevenWondersScreen(GameScreen):
    GAME_ID = "seven_wonders"
    CSS_PATH = STYLES / "seven_wonders.tcss"

    BINDINGS = [
        Binding("enter", "choose", "Play", show=True),
        Binding("b", "quick('build')", "Build", show=True),
        Binding("s", "quick('stage')", "Stage", show=True),
        Binding("d", "quick('discard')", "Discard", show=True),
        Binding("f", "quick('build_free')", "Free", show=True),
        Binding("backspace", "back", "Back", show=True),
        Binding("n", "decline", "Decline", show=True),
        Binding("c", "cities", "Cities", show=True),
    ]

    def __init__(self, table) -> None:
        super().__init__(table)
        self.view: View | None = None
        self.legal: Legal = ()
        self.legal_set: frozenset[Any] = frozenset()
        self.card: str | None = None  # the card whose ways to play are listed
        self.sent: str = ""  # what this seat sent for the current step
        self._logged_ages: set[int] = set()
        self._step_seen: tuple[Any, ...] = ()
        self._choices_for: str | None = None

    # ---- layout --------------------------------------------------------------------------------
    def compose_board(self) -> ComposeResult:
        yield Panel("", id="sw-neighbours")
        yield Panel("", id="sw-city")
        yield Panel("", id="sw-hand-title")
        yield PickList(id="sw-hand", empty="(no cards)")
        yield PickList(id="sw-choices")
        yield Panel("", id="sw-card")

    def on_resize(self) -> None:
        """Neighbours grow a line of cards on a big terminal; the card line shrinks on a small one."""
        self.set_class(self.size.height < 28, "sw-short")
        if self.view is not None:
            self.refresh_table()

    # ---- state helpers -------------------------------------------------------------------------
    @property
    def picking(self) -> bool:
        return self.view is not None and self.view.phase in (PICK, BABYLON) and self.my_turn

    @property
    def rebuilding(self) -> bool:
        """Halikarnassos: this seat builds from the discard pile now."""
        return self.view is not None and self.view.phase == HALIKARNASSOS and self.my_turn

    @property
    def wide(self) -> bool:
        return self.size.width >= 100 and self.size.height >= 28

    @property
    def shown_seat(self) -> int:
        """The city drawn at the centre: yours, or seat 0's when watching."""
        return self.view.seat if self.view is not None and self.view.seat is not None else 0

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "choose":
            return self.picking or self.rebuilding
        if action == "quick":  # in the list of ways to play a card, Enter and Backspace do it
            if parameters and parameters[0] == BUILD_FREE:
                return self.picking and self.card is None and bool(self.view and self.view.free_build)
            return self.picking and self.card is None
        if action == "back":
            return self.picking and self.card is not None
        if action == "decline":
            return self.rebuilding
        if action == "cities":
            return self.view is not None
        return super().check_action(action, parameters)

    # ---- drawing -------------------------------------------------------------------------------
    def render_view(self, view: View, legal: Legal) -> None:
        step = (view.seat, view.age, view.turn, view.phase, self.my_turn)
        new_step = step != self._step_seen
        if new_step:
            self._step_seen = step
            self.card = None
            if self.my_turn:
                self.sent = ""
        self.view, self.legal = view, legal
        self.legal_set = frozenset(legal)
        self._note_conflicts(view)
        self.query_one("#sw-neighbours", Static).update(self._neighbours_text(view))
        self.query_one("#sw-city", Static).update(self._city_text(view))
        self._draw_hand(view, new_step)
        self._draw_card_info()

    def status_text(self, view: View) -> str:
        parts = [self.table.game.name]
        if view.phase == OVER:
            parts.append("game over")
        else:
            parts.append(f"Age {AGE_NAMES[view.age]} · turn {view.turn}/6")
            if view.phase == BABYLON:
                parts.append("Babylon's last card")
            elif view.phase == HALIKARNASSOS:
                parts.append("Halikarnassos")
            else:
                parts.append("hands pass left" if view.pass_left else "hands pass right")
        parts.append(f"discards {view.discard_count}")
        who = f"you: {self.player_name(view.seat)}" if view.seat is not None else "watching"
        return " · ".join(parts) + f" · {who}"

    def scoreboard(self, view: View):
        rows = []
        me = view.seat
        n = view.n_players
        for seat, name in enumerate(self.table.names):
            if seat == me:
                mark = "•"
            elif me is not None and seat == (me + 1) % n:
                mark = "◀"
            elif me is not None and seat == (me - 1) % n:
                mark = "▶"
            else:
                mark = " "
            rows.append([f"{mark}{name}", str(view.coins[seat]), str(shields(view, seat)),
                         str(view.stages[seat]), f"{sum(view.tokens[seat]):+d}"])
        return ["Player", "¢", "⚔", "W", "±"], rows, [me] if me is not None else []

    def waiting_text(self, awaiting: frozenset[int]) -> str:
        """Who has picked during a pick; whose power is played otherwise."""
        view = self.view
        if view is None or self.table.is_over() or view.phase != PICK:
            text = super().waiting_text(awaiting)
            if view is not None and text and view.phase in (BABYLON, HALIKARNASSOS) and not self.my_turn:
                text += " (Babylon's last card)" if view.phase == BABYLON else " (Halikarnassos)"
            return text
        picked = [self.player_name(s) for s in sorted(self.table.active() - awaiting) if s != self.seat]
        others = [self.player_name(s) for s in sorted(awaiting) if s != self.seat]
        done = f"picked: {', '.join(picked)}" if picked else "nobody has picked yet"
        if self.my_turn:
            return f"Your pick · {done}"
        if not others:
            return ""
        offline = self.table.offline()
        waiting = [self.player_name(s) + (" (offline)" if s in offline else "") for s in sorted(awaiting) if s != self.seat]
        if self.seat is not None and self.seat not in awaiting:
            picked = ["you", *picked]
        line = f"waiting for: {', '.join(waiting)}"
        if picked:
            line += f" · picked: {', '.join(picked[:-1]) + ' and ' if len(picked) > 1 else ''}{picked[-1]}"
        waiting_for = getattr(self.table, "waiting_for", None)  # network tables have a clock
        if callable(waiting_for):
            seconds = int(waiting_for()[1])
            line += f" · {seconds} s" if seconds >= 3 else ""
        return line

    # ---- the neighbours and the city -----------------------------------------------------------
    def _neighbours_text(self, view: View) -> Text:
        me = self.shown_seat
        n = view.n_players
        out = Text()
        for label, seat in (("◀ left ", (me + 1) % n), ("▶ right", (me - 1) % n)):
            if out:
                out.append("\n")
            out.append(f"{label} ", style="bold")
            out.append(f"{self.player_name(seat)[:9]:<9} ", style="bold")
            # what can be bought first: the rest is also in the side panel when this is cut
            fixed, choices = production(view, seat, sold_only=True)
            out.append("sells ", style="dim")
            out.append_text(units_text(fixed, choices))
            out.append(f" · {wonder_title(view, seat)} W{stages_text(view, seat)} ⚔{shields(view, seat)}"
                       f" {view.coins[seat]}¢", style="dim")
            if self.wide:
                out.append("\n      ")
                out.append_text(self._cards_line(view, seat))
            if self.wide and self.size.height >= 36:  # room for what the city makes and its science
                fixed, choices = production(view, seat, sold_only=False)
                out.append("\n      makes ", style="dim")
                out.append_text(units_text(fixed, choices))
                counts, wild = science(view, seat)
                out.append(" · science ", style="dim")
                out.append(" ".join(f"{s} {k}" for s, k in zip(SYMBOLS, counts, strict=True))
                           + (f" +{wild} any" if wild else ""))
        return out

    def _cards_line(self, view: View, seat: int) -> Text:
        """The city's structures grouped by colour, each in its colour."""
        groups = [[c for c in view.cities[seat] if CARDS[c].color == colour] for colour in COLOURS]
        out = Text()
        for colour, cards in zip(COLOURS, groups, strict=True):
            if not cards:
                continue
            if out:
                out.append(" ")
            out.append("■ ", style=COLOUR_STYLE[colour])
            out.append(", ".join(CARDS[c].name for c in cards), style=COLOUR_STYLE[colour])
        return out or Text("no structures yet", style="dim")

    def _city_text(self, view: View) -> Text:
        me = self.shown_seat
        out = Text()
        whose = "You" if view.seat is not None else self.player_name(me)
        out.append(f"{whose} · {wonder_title(view, me)}", style="bold")
        out.append(f" · {view.coins[me]}¢ · ⚔{shields(view, me)}")
        out.append(f" · war {tokens_text(view.tokens[me]).replace(' ', '') or 'no tokens'}")
        fixed, choices = production(view, me, sold_only=False)
        out.append("\nmakes ", style="dim")
        out.append_text(units_text(fixed, choices))
        counts, wild = science(view, me)
        if any(counts) or wild:
            out.append("  science ", style="dim")
            out.append(" ".join(f"{SYMBOL_MARK[s]}{k}" for s, k in zip(SYMBOLS, counts, strict=True)), style="green3")
            if wild:
                out.append(f" +{wild} any", style="green3")
        out.append("\n")
        out.append_text(self._stage_line(view, me))
        fresh = conflicts(view)
        if fresh is not None:
            out.append("\n")
            out.append_text(self._conflict_line(view, fresh, me))
        out.append("\n")
        out.append_text(self._cards_line(view, me))
        return out

    def _stage_line(self, view: View, seat: int) -> Text:
        board = BOARDS[(view.wonders[seat], view.sides[seat])]
        built = view.stages[seat]
        out = Text.assemble(("wonder ", "dim"), (f"{built}/{len(board.stages)}", "bold"))
        if built >= len(board.stages):
            out.append(" · every stage built", style="dim")
            return out
        stage = board.stages[built]
        out.append(" · next ")
        out.append_text(cost_text(stage.coin_cost, stage.cost))
        if view.seat is not None and self.picking:
            pays = view.stage_payments
            if not pays:
                out.append(" ✗ not now", style="red")
            else:
                cheapest = min(stage.coin_cost + p.pay_left + p.pay_right for p in pays)
                out.append(f" s: {'free' if cheapest == 0 else f'pay {cheapest}'}",
                           style="green3" if cheapest == 0 else "yellow")
        out.append(f" → {effects_text(stage.effects)}")
        return self._fit(out)

    def _fit(self, line: Text) -> Text:
        """One line of the city panel cut to its width (the rest of the panel wraps)."""
        width = self.query_one("#sw-city", Static).content_size.width
        if width > 0 and line.cell_len > width:
            line.truncate(width, overflow="ellipsis")
        return line

    def _conflict_line(self, view: View, conflict: Conflict, seat: int) -> Text:
        """"Age I war: +1 vs Bob (2⚔:1), tie with Cy (1⚔:1)" (shields: yours:theirs, then)."""
        n = view.n_players
        out = Text.assemble((f"Age {AGE_NAMES[conflict.age]} war: ", "bold"))
        pairs = zip(((seat + 1) % n, (seat - 1) % n), conflict.results[seat], strict=True)
        for index, (other, token) in enumerate(pairs):
            if index:
                out.append(", ")
            mine, theirs = conflict.shields[seat], conflict.shields[other]
            name = self.player_name(other)
            if token > 0:
                out.append(f"+{token} vs {name} ({mine}⚔:{theirs})", style="green3")
            elif token < 0:
                out.append(f"−{-token} vs {name} ({mine}⚔:{theirs})", style="red")
            else:
                out.append(f"tie with {name} ({mine}⚔:{theirs})", style="dim")
        return out

    def _note_conflicts(self, view: View) -> None:
        """Log each Age's conflicts once (a resumed game logs those it missed at once)."""
        for conflict in view.conflicts:
            if conflict.age in self._logged_ages:
                continue
            self._logged_ages.add(conflict.age)
            parts = [f"{self.player_name(s)} {tokens_text([t for t in got if t]) or '0'}"
                     for s, got in enumerate(conflict.results)]
            self.query_one("#game-log").add(f"Age {AGE_NAMES[conflict.age]} conflicts: " + " · ".join(parts))

    # ---- the hand and the choices --------------------------------------------------------------
    def _options(self) -> dict[str, CardOption]:
        return {o.card: o for o in self.view.options} if self.view is not None else {}

    def _draw_hand(self, view: View, new_step: bool) -> None:
        hand = self.query_one("#sw-hand", PickList)
        choices = self.query_one("#sw-choices", PickList)
        title = self.query_one("#sw-hand-title", Static)
        if view.seat is None:
            title.update(Text("You are watching: hands are hidden.", style="dim"))
            hand.set_rows([])
            choices.display = False
            return
        if self.rebuilding:
            title.update(Text.assemble(("Halikarnassos: ", "bold"), "take one card free ",
                                       ("(Enter; n: none)", "dim")))
            rows = [PickRow(c, self._pile_row(c), BuildFromDiscard(c) in self.legal_set)
                    for c in dict.fromkeys(view.discard_pile)]
            hand.set_rows(rows)
            hand.display, choices.display = True, False
            self._focus(hand, new_step)
            return
        if self.picking and self.card is not None:
            title.update(Text.assemble((CARDS[self.card].name, "bold"), ": choose how to play it ",
                                       ("(⌫ back)", "dim")))
            first = self._choices_for != self.card
            self._choices_for = self.card
            choices.set_rows(self._choice_rows(view, self.card))
            hand.display, choices.display = False, True
            self._focus(choices, first)
            return
        self._choices_for = None
        title.update(self._hand_title(view))
        options = self._options() if self.picking else {}
        counts: dict[str, int] = {}
        for c in view.hand:
            counts[c] = counts.get(c, 0) + 1
        rows = [PickRow(c, self._hand_row(c, counts[c], options.get(c)), self.picking) for c in counts]
        hand.set_rows(rows, keep=None if self.picking or not rows else rows[0].key)
        hand.display, choices.display = True, False
        self._focus(hand, new_step)

    def _focus(self, widget: PickList, jump: bool) -> None:
        if jump:
            widget.action_jump(0)
        if widget.display and not widget.has_focus:
            widget.focus()

    def _hand_title(self, view: View) -> Text:
        if view.phase == BABYLON and self.picking:
            return Text.assemble(("Babylon: ", "bold"), "play your kept card ",
                                 (f"(you may spend {view.budget}¢)", "dim"))
        if self.picking:
            keys = "b/s/d/f" if view.free_build else "b/s/d"
            return Text.assemble(("Your hand: pick a card", "bold"), (f" (Enter, or {keys})", "dim"))
        if view.phase == OVER:
            return Text("The game is over: e shows the results.", style="bold")
        if self.sent:
            return Text.assemble(("You chose: ", "bold"), self.sent, (" · the others are choosing", "dim"))
        return Text.assemble(("Your hand", "bold"), (f" ({len(view.hand)} cards)", "dim"))

    def _hand_row(self, card_id: str, copies: int, option: CardOption | None) -> Text:
        card = CARDS[card_id]
        out = Text()
        out.append("■ ", style=COLOUR_STYLE[card.color])
        name = card.name + (f" ×{copies}" if copies > 1 else "")
        onward = " »" if card.chain_to else ""  # a later card is free with it
        out.append(f"{name[:19 - len(onward)] + onward:<19} ", style=f"bold {COLOUR_STYLE[card.color]}")
        cost = cost_text(card.coin_cost, card.cost)
        out.append_text(cost)
        out.append(" " * max(1, 7 - cost.cell_len))
        if option is not None:
            status, style = self._status(option)
            out.append(f"{status:<10}", style=style)
        out.append(effects_text(card.effects), style="dim")
        return out

    @staticmethod
    def _status(option: CardOption) -> tuple[str, str]:
        """free / chain / pay N / not possible (and why), as the hand shows it."""
        if option.build == "free":
            return "chain ✓", "bold green3"
        if option.build == "pay":
            cheapest = option.coin_cost + min(p.pay_left + p.pay_right for p in option.payments)
            return ("free ✓", "bold green3") if cheapest == 0 else (f"pay {cheapest}", "bold yellow")
        if option.build == "owned":
            return "✗ built", "red"
        if option.build == "too_expensive":
            return "✗ coins", "red"
        return "✗ no res.", "red"

    def _pile_row(self, card_id: str) -> Text:
        card = CARDS[card_id]
        out = Text.assemble(("■ ", COLOUR_STYLE[card.color]), (f"{card.name:<19} ", f"bold {COLOUR_STYLE[card.color]}"))
        if BuildFromDiscard(card_id) not in self.legal_set:
            out.append("✗ built   ", style="red")
        out.append(effects_text(card.effects), style="dim")
        return out

    def _payment_words(self, coin_cost: int, pay: Payment) -> str:
        """"1¢ bank + 2¢ to ◀Bob + 1¢ to Cy▶ = 4¢": who gets what (◀ left, ▶ right neighbour)."""
        view = self.view
        n = view.n_players
        left, right = self.player_name((view.seat + 1) % n)[:8], self.player_name((view.seat - 1) % n)[:8]
        parts = []
        if coin_cost:
            parts.append(f"{coin_cost}¢ bank")
        if pay.pay_left:
            parts.append(f"{pay.pay_left}¢ to ◀{left}")
        if pay.pay_right:
            parts.append(f"{pay.pay_right}¢ to {right}▶")
        if not parts:
            return "free"
        total = coin_cost + pay.pay_left + pay.pay_right
        return " + ".join(parts) + (f" = {total}¢" if len(parts) > 1 else "")

    def _choice_rows(self, view: View, card_id: str) -> list[PickRow]:
        """Every way to play the card: legal ones enabled, the rest dimmed with the reason."""
        card = CARDS[card_id]
        option = self._options().get(card_id)
        rows: list[PickRow] = []
        if option is not None and option.build in ("free", "pay"):
            for pay in option.payments:
                action = Pick(card_id, BUILD, pay.pay_left, pay.pay_right)
                words = "free by chain" if option.build == "free" else self._payment_words(option.coin_cost, pay)
                rows.append(PickRow(action, Text.assemble(("Build", "bold"), f": {words}"), action in self.legal_set))
        else:
            why = {"owned": f"{card.name} is already in your city",
                   "too_expensive": f"not enough coins (you may spend {view.budget}¢)",
                   "impossible": "its resources cannot be made or bought"}.get(option.build if option else "", "not now")
            rows.append(PickRow(("no", BUILD), Text.assemble(("Build", "bold"), f": not possible, {why}"), False))
        free = Pick(card_id, BUILD_FREE)
        if free in self.legal_set:
            rows.append(PickRow(free, Text.assemble(("Build free", "bold"), ": Olympia's once-per-Age free build"), True))
        board = BOARDS[(view.wonders[view.seat], view.sides[view.seat])]
        built = view.stages[view.seat]
        if built < len(board.stages):
            stage = board.stages[built]
            label = f"Wonder stage {built + 1}"
            for pay in view.stage_payments:
                action = Pick(card_id, STAGE, pay.pay_left, pay.pay_right)
                text = Text.assemble((label, "bold"), f": {self._payment_words(stage.coin_cost, pay)}",
                                     (f" → {effects_text(stage.effects)}", "dim"))
                rows.append(PickRow(action, text, action in self.legal_set))
            if not view.stage_payments:
                rows.append(PickRow(("no", STAGE), Text.assemble(
                    (label, "bold"), f": not possible (needs {cost_words(stage.coin_cost, stage.cost)})"), False))
        discard = Pick(card_id, DISCARD)
        rows.append(PickRow(discard, Text.assemble(("Discard", "bold"), f": sell it for {DISCARD_COINS} coins"),
                            discard in self.legal_set))
        return rows

    def _draw_card_info(self) -> None:
        info = self.query_one("#sw-card", Static)
        card = self.card
        if card is None:
            hand = self.query_one("#sw-hand", PickList)
            key = hand.highlighted if hand.display else None
            card = key if isinstance(key, str) else None
        info.update(card_info(card) if card in CARDS else "")
        info.display = card in CARDS

    def on_pick_list_moved(self, message: PickList.Moved) -> None:
        if message.pick_list.id == "sw-hand":
            self._draw_card_info()

    # ---- actions -------------------------------------------------------------------------------
    def _highlighted_card(self) -> str | None:
        if self.card is not None:
            return self.card
        key = self.query_one("#sw-hand", PickList).highlighted
        return key if isinstance(key, str) else None

    def action_choose(self) -> None:
        if self.rebuilding:
            card = self.query_one("#sw-hand", PickList).highlighted
            if isinstance(card, str):
                self._send(BuildFromDiscard(card), f"build {CARDS[card].name} from the discard pile")
            return
        if not self.picking:
            return
        if self.card is None:
            card = self._highlighted_card()
            if card is not None:
                self.card = card
                self.refresh_table()
            return
        row = self.query_one("#sw-choices", PickList).highlighted_row
        if row is None:
            return
        if not row.enabled or not isinstance(row.key, Pick):
            self.show_message("That way of playing the card is not possible now.", error=True)
            return
        self._send(row.key, self._pick_words(row.key))

    def action_quick(self, kind: str) -> None:
        """b / s / d / f: play the highlighted card that way; with several payments, list them."""
        if not self.picking:
            return
        card = self._highlighted_card()
        if card is None:
            return
        ways = [a for a in self.legal if isinstance(a, Pick) and a.card == card and a.kind == kind]
        if len(ways) == 1:
            self._send(ways[0], self._pick_words(ways[0]))
            return
        if ways:
            self.card = card
            self.refresh_table()
            choices = self.query_one("#sw-choices", PickList)
            keys = [r.key for r in choices.rows]
            choices.action_jump(keys.index(ways[0]))
            self.show_message(f"{len(ways)} ways to pay: choose one and press Enter.")
            return
        name = CARDS[card].name
        what = {BUILD: f"build {name}", STAGE: f"build a stage with {name}", DISCARD: f"discard {name}",
                BUILD_FREE: f"build {name} free"}[kind]
        self.show_message(f"You cannot {what}: {self._why_not(card, kind)}.", error=True)

    def _why_not(self, card_id: str, kind: str) -> str:
        view = self.view
        if kind == STAGE:
            board = BOARDS[(view.wonders[view.seat], view.sides[view.seat])]
            if view.stages[view.seat] >= len(board.stages):
                return "every stage of your wonder is built"
            stage = board.stages[view.stages[view.seat]]
            return f"stage {view.stages[view.seat] + 1} needs {cost_words(stage.coin_cost, stage.cost)}"
        option = self._options().get(card_id)
        if kind == BUILD_FREE and not (option is not None and option.build == "owned"):
            return "Olympia's free build is not available"
        return {"owned": "it is already in your city",
                "too_expensive": f"you may spend only {view.budget} coins",
                "impossible": "its resources cannot be made or bought"}.get(option.build if option else "", "not now")

    def _pick_words(self, action: Pick) -> str:
        name = CARDS[action.card].name
        pay = ""
        if action.pay_left or action.pay_right:
            pay = f", paying {action.pay_left} left and {action.pay_right} right"
        return {BUILD: f"build {name}{pay}", BUILD_FREE: f"build {name} free",
                STAGE: f"wonder stage with {name}{pay}", DISCARD: f"discard {name}"}[action.kind]

    def _send(self, action: Any, words: str) -> None:
        self.sent = words
        self.card = None
        self.submit(action)
        if self.is_attached:
            self.refresh_table()

    def action_back(self) -> None:
        if self.card is not None:
            card = self.card
            self.card = None
            self.show_message("")
            self.refresh_table()
            hand = self.query_one("#sw-hand", PickList)
            keys = [r.key for r in hand.rows]
            if card in keys:
                hand.action_jump(keys.index(card))

    def action_decline(self) -> None:
        if self.rebuilding:
            self._send(Decline(), "build nothing from the discard pile")

    def action_cities(self) -> None:
        if self.view is not None:
            self.app.push_screen(CitiesScreen(self.table.names, self.view))

    # ---- the end -------------------------------------------------------------------------------
    def show_end(self) -> None:
        """The seven-category table, plus the wildcards the scoring chose and Olympia's copy."""
        self.app.push_screen(SevenWondersEndScreen(self.table.game.name, self.table.names, self.table.result(),
                                                   self.table.view(None), self.table))


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


class CitiesScreen(ModalScreen[None]):
    """Every city in full, seat by seat (↑/↓ scroll)."""

    CSS_PATH = STYLES / "seven_wonders.tcss"
    BINDINGS = [Binding("escape,c,q,enter", "close", "Close", show=True)]

    def __init__(self, names: Sequence[str], view: View) -> None:
        super().__init__(id="sw-cities")
        self.names = list(names)
        self.view = view

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="sw-cities-scroll"):
            yield Static(Text("Every city (↑/↓ scroll, Esc close)", style="bold"))
            legend = "Resources: W wood, S stone, C clay, O ore, G glass, T textile, P papyrus."
            yield Static(Text(legend, style="dim"))
            for seat in range(len(self.names)):
                yield Static(city_detail(self.names, self.view, seat), classes="sw-city-detail")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#sw-cities-scroll").focus()

    def action_close(self) -> None:
        self.dismiss(None)


class SevenWondersEndScreen(EndScreen):
    """The seven-category table for every player, plus the science wildcards the scoring
    chose and Olympia B's copied guild."""

    CSS_PATH = STYLES / "seven_wonders.tcss"

    def __init__(self, game_name: str, names: Sequence[str], result: Result, view: View, table: Any = None) -> None:
        super().__init__(game_name, names, result, table)
        self.final_view = view

    def compose(self) -> ComposeResult:
        with Vertical(id="end-box"):
            yield Static(f"{self.game_name}: game over", id="end-title", markup=False)
            yield Static(winners_line(self.names, self.result), id="end-winners", markup=False)
            yield DataTable(id="end-table", cursor_type="row", zebra_stripes=True)
            notes = self._notes()
            if notes:
                yield Static("\n".join(notes), id="sw-end-notes", markup=False)
        yield Footer()

    def _notes(self) -> list[str]:
        lines = []
        for seat, score in enumerate(self.final_view.final):
            parts = []
            if score.wildcards:
                parts.append("science wildcard" + ("s" if len(score.wildcards) > 1 else "") + " as "
                             + ", ".join(score.wildcards))
            if score.copied_guild is not None and score.copied_from is not None:
                parts.append(f"copies {CARDS[score.copied_guild].name} from {self.names[score.copied_from]}")
            if parts:
                lines.append(f"{self.names[seat]}: {'; '.join(parts)}")
        return lines
