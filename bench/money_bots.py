"""Heuristic Money! bot against three random bots: win rate over N seeded 4-player games.

Usage: .venv/bin/python bench/money_bots.py [N] (default 1000). The heuristic seat rotates
(game i puts it at seat i % 4). A shared win counts in the first figure, not in the strict one.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.bots import play_game  # noqa: E402
from engine.money import GAME  # noqa: E402


def main(n_games: int) -> None:
    wins = strict = unfinished = 0
    margin = 0
    start = time.perf_counter()
    for game in range(n_games):
        seat = game % 4
        kinds = ["random"] * 4
        kinds[seat] = "heuristic"
        played = play_game(GAME, 4, f"money-bots-{game}", kinds)
        if played.result is None:
            unfinished += 1
            continue
        winners = played.result.winners
        wins += seat in winners
        strict += winners == (seat,)
        scores = played.result.scores
        margin += scores[seat] - max(s for i, s in enumerate(scores) if i != seat)
    took = time.perf_counter() - start
    print(f"heuristic vs 3 random, 4 players, {n_games} games ({took:.1f} s)")
    print(f"  wins incl. shared: {wins}/{n_games} = {100 * wins / n_games:.1f}%")
    print(f"  strict wins:       {strict}/{n_games} = {100 * strict / n_games:.1f}%")
    print(f"  mean margin over the best random bot: {margin / max(1, n_games - unfinished):.0f}")
    if unfinished:
        print(f"  stopped by the round cap: {unfinished}")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 1000)
