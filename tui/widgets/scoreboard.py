"""The scoreboard: one row per player (name first), columns chosen by the game screen."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Sequence
from typing import Any

from rich.console import Console, ConsoleOptions, RenderResult
from rich.measure import Measurement
from rich.segment import Segment
from rich.table import Table
from rich.text import Text
from textual.widgets import Static

Drawn = tuple[tuple[str, ...], tuple[tuple[Any, ...], ...], tuple[int, ...]]

KEPT = 16
"""Tables kept, rendered, for showing again: the acting seat moves round and round a table."""


class _KeptTable:
    """A rich Table that keeps its render for each width: a game moves between a few
    scoreboards (the marker goes from seat to seat), and laying out a rich Table again costs
    more than the rest of the side panel."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self._renders: dict[tuple[Any, ...], list[Segment]] = {}

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        key = (options.min_width, options.max_width, options.height, options.max_height, options.justify,
               options.overflow, options.no_wrap, options.highlight, options.markup, options.size)
        segments = self._renders.get(key)
        if segments is None:
            segments = self._renders[key] = list(console.render(self.table, options))
        yield from segments

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        return Measurement.get(console, options, self.table)


class Scoreboard(Static):
    DEFAULT_CSS = """
    Scoreboard { height: auto; }
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._drawn: Drawn | None = None
        self._kept: OrderedDict[Drawn, _KeptTable] = OrderedDict()

    def show(self, header: Sequence[str], rows: Sequence[Sequence[str | Text]], highlight: Sequence[int] = ()) -> None:
        """Draw the table; rows whose index is in `highlight` are bold (e.g. you, the actor)."""
        drawn = (tuple(header), tuple(tuple(row) for row in rows), tuple(highlight))
        if drawn == self._drawn:
            return  # the same table: no layout pass, no repaint
        resized = self._drawn is None or len(self._drawn[1]) != len(drawn[1])
        self._drawn = drawn
        kept = self._kept.pop(drawn, None) if _hashable(drawn) else None
        if kept is None:
            kept = _KeptTable(self._table(header, rows, highlight))
        if _hashable(drawn):
            self._kept[drawn] = kept
            while len(self._kept) > KEPT:
                self._kept.popitem(last=False)
        self.update(kept, layout=resized)  # one line per row: the same rows, the same height

    @staticmethod
    def _table(header: Sequence[str], rows: Sequence[Sequence[str | Text]], highlight: Sequence[int]) -> Table:
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
