"""What screens hand up to the app, as Textual Messages (data flows down as attributes, up as
messages: a screen never calls into the app to give it a table).

Several screens send the same request (a game screen, the end screen and the leave dialog all
leave a table; the Host and Join screens both open one), so the messages live here rather
than nested in one sender. `GamenightApp` handles each (`on_open_table`, ...).
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
    """Close a table that never reached its game screen (the screen that built it goes)."""


class OpenTable(TableMessage):
    """Show the table with its game's screen, over the menu."""


class LeaveTable(TableMessage):
    """The player leaves the table: close it, back to the menu."""


class ShowEnd(TableMessage):
    """The game is over: show its end screen."""
