"""The game log panel's words: engine events (engine.core.Event) with player and card names.

The engine says what happened as data (seat numbers, card ids); each game has a small
renderer here, `tui/log_text/<game id>.py` with `lines(events, names) -> list[str]`, that
turns one step's events into lines. The engine never words a player's name, so nothing here
rewrites engine text. A game with no module here (or no events of its own) is worded from its
`describe` text, "<name>: <text>".
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from importlib import import_module

from engine.core import DESCRIBED, Event

Names = Sequence[str]
Renderer = Callable[[Sequence[Event], Names], list[str]]
_LOADED: dict[str, Renderer] = {}


def who(names: Names, seat: int | None) -> str:
    """A seat's player name ("the table" for the rules themselves)."""
    if seat is None:
        return "the table"
    return names[seat] if 0 <= seat < len(names) else f"player {seat + 1}"


def plain_lines(events: Sequence[Event], names: Names) -> list[str]:
    """Events with no renderer of their own: "<name>: <the game's describe line>"."""
    return [f"{who(names, e.seat)}: {e.text or e.kind.replace('_', ' ')}" for e in events]


def plain_line(event: Event, names: Names) -> str:
    """One event's plain wording (what a renderer falls back on for a kind it does not word)."""
    return plain_lines([event], names)[0]


def each_event(line: Callable[[Event, Names], str | None]) -> Renderer:
    """A renderer that words every event on its own line: `line`, else the plain wording."""

    def lines(events: Sequence[Event], names: Names) -> list[str]:
        return [worded if (worded := line(e, names)) is not None else plain_line(e, names) for e in events]

    return lines


def renderer(game_id: str) -> Renderer:
    """The game's `lines` (found by its id), or the plain wording."""
    if game_id not in _LOADED:
        name = f"{__name__}.{game_id}"
        try:
            _LOADED[game_id] = import_module(name).lines if game_id.isidentifier() else plain_lines
        except ModuleNotFoundError as exc:
            if exc.name != name:
                raise  # the game's renderer is there but imports something missing: a bug
            _LOADED[game_id] = plain_lines
    return _LOADED[game_id]


def event_lines(game_id: str, events: Sequence[Event], names: Names) -> list[str]:
    """One step's log lines. Default events (worded by `describe`) keep their text."""
    if all(e.kind == DESCRIBED for e in events):
        return plain_lines(events, names)
    return renderer(game_id)(events, names)
