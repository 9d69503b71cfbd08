"""The game log panel: one line per action, newest at the bottom, scrollable."""

from __future__ import annotations

from textual.widgets import RichLog


class GameLogPanel(RichLog):
    DEFAULT_CSS = """
    GameLogPanel { height: 1fr; border-top: solid $primary-darken-2; scrollbar-size-vertical: 1; }
    """

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes, wrap=True, markup=False, max_lines=500, auto_scroll=True, min_width=10)
        self.can_focus = False

    def add(self, line: str) -> None:
        if line:
            self.write(line)
