"""The invite code, whole: on lines of its own, broken only between its parts when the
screen is narrower than the code, and an input that takes such a code pasted back."""

from __future__ import annotations

import re

from rich.text import Text
from textual import events
from textual.app import App
from textual.widgets import Input, Static

TITLE = "Invite code (send all of it; c copies it):"


def code_lines(code: str, width: int) -> list[str]:
    """`code` in lines of at most `width` characters, broken after a `/` (or, for a part
    longer than a line, after a `-`): a reader that ignores whitespace reads the lines back as
    the code, and a line break never falls inside a group of letters."""
    lines: list[str] = []
    for piece in _greedy(re.split(r"(?<=/)(?!/)", code), width):
        lines += _greedy(re.split(r"(?<=-)", piece), width) if len(piece) > width else [piece]
    return lines


def _greedy(tokens: list[str], width: int) -> list[str]:
    lines: list[str] = []
    line = ""
    for token in tokens:
        if line and len(line) + len(token) > width:
            lines.append(line)
            line = ""
        line += token
    return lines + [line] if line else lines


class InviteCode(Static):
    """The table's invite code under a title, redrawn to fit whenever the width changes."""

    def __init__(self, code: str = "", *, id: str | None = None) -> None:
        super().__init__("", id=id, markup=False)
        self.code = code

    def show(self, code: str) -> None:
        self.code = code
        self._draw()

    def on_resize(self, event: events.Resize) -> None:
        self._draw()

    def _draw(self) -> None:
        if not self.code:
            self.update("")
            return
        width = max(self.content_region.width or self.app.size.width, 20)
        self.update(Text("\n".join([TITLE, *code_lines(self.code, width)])))


def copy_invite(app: App[object], code: str) -> None:
    """Put an invite code on the clipboard (OSC 52: most terminals, tmux with set-clipboard,
    and over SSH) and say so; the code stays on the screen for terminals that refuse."""
    app.copy_to_clipboard(code)
    app.notify("Invite code copied, if your terminal lets programs set the clipboard "
                      "(it is on the screen too).", timeout=6)


class CodeInput(Input):
    """An Input for a broker or invite code: a paste of several lines (a code copied where it
    wrapped) is taken whole, its whitespace dropped; a plain Input keeps only the first line."""

    def on_paste(self, event: events.Paste) -> None:
        text = "".join(event.text.split())
        if not text:
            return
        event.prevent_default()  # Input's own handler would keep only the first line
        event.stop()
        if self.selection.is_empty:
            self.insert_text_at_cursor(text)
        else:
            self.replace(text, *self.selection)
