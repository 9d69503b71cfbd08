"""7 Wonders: heuristic bot vs two random bots, 3 players, over N seeded games.

The heuristic bot sits in seat (game index mod 3) so no seat is favoured; a shared win counts.
Usage: .venv/bin/python bench/seven_wonders_bots.py [N, default 1000]
"""

from __future__ import annotations

import sys
import time

from engine.bots.selfplay import play_game
from engine.seven_wonders import GAME


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    wins = 0
    points = 0
    start = time.perf_counter()
    for i in range(games):
        seat = i % 3
        bots = ["random"] * 3
        bots[seat] = "heuristic"
        played = play_game(GAME, 3, f"seven_wonders_bots/{i}", bots, {"wonder_side": "random"})
        wins += seat in played.result.winners
        points += played.result.scores[seat]
    elapsed = time.perf_counter() - start
    print(f"heuristic vs 2 random, 3 players: won {wins}/{games} = {100 * wins / games:.1f}% "
          f"(mean score {points / games:.1f}; {games / elapsed:.0f} games/s)")


if __name__ == "__main__":
    main()
