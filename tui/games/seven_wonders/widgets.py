"""7 Wonders modal screens: every city (c) and the end screen with the Age conflicts."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Footer, Static

from engine.core import Result
from engine.seven_wonders.cards import CARDS
from engine.seven_wonders.state import View

from ...screens.end import EndScreen
from ..base import STYLES
from .text import city_detail


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

    def compose_more(self) -> ComposeResult:
        notes = self._notes()
        if notes:
            yield Static("\n".join(notes), id="sw-end-notes", markup=False)

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
