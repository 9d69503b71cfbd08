"""Bots by (game id, kind). Every game gets "random" for free; one line adds a game's own."""

from __future__ import annotations

from importlib import import_module

from ..core import Game, InvalidOption, Seat, Stream
from .base import Bot, RandomBot

_BOTS: dict[tuple[str, str], str] = {
    ("seven_wonders", "heuristic"): "engine.bots.seven_wonders:SevenWondersBot",
    ("money", "heuristic"): "engine.bots.money:MoneyBot",
    ("sheriff", "heuristic"): "engine.bots.sheriff:SheriffBot",
    ("ten", "heuristic"): "engine.bots.ten:TenBot",
}


def bot_kinds(game_id: str) -> list[str]:
    return ["random"] + sorted(kind for gid, kind in _BOTS if gid == game_id)


def make_bot(game: Game, seat: Seat, kind: str, rng: Stream) -> Bot:
    """A bot of `kind` for `seat`; "best" means the game's heuristic bot if it has one."""
    if kind == "best":
        kind = "heuristic" if (game.id, "heuristic") in _BOTS else "random"
    if kind == "random":
        return RandomBot(game, seat, rng)
    path = _BOTS.get((game.id, kind))
    if path is None:
        raise InvalidOption(f"no {kind!r} bot for {game.id} (bots: {', '.join(bot_kinds(game.id))})")
    module, name = path.split(":")
    return getattr(import_module(module), name)(game, seat, rng)
