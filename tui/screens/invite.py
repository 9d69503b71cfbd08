"""The table's invite code on a key during the game (F2): whole, on lines of its own, and c
puts it on the clipboard."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Footer

from ..widgets.invite_code import InviteCode, copy_invite


class InviteDialog(ModalScreen[None]):
    BINDINGS = [
        Binding("c", "copy", "Copy code", show=True),
        Binding("escape,enter,f2", "close", "Close", show=True),
    ]

    def __init__(self, code: str) -> None:
        super().__init__(id="invite-screen")
        self.code = code

    def compose(self) -> ComposeResult:
        with Vertical(id="invite-box"):
            yield InviteCode(self.code, id="invite-code")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#invite-code", InviteCode).show(self.code)

    def action_copy(self) -> None:
        copy_invite(self.app, self.code)

    def action_close(self) -> None:
        self.dismiss(None)
