"""Hot seat: "pass the keyboard to <name>". Opaque, so the previous player's hand is not seen."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Footer, Static


class PassToScreen(ModalScreen[None]):
    BINDINGS = [Binding("enter", "ready", "I am ready", show=True)]

    def __init__(self, name: str) -> None:
        super().__init__(id="pass-to")
        self.player_name = name

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog pass-box"):
            yield Static(f"Pass the keyboard to {self.player_name}.", id="pass-title", markup=False)
            yield Static(f"{self.player_name}, press Enter when the others cannot see the screen.", markup=False)
        yield Footer()

    def action_ready(self) -> None:
        self.dismiss(None)
