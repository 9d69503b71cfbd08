"""A relay's memory and open files over many archived games (it must forget finished ones).

Plays GAMES 2-player Money! games one after another through an in-process relay with its
embedded broker: each game's host runs here too and asks the relay for one bot, so every game
costs the relay a watcher, a bot, their connections and an archive log. Prints the process's
resident memory (VmRSS), the bytes Python has allocated (tracemalloc, with --trace), open file
descriptors and what the relay and its broker hold per game (retained messages, subscription
filters, the verification cache) after a warm-up and every STEP games, and the growth per game
after the warm-up as a least-squares slope over those points (bounded caches fill during the
warm-up: make it long enough). The host and its bot run in this process too, so the figures
bound the relay's from above. Figures only, no asserts.

    .venv/bin/python bench/net_relay.py [--games 300] [--step 50] [--warmup 20] [--trace]
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import os
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def open_fds() -> int:
    return len(os.listdir("/proc/self/fd"))


async def one_game(relay_url: str) -> bool:
    from net.launch import BrokerSettings, host_session

    session = await host_session("money", players=2, relay_bots=1, host_bot="random", name="Host",
                                 settings=BrokerSettings(broker=relay_url), persist=False)
    try:
        await asyncio.wait_for(session.peer.done.wait(), 120)
        return session.peer.lockstep.phase == "over"
    finally:
        await session.close()


def slope(points: list[tuple[int, float]]) -> float:
    """Least-squares growth per game of (games, amount) points."""
    n = len(points)
    mean_x = sum(x for x, _ in points) / n
    mean_y = sum(y for _, y in points) / n
    spread = sum((x - mean_x) ** 2 for x, _ in points)
    return sum((x - mean_x) * (y - mean_y) for x, y in points) / spread if spread else 0.0


def holdings(relay) -> str:
    """What the relay and its broker hold that could grow with archived games."""
    from net.codec import verified_cache_bytes

    broker = relay.broker
    return (f"watchers {len(relay.watchers)}, bots {relay.bots_running}, loaded {len(relay._loaded)}, "
            f"retained {broker.retained_count() if broker else '-'}, "
            f"filters {broker.subscription_count() if broker else '-'}, "
            f"verified cache {verified_cache_bytes() // 1024} KB")


async def main(games: int, step: int, warmup: int, trace: bool) -> None:
    from net.launch import BrokerSettings
    from net.relay import Relay

    home = Path(tempfile.mkdtemp(prefix="gn-relay-bench-"))
    os.environ["GAMENIGHT_HOME"] = str(home)
    relay = Relay(BrokerSettings(port=0), max_bots=4, archive=home / "archive")
    await relay.start()
    if trace:
        tracemalloc.start(1)
    finished = 0
    start = time.perf_counter()
    rss_points: list[tuple[int, float]] = []
    traced_points: list[tuple[int, float]] = []
    fds_at_warmup = 0
    try:
        for n in range(1, games + 1):
            finished += await one_game(relay.url)
            if n == warmup or n % step == 0 or n == games:
                await asyncio.sleep(1.5)  # the relay forgets a game a second after its end
                if relay.broker is not None:
                    relay.broker.prune()  # as it does every PRUNE_EVERY seconds
                gc.collect()
                rss, fds = rss_mb(), open_fds()
                traced = tracemalloc.get_traced_memory()[0] if trace else 0
                if n == warmup:
                    fds_at_warmup = fds
                if n >= warmup:
                    rss_points.append((n, rss * 1024 * 1024))
                    traced_points.append((n, traced))
                print(f"after {n:5d} games: RSS {rss:7.1f} MB, traced {traced / 2**20:6.1f} MB, open fds "
                      f"{fds:3d}, forgotten {relay.forgotten}; {holdings(relay)}", flush=True)
    finally:
        await relay.stop()
    if len(rss_points) > 1:
        traced_slope = f", traced {slope(traced_points):+.0f} B per game" if trace else ""
        print(f"{finished}/{games} games finished in {time.perf_counter() - start:.0f} s; from game {warmup} "
              f"to {games}: RSS {slope(rss_points):+.0f} B per game{traced_slope} (least squares over "
              f"{len(rss_points)} points); open fds {fds_at_warmup} -> {open_fds()} (relay stopped)")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--step", type=int, default=50)
    parser.add_argument("--warmup", type=int, default=20)
    parser.add_argument("--trace", action="store_true", help="also count Python's allocations (slower)")
    args = parser.parse_args()
    asyncio.run(main(args.games, args.step, args.warmup, args.trace))
