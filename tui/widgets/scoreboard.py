"""The scoreboard: one row per player (name first), columns chosen by the game screen."""

from __future__ import annotations

from collections.abc import Sequence

from rich.table import Table
from rich.text import Text
from textual.widgets import Static


class Scoreboard(Static):
    DEFAULT_CSS = """
    Scoreboard { height: auto; }
    """

    def show(self, header: Sequence[str], rows: Sequence[Sequence[str | Text]], highlight: Sequence[int] = ()) -> None:
        """Draw the table; rows whose index is in `highlight` are bold (e.g. you, the actor)."""
        drawn = (tuple(header), tuple(tuple(row) for row in rows), tuple(highlight))
        if drawn == getattr(self, "_drawn", None):
            return  # the same table: no layout pass, no repaint
        resized = getattr(self, "_drawn", None) is None or len(self._drawn[1]) != len(drawn[1])
        self._drawn = drawn
        table = Table(box=None, padding=(0, 1), expand=True, show_edge=False, header_style="bold")
        for index, title in enumerate(header):
            table.add_column(title, justify="left" if index == 0 else "right", no_wrap=True,
                             overflow="ellipsis", ratio=2 if index == 0 else None)
        for index, row in enumerate(rows):
            table.add_row(*row, style="bold" if index in highlight else None)
        self.update(table, layout=resized)  # one line per row: the same rows, the same height
