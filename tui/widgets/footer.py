"""GameFooter: Textual's footer, with the screen's main key first and rebuilt only on change.

Textual's Footer recomposes (new widgets for every key) each time a screen refreshes its
bindings, which a game screen does after every redraw: that was most of a redraw's cost. This
footer keeps a signature of what it shows (key, label, enabled) and changes only when it
differs; it keeps a key widget for every key it has shown (hidden when not in use), so a
change is a matter of hiding and showing keys: a key that stays is not repainted, only moved. Keys are ordered by `rank(action)` from the screen (lower first; ties keep Textual's
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
MAX_POOL = 40


class GameFooter(Footer):
    def __init__(self, rank: Callable[[str], int] | None = None, **kwargs: Any) -> None:
        super().__init__(show_command_palette=False, **kwargs)
        self.rank = rank or (lambda action: 0)
        self._shown: Shown | None = None
        self.rebuilds = 0  # how many times the keys were rebuilt (benchmarks and tests read it)
        self.relabels = 0  # ... or shown by hiding and showing the keys it has
        self._pool: list[tuple[Binding, bool, str]] = []  # every key widget, shown or hidden
        self._pool_widgets: list[FooterKey] = []

    def _keys(self) -> list[tuple[Binding, bool, str]]:
        """The keys to show: one per action (the first binding found), in rank order."""
        seen: dict[str, tuple[Binding, bool, str]] = {}
        for _node, binding, enabled, tooltip in self.screen.active_bindings.values():
            if binding.show and binding.action not in seen:
                seen[binding.action] = (binding, enabled, tooltip)
        ordered = sorted(enumerate(seen.values()), key=lambda item: (self.rank(item[1][0].action), item[0]))
        return [entry for _, entry in ordered]

    def _signature(self, bindings: list[tuple[Binding, bool, str]]) -> Shown:
        return tuple(self._entry(b, enabled) for b, enabled, _ in bindings)

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
        self._pool = _merge(self._pool, bindings, self._signature)
        self.rebuilds += 1
        showing = set(self._shown)
        self._pool_widgets = []
        for binding, enabled, tooltip in self._pool:
            key = self._make_key(binding, enabled, tooltip)
            key.display = self._entry(binding, enabled) in showing
            self._pool_widgets.append(key)
            yield key

    @staticmethod
    def _entry(binding: Binding, enabled: bool) -> tuple[str, str, str, bool]:
        return (binding.key, binding.description, binding.action, enabled)

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
            self._show(bindings)

    def _show(self, bindings: list[tuple[Binding, bool, str]]) -> None:
        """Show these keys by hiding and showing the key widgets there are, when they are all
        there in this order: a key that stays is neither relabelled nor repainted, only moved.
        Otherwise recompose with these keys and the hidden ones kept for later (coalesced by
        Textual: a key mounted here while a recompose is under way would survive it and show
        twice)."""
        pool = [(b.key, b.description, b.action) for b, _, _ in self._pool]
        wanted = [(b.key, b.description, b.action) for b, _, _ in bindings]
        positions = [pool.index(entry) if entry in pool else -1 for entry in wanted]
        widgets = self._pool_widgets
        if -1 in positions or positions != sorted(positions) or len(widgets) != len(pool) \
                or any(not w.is_attached for w in widgets):
            self.refresh(recompose=True)
            return
        showing = dict(zip(positions, bindings, strict=True))
        for index, widget in enumerate(widgets):
            entry = showing.get(index)
            if entry is None:
                if widget.display:
                    widget.display = False
                continue
            binding, enabled, tooltip = entry
            if widget._disabled != (not enabled):
                widget._disabled = not enabled
                widget.set_class(not enabled, "-disabled")
                widget.refresh()
            widget.tooltip = tooltip or None
            if not widget.display:
                widget.display = True
            self._pool[index] = entry
        self.relabels += 1


def _merge(pool: list[Any], bindings: list[Any], signature: Callable[[list[Any]], Shown]) -> list[Any]:
    """The keys to show, in their order, with the pool's other keys slotted in after the key
    that preceded them there (they are hidden: their place only matters to reuse them). At most
    MAX_POOL keys, else only those shown."""
    merged = list(bindings)
    names = [entry[:3] for entry in signature(merged)]
    previous = -1
    for binding, enabled, tooltip in pool:
        name = (binding.key, binding.description, binding.action)
        if name in names:
            previous = names.index(name)
            continue
        previous += 1
        merged.insert(previous, (binding, enabled, tooltip))
        names.insert(previous, name)
    return merged if len(merged) <= MAX_POOL else list(bindings)
