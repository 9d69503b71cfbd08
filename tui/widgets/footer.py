"""GameFooter: Textual's footer, with the screen's main key first and rebuilt only on change.

Textual's Footer recomposes (new widgets for every key) each time a screen refreshes its
bindings, which a game screen does after every redraw: that was most of a redraw's cost. This
footer keeps a signature of what it shows (key, label, enabled) and rebuilds only when it
differs, and when only the labels differ it relabels the keys it has instead of making new
ones. Keys are ordered by `rank(action)` from the screen (lower first; ties keep Textual's
order), so a game puts its main key (Enter) before Help and Menu and it is never cut at 80
columns.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import Footer
from textual.widgets._footer import FooterKey

Shown = tuple[tuple[str, str, str, bool], ...]


class GameFooter(Footer):
    def __init__(self, rank: Callable[[str], int] | None = None, **kwargs: Any) -> None:
        super().__init__(show_command_palette=False, **kwargs)
        self.rank = rank or (lambda action: 0)
        self._shown: Shown | None = None
        self.rebuilds = 0  # how many times the keys were rebuilt (benchmarks and tests read it)
        self.relabels = 0  # ... or relabelled in place

    def _keys(self) -> list[tuple[Binding, bool, str]]:
        """The keys to show: one per action (the first binding found), in rank order."""
        seen: dict[str, tuple[Binding, bool, str]] = {}
        for _node, binding, enabled, tooltip in self.screen.active_bindings.values():
            if binding.show and binding.action not in seen:
                seen[binding.action] = (binding, enabled, tooltip)
        ordered = sorted(enumerate(seen.values()), key=lambda item: (self.rank(item[1][0].action), item[0]))
        return [entry for _, entry in ordered]

    def _signature(self, bindings: list[tuple[Binding, bool, str]]) -> Shown:
        return tuple((b.key, b.description, b.action, enabled) for b, enabled, _ in bindings)

    def _make_key(self, binding: Binding, enabled: bool, tooltip: str) -> FooterKey:
        key = FooterKey(binding.key, self.app.get_key_display(binding), binding.description, binding.action,
                        disabled=not enabled, tooltip=tooltip)
        # Not data-bound to the footer's `compact` (its watcher restyles every key): set once.
        key.set_reactive(FooterKey.compact, self.compact)
        key.set_class(self.compact, "-compact", update=False)
        return key

    def compose(self) -> ComposeResult:
        if not self._bindings_ready:
            return
        bindings = self._keys()
        self._shown = self._signature(bindings)
        self.rebuilds += 1
        for binding, enabled, tooltip in bindings:
            yield self._make_key(binding, enabled, tooltip)

    def bindings_changed(self, screen: Screen) -> None:
        first = not self._bindings_ready
        self._bindings_ready = True
        if not screen.app.app_focus or not self.is_attached or screen is not self.screen:
            return
        if first:
            self.refresh(recompose=True)
            return
        bindings = self._keys()
        shown = self._signature(bindings)
        if shown != self._shown:
            self._shown = shown
            self._relabel(bindings)

    def _relabel(self, bindings: list[tuple[Binding, bool, str]]) -> None:
        """Show these keys with the key widgets there are (hiding the rest). Hidden keys are kept
        for the next time there are more keys to show; when there are too few, the footer is
        recomposed instead (coalesced by Textual: a key mounted here while a recompose is under
        way would survive it and show twice)."""
        keys = list(self.query(FooterKey))
        if len(bindings) > len(keys):
            self.refresh(recompose=True)
            return
        for widget, (binding, enabled, tooltip) in zip(keys, bindings, strict=False):
            widget.key, widget.action = binding.key, binding.action
            widget.key_display = self.app.get_key_display(binding)
            widget.description = binding.description
            widget._disabled = not enabled
            widget.set_class(not enabled, "-disabled")
            widget.tooltip = tooltip or None
            widget.display = True
            widget.refresh(layout=True)
        for widget in keys[len(bindings):]:
            widget.display = False
        self.relabels += 1
