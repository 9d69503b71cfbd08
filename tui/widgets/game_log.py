"""The game log panel: one line per action, newest at the bottom; the mouse wheel scrolls back.

The panel has a fixed size (the rest of the side column) and draws the lines that fit itself:
a new line repaints the panel only. (Textual's RichLog grows a scrollable area with each line,
which lays the whole screen out again at every write.) Lines are wrapped at the panel's width,
again when the width changes (a bigger terminal widens the side column).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable

from rich.style import Style
from rich.text import Text
from textual import events
from textual.geometry import Region
from textual.strip import Strip
from textual.widget import Widget

MAX_LINES = 500


class GameLogPanel(Widget):
    DEFAULT_CSS = """
    GameLogPanel { height: 1fr; border-top: solid $primary-darken-2; background: $surface; color: $foreground; }
    """

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self._lines: deque[str] = deque(maxlen=MAX_LINES)
        self._wrapped: deque[list[Strip]] = deque(maxlen=MAX_LINES)  # each line's rows at _width
        self._width = 0
        self._rows: list[Strip] | None = None  # the rows on screen, newest last
        self._style = Style()
        self.back = 0
        """Rows scrolled back from the newest (the mouse wheel); a new line scrolls to it."""

    @property
    def lines(self) -> list[Strip]:
        """Every line of the log as wrapped on screen, oldest first."""
        self._wrap()
        return [row for rows in self._wrapped for row in rows]

    def add(self, line: str) -> None:
        self.add_lines((line,))

    def add_lines(self, lines: Iterable[str]) -> None:
        """Append lines (empty ones are skipped) and show the newest."""
        lines = [line for line in lines if line]
        if not lines:
            return
        self._lines.extend(lines)
        if self._width:
            self._wrapped.extend(self._wrap_line(line) for line in lines)
        self._show(0)

    def clear(self) -> None:
        self._lines.clear()
        self._wrapped.clear()
        self._show(0)

    def _show(self, back: int) -> None:
        self.back = back
        self._rows = None
        self.refresh()  # the panel's size does not depend on its lines: no layout pass

    def _wrap(self) -> None:
        width = self.size.width
        if width and width != self._width:
            self._width = width
            self._wrapped = deque((self._wrap_line(line) for line in self._lines), maxlen=MAX_LINES)
            self._rows = None

    def _wrap_line(self, line: str) -> list[Strip]:
        console = self.app.console
        rendered = console.render_lines(Text(line), console.options.update_width(self._width))
        return [Strip(segments, self._width) for segments in rendered]

    def on_resize(self, event: events.Resize) -> None:
        self._wrap()
        self._rows = None  # taller or shorter: another number of rows fits
        self.refresh()

    def _visible(self) -> list[Strip]:
        """The rows that fit, ending `back` rows before the newest."""
        self._wrap()
        if self._rows is None:
            height, skip = self.size.height, self.back
            rows: list[Strip] = []
            for wrapped in reversed(self._wrapped):
                for row in reversed(wrapped):
                    if skip:
                        skip -= 1
                    elif len(rows) < height:
                        rows.append(row)
                if len(rows) >= height:
                    break
            rows.reverse()
            self._rows = rows
        return self._rows

    def render_lines(self, crop: Region) -> list[Strip]:
        self._style = self.rich_style  # once per paint, not once per row: it walks the DOM
        return super().render_lines(crop)

    def render_line(self, y: int) -> Strip:
        rows = self._visible()
        row = rows[y] if y < len(rows) else Strip.blank(self.size.width)
        return row.apply_style(self._style)

    def _total_rows(self) -> int:
        return sum(len(rows) for rows in self._wrapped)

    def on_mouse_scroll_up(self, event: events.MouseScrollUp) -> None:
        event.stop()
        most = max(0, self._total_rows() - self.size.height)
        if self.back < most:
            self._show(min(most, self.back + 3))

    def on_mouse_scroll_down(self, event: events.MouseScrollDown) -> None:
        event.stop()
        if self.back:
            self._show(max(0, self.back - 3))
