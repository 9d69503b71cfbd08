"""The terminal's title says when it is your turn, so a terminal in the background shows it.

Textual has no terminal-title API (Textualize/textual#1782 is open; `App.title` is the Header
widget's text, and Rich's `Console.set_window_title` writes to the app's console, whose file
Textual replaces with a null file). So the title is written as Textual writes its own escape
sequences, the bell (`App.bell`) and the clipboard (`App.copy_to_clipboard`): through the
driver's public `write`, which queues it in order with the frames. That driver is the one
private name used (`App._driver`), here only. A headless app has a driver that writes nothing;
over the SSH door the app runs in a pty, so the title reaches the player's terminal too.

OSC 2 sets the title; XTWINOPS 22/23 push and pop the terminal's own title, so leaving the
game puts it back where the terminal keeps a title stack (xterm, tmux: tested in
tests/tui/test_terminal.py); where it keeps none, the title falls back to a plain "gamenight",
never a stale "your turn".
"""

from __future__ import annotations

from collections.abc import Callable

from textual.app import App

PUSH_TITLE = "\x1b[22;2t"
POP_TITLE = "\x1b[23;2t"
PLAIN_TITLE = "gamenight"


def title_sequence(title: str) -> str:
    """OSC 2 with `title`; control characters are dropped (a player's name could hold one)."""
    clean = "".join(ch for ch in title if ch.isprintable())
    return f"\x1b]2;{clean}\x07"


def driver_writer(app: App) -> Callable[[str], None]:
    """Writes to the app's terminal, as App.bell does; nothing before the driver starts."""

    def write(data: str) -> None:
        driver = app._driver  # no public accessor (see the module's docstring)
        if driver is not None:
            driver.write(data)

    return write


class TerminalTitle:
    """The title of one terminal: set when it changes, the terminal's own put back at the end."""

    def __init__(self, write: Callable[[str], None]) -> None:
        self.write = write
        self.shown: str | None = None  # None: the terminal's own title, untouched

    def show(self, title: str) -> None:
        if title == self.shown:
            return
        if self.shown is None:
            self.write(PUSH_TITLE)
        self.write(title_sequence(title))
        self.shown = title

    def restore(self) -> None:
        if self.shown is None:
            return
        self.write(title_sequence(PLAIN_TITLE))
        self.write(POP_TITLE)
        self.shown = None


def turn_title(game: str, my_turn: bool) -> str:
    """"▶ Your turn · Money! · gamenight", or "Money! · gamenight" while others play."""
    return f"▶ Your turn · {game} · {PLAIN_TITLE}" if my_turn else f"{game} · {PLAIN_TITLE}"
