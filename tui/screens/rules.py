"""The rules/help screen of a game (tui/help/<game>.md): rules in brief and the keys."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Footer, Markdown

from ..games import help_text


class RulesScreen(ModalScreen[None]):
    BINDINGS = [
        Binding("escape,q,f1,question_mark", "close", "Close", show=True),
        Binding("down", "scroll(1)", "Scroll", key_display="↑↓", show=True),
        Binding("up", "scroll(-1)", show=False),
        Binding("pageup", "scroll(-10)", show=False),
        Binding("pagedown,space", "scroll(10)", show=False),
    ]

    def __init__(self, game_id: str) -> None:
        super().__init__(id="rules-screen")
        self.game_id = game_id

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="rules-scroll"):
            yield Markdown(help_text(self.game_id), id="rules-text")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#rules-scroll").focus()

    def action_scroll(self, lines: int) -> None:
        scroll = self.query_one("#rules-scroll", VerticalScroll)
        scroll.scroll_relative(y=lines, animate=False)

    def action_close(self) -> None:
        self.dismiss(None)
