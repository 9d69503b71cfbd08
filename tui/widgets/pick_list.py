"""A keyboard list with a cursor: hand cards to toggle, choices to pick.

Space, where a list marks rows, marks the highlighted one and moves on (`after_mark`).

Rows are drawn as given (the screen decides marks and colours); disabled rows are dimmed and
skipped by nothing (the cursor may rest on them so a player can read why they are off).
Only the rows that fit are drawn, scrolled so the cursor stays in sight: at 80x24 a 20-card
hand fits in a few lines. The list draws line by line and repaints only the lines that change
(a card marked, the cursor moved): a 20-card hand is not drawn again for one card.
"""

from __future__ import annotations

from dataclasses import dataclass

from rich.style import Style
from rich.text import Text
from textual.binding import Binding
from textual.geometry import Region
from textual.message import Message
from textual.strip import Strip
from textual.widget import Widget

from .flow import Fit, Forms

_UNKNOWN = object()


@dataclass(frozen=True)
class PickRow:
    key: object
    text: Text | str | Fit | Forms  # a Fit or Forms row shows what fits the list's width (widgets/flow.py)
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

    def __init__(self, *, empty: str = "", collapse_empty: bool = False, id: str | None = None,
                 classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.collapse_empty = collapse_empty
        """With no rows, take no room (a list of `height: auto`) and no focus."""
        if collapse_empty:
            self.can_focus = False  # until it has rows
        self.rows: list[PickRow] = []
        self.cursor = 0
        self.top = 0
        self.empty = empty
        self._drawn: list[object] = []  # what each line shows on screen (as drawn last)
        self._kept: dict[int, tuple[int, object, Strip]] = {}  # row index -> (width, line, strip)
        self._style = Style()

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
        self._kept = {i: kept for i, kept in self._kept.items() if i < len(rows)}
        if self.collapse_empty:
            self.can_focus = bool(rows)  # Tab does not stop on a list that takes no room
        self._scroll_into_view()
        if resized:
            self.refresh(layout=True)
        else:
            self._repaint_changed()

    def action_move(self, delta: int) -> None:
        if not self.rows:
            return
        self.cursor = max(0, min(self.cursor + delta, len(self.rows) - 1))
        self._scroll_into_view()
        self._repaint_changed()
        self.post_message(self.Moved(self, self.highlighted))

    def after_mark(self) -> None:
        """Space marks (or unmarks) the highlighted row, then the cursor moves on to the next.

        One meaning of Space in every list of every game: marking three cards in a row is three
        presses, and the mark stays in sight on the row above. A screen calls this after it has
        recorded the mark (its own state, not the list's)."""
        self.action_move(1)

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
        self._drawn = []  # Textual repaints a resized widget whole

    def get_content_height(self, container, viewport, width: int) -> int:
        if not self.rows and self.collapse_empty:
            return 0  # no room taken: like hiding it, without restyling the screen
        return max(1, len(self.rows))

    # ---- drawing, line by line -----------------------------------------------------------
    def _line(self, y: int) -> tuple[object, ...] | None:
        """What line y shows: (row, at the cursor, focused, "more" note), or None (blank)."""
        if not self.rows:
            return ("empty", self.empty) if y == 0 else None
        visible = self._visible()
        index = self.top + y
        if y >= visible or index >= len(self.rows):
            return None
        at_cursor = index == self.cursor
        note = ""
        if y == min(visible, len(self.rows) - self.top) - 1:  # the last line shown
            more_above, more_below = self.top > 0, self.top + visible < len(self.rows)
            if more_above or more_below:
                note = f"  {'↑' if more_above else ''}{'↓' if more_below else ''} more ({len(self.rows)} in all)"
        return (self.rows[index], at_cursor, at_cursor and self.has_focus, note)

    def _repaint_changed(self) -> None:
        """Repaint the lines that show something else than when last drawn (all when unknown)."""
        drawn = self._drawn
        height = self.size.height
        if not height or len(drawn) != height:
            self.refresh()
            return
        changed = [y for y in range(height) if self._line(y) != drawn[y]]
        if len(changed) * 2 > height:
            self.refresh()  # most of it: one repaint
        elif changed:
            width = self.size.width
            self.refresh(*(Region(0, y, width, 1) for y in changed))

    def render_lines(self, crop: Region) -> list[Strip]:
        self._style = self.rich_style  # once per paint, not once per line: it walks the DOM
        self._scroll_into_view()
        height = self.size.height
        self._drawn = (self._drawn + [_UNKNOWN] * height)[:height]
        return super().render_lines(crop)

    def render_line(self, y: int) -> Strip:
        """Textual asks only for the lines marked for repaint (or all, after a resize)."""
        width = self.size.width
        line = self._line(y)
        if y < len(self._drawn):
            self._drawn[y] = line
        if line is None:
            return Strip.blank(width, self._style)
        if line[0] == "empty":
            text = Text(self.empty, style="dim italic", no_wrap=True, overflow="ellipsis")
            return self._strip(text, width).apply_style(self._style)
        index = self.top + y
        kept = self._kept.get(index)
        if kept is not None and kept[0] == width and kept[1] == line:
            return kept[2].apply_style(self._style)  # drawn before (the list was resized or scrolled)
        row, at_cursor, focused, note = line
        assert isinstance(row, PickRow)
        text = self._row_text(row, bool(at_cursor), bool(focused), "", width)
        if note:
            text.append(self._fit_note(str(note), width - text.cell_len), style="dim")
        strip = self._strip(text, width)
        self._kept[index] = (width, line, strip)
        return strip.apply_style(self._style)

    def _strip(self, text: Text, width: int) -> Strip:
        """One line of text, cut (with an ellipsis) or padded to the width."""
        text.truncate(width, overflow="ellipsis", pad=True)
        return Strip(text.render(self.app.console), width)

    @staticmethod
    def _row_text(row: PickRow, at_cursor: bool, focused: bool, note: str, width: int = 0) -> Text:
        if isinstance(row.text, (Fit, Forms)):  # laid out at the list's width, after the 2-column marker
            line = row.text.line(max(1, width - 2)) if width else Text(str(row.text.head))
        else:
            line = row.text.copy() if isinstance(row.text, Text) else Text(str(row.text))
        if not row.enabled:
            line.stylize("dim")
        marker = "▶ " if at_cursor and focused else ("› " if at_cursor else "  ")
        line = Text(marker) + line
        if at_cursor:
            line.stylize("reverse" if focused else "bold")
        line.no_wrap, line.overflow = True, "ellipsis"
        if note:
            line.append(note, style="dim")
        return line

    @staticmethod
    def _fit_note(note: str, room: int) -> str:
        """"  ↓ more (12 in all)", or shorter when the row leaves less room: "  ↓ 12", " ↓"."""
        arrows = note.split()[0] if note else ""
        total = note.split("(")[-1].split()[0] if "(" in note else ""
        for form in (note, f"  {arrows} {total}", f" {arrows}"):
            if len(form) <= room:
                return form
        return f" {arrows}"

    def on_focus(self) -> None:
        self._repaint_changed()

    def on_blur(self) -> None:
        self._repaint_changed()
