"""Bots by (game id, kind), read from the game descriptors (engine/registry.py).

Every game gets "random" for free; a game's own kinds are its descriptor's `bots`.
"""

from __future__ import annotations

from ..core import Game, InvalidOption, Seat, Stream
from ..core.descriptor import GameDescriptor
from ..registry import get_descriptor
from .base import Bot, RandomBot


def _descriptor(game_id: str) -> GameDescriptor | None:
    try:
        return get_descriptor(game_id)
    except InvalidOption:  # a game outside the registry (a test's own) has the random bot
        return None


def bot_kinds(game_id: str) -> list[str]:
    descriptor = _descriptor(game_id)
    return ["random", *sorted(descriptor.bots if descriptor else ())]


def make_bot(game: Game, seat: Seat, kind: str, rng: Stream) -> Bot:
    """A bot of `kind` for `seat`: a level (easy, normal, hard), "random", or an alias
    ("heuristic" = normal; "best" = the game's best_bot, normal where it has levels)."""
    descriptor = _descriptor(game.id)
    if kind == "best":
        kind = descriptor.best_bot if descriptor else "random"
    if kind == "random":
        return RandomBot(game, seat, rng)
    if descriptor is None or kind not in descriptor.bots:
        raise InvalidOption(f"no {kind!r} bot for {game.id} (bots: {', '.join(bot_kinds(game.id))})")
    return descriptor.bot_factory(kind)(game, seat, rng)


def seat_kinds(spec: str, seats: int) -> list[str]:
    """`spec` ("hard", or "hard,normal,easy": one per bot seat in seat order) as one kind per
    seat; InvalidOption when a list does not have one kind per bot seat."""
    kinds = [kind.strip() for kind in spec.split(",")]
    if len(kinds) == 1:
        return kinds * seats
    if len(kinds) != seats:
        raise InvalidOption(f"{len(kinds)} bot levels ({spec}) for {seats} bot seats")
    return kinds
