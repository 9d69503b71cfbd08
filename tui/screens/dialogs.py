"""Small modal dialogs: an error message, and a yes/no question."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Footer, Static


class ErrorDialog(ModalScreen[None]):
    """A message a player must acknowledge (a bad save, a failed start, an unexpected error)."""

    BINDINGS = [
        Binding("enter", "dismiss_dialog", "OK", show=True),
        Binding("escape", "dismiss_dialog", "Close", show=True),
    ]

    def __init__(self, message: str, title: str = "Something went wrong", *, error: bool = True) -> None:
        super().__init__(classes="dialog-screen")
        self.message = message
        self.title_text = title
        self.error = error  # False: information to read (an invite code), not a failure

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog error-dialog" if self.error else "dialog") as box:
            box.border_title = self.title_text
            yield Static(self.message, id="dialog-message", markup=False)
            yield Static("Enter: OK", classes="dialog-hint")
        yield Footer()

    def action_dismiss_dialog(self) -> None:
        self.dismiss(None)


class ConfirmDialog(ModalScreen[bool]):
    """A yes/no question: y or Enter = yes, n or Escape = no."""

    BINDINGS = [
        Binding("y,enter", "answer(True)", "Yes", show=True),
        Binding("n,escape", "answer(False)", "No", show=True),
    ]

    def __init__(self, question: str) -> None:
        super().__init__(classes="dialog-screen")
        self.question = question

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static(self.question, id="dialog-message", markup=False)
            yield Static("y: yes   n: no", classes="dialog-hint")
        yield Footer()

    def action_answer(self, yes: bool) -> None:
        self.dismiss(yes)
