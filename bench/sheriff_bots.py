"""Heuristic Sheriff bot against three random bots: win rate over N seeded 4-player games.

Usage: .venv/bin/python bench/sheriff_bots.py [N]   (default 200; the README figure uses 1000)
The heuristic bot sits at seat (game number mod 4) so every seat, and every first Sheriff
position, is played equally often. A shared win counts as a win.
"""

from __future__ import annotations

import sys
import time

from engine.bots import play_game
from engine.registry import get_game


def main(n_games: int) -> None:
    game = get_game("sheriff")
    wins = 0
    margin = 0
    start = time.perf_counter()
    for k in range(n_games):
        seat = k % 4
        bots = ["random"] * 4
        bots[seat] = "heuristic"
        played = play_game(game, 4, f"sheriff-bots-{k}", bots)
        result = played.result
        if result is None:
            raise SystemExit(f"game {k} did not finish")
        wins += seat in result.winners
        others = [s for i, s in enumerate(result.scores) if i != seat]
        margin += result.scores[seat] - max(others)
    elapsed = time.perf_counter() - start
    print(f"sheriff heuristic vs 3 random, 4 players: won {wins}/{n_games} = "
          f"{100 * wins / n_games:.1f}% (mean lead over the best random {margin / n_games:+.1f} "
          f"points; {elapsed:.1f} s)")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 200)
