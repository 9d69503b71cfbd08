"""Complete random 4-player Sheriff games per second on one core.

Usage: .venv/bin/python bench/sheriff_speed.py [CPU_SECONDS]   (default 3)
The self-play harness with random bots (what `gamenight selfplay sheriff --bots random` runs):
every action is drawn uniformly from `legal_actions` and goes through `GAME.apply`, which
validates it. Random bots never read a view, so none is built (a screen or a heuristic bot
pays for its views separately).
"""

from __future__ import annotations

import sys
import time

from engine.bots import play_game
from engine.registry import get_game


def play(game, seed: int) -> int:
    played = play_game(game, 4, seed.to_bytes(8, "big"), "random")
    assert played.result is not None
    return played.steps


def main(seconds: float) -> None:
    game = get_game("sheriff")
    play(game, 0)  # warm the card-data caches
    games = steps = 0
    wall, cpu = time.perf_counter(), time.process_time()
    while time.process_time() - cpu < seconds:
        steps += play(game, games + 1)
        games += 1
    cpu = time.process_time() - cpu
    wall = time.perf_counter() - wall
    # CPU time of this process: the figure for one core even when other jobs share the machine
    print(f"sheriff selfplay, 4 random players: {games / cpu:.0f} games/s per CPU second "
          f"({games} games, {steps / games:.0f} steps/game, {steps / cpu:.0f} steps/s; "
          f"wall clock {games / wall:.0f} games/s)")


if __name__ == "__main__":
    main(float(sys.argv[1]) if len(sys.argv) > 1 else 3.0)
