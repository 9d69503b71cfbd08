"""What saving one step costs as a game grows: the appended record vs re-encoding the whole log.

Usage: .venv/bin/python bench/save_cost.py. A 4-player Money! game with random bots; at steps
1, 100, 200 and the last, CPU time to encode what a step's save writes. "append" is what
gamenight writes (tui/savefile.py: one checked record and the end record it replaces); "whole log" is the baseline, the format-1 save
that re-encoded every step so far at every step. Writing happens on the save thread either way.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import asyncio  # noqa: E402

from engine.core import canonical  # noqa: E402
from tui.local_table import LocalTable  # noqa: E402
from tui.savefile import SaveTail, Seating, save_bytes  # noqa: E402


def cost(encode, repeat: int = 200) -> float:
    """CPU microseconds for one call (best of three runs of `repeat` calls)."""
    best = float("inf")
    for _ in range(3):
        start = time.process_time()
        for _ in range(repeat):
            encode()
        best = min(best, (time.process_time() - start) / repeat)
    return best * 1e6


def main() -> None:
    table = LocalTable.new("money", 4, humans=0, seed="save-cost", bot_delay=0, bot_kind="random", save=False)
    asyncio.run(table.start())
    log = table.game_log
    seating = Seating(("A", "B", "C", "D"), (0,))
    last = len(log.steps)
    print(f"money 4p random game of {last} steps; CPU µs to encode one step's save")
    print(f"{'step':>6} {'append':>9} {'whole log':>10}")
    for k in (1, 100, 200, last):
        if k > last:
            continue
        upto = type(log)(log.game, log.n_players, log.seed, log.options, log.steps[:k])
        step = dict(log.steps[k - 1])
        tail = SaveTail()
        save_bytes(upto, seating, "1", tail)  # where the checks stand after k steps
        appended = cost(lambda step=step, tail=tail: tail.append(step))
        whole = cost(lambda upto=upto: canonical({"log": upto, "names": list(seating.names)}), repeat=20)
        print(f"{k:>6} {appended:>8.1f} {whole:>10.1f}")
    print(f"(a new game's whole save, once: {cost(lambda: save_bytes(upto, seating, '1'), 5):.0f} µs)")


if __name__ == "__main__":
    main()
