"""Every game by id: the one list. Adding a game = its package (exporting DESCRIPTOR) + one line.

Packages are imported when first asked for, so a game being written cannot break the others.
"""

from __future__ import annotations

from importlib import import_module

from .core import Game, InvalidOption
from .core.descriptor import GameDescriptor

_GAMES: dict[str, str] = {
    "seven_wonders": "engine.seven_wonders",
    "money": "engine.money",
    "sheriff": "engine.sheriff",
    "ten": "engine.ten",
}


def game_ids() -> list[str]:
    return sorted(_GAMES)


def get_descriptor(game_id: str) -> GameDescriptor:
    """Everything about a game; an unknown id raises InvalidOption naming the known ones."""
    path = _GAMES.get(game_id)
    if path is None:
        raise InvalidOption(f"unknown game {game_id!r} (games: {', '.join(game_ids())})")
    return import_module(path).DESCRIPTOR


def get_game(game_id: str) -> Game:
    """The Game object (the rules) for an id; an unknown id raises InvalidOption."""
    return get_descriptor(game_id).game
