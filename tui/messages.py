"""What screens hand up to the app about a table, as Textual Messages (data flows down as
attributes, up as messages). The Host and Join screens both send them, so they live here
rather than nested in one sender; `GamenightApp` handles each (`on_table_created`, ...).

Going to another screen is no message: `app.open_table`, `app.leave_table` and
`app.show_end` are called, as Textual's own `push_screen` is. A message reaches the app only
after the keys already read from the terminal have gone to the old screen, so "m n" typed at
once on the end screen would lose the "n" meant for the menu
(tests/tui/test_table_supports.py types ahead).
"""

from __future__ import annotations

from textual.message import Message

from .table import Table


class TableMessage(Message):
    """A request about one table, bubbling from a screen to the app."""

    def __init__(self, table: Table) -> None:
        super().__init__()
        self.table = table


class TableCreated(TableMessage):
    """A screen built a table that is in no game screen yet: the app closes it on quit."""


class CloseTable(TableMessage):
    """Close a table: one that never reached its game screen (the screen that built it goes),
    or one a rematch replaced."""

