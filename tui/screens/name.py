"""A door's first visit: the player's name, asked once before the menu and kept in the
visitor's own config.toml (behind an SSH door, the next visit with the same key knows it)."""

from __future__ import annotations

import logging
from pathlib import Path

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import Footer, Input, Static

from net.codec import MAX_NAME

from ..config import ConfigError, save_player_name

log = logging.getLogger(__name__)
STYLES = Path(__file__).resolve().parent.parent / "styles"
KNOWN_BY = {
    "ssh": "This server knows you by your SSH key: come back with the same key and you are home.",
    "web": "The others at the table see this name.",
}


class NameScreen(Screen[str]):
    """What should the others call you? Dismissed with the name once it is saved."""

    CSS_PATH = STYLES / "name.tcss"
    BINDINGS = [Binding("enter", "save", "Save my name", show=True)]

    def __init__(self, kind: str = "ssh") -> None:
        super().__init__(id="name-screen")
        self.kind = kind

    def compose(self) -> ComposeResult:
        with Vertical(id="name-box"):
            yield Static("Welcome to gamenight", id="name-title")
            yield Static("Your first visit: what name should the others see at the table? "
                         "Type it, then Enter.", id="name-question")
            yield Input(placeholder=f"your name (1 to {MAX_NAME} characters)", max_length=MAX_NAME, id="name-input")
            yield Static(KNOWN_BY.get(self.kind, KNOWN_BY["web"]), id="name-hint")
            yield Static("", id="name-status", markup=False)
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#name-input", Input).focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.action_save()

    def action_save(self) -> None:
        name = self.query_one("#name-input", Input).value.strip()
        status = self.query_one("#name-status", Static)
        try:
            save_player_name(name)
        except ValueError:
            status.update(f"Type a name of 1 to {MAX_NAME} letters, digits or signs.")
            return
        except ConfigError as exc:  # the name is used now; the next visit asks again
            log.warning("the name could not be saved: %s", exc)
            self.app.notify(f"Your name is not saved: {exc}", severity="warning")
        self.dismiss(name)
