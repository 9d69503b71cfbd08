"""Complete 4-player Money! games per second with random bots on one core.

Usage: .venv/bin/python bench/money_speed.py [SECONDS] (default 5). CPU time of this process, so
the figure is per core even on a busy machine. Every action goes through
GAME.apply (which validates it) via the self-play harness, views and legal actions included.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.bots import play_game  # noqa: E402
from engine.money import GAME  # noqa: E402


def main(seconds: float) -> None:
    games = steps = rounds = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        played = play_game(GAME, 4, f"money-speed-{games}")
        games += 1
        steps += played.steps
        rounds += played.state.round_no
    took = time.process_time() - start
    print(f"money: {games / took:.0f} complete 4-player random games/s "
          f"({steps / took:.0f} steps/s; a game averages {rounds / games:.0f} rounds, "
          f"{steps / games:.0f} steps)")


if __name__ == "__main__":
    main(float(sys.argv[1]) if len(sys.argv) > 1 else 5.0)
