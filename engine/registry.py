"""Every game by id. Adding a game = one line here (and one in engine/bots/registry.py)."""

from __future__ import annotations

from importlib import import_module

from .core import Game, InvalidOption

_GAMES: dict[str, str] = {
    "seven_wonders": "engine.seven_wonders",
    "money": "engine.money",
    "sheriff": "engine.sheriff",
    "ten": "engine.ten",
}


def game_ids() -> list[str]:
    return sorted(_GAMES)


def get_game(game_id: str) -> Game:
    """The Game object for an id; an unknown id raises InvalidOption naming the known ones."""
    path = _GAMES.get(game_id)
    if path is None:
        raise InvalidOption(f"unknown game {game_id!r} (games: {', '.join(game_ids())})")
    return import_module(path).GAME
