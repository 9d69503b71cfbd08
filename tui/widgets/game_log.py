"""The game log panel: one line per action, newest at the bottom, scrollable."""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable

from textual.events import Resize
from textual.widgets import RichLog

MAX_LINES = 500


class GameLogPanel(RichLog):
    DEFAULT_CSS = """
    GameLogPanel { height: 1fr; border-top: solid $primary-darken-2; scrollbar-size-vertical: 1; }
    """

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes, wrap=True, markup=False, max_lines=MAX_LINES, auto_scroll=True,
                         min_width=10)
        self.can_focus = False
        self._lines: deque[str] = deque(maxlen=MAX_LINES)
        self._wrapped_at = 0

    def add(self, line: str) -> None:
        self.add_lines((line,))

    def add_lines(self, lines: Iterable[str]) -> None:
        """Append lines and show the last one. RichLog scrolls after the next refresh, which
        paints the log twice (once unscrolled); its size does not depend on its lines, so it
        scrolls at once here. Before it knows its width RichLog holds writes back: those
        scroll later, as RichLog does."""
        lines = [line for line in lines if line]
        if not lines:
            return
        held = not self.size.width  # not laid out yet: RichLog holds the writes back itself
        for line in lines:
            self._lines.append(line)
            self.write(line, scroll_end=None if held else False)
        if not held:
            self.scroll_end(animate=False, immediate=True, x_axis=False)

    def on_resize(self, event: Resize) -> None:
        # RichLog wraps a line once, when written: when the panel widens (a bigger terminal)
        # or narrows, wrap every line again at the new width.
        width = event.size.width
        if width and width != self._wrapped_at:
            rewrap = self._wrapped_at != 0
            self._wrapped_at = width
            if rewrap and self._lines:
                self.clear()
                for line in self._lines:
                    self.write(line)
