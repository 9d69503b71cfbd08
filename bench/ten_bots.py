"""Heuristic Ten bot against two random bots: win rate over N seeded 3-player games; and what a
heuristic decision costs, this bot next to the bot before its caches, in the same run.

Usage: .venv/bin/python bench/ten_bots.py [N] [G] (defaults 1000, 60). The heuristic seat
rotates (game i puts it at seat i % 3). A shared win counts in the first figure, not in the
strict one. Timing: G seeded 3-player games of three heuristic bots, played once with the bot
before (tests/engine/ten/bot_before.py) and once with today's, each from cold caches; CPU time
in the bots' `choose` and in building their views, apart ("before" prices each view's
prospects as the view did before it priced them on the first read, and scores collections with
`best_total` before its caches: tests/engine/ten/scoring_before.py). Both must make the same
decisions.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import engine.bots.ten as ten_bot  # noqa: E402
import engine.bots.ten_values  # noqa: E402
import engine.ten.payment  # noqa: E402
import engine.ten.scoring  # noqa: E402
import engine.ten.view  # noqa: E402
from engine.bots import play_game  # noqa: E402
from engine.core import Stream, seed_bytes  # noqa: E402
from engine.ten import GAME  # noqa: E402
from tests.engine.ten.bot_before import TenBotBefore  # noqa: E402
from tests.engine.ten.scoring_before import best_total_before  # noqa: E402

CACHED_MODULES = (engine.bots.ten_values, engine.ten.scoring, engine.ten.view, engine.ten.payment)


def win_rate(n_games: int) -> None:
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


def clear_caches() -> None:
    """Empty every cache of Ten's rules, views and bot, so each timed pass starts cold."""
    for module in CACHED_MODULES:
        for item in vars(module).values():
            if hasattr(item, "cache_clear"):
                item.cache_clear()


def timed_games(
    bot_class: type, n_games: int, priced_view: bool = False
) -> tuple[float, float, int, list, float]:
    """(CPU s in choose, CPU s in views, decisions, every decision, CPU s in all) over n_games. With
    priced_view the view's prospects are read as soon as it is built: what every view cost
    before they were priced on the first read (engine/ten/state.py `PricedLater`)."""
    clear_caches()
    clock = time.process_time
    started = clock()
    in_choose = in_view = 0.0
    decisions: list = []
    for game in range(n_games):
        seed = seed_bytes(f"ten-bot-timing-{game}")
        root = Stream(seed)
        bots = [bot_class(GAME, seat, root.fork(f"bot{seat}")) for seat in range(3)]
        state = GAME.setup(3, seed, None)
        while not GAME.is_over(state):
            chosen = {}
            for seat in sorted(GAME.active(state)):
                t0 = clock()
                view = GAME.view(state, seat)
                if priced_view:
                    view.prospects  # noqa: B018 (reading it prices it)
                t1 = clock()
                chosen[seat] = bots[seat].choose(view, GAME.legal_actions(state, seat))
                in_choose += clock() - t1
                in_view += t1 - t0
            decisions.append(chosen)
            state = GAME.apply(state, chosen)
    return in_choose, in_view, len(decisions), decisions, clock() - started


def random_games_per_s(n_games: int) -> float:
    """Complete 3-player games of random bots a CPU second, on the same seeds (play_game)."""
    clear_caches()
    started = time.process_time()
    for game in range(n_games):
        play_game(GAME, 3, f"ten-bot-timing-{game}", ["random"] * 3)
    return n_games / (time.process_time() - started)


def timed_before(n_games: int) -> tuple[float, float, int, list, float]:
    """The bot before, each view priced at once, scored by `best_total` before its caches."""
    scoring = engine.ten.scoring
    best_total = scoring.best_total
    scoring.best_total = best_total_before  # collection_total reads it from the module
    try:
        return timed_games(TenBotBefore, n_games, priced_view=True)
    finally:
        scoring.best_total = best_total


def decision_cost(n_games: int) -> None:
    before = timed_before(n_games)
    best_total_before.cache_clear()
    now = timed_games(ten_bot.TenBot, n_games)
    print(f"3 heuristic bots, {n_games} games, {now[2]} steps; CPU per step, cold caches each")
    for name, (choose, view, steps, _, whole) in (("before", before), ("now", now)):
        print(f"  {name:>6}: choose {1e6 * choose / steps:8.1f} µs, view {1e6 * view / steps:8.1f} µs, "
              f"step {1e6 * (choose + view) / steps:8.1f} µs; {n_games / whole:6.1f} games/s")
    print(f"  random bots, same seeds: {random_games_per_s(n_games):6.1f} games/s")
    print(f"  choose {before[0] / now[0]:.1f}x faster; a bot step (view + choose) "
          f"{sum(before[:2]) / sum(now[:2]):.1f}x; games/s {before[4] / now[4]:.1f}x")
    print(f"  identical decisions: {'yes' if before[3] == now[3] else 'NO'}")
    if before[3] != now[3]:
        raise SystemExit(1)


if __name__ == "__main__":
    win_rate(int(sys.argv[1]) if len(sys.argv) > 1 else 1000)
    decision_cost(int(sys.argv[2]) if len(sys.argv) > 2 else 60)
