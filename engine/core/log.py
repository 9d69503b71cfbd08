"""The action log: setup parameters plus every step, enough to rebuild any state exactly."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from .errors import GameError, ReplayError
from .game import Action, Game, Seat, State
from .hashing import state_hash
from .plain import from_plain, plain, to_plain


@plain("core.GameLog")
@dataclass(frozen=True, slots=True)
class GameLog:
    """`steps[k]` maps each active seat to its action at step k (as (seat, action) pairs)."""

    game: str
    n_players: int
    seed: bytes
    options: tuple[tuple[str, Any], ...] = ()
    steps: tuple[tuple[tuple[Seat, Action], ...], ...] = field(default=())

    def options_dict(self) -> dict[str, Any]:
        return {k: from_plain(v) if isinstance(v, (list, dict)) else v for k, v in self.options}

    def append(self, actions: Mapping[Seat, Action]) -> GameLog:
        step = tuple((seat, actions[seat]) for seat in sorted(actions))
        return GameLog(self.game, self.n_players, self.seed, self.options, self.steps + (step,))


def new_log(game: Game, n_players: int, seed: bytes, options: Mapping[str, Any]) -> GameLog:
    opts = tuple((k, to_plain(options[k])) for k in sorted(options))
    return GameLog(game.id, n_players, seed, opts)


def replay(game: Game, log: GameLog) -> Iterator[State]:
    """Yield the state before the first step and after each step; illegal logs raise."""
    if log.game != game.id:
        raise ReplayError(f"this log is of {log.game!r}, not {game.id!r}")
    try:
        state = game.setup(log.n_players, log.seed, log.options_dict())
    except GameError as exc:
        raise ReplayError(f"the log's setup is invalid: {exc}") from exc
    yield state
    for k, step in enumerate(log.steps):
        try:
            state = game.apply(state, dict(step))
        except GameError as exc:
            raise ReplayError(f"step {k} does not replay: {exc}") from exc
        yield state


def replay_hashes(game: Game, log: GameLog) -> list[str]:
    return [state_hash(s) for s in replay(game, log)]


def final_state(game: Game, log: GameLog) -> State:
    *_, last = replay(game, log)
    return last
