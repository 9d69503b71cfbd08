"""Sheriff widgets: the one-line box for a promise or a demand, and the key-handler guard."""

from __future__ import annotations

import logging
from collections.abc import Callable
from functools import wraps
from typing import Any

from textual.binding import Binding
from textual.message import Message
from textual.widgets import Input

log = logging.getLogger(__name__)


def guarded(method: Callable[..., Any]) -> Callable[..., Any]:
    """A key handler that can never take the app down: a bug becomes a line for the player."""

    @wraps(method)
    def run(self: Any, *args: Any) -> Any:
        try:
            return method(self, *args)
        except Exception as exc:
            log.exception("sheriff screen: %s failed", method.__name__)
            self.show_message(f"Unexpected error: {exc}", error=True)
            return None

    return run


class TextEntry(Input):
    """The one-line box for a promise or a demand; Esc closes it without sending."""

    class Cancelled(Message):
        """Esc in the box: the screen closes it, and nothing is sent."""

    BINDINGS = [Binding("escape", "cancel", "Cancel", show=True)]

    @property
    def focusable(self) -> bool:
        # Textual's auto focus (e.g. back from the end screen) would pick it even while hidden.
        return self.display and super().focusable

    def action_cancel(self) -> None:
        self.post_message(self.Cancelled())
