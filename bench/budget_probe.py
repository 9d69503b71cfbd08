"""Where a hard bot's decision on the clock spends its time (issue 22 item 6: no hard decision
over its budget): `bench/bot_strength.py --bot-time` gives the worst wall time; this shows,
for the worst decisions, whether the time went to work (its CPU time equals the wall time) or
to the scheduler, and the longest gap between two reads of the budget's clock.

Usage: .venv/bin/python bench/budget_probe.py [--game ID] [--games N] [--first I] [--bot-time S]

Plays the games of `bot_strength.py --match hard:normal` (same seeds, the hard seat rotated)
and prints the worst decisions: wall and thread CPU time, the longest gap and rollout, the
clock reads, and the time the cyclic collector ran inside the decision.
"""

from __future__ import annotations

import argparse
import gc
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import bench.bot_strength as strength  # noqa: E402
import net.bot_time as bot_time  # noqa: E402

_last: dict[str, Probe] = {}


class Probe(bot_time.Deadline):
    """The budget, counting the reads of its clock."""

    def __init__(self, seconds: float) -> None:
        super().__init__(seconds)
        self.reads = 0
        _last["budget"] = self

    def _read(self) -> float:
        self.reads += 1
        return super()._read()


class CollectorClock:
    """Seconds the cyclic collector has run (gc.callbacks)."""

    def __init__(self) -> None:
        self.total, self.started = 0.0, 0.0
        gc.callbacks.append(self)

    def __call__(self, phase: str, info: dict) -> None:
        if phase == "start":
            self.started = time.perf_counter()
        else:
            self.total += time.perf_counter() - self.started


_collector = CollectorClock()
_decisions: list[tuple] = []


class Probed(strength.Timed):
    """`bot_strength`'s timed bot, also recording each budgeted decision's figures."""

    def choose(self, view, actions):
        _last.clear()
        collected = _collector.total
        wall, cpu = time.perf_counter(), time.thread_time()
        action = self.bot.choose(view, actions)
        wall, cpu = time.perf_counter() - wall, time.thread_time() - cpu
        budget = _last.get("budget")
        if budget is not None:
            _decisions.append((wall, cpu, budget.longest_gap, budget.longest_rollout, budget.reads,
                               _collector.total - collected))
        return action


def probe(game_id: str, games: range, seconds: float) -> list[tuple]:
    """(wall, game, cpu, longest gap, longest rollout, clock reads, collector time) of every
    hard decision of games `games` of `bot_strength`'s hard:normal match."""
    bot_time.Deadline = Probe  # give_time makes its budgets from the module's name
    strength.Timed = Probed
    out = []
    for i in games:
        _decisions.clear()
        strength.one_game(game_id, "hard", "normal", i, strength.UNBOUNDED, seconds)
        out.extend((wall, i, *rest) for wall, *rest in _decisions)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="money", choices=sorted(strength.TABLES))
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--first", type=int, default=0, help="the first game's number")
    parser.add_argument("--bot-time", type=float, default=0.1)
    parser.add_argument("--worst", type=int, default=8, help="decisions to print")
    args = parser.parse_args()
    start = time.perf_counter()
    decisions = probe(args.game, range(args.first, args.first + args.games), args.bot_time)
    decisions.sort(key=lambda d: d[0], reverse=True)
    print(f"{args.game}: games {args.first}..{args.first + args.games - 1}, {len(decisions)} hard "
          f"decisions at {1e3 * args.bot_time:.0f} ms, {time.perf_counter() - start:.0f} s; the worst:")
    for wall, i, cpu, gap, rollout, reads, collected in decisions[:args.worst]:
        print(f"  wall {1e3 * wall:6.1f} ms  cpu {1e3 * cpu:6.1f}  game {i:4}  longest gap {1e3 * gap:5.1f}"
              f"  longest rollout {1e3 * rollout:5.1f}  clock reads {reads:5}  collector {1e3 * collected:4.1f}")


if __name__ == "__main__":
    main()
