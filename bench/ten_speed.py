"""Complete 3-player Ten games per second with random bots on one core.

Usage: .venv/bin/python bench/ten_speed.py [SECONDS] (default 5). Every action goes through
GAME.apply (which validates it). Time is this process's CPU time, so the figure is per core
even on a busy machine. Two figures: the self-play harness with random bots (legal actions, a
uniform random choice, apply; a random bot needs no view) and a loop that also builds the
acting seat's view at every step (what a screen or a view-reading bot adds).
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.bots import play_game  # noqa: E402
from engine.core import Stream, pick_uniform, seed_bytes  # noqa: E402
from engine.ten import GAME  # noqa: E402


def engine_loop(seconds: float, with_views: bool = False) -> tuple[int, int, float]:
    """The self-play harness with random bots (what `gamenight selfplay ten --bots random`
    runs), or with the acting seat's view built at every step as a screen would."""
    games = steps = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        seed = seed_bytes(f"ten-speed-{games}")
        if with_views:
            steps += _with_views(seed)
        else:
            played = play_game(GAME, 3, seed, "random")
            steps += played.steps
        games += 1
    return games, steps, time.process_time() - start


def _with_views(seed: bytes) -> int:
    rng = Stream(seed)
    state = GAME.setup(3, seed)
    steps = 0
    while not GAME.is_over(state):
        (seat,) = GAME.active(state)
        GAME.view(state, seat)
        state = GAME.apply(state, {seat: pick_uniform(GAME.legal_actions(state, seat), rng)})
        steps += 1
    GAME.result(state)
    return steps


def main(seconds: float) -> None:
    games, steps, took = engine_loop(seconds)
    print(f"ten: {games / took:.0f} complete 3-player random games/s "
          f"({steps / took:.0f} steps/s, {steps / games:.0f} steps a game; self-play harness)")
    games, steps, took = engine_loop(seconds, with_views=True)
    print(f"ten: {games / took:.0f} games/s with the acting seat's view built every step")


if __name__ == "__main__":
    main(float(sys.argv[1]) if len(sys.argv) > 1 else 5.0)
