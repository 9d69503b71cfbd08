"""The scoreboard: one row per player (name first), columns chosen by the game screen."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Sequence
from typing import Any

from rich.cells import cell_len
from rich.segment import Segment
from rich.style import Style
from rich.table import Table
from rich.text import Text
from textual.geometry import Region
from textual.strip import Strip
from textual.widget import Widget

Drawn = tuple[tuple[str, ...], tuple[tuple[Any, ...], ...], tuple[int, ...]]

KEPT = 16
"""Tables kept, drawn, for showing again: the acting seat moves round and round a table."""


class Scoreboard(Widget):
    """Draws its table line by line, from lines kept per table and width: a game moves between
    a few scoreboards (the marker goes from seat to seat), and laying out a rich Table again
    costs more than the rest of the side panel."""

    DEFAULT_CSS = """
    Scoreboard { height: auto; }
    """

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self._drawn: Drawn | None = None
        self._table: Table | None = None
        self._kept: OrderedDict[Drawn, dict[int, list[Strip]]] = OrderedDict()  # table -> width -> lines
        self._by_width: dict[int, list[Strip]] = {}  # the shown table's lines per width
        self._lines: list[Strip] = []
        self._style = Style()

    def show(self, header: Sequence[str], rows: Sequence[Sequence[str | Text]], highlight: Sequence[int] = ()) -> None:
        """Draw the table; rows whose index is in `highlight` are bold (e.g. you, the actor)."""
        drawn = (tuple(header), tuple(tuple(row) for row in rows), tuple(highlight))
        if drawn == self._drawn:
            return  # the same table: no layout pass, no repaint
        resized = self._drawn is None or len(self._drawn[1]) != len(drawn[1])
        self._drawn = drawn
        self._table = self._make_table(header, rows, highlight)
        hashable = _hashable(drawn)
        self._by_width = self._kept.pop(drawn, {}) if hashable else {}
        if hashable:
            self._kept[drawn] = self._by_width
            while len(self._kept) > KEPT:
                self._kept.popitem(last=False)
        self.refresh(layout=resized)  # one line per row: the same rows, the same height

    def _strips(self, width: int) -> list[Strip]:
        """The table's lines at this width, drawn once per table and width."""
        table = self._table
        if table is None or width <= 0:
            return []
        strips = self._by_width.get(width)
        if strips is None:
            strips = _plain_lines(self._drawn, width) if self._drawn is not None else None
            if strips is None:  # rich cells, or too narrow: rich lays the table out
                console = self.app.console
                lines = console.render_lines(table, console.options.update_width(width), pad=True)
                strips = [Strip(line, width) for line in lines]
            self._by_width[width] = strips
        return strips

    def get_content_height(self, container, viewport, width: int) -> int:
        return max(1, len(self._strips(width)))

    def render_lines(self, crop: Region) -> list[Strip]:
        self._style = self.rich_style  # once per paint, not once per line: it walks the DOM
        self._lines = self._strips(self.size.width)
        return super().render_lines(crop)

    def render_line(self, y: int) -> Strip:
        if y < len(self._lines):
            return self._lines[y].apply_style(self._style)
        return Strip.blank(self.size.width, self._style)

    @staticmethod
    def _make_table(header: Sequence[str], rows: Sequence[Sequence[str | Text]], highlight: Sequence[int]) -> Table:
        table = Table(box=None, padding=(0, 1), expand=True, show_edge=False, header_style="bold")
        for index, title in enumerate(header):
            table.add_column(title, justify="left" if index == 0 else "right", no_wrap=True,
                             overflow="ellipsis", ratio=2 if index == 0 else None)
        for index, row in enumerate(rows):
            table.add_row(*row, style="bold" if index in highlight else None)
        return table


def _hashable(drawn: Drawn) -> bool:
    try:
        hash(drawn)
    except TypeError:  # a rich Text cell: drawn again each time
        return False
    return True


_BOLD = Style(bold=True)


def _plain_lines(drawn: Drawn, width: int) -> list[Strip] | None:
    """The lines rich's table makes of plain-text cells when they fit (the first column takes
    what the others leave, each column padded by a space either side), without rich's layout:
    the scoreboard changes at most steps. None when rich must lay it out."""
    header, rows, highlight = drawn
    table = (header, *rows)
    if any(not isinstance(cell, str) or "[" in cell for row in table for cell in row) \
            or any(len(row) != len(header) for row in rows):
        return None
    widths = [max(cell_len(row[column]) for row in table) for column in range(1, len(header))]
    first = width - sum(w + 2 for w in widths) - 2
    if first < 1:
        return None
    lines = []
    for index, row in enumerate(table):
        name = Text(row[0])
        name.truncate(first, overflow="ellipsis", pad=True)
        cells = [f" {name.plain} "] + [f" {cell:>{w - cell_len(cell) + len(cell)}} " for cell, w in zip(row[1:], widths, strict=True)]
        bold = index == 0 or (index - 1) in highlight
        lines.append(Strip([Segment("".join(cells), _BOLD if bold else None)], width))
    return lines
