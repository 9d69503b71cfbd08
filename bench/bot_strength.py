"""Bot strength table: one bot of a level against bots of the level below, seats rotated.

Usage: .venv/bin/python bench/bot_strength.py [--games N] [--rollouts R] [--game ID ...]
                                             [--match hard:normal ...] [--workers W]
                                             [--bot-time S]

For each game (Money! 4p, Ten 3p, 7 Wonders 3p, Sheriff 4p) and each match "A:B", game i puts
one A bot at seat i % n and B bots elsewhere; the A seat's win share (a shared win counts
1/k) is printed against the fair share 1/n. Hard bots search with a node budget of R rollouts
per decision (reproducible; the 1 s time budget of real play is not used here), or with
`--bot-time S` as real play does: S seconds a decision on the clock (`net/bot_time.py`), the
node budget lifted, so the worst hard decision shows how closely the search keeps to its
budget. Also printed in the same run: the worst decision time per level, and random-bot vs
normal-bot games/s.
Targets (issue 22): hard vs normal >= 1.6x fair share (4p Money! 40 %, 3p Ten/7 Wonders 53 %),
normal beats easy, easy beats random.
"""

from __future__ import annotations

import argparse
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.bots import make_bot  # noqa: E402
from engine.core import Stream  # noqa: E402
from engine.registry import get_game  # noqa: E402
from net.bot_time import give_time  # noqa: E402

TABLES = {"money": 4, "ten": 3, "seven_wonders": 3, "sheriff": 4}
MATCHES = ("hard:normal", "normal:easy", "easy:random")


class Timed:
    """A bot whose decisions are timed (the worst one per level is the figure)."""

    def __init__(self, bot, worst: dict[str, float]) -> None:
        self.bot, self.worst = bot, worst
        self.level = "normal" if bot.kind == "heuristic" else bot.kind

    def choose(self, view, actions):
        start = time.perf_counter()
        action = self.bot.choose(view, actions)
        took = time.perf_counter() - start
        if took > self.worst.get(self.level, 0.0):
            self.worst[self.level] = took
        return action


UNBOUNDED = 1_000_000
"""Rollouts a decision with `--bot-time`: only the clock stops the search."""


def play(game, n: int, kinds: list[str], seed: str, rollouts: int, worst: dict[str, float],
         bot_time: float | None = None):
    root = Stream(seed.encode())
    bots = []
    for seat, kind in enumerate(kinds):
        bot = make_bot(game, seat, kind, root.fork(f"bot{seat}"))
        if hasattr(bot, "rollouts"):
            bot.rollouts = rollouts if bot_time is None else UNBOUNDED
        if bot_time is not None:
            give_time(bot, bot_time)
        bots.append(Timed(bot, worst))
    state = game.setup(n, seed.encode())
    for _ in range(10_000):
        active = game.active(state)
        if not active or game.stalemate(state):
            break
        state = game.apply(state, {s: bots[s].choose(game.view(state, s), game.legal_actions(state, s))
                                   for s in sorted(active)})
    return game.result(state) if game.is_over(state) else None


def one_game(game_id: str, strong: str, weak: str, i: int, rollouts: int,
             bot_time: float | None = None) -> tuple[float, dict[str, float]]:
    """Game i of a match: the strong seat's share of the win, and the worst decision per level."""
    game, n = get_game(game_id), TABLES[game_id]
    seat = i % n
    kinds = [weak] * n
    kinds[seat] = strong
    worst: dict[str, float] = {}
    result = play(game, n, kinds, f"strength-{game_id}-{i}", rollouts, worst, bot_time)
    won = 1 / len(result.winners) if result is not None and seat in result.winners else 0.0
    return won, worst


def match(game_id: str, strong: str, weak: str, games: int, rollouts: int, worst: dict[str, float],
          workers: int = 1, bot_time: float | None = None) -> str:
    """The strong seat's win share over games 0..games-1 (the same seeds however many workers
    play them: `--workers` only spreads the games over processes)."""
    n = TABLES[game_id]
    start = time.perf_counter()
    jobs = [(game_id, strong, weak, i, rollouts, bot_time) for i in range(games)]
    if workers > 1:
        with ProcessPoolExecutor(workers) as pool:
            outcomes = []
            for outcome in pool.map(one_game, *zip(*jobs, strict=True), chunksize=4):
                outcomes.append(outcome)
                if len(outcomes) % 100 == 0 and len(outcomes) < games:  # a long match's progress
                    so_far = sum(won for won, _ in outcomes) / len(outcomes)
                    print(f"  {game_id} after {len(outcomes)} games: {100 * so_far:.1f} %",
                          file=sys.stderr, flush=True)
    else:
        outcomes = [one_game(*job) for job in jobs]
    share = sum(won for won, _ in outcomes)
    for _, seen in outcomes:
        for level, took in seen.items():
            worst[level] = max(worst.get(level, 0.0), took)
    took = time.perf_counter() - start
    rate = share / games
    return (f"{game_id:14} {n}p  {strong:6} vs {weak:6}: {100 * rate:5.1f} % "
            f"(fair {100 / n:.1f} %, {rate * n:.2f}x)  {games} games, {took:.0f} s")


def speed(game_id: str, games: int) -> str:
    game, n = get_game(game_id), TABLES[game_id]
    rates = {}
    for kind in ("random", "normal"):
        start = time.perf_counter()
        for i in range(games):
            play(game, n, [kind] * n, f"speed-{game_id}-{i}", 0, {})
        rates[kind] = games / (time.perf_counter() - start)
    return (f"{game_id:14} {n}p  games/s random {rates['random']:.1f}, normal {rates['normal']:.1f} "
            f"(normal/random {rates['normal'] / rates['random']:.2f})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--rollouts", type=int, default=24, help="hard bots' rollouts per decision")
    parser.add_argument("--game", action="append", choices=sorted(TABLES))
    parser.add_argument("--match", action="append", help=f"strong:weak (default {', '.join(MATCHES)})")
    parser.add_argument("--speed-games", type=int, default=20)
    parser.add_argument("--workers", type=int, default=1,
                        help="processes to spread a match's games over (same seeds, same result)")
    parser.add_argument("--bot-time", type=float, help="hard bots search S seconds a decision "
                        "on the clock instead of R rollouts (as real play does)")
    args = parser.parse_args()
    worst: dict[str, float] = {}
    for game_id in args.game or ["money", "ten", "seven_wonders"]:
        for pair in args.match or MATCHES:
            strong, weak = pair.split(":")
            print(match(game_id, strong, weak, args.games, args.rollouts, worst, args.workers,
                        args.bot_time), flush=True)
        if args.speed_games:
            print(speed(game_id, args.speed_games), flush=True)
    budget = (f"{1000 * args.bot_time:.0f} ms a decision on the clock" if args.bot_time is not None
              else f"{args.rollouts} rollouts a decision")
    print("worst decision: " + ", ".join(f"{k} {1000 * v:.1f} ms" for k, v in sorted(worst.items()))
          + f" (hard: {budget})")


if __name__ == "__main__":
    main()
