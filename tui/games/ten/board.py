"""The Ten board: the tableau with its bust risk, the last turn, your collection and the others'."""

from __future__ import annotations

from rich.text import Text
from textual.widgets import Static

from engine.ten import score_collection
from engine.ten.cards import BUST_AT_CURRENCY, BUST_AT_TOTAL, COLOURS
from engine.ten.state import (
    BUST_CURRENCY,
    BUST_NUMBERS,
    BUY,
    CLAIM_CURRENCY,
    CLAIM_NUMBERS,
    DRAW,
    FINAL_BUY,
    OVER,
    View,
)

from .text import WILD_STYLE, cards_text, colour_line, placed_wilds, plural, points, run_summary


class BoardText:
    """TenScreen's board panels (a mixin: reads the screen's view and names)."""

    def _tableau_text(self, view: View) -> Text:
        out = Text()
        if view.tableau:
            out.append("Tableau ", style="bold")
            out.append_text(cards_text(view.tableau))
        elif view.last_turn is not None and view.phase in (DRAW, FINAL_BUY, OVER, BUY):
            out.append_text(self._last_turn_text(view))
        elif view.phase == OVER:
            out.append("The game is over.", style="bold")
        else:
            out.append("Tableau ", style="bold")
            out.append("empty", style="dim")
        out.append("\n")
        total_style = "bold red" if view.total >= BUST_AT_TOTAL - 3 else "bold"
        out.append("Total ", style="bold")
        out.append(f"{view.total}", style=total_style)
        out.append(f"/{BUST_AT_TOTAL} · currency ", style="dim")
        out.append(f"{view.currency_sum}", style="bold red" if view.currency_sum >= BUST_AT_CURRENCY - 3 else "bold")
        out.append(f"/{BUST_AT_CURRENCY} · ", style="dim")
        if view.deck_size:
            risk = view.bust_cards * 100 // view.deck_size
            style = "bold green" if risk < 20 else ("bold yellow" if risk < 50 else "bold red")
            out.append("bust risk ", style="bold")
            out.append(f"{view.bust_cards}/{view.deck_size} = {risk}%", style=style)
        else:
            out.append("the deck is empty", style="bold yellow")
        return out

    def _last_turn_text(self, view: View) -> Text:
        last = view.last_turn
        who = self.player_name(last.seat)
        numbers = cards_text(last.numbers, ", ", empty="no number cards")
        gained = sum(g for s, g in enumerate(last.gains) if s != last.seat)
        out = Text("Last: ", style="bold")
        if last.outcome == CLAIM_NUMBERS:
            out.append(f"{who} took ")
            out.append_text(numbers)
            if gained:
                out.append(f" (others +{last.amount})")
        elif last.outcome == CLAIM_CURRENCY:
            out.append(f"{who} took {plural(last.gains[last.seat], 'token')}; ")
            out.append_text(numbers)
            out.append(" to the market")
        elif last.outcome == BUST_NUMBERS:
            out.append(f"{who} bust on numbers: ", style="bold red")
            out.append_text(numbers)
            out.append(" to the market" + (f" (others +{last.amount})" if gained else ""))
        elif last.outcome == BUST_CURRENCY:
            out.append(f"{who} bust on currency ({last.amount}): ", style="bold red")
            out.append_text(numbers)
            out.append(" to the market")
        return out

    def _draw_collections(self, view: View) -> None:
        shown = view.seat if view.seat is not None else view.turn
        self.query_one("#mine", Static).update(Text("\n").join(self._collection_lines(view, shown)))
        others = self.query_one("#others", Static)
        rows = []
        for other in view.players:
            if other.seat == shown:
                continue
            if self.has_class("-tall"):  # room for every collection colour by colour, as yours
                rows += self._collection_lines(view, other.seat)
                continue
            line = Text(f"{self.player_name(other.seat):<9.9}", style="bold")
            line.append_text(run_summary(score_collection(other.collection)))
            line.append(f"{plural(len(other.collection), 'card'):>9} {points(other.score):>6}", style="dim")
            rows.append(line)
        others.display = bool(rows)
        others.update(Text("\n").join(rows))

    def _collection_lines(self, view: View, seat: int) -> list[Text]:
        """A seat's tokens, busts, power and points, then its collection colour by colour."""
        player = view.players[seat]
        score = score_collection(player.collection)
        head = Text()
        head.append("You" if seat == view.seat else f"{self.player_name(seat)}", style="bold reverse")
        head.append(f" {plural(player.currency, 'token')} · {plural(player.busts, 'bust')} · "
                    f"power {player.power} · ")
        head.append(points(score.total), style="bold")
        unused = sum(1 for use in score.wilds if use.colour is None)
        if unused:
            head.append(f" · {unused} wild{'s' * (unused > 1)} unused", style=WILD_STYLE)
        lines = [head]
        for index in range(len(COLOURS)):
            line = colour_line(index, player.collection, score)
            placed = placed_wilds(score.runs[index])
            if placed:
                line.append(f" {placed}", style=WILD_STYLE)
            lines.append(line)
        return lines
