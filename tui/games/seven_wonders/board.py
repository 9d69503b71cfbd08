"""The 7 Wonders board: both neighbours, your city, wonder stages and the Age's conflicts."""

from __future__ import annotations

from rich.text import Text
from textual.widgets import Static

from engine.seven_wonders.cards import BOARDS, CARDS, SYMBOLS
from engine.seven_wonders.state import Conflict, View

from ...widgets.flow import Fit, Forms, Lines
from .text import (
    AGE_NAMES,
    COLOUR_STYLE,
    COLOURS,
    SYMBOL_MARK,
    conflicts,
    cost_text,
    effects_text,
    production,
    science,
    shields,
    stages_text,
    tokens_text,
    units_text,
    wonder_title,
)


class CityPanels:
    """SevenWondersScreen's neighbour and city panels (a mixin: reads the screen's view)."""

    def _neighbours_text(self, view: View) -> Lines:
        me = self.shown_seat
        n = view.n_players
        lines: list[Text | Forms] = []
        for label, seat in (("◀ left ", (me + 1) % n), ("▶ right", (me - 1) % n)):
            lines.append(self._neighbour_line(view, label, seat))
            if self.wide:
                lines.append(Text("      ").append_text(self._cards_line(view, seat)))
            if self.wide and self.size.height >= 36:  # room for what the city makes and its science
                fixed, choices = production(view, seat, sold_only=False)
                line = Text("      makes ", style="dim").append_text(units_text(fixed, choices))
                counts, wild = science(view, seat)
                line.append(" · science ", style="dim")
                line.append(" ".join(f"{s} {k}" for s, k in zip(SYMBOLS, counts, strict=True))
                            + (f" +{wild} any" if wild else ""))
                lines.append(line)
        return Lines(tuple(lines))

    def _neighbour_line(self, view: View, label: str, seat: int) -> Forms:
        """Name, what it sells (what can be bought first), wonder, stages, shields, coins; the
        wonder's name goes first when the line is narrow (the Cities screen, c, has it)."""
        head = Text.assemble((f"{label} ", "bold"), (f"{self.player_name(seat)[:9]:<9} ", "bold"))
        fixed, choices = production(view, seat, sold_only=True)
        head.append("sells ", style="dim")
        head.append_text(units_text(fixed, choices))
        facts = (f"W{stages_text(view, seat)}", f"⚔{shields(view, seat)}", f"{view.coins[seat]}¢")
        full = head + Text(f" · {wonder_title(view, seat)} " + " ".join(facts), style="dim")
        short = head + Text(" · " + " ".join(facts), style="dim")
        return Forms((full, short, Fit(head + Text(" · ", style="dim"), tuple(Text(f, style="dim") for f in facts), " ")))

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
