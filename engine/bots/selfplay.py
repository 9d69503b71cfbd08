"""Headless bot games: the harness behind `gamenight selfplay`, benchmarks and property tests."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..core import Game, Result, State, Stream, seed_bytes
from .registry import make_bot


@dataclass(frozen=True)
class Played:
    state: State
    result: Result | None  # None when the step cap stopped the game
    actions: int
    steps: int


def play_game(
    game: Game,
    n_players: int,
    seed: bytes | int | str,
    bots: Sequence[str] | str = "random",
    options: Mapping[str, Any] | None = None,
    max_steps: int = 100_000,
    rollouts: int | None = None,
) -> Played:
    """Play one game to the end with bots choosing from views and legal actions only.

    `rollouts`: the node budget of every hard bot (a decision's rollouts), else its default."""
    seed = seed_bytes(seed)
    kinds = [bots] * n_players if isinstance(bots, str) else list(bots)
    root = Stream(seed)
    players = [make_bot(game, s, kinds[s], root.fork(f"bot{s}")) for s in range(n_players)]
    if rollouts is not None:
        for bot in players:
            if hasattr(bot, "rollouts"):
                bot.rollouts = rollouts
    wants_view = [bot.wants_view for bot in players]
    choose = [bot.choose for bot in players]
    state = game.setup(n_players, seed, options)
    # `active` has just checked that the game is not over and which seats act, so asking
    # `legal_actions` would only repeat those guards: the harness calls the game's hook.
    # Every action still goes through `apply`, which validates it.
    legal_actions = game._legal_actions
    # `active` is the acting-seat hook (nobody once over): asked directly, as above
    stalemate, active_seats, apply = game.stalemate, game._active, game.apply
    actions = steps = 0
    while steps < max_steps and not stalemate(state):
        active = active_seats(state)  # empty once the game is over
        if not active:
            break
        chosen = {}
        for seat in sorted(active) if len(active) > 1 else active:
            view = game.view(state, seat) if wants_view[seat] else None
            chosen[seat] = choose[seat](view, legal_actions(state, seat))
        state = apply(state, chosen)  # validates every action
        actions += len(chosen)
        steps += 1
    result = game.result(state) if game.is_over(state) else None
    return Played(state, result, actions, steps)
