"""GameFooter: the screen's keys on one line, main key first, drawn again only when they change.

Textual's Footer is a row of key widgets: showing or hiding a key mounts, unmounts or hides a
widget, and every such change lays the whole screen out again (a game's keys change a few times
per turn). This footer is one widget of fixed height that draws the keys itself, so a change of
keys repaints one line and nothing else moves. It looks like Textual's footer (the same theme
colours: the key, then its description; a disabled key dimmed) and a click on a key presses it.
Keys are ordered by `rank(action)` from the screen (lower first; ties keep Textual's order), so
a game puts its main key (Enter) before Help and Menu and it is never cut at 80 columns.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rich.text import Text
from textual import events
from textual.binding import Binding
from textual.reactive import reactive
from textual.screen import Screen
from textual.widget import Widget

Key = tuple[str, str, str, bool, str]
"""What the footer shows of one key: (key, key as displayed, description, enabled, tooltip)."""


class GameFooter(Widget):
    COMPONENT_CLASSES = {"game-footer--key", "game-footer--description", "game-footer--hover"}

    # The colours of Textual's FooterKey (a key in bold, then its description); fixed height.
    DEFAULT_CSS = """
    GameFooter {
        dock: bottom;
        height: 1;
        text-wrap: nowrap;
        color: $footer-foreground;
        background: $footer-background;
        .game-footer--key {
            color: $footer-key-foreground;
            background: $footer-key-background;
            text-style: bold;
        }
        .game-footer--description {
            color: $footer-description-foreground;
            background: $footer-description-background;
        }
        .game-footer--hover {
            color: $footer-key-foreground;
            background: $block-hover-background;
        }
    }
    """

    ALLOW_SELECT = False

    compact = reactive(False)
    """Textual's compact footer: less space around keys (the replay viewer has more keys); a
    footer whose keys do not fit its width with the usual spacing is drawn compact anyway."""

    def __init__(self, rank: Callable[[str], int] | None = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.rank = rank or (lambda action: 0)
        self.shown: tuple[Key, ...] = ()
        self.rebuilds = 0  # how many times the keys changed (benchmarks and tests read it)
        self._spans: list[tuple[int, int]] = []  # each shown key's columns, for the mouse
        self._hover = -1

    def on_mount(self) -> None:
        self.screen.bindings_updated_signal.subscribe(self, self.bindings_changed)

    def on_unmount(self) -> None:
        self.screen.bindings_updated_signal.unsubscribe(self)

    def keys(self) -> list[tuple[Binding, bool, str]]:
        """The keys to show: one per action (the first binding found), in rank order."""
        seen: dict[str, tuple[Binding, bool, str]] = {}
        for _node, binding, enabled, tooltip in self.screen.active_bindings.values():
            if binding.show and binding.action not in seen:
                seen[binding.action] = (binding, enabled, tooltip)
        ordered = sorted(enumerate(seen.values()), key=lambda item: (self.rank(item[1][0].action), item[0]))
        return [entry for _, entry in ordered]

    def bindings_changed(self, screen: Screen) -> None:
        if not screen.app.app_focus or not self.is_attached or screen is not self.screen:
            return
        shown = tuple((b.key, self.app.get_key_display(b), b.description, enabled, tooltip)
                      for b, enabled, tooltip in self.keys())
        if shown != self.shown:
            self.shown = shown
            self.rebuilds += 1
            self.refresh()  # one line of fixed size: a repaint, no layout pass

    def render(self) -> Text:
        key_style = self.get_component_rich_style("game-footer--key")
        description_style = self.get_component_rich_style("game-footer--description")
        hover_style = self.get_component_rich_style("game-footer--hover")
        line = Text(no_wrap=True, overflow="crop", end="")
        self._spans = []
        compact = self.compact or self._roomy_width() > self.size.width  # every key seen, not the last cut
        bare = self._bare_keys() if compact else frozenset()
        for index, (_key, display, description, enabled, _tooltip) in enumerate(self.shown):
            start = line.cell_len
            if index in bare:
                description = ""
            if compact:  # Textual's compact spacing: "key description", a space between keys
                line.append(display, key_style)
                if description:
                    line.append(f" {description}", description_style)
            elif description:  # Textual's spacing: " key " then "description "
                line.append(f" {display} ", key_style)
                line.append(f"{description} ", description_style)
            else:
                line.append(display, key_style)
            if index == self._hover:
                line.stylize(hover_style, start)
            if not enabled:
                line.stylize("dim", start)
            self._spans.append((start, line.cell_len))
            if compact:
                line.append(" ")
        return line

    def _bare_keys(self) -> frozenset[int]:
        """Keys shown without their description so that a compact footer still fits: the last
        ones first (the frame's keys, explained by F1 Help, whose own description stays)."""
        width = sum(len(display) + (len(description) + 1 if description else 0) + 1
                    for _key, display, description, _enabled, _tooltip in self.shown) - 1
        bare: set[int] = set()
        for index in reversed(range(len(self.shown))):
            if width <= self.size.width:
                break
            key, _display, description, _enabled, _tooltip = self.shown[index]
            if description and key != "f1":
                bare.add(index)
                width -= len(description) + 1
        return frozenset(bare)

    def _roomy_width(self) -> int:
        """Columns the keys take with Textual's usual spacing."""
        return sum(len(display) + len(description) + 3 if description else len(display)
                   for _key, display, description, _enabled, _tooltip in self.shown)

    def _key_at(self, x: int) -> int:
        index = next((index for index, (start, end) in enumerate(self._spans) if start <= x < end), -1)
        return index if index < len(self.shown) else -1

    def on_mouse_down(self, event: events.MouseDown) -> None:
        index = self._key_at(event.x)
        if index < 0:
            return
        key, _display, _description, enabled, _tooltip = self.shown[index]
        if enabled:
            self.app.simulate_key(key)
        else:
            self.app.bell()

    def on_mouse_move(self, event: events.MouseMove) -> None:
        self._set_hover(self._key_at(event.x))

    def on_leave(self) -> None:
        self._set_hover(-1)

    def _set_hover(self, index: int) -> None:
        if index != self._hover:
            self._hover = index
            self.tooltip = (self.shown[index][4] or None) if index >= 0 else None
            self.refresh()
