"""7 Wonders self-play speed: complete random-bot games per second on one core.

Every action is validated by GAME.apply; time is the process's CPU time. "engine loop":
random picks from legal_actions; "with every active view": the same loop also building each
active seat's view; "play_game harness": engine/bots/selfplay.py.
Usage: .venv/bin/python bench/seven_wonders_speed.py [seconds per figure, default 3]
"""

from __future__ import annotations

import sys
import time

from engine.bots.selfplay import play_game
from engine.core import Stream, pick_uniform
from engine.seven_wonders import GAME


def engine_game(n_players: int, seed: int) -> None:
    rng = Stream(seed)
    state = GAME.setup(n_players, rng.seed, {"wonder_side": "random"})
    while not GAME.is_over(state):
        chosen = {seat: pick_uniform(GAME.legal_actions(state, seat), rng) for seat in GAME.active(state)}
        state = GAME.apply(state, chosen)
    GAME.result(state)


def harness_game(n_players: int, seed: int) -> None:
    played = play_game(GAME, n_players, seed, "random", {"wonder_side": "random"})
    assert played.result is not None


def viewed_game(n_players: int, seed: int) -> None:
    """The engine loop, also building every active seat's view at every step (as screens do)."""
    rng = Stream(seed)
    state = GAME.setup(n_players, rng.seed, {"wonder_side": "random"})
    while not GAME.is_over(state):
        chosen = {}
        for seat in GAME.active(state):
            GAME.view(state, seat)
            chosen[seat] = pick_uniform(GAME.legal_actions(state, seat), rng)
        state = GAME.apply(state, chosen)
    GAME.result(state)


def rate(play, n_players: int, seconds: float, rounds: int = 5) -> float:
    """Games per second of this process's CPU time (one core), the best of `rounds` rounds
    (as timeit does: the other rounds measured the machine's other load, not the engine)."""
    best = 0.0
    seed = 0
    for _ in range(rounds):
        games, start = 0, time.process_time()
        while time.process_time() - start < seconds / rounds:
            play(n_players, seed)
            games += 1
            seed += 1
        best = max(best, games / (time.process_time() - start))
    return best


def main() -> None:
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 3.0
    for n in (3, 7):
        engine_game(n, 10**6)  # warm the production/payment caches as a long session would
        print(f"{n} players: {rate(engine_game, n, seconds):7.1f} games/s (engine loop), "
              f"{rate(viewed_game, n, seconds):7.1f} (with every active view), "
              f"{rate(harness_game, n, seconds):7.1f} (play_game harness)")


if __name__ == "__main__":
    main()
