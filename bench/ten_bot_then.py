"""Ten's heuristic bot against itself as it was when its speed was first asked for (issue 25):
CPU per bot step (building the seat's view, then `choose`) of this checkout next to an older
commit's, run alternately in the same session, and whether both make the same decisions.

Usage: .venv/bin/python bench/ten_bot_then.py [--rev REV] [--games G] [--rounds R]

REV (default 89c6b63, the commit before the bot's first speed change) is checked out into a
temporary `git worktree`, removed at the end. Each round runs two fresh processes, the old
commit's engine and this one's, each playing G seeded 3-player games of three heuristic bots
(`--worker`). bench/ten_bots.py compares with a frozen copy of the old bot instead, which runs
today's engine around it, so changes to the shared view and scoring speed up both sides there.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve()
CHECKOUT = HERE.parent.parent
ISSUE_25_START = "89c6b63"
"""The commit before 0c286a2, the bot's first speed change: the bot the issue measured."""


def worker(n_games: int) -> dict:
    """G games with the engine found first on sys.path (the API every commit since the bot
    was written has): CPU in views and in `choose`, steps, and a digest of every decision.
    The loop is bench/ten_bots.py's, written out again on purpose: this one runs on the old
    commit's engine, and that module imports helpers (cache clearing, the frozen bot) it lacks."""
    from engine.bots.ten import TenBot
    from engine.core import Stream, seed_bytes
    from engine.ten import GAME

    clock = time.process_time
    started = clock()
    in_choose = in_view = 0.0
    steps = 0
    digest = hashlib.sha256()
    for game in range(n_games):
        seed = seed_bytes(f"ten-bot-timing-{game}")
        root = Stream(seed)
        bots = [TenBot(GAME, seat, root.fork(f"bot{seat}")) for seat in range(3)]
        state = GAME.setup(3, seed, None)
        while not GAME.is_over(state):
            chosen = {}
            for seat in sorted(GAME.active(state)):
                t0 = clock()
                view = GAME.view(state, seat)
                t1 = clock()
                chosen[seat] = bots[seat].choose(view, GAME.legal_actions(state, seat))
                in_choose += clock() - t1
                in_view += t1 - t0
            digest.update(repr(sorted(chosen.items())).encode())
            steps += 1
            state = GAME.apply(state, chosen)
    return {"choose": in_choose, "view": in_view, "steps": steps,
            "games_per_s": n_games / (clock() - started), "decisions": digest.hexdigest()}


def run_in(root: Path, n_games: int) -> dict:
    env = dict(os.environ, PYTHONHASHSEED="0", PYTHONPATH=str(root))
    out = subprocess.run([sys.executable, str(HERE), "--worker", str(root), "--games", str(n_games)],
                         env=env, check=True, capture_output=True, text=True).stdout
    return json.loads(out)


def per_step(r: dict) -> str:
    steps = r["steps"]
    return (f"step {1e6 * (r['choose'] + r['view']) / steps:6.1f} µs (view {1e6 * r['view'] / steps:5.1f},"
            f" choose {1e6 * r['choose'] / steps:5.1f}); {r['games_per_s']:5.1f} games/s")


def compare(rev: str, n_games: int, rounds: int) -> bool:
    with tempfile.TemporaryDirectory() as tmp:
        then = Path(tmp) / "then"
        subprocess.run(["git", "-C", str(CHECKOUT), "worktree", "add", "--detach", "-q", str(then), rev],
                       check=True)
        try:
            print(f"Ten, 3 heuristic bots, {n_games} seeded games a run; {rev} against this checkout")
            ratios, same = [], True
            for i in range(rounds):
                old, new = run_in(then, n_games), run_in(CHECKOUT, n_games)
                step = lambda r: (r["choose"] + r["view"]) / r["steps"]  # noqa: E731
                ratios.append(step(old) / step(new))
                same &= old["decisions"] == new["decisions"]
                print(f"  round {i + 1}: {rev:>8} {per_step(old)}")
                print(f"           {'now':>8} {per_step(new)}  -> {ratios[-1]:.2f}x")
        finally:
            subprocess.run(["git", "-C", str(CHECKOUT), "worktree", "remove", "--force", str(then)], check=True)
    print(f"  a bot step {statistics.median(ratios):.2f}x faster (median of {rounds}; "
          f"{min(ratios):.2f}-{max(ratios):.2f}x); identical decisions: {'yes' if same else 'NO'}")
    return same


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rev", default=ISSUE_25_START)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--worker", metavar="ROOT", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        sys.path.insert(0, args.worker)
        print(json.dumps(worker(args.games)))
    elif not compare(args.rev, args.games, args.rounds):
        raise SystemExit(1)
