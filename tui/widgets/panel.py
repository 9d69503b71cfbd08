"""Panel: a Static that ignores an update with the content it already shows.

A game screen redraws every panel from the view after each step; most panels show the same
text again. Textual's Static.update always re-lays out the screen, so an unchanged update costs
a layout pass and a full-screen render for nothing. Content is compared by value (rich Text
compares its text and styles; strings as strings); anything else always updates. A panel that
does not wrap (`text-wrap: nowrap`) and keeps its number of lines is repainted without a layout
pass.
"""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.widgets import Static

from .flow import Fit, Flow, Forms, Lines

_COMPARABLE = (str, Text, Flow, Fit, Forms, Lines)
_LINES = (str, Text, Fit, Forms, Lines)  # their number of lines may be known before they are drawn


class Panel(Static):
    def __init__(self, content: Any = "", **kwargs: Any) -> None:
        super().__init__(content, **kwargs)
        self._shown: Any = content

    def update(self, content: Any = "", *, layout: bool = True) -> None:
        old = self._shown
        comparable = isinstance(content, _COMPARABLE) and type(content) is type(old)
        if comparable and content == old:
            return
        height, width = self.styles.height, self.styles.width
        if height is not None and not height.is_auto and not (width is not None and width.is_auto):
            layout = False  # its size is set by the screen's styles: repaint this panel only
        elif isinstance(content, _LINES) and self.styles.text_wrap == "nowrap" and type(content) is type(old) \
                and _lines(content) is not None and _lines(content) == _lines(old):
            layout = False  # same height, same width: repaint this panel only, not the screen
        self._shown = content.copy() if isinstance(content, Text) else content
        super().update(content, layout=layout)


def _lines(content: str | Text | Fit | Forms | Lines) -> int | None:
    """How many lines it is drawn in, whatever the width (None: a Flow in it wraps at the width)."""
    if isinstance(content, (Fit, Forms)):
        return 1
    if isinstance(content, Lines):
        counts = [_lines(line) if isinstance(line, (Text, Fit, Forms)) else None for line in content.lines]
        return None if None in counts else sum(counts)
    plain = content.plain if isinstance(content, Text) else content
    return plain.count("\n") + 1
