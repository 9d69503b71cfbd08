"""The whole game log on a screen of its own: every line since the start, as wide as the
terminal, scrolled with the keys (the side panel shows only the newest lines, narrow)."""

from __future__ import annotations

from collections.abc import Sequence

from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import ModalScreen
from textual.widgets import Footer, RichLog, Static


class GameLogScreen(ModalScreen[None]):
    """↑ ↓ PgUp PgDn Home End scroll; Esc, F3 or q go back to the game."""

    BINDINGS = [
        Binding("escape,f3,q", "close", "Back to the game", show=True),
        Binding("pageup", "page(-1)", "Page up", key_display="PgUp", show=True),
        Binding("pagedown", "page(1)", "Page down", key_display="PgDn", show=True),
        Binding("home", "edge(0)", "Start", key_display="Home", show=True),
        Binding("end", "edge(1)", "Newest", key_display="End", show=True),
    ]

    def __init__(self, lines: Sequence[str], title: str = "Game log") -> None:
        super().__init__(id="game-log-screen")
        self.lines = list(lines)
        self.title_text = title

    def compose(self) -> ComposeResult:
        yield Static(f"{self.title_text} · {len(self.lines)} lines, newest at the bottom", id="game-log-title")
        yield RichLog(id="game-log-all", wrap=True, markup=False, highlight=False, auto_scroll=False)
        yield Footer()

    def on_mount(self) -> None:
        log = self.query_one("#game-log-all", RichLog)
        for line in self.lines or ["(nothing has happened yet)"]:
            log.write(line)
        log.focus()
        self.call_after_refresh(log.scroll_end, animate=False)

    def action_page(self, direction: int) -> None:
        log = self.query_one("#game-log-all", RichLog)
        (log.scroll_page_down if direction > 0 else log.scroll_page_up)(animate=False)

    def action_edge(self, end: int) -> None:
        log = self.query_one("#game-log-all", RichLog)
        (log.scroll_end if end else log.scroll_home)(animate=False)

    def action_close(self) -> None:
        self.dismiss(None)
