"""A relay's memory and open files over many archived games (it must forget finished ones).

Plays GAMES 2-player Money! games one after another through an in-process relay with its
embedded broker: each game's host runs here too and asks the relay for one bot, so every game
costs the relay a watcher, a bot, their connections and an archive log. Prints the process's
resident memory (VmRSS) and open file descriptors after a warm-up and every STEP games, and
the growth per game after the warm-up. Figures only, no asserts.

    .venv/bin/python bench/net_relay.py [--games 300] [--step 50]
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import os
import sys
import tempfile
import time
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


async def main(games: int, step: int, warmup: int) -> None:
    from net.launch import BrokerSettings
    from net.relay import Relay

    home = Path(tempfile.mkdtemp(prefix="gn-relay-bench-"))
    os.environ["GAMENIGHT_HOME"] = str(home)
    relay = Relay(BrokerSettings(port=0), max_bots=4, archive=home / "archive")
    await relay.start()
    finished = 0
    start = time.perf_counter()
    base: tuple[float, int] | None = None
    try:
        for n in range(1, games + 1):
            finished += await one_game(relay.url)
            if n == warmup or n % step == 0 or n == games:
                await asyncio.sleep(1.5)  # the relay forgets a game a second after its end
                gc.collect()
                rss, fds = rss_mb(), open_fds()
                if n == warmup:
                    base = (rss, fds)
                print(f"after {n:4d} games: RSS {rss:7.1f} MB, open fds {fds:3d}, watchers "
                      f"{len(relay.watchers)}, bots {relay.bots_running}, forgotten {getattr(relay, 'forgotten', '-')}",
                      flush=True)
    finally:
        await relay.stop()
    rss, fds = rss_mb(), open_fds()
    if base is not None and games > warmup:
        per_game = (rss - base[0]) / (games - warmup)
        print(f"{finished}/{games} games finished in {time.perf_counter() - start:.0f} s; after the "
              f"{warmup}-game warm-up: {per_game * 1024:+.1f} KB RSS per game, open fds "
              f"{base[1]} -> {fds} (relay stopped)")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--step", type=int, default=50)
    parser.add_argument("--warmup", type=int, default=20)
    args = parser.parse_args()
    asyncio.run(main(args.games, args.step, args.warmup))
