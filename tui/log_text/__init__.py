"""The game log panel's words: engine events (engine.core.Event) with player and card names.

The engine says what happened as data (seat numbers, card ids); each game has a small
renderer here that turns one step's events into lines. The engine never words a player's
name, so nothing here rewrites engine text.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from importlib import import_module

from engine.core import DESCRIBED, Event

Names = Sequence[str]
Renderer = Callable[[Sequence[Event], Names], list[str]]
_MODULES = {"money": "money", "sheriff": "sheriff", "ten": "ten", "seven_wonders": "seven_wonders"}
_LOADED: dict[str, Renderer] = {}


def who(names: Names, seat: int | None) -> str:
    """A seat's player name ("the table" for the rules themselves)."""
    if seat is None:
        return "the table"
    return names[seat] if 0 <= seat < len(names) else f"player {seat + 1}"


def plain_lines(events: Sequence[Event], names: Names) -> list[str]:
    """Events with no renderer of their own: "<name>: <the game's describe line>"."""
    return [f"{who(names, e.seat)}: {e.text or e.kind.replace('_', ' ')}" for e in events]


def renderer(game_id: str) -> Renderer:
    if game_id not in _LOADED:
        module = _MODULES.get(game_id)
        _LOADED[game_id] = import_module(f".{module}", __name__).lines if module else plain_lines
    return _LOADED[game_id]


def event_lines(game_id: str, events: Sequence[Event], names: Names) -> list[str]:
    """One step's log lines. Default events (worded by `describe`) keep their text."""
    if all(e.kind == DESCRIBED for e in events):
        return plain_lines(events, names)
    return renderer(game_id)(events, names)
