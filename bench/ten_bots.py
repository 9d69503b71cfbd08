"""Heuristic Ten bot against two random bots: win rate over N seeded 3-player games.

Usage: .venv/bin/python bench/ten_bots.py [N] (default 1000). The heuristic seat rotates
(game i puts it at seat i % 3). A shared win counts in the first figure, not in the strict one.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.bots import play_game  # noqa: E402
from engine.ten import GAME  # noqa: E402


def main(n_games: int) -> None:
    wins = strict = 0
    own = best_other = 0
    start = time.perf_counter()
    for game in range(n_games):
        seat = game % 3
        kinds = ["random"] * 3
        kinds[seat] = "heuristic"
        result = play_game(GAME, 3, f"ten-bots-{game}", kinds).result
        wins += seat in result.winners
        strict += result.winners == (seat,)
        own += result.scores[seat]
        best_other += max(s for i, s in enumerate(result.scores) if i != seat)
    took = time.perf_counter() - start
    print(f"heuristic vs 2 random, 3 players, {n_games} games ({took:.1f} s)")
    print(f"  wins incl. shared: {wins}/{n_games} = {100 * wins / n_games:.1f}%")
    print(f"  strict wins:       {strict}/{n_games} = {100 * strict / n_games:.1f}%")
    print(f"  mean score: heuristic {own / n_games:.1f}, best random {best_other / n_games:.1f}")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 1000)
