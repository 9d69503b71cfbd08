"""ChatPanel: the table's chat (signed, on the game's chat topic when networked).

A game screen includes it when its table supports chat (`table.supports.chat`); it shows
the table's "chat" events, and a line typed with Enter goes up to the screen as a
`ChatPanel.Said` message (the screen sends it to the table). Escape hands the keyboard back
to the board.
"""

from __future__ import annotations

from dataclasses import dataclass

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.message import Message
from textual.widgets import Input, RichLog

from ..table import Table, TableEvent


class ChatPanel(Vertical):
    @dataclass
    class Said(Message):
        """The player typed a chat line (Enter)."""

        text: str

    DEFAULT_CSS = """
    ChatPanel { height: 8; border-top: solid $primary-darken-2; }
    ChatPanel > RichLog { height: 1fr; scrollbar-size-vertical: 1; }
    ChatPanel > Input { height: 1; border: none; padding: 0 1; }
    ChatPanel > Input:focus { background: $boost; }
    """

    BINDINGS = [Binding("escape", "leave_chat", "Back to the table", show=True)]

    def __init__(self, table: Table, *, id: str | None = "chat", classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.table = table
        self._focus_before = None

    def compose(self) -> ComposeResult:
        log = RichLog(wrap=True, markup=False, max_lines=300, auto_scroll=True, min_width=10)
        log.can_focus = False
        yield log
        yield Input(placeholder="chat: type, Enter", max_length=500, compact=True)

    def on_mount(self) -> None:
        log = self.query_one(RichLog)
        for line in self.table.chat_lines[-50:]:
            log.write(line)
        self.table.subscribe(self._on_event)

    def _on_event(self, event: TableEvent) -> None:
        if event.kind == "chat" and event.text and self.is_attached:
            self.app.call_later(self._add, event.text)

    def _add(self, line: str) -> None:
        if self.is_attached:
            self.query_one(RichLog).write(line)

    def focus_input(self) -> None:
        self._focus_before = self.screen.focused  # where Escape hands the keyboard back
        self.query_one(Input).focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        text = event.value.strip()
        event.input.value = ""
        if text:
            self.post_message(self.Said(text))

    def action_leave_chat(self) -> None:
        before = self._focus_before
        self.screen.set_focus(before if before is not None and before.is_attached else None)
