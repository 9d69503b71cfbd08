"""Ten's modal screens: every collection (v) and the end screen with the runs."""

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
from engine.ten.state import View

from ...results import winners_line
from ...screens.end import EndScreen
from ..base import STYLES
from .text import collections_text


class CollectionsScreen(ModalScreen[None]):
    """Every collection as runs per colour with the wilds where the scoring puts them now."""

    CSS_PATH = STYLES / "ten.tcss"

    BINDINGS = [Binding("escape,v,q,enter", "close", "Close", show=True)]

    def __init__(self, names: Sequence[str], view: View) -> None:
        super().__init__(id="ten-collections")
        self.names = list(names)
        self.shown_view = view

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="ten-collections-scroll"):
            yield Static(Text("Collections now (wilds where they score best; ↑/↓ scroll)", style="bold"))
            yield Static(collections_text(self.names, self.shown_view.players), id="ten-collections-text")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#ten-collections-scroll").focus()

    def action_close(self) -> None:
        self.dismiss(None)


class TenEndScreen(EndScreen):
    """The generic end screen (points per colour, total, place) plus each player's runs with
    the wilds in place, as the scoring assigned them."""

    CSS_PATH = STYLES / "ten.tcss"

    def __init__(self, game_name: str, names: Sequence[str], result: Result, view: View,
                 table: Any = None) -> None:
        super().__init__(game_name, names, result, table)
        self.final_view = view

    BOX_CLASSES = "ten-end"

    def compose_more(self) -> ComposeResult:
        with VerticalScroll(id="ten-runs-scroll"):
            yield Static(Text("Runs with the wilds in place (↑/↓ scroll)", style="bold italic"))
            yield Static(collections_text(self.names, self.final_view.players, self.result), id="ten-runs")

    def on_mount(self) -> None:
        # Textual also runs EndScreen.on_mount (handlers run along the MRO): this only adds focus.
        self.call_after_refresh(self.query_one("#ten-runs-scroll", VerticalScroll).focus)

    def winners_text(self) -> str:
        if len(self.names) == 1:
            return f"Solo: {self.names[0]} scores {self.result.scores[0]} points."
        return winners_line(self.names, self.result)
