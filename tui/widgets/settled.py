"""A widget that a layout pass resizes without asking for a second layout pass.

When a layout pass gives a widget a new size, Textual sets the widget's virtual size through a
reactive that requests another layout pass and a repaint in the next frame. A widget that does
not scroll and has no children is its own virtual size: nothing depends on it, and the first
pass has already marked the resized widget for repainting. Panels and lists that change height
with their content (bids, a hand) were laid out and painted twice per change.
"""

from __future__ import annotations

from textual.geometry import Size


class SettledSize:
    """Mix in before a non-scrolling, childless Widget class."""

    def _size_updated(self, size: Size, virtual_size: Size, container_size: Size, layout: bool = True) -> bool:
        return super()._size_updated(size, virtual_size, container_size, layout=False)  # type: ignore[misc]
