"""A keyboard list with a cursor: hand cards to toggle, choices to pick.

Rows are drawn as given (the screen decides marks and colours); disabled rows are dimmed and
skipped by nothing (the cursor may rest on them so a player can read why they are off).
Only the rows that fit are drawn, scrolled so the cursor stays in sight: at 80x24 a 20-card
hand fits in a few lines.
"""

from __future__ import annotations

from dataclasses import dataclass

from rich.text import Text
from textual.binding import Binding
from textual.message import Message
from textual.widget import Widget


@dataclass(frozen=True)
class PickRow:
    key: object
    text: Text | str
    enabled: bool = True


class PickList(Widget, can_focus=True):
    """A focusable list; `cursor` is the highlighted row, `highlighted` its key."""

    DEFAULT_CSS = """
    PickList { height: auto; max-height: 100%; }
    PickList:focus { background: $boost; }
    """

    BINDINGS = [
        Binding("up", "move(-1)", "Up", show=False),
        Binding("down", "move(1)", "Down", show=False),
        Binding("home", "jump(0)", show=False),
        Binding("end", "jump(-1)", show=False),
        Binding("pageup", "move(-5)", show=False),
        Binding("pagedown", "move(5)", show=False),
    ]

    @dataclass
    class Moved(Message):
        pick_list: PickList
        key: object

    def __init__(self, *, empty: str = "", id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.rows: list[PickRow] = []
        self.cursor = 0
        self.top = 0
        self.empty = empty

    @property
    def highlighted(self) -> object | None:
        return self.rows[self.cursor].key if self.rows else None

    @property
    def highlighted_row(self) -> PickRow | None:
        return self.rows[self.cursor] if self.rows else None

    def set_rows(self, rows: list[PickRow], keep: object | None = None) -> None:
        """Replace the rows; the cursor stays on the row with key `keep` (or its old key)."""
        old = self.highlighted if keep is None else keep
        rows = list(rows)
        keys = [r.key for r in rows]
        cursor = keys.index(old) if old in keys else self.cursor
        cursor = max(0, min(cursor, len(rows) - 1))
        if rows == self.rows and cursor == self.cursor:
            return  # nothing to redraw
        # A list of fixed height (the screen's styles) keeps its size: a repaint, no layout pass.
        height = self.styles.height
        resized = len(rows) != len(self.rows) and (height is None or height.is_auto)
        self.rows, self.cursor = rows, cursor
        self._scroll_into_view()
        self.refresh(layout=resized)

    def action_move(self, delta: int) -> None:
        if not self.rows:
            return
        self.cursor = max(0, min(self.cursor + delta, len(self.rows) - 1))
        self._scroll_into_view()
        self.refresh()
        self.post_message(self.Moved(self, self.highlighted))

    def action_jump(self, index: int) -> None:
        if self.rows:
            self.action_move((index % len(self.rows)) - self.cursor)

    def _visible(self) -> int:
        return max(1, self.size.height or len(self.rows) or 1)

    def _scroll_into_view(self) -> None:
        visible = self._visible()
        if self.cursor < self.top:
            self.top = self.cursor
        elif self.cursor >= self.top + visible:
            self.top = self.cursor - visible + 1
        self.top = max(0, min(self.top, max(0, len(self.rows) - visible)))

    def on_resize(self) -> None:
        self._scroll_into_view()

    def get_content_height(self, container, viewport, width: int) -> int:
        return max(1, len(self.rows))

    def render(self) -> Text:
        if not self.rows:
            return Text(self.empty, style="dim italic")
        self._scroll_into_view()
        visible = self._visible()
        out = Text(no_wrap=True, overflow="ellipsis")
        shown = self.rows[self.top:self.top + visible]
        for offset, row in enumerate(shown):
            index = self.top + offset
            line = row.text.copy() if isinstance(row.text, Text) else Text(str(row.text))
            if not row.enabled:
                line.stylize("dim")
            marker = "▶ " if index == self.cursor and self.has_focus else ("› " if index == self.cursor else "  ")
            line = Text(marker) + line
            if index == self.cursor:
                line.stylize("reverse" if self.has_focus else "bold")
            if offset:
                out.append("\n")
            out.append_text(line)
        more_above, more_below = self.top > 0, self.top + visible < len(self.rows)
        if more_above or more_below:
            arrows = ("↑" if more_above else "") + ("↓" if more_below else "")
            out.append(f"  {arrows} more ({len(self.rows)} in all)", style="dim")
        return out

    def on_focus(self) -> None:
        self.refresh()

    def on_blur(self) -> None:
        self.refresh()
