"""Load: N concurrent 4-player Money! bot games through one mosquitto (embedded amqtt if absent).

Every seat is its own peer (own key, own signatures, full verification); the peers share a
pool of broker connections, placed so that the four seats of a game sit on four different
connections and every message really crosses the broker. For each N: wall time, games/s,
messages/s (published and delivered), desyncs (must be 0), deals verified by the end audit
(must be all). A game is checked as `gamenight selfplay --net` checks it (see `outcome`). The
largest N whose games all finish within the time limit is reported. Target: 500 concurrent games on a 2-core machine.

    .venv/bin/python bench/net_load.py [--games 50,100,200,500] [--procs 2] [--connections 16] [--limit 300]
                                       [--across bridge,cluster]

With --across, each size is played on one mosquitto first (the baseline), then on each fabric
named: `bridge` (two mosquittos bridged by configs/mosquitto-bridge.conf) and `cluster` (a
two-node RabbitMQ cluster, configs/rabbitmq/); every game's seats alternate between the two
brokers, so its messages cross the bridge or the cluster. Per-game cost (wall ms per game and
messages delivered per game) is printed next to the one broker's of the same run.

With --procs P the games of a round are split over P worker processes (each with its own
connections), so both cores work; the figures are the sums.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import logging
import subprocess
import sys
import time
from collections.abc import AsyncIterator
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.registry import get_game  # noqa: E402
from net.identity import Identity  # noqa: E402
from net.mqtt import MqttTransport  # noqa: E402
from net.session import host_game, join_game, new_gid  # noqa: E402
from tests.net.brokers import HAVE_MOSQUITTO, bridged_pair, running_broker  # noqa: E402
from tests.net.rabbit import HAVE_RABBITMQ, RabbitCluster  # noqa: E402

PLAYERS = 4
GAME = get_game("money")
OUTCOMES = ("ok", "desync", "unverified", "timeout")


async def one_game(transports: list[MqttTransport], index: int, timeout: float) -> tuple[str, list]:
    """Play one game whose seat s uses connection (index*4 + s) mod len(transports)."""
    gid = new_gid("money")
    conns = [transports[(index * PLAYERS + s) % len(transports)] for s in range(PLAYERS)]
    ids = [Identity.generate() for _ in range(PLAYERS)]
    # The end audit waits `reveal` seconds for every seat's audit, then names the missing ones.
    # Thousands of audits verified at once on two cores come later than a table's 30 s (500
    # games: 138 deals named "published no audit" in a 410 s round): a late audit is not a
    # missing one here, so the bench's tables wait as long as a round may take.
    table = {"reveal": max(30, min(int(timeout), 24 * 3600))}
    peers = [await host_game(GAME, conns[0], ids[0], players=PLAYERS, gid=gid, persist=False, bot="best",
                             name="B0", table=table)]
    for s in range(1, PLAYERS):
        peers.append(await join_game(conns[s], ids[s], gid, name=f"B{s}", persist=False, bot="best", game=GAME,
                                     timeout=timeout))
    for p in peers:
        p.stall_after = 60.0  # under load a slow step is not a lost message: no sync storms
    try:  # a dealt game's peer is done once the end audit has judged its deal
        await asyncio.wait_for(asyncio.gather(*(p.done.wait() for p in peers)), timeout)
    except TimeoutError:
        return "timeout", peers
    return outcome(peers), peers


def outcome(peers: list) -> str:
    """What the game came to, checked the way `gamenight selfplay --net` and the end audit
    check it: every peer at one state hash and none frozen; the deal verified by every peer's
    end audit; then the log, completed with the verified deal, replays with the plain engine
    to the same public view (a dealt game cannot be replayed from its seed alone: the seed
    does not tell the hands). "unverified": the audit named a seat (the reason is printed)."""
    lockstep = peers[0].lockstep
    if len({p.lockstep.hash for p in peers}) != 1 or any(p.lockstep.frozen for p in peers):
        return "desync"
    if lockstep.dealt and any(p.lockstep.deal_verdict != "verified" for p in peers):
        return "unverified"
    return "ok" if lockstep.replays() else "desync"


def unverified_reasons(outcomes: list[tuple[str, list]]) -> list[str]:
    """The end audits' verdicts of the games whose deal was not verified (a few, for the log)."""
    return sorted({str(p.lockstep.deal_verdict) for o, peers in outcomes if o == "unverified" for p in peers})[:5]


async def run(url: str, n: int, connections: int, limit: float) -> dict:
    """`url` may name several brokers (comma-separated): connection c goes to the c-th mod
    their number, so with an even number of connections a game's seats alternate brokers."""
    urls = url.split(",")
    transports = [MqttTransport(urls[c % len(urls)], keepalive=60) for c in range(connections)]
    for t in transports:
        await t.start(timeout=10)
    started = time.perf_counter()
    outcomes = await asyncio.gather(*(one_game(transports, i, limit) for i in range(n)))
    seconds = time.perf_counter() - started
    published = sum(p.sent for _, peers in outcomes for p in peers)
    delivered = sum(t.received for t in transports)
    for _, peers in outcomes:
        for p in peers:
            await p.stop(clean=False)
    for t in transports:
        await t.stop()
    counts = {k: sum(1 for o, _ in outcomes if o == k) for k in OUTCOMES}
    verified = sum(1 for _, peers in outcomes if peers[0].lockstep.deal_verdict == "verified")
    reasons = unverified_reasons(outcomes)
    gc.collect()
    return {"games": n, "seconds": seconds, "games_per_s": n / seconds, "published_per_s": published / seconds,
            "delivered_per_s": delivered / seconds, "verified": verified, "reasons": reasons, **counts}


async def worker(url: str, n: int, connections: int, limit: float) -> None:
    logging.getLogger("gamenight.net").setLevel(logging.ERROR)
    gc.set_threshold(50_000, 20, 100)  # many live objects: full collections only rarely
    print(json.dumps(await run(url, n, connections, limit)), flush=True)


def in_processes(url: str, n: int, procs: int, connections: int, limit: float) -> dict:
    shares = [n // procs + (1 if i < n % procs else 0) for i in range(procs)]
    started = time.perf_counter()
    children = [
        subprocess.Popen([sys.executable, __file__, "--worker", url, "--games", str(k),
                          "--connections", str(max(4, connections // procs)), "--limit", str(limit)],
                         stdout=subprocess.PIPE, text=True)
        for k in shares if k
    ]
    results = [json.loads(child.communicate()[0].strip().splitlines()[-1]) for child in children]
    seconds = time.perf_counter() - started
    total = {k: sum(r[k] for r in results) for k in (*OUTCOMES, "verified")}
    total["reasons"] = sorted({why for r in results for why in r["reasons"]})[:5]
    published = sum(r["published_per_s"] * r["seconds"] for r in results)
    delivered = sum(r["delivered_per_s"] * r["seconds"] for r in results)
    return {"games": n, "seconds": seconds, "games_per_s": n / seconds, "published_per_s": published / seconds,
            "delivered_per_s": delivered / seconds, **total}


async def one_round(url: str, n: int, procs: int, connections: int, limit: float) -> dict:
    if procs > 1:
        r = await asyncio.to_thread(in_processes, url, n, procs, connections, limit)
    else:
        r = await run(url, n, connections, limit)
    print(f"{n:>5} concurrent games: {r['seconds']:7.1f} s, {r['games_per_s']:6.2f} games/s, "
          f"{r['published_per_s']:8.0f} msg/s published, {r['delivered_per_s']:8.0f} msg/s delivered, "
          f"desyncs {r['desync']}, unfinished {r['timeout']}, deals verified {r['verified']}/{n}"
          f"{', not verified ' + str(r['unverified']) if r['unverified'] else ''}", flush=True)
    for why in r["reasons"]:
        print(f"      a deal not verified: {why}", flush=True)
    return r


@contextlib.asynccontextmanager
async def fabric(kind: str) -> AsyncIterator[str]:
    """The broker URL(s), comma-separated, of "one" broker, the "bridge" pair or the "cluster"."""
    if kind == "one":
        async with running_broker("mosquitto" if HAVE_MOSQUITTO else "amqtt") as url:
            yield url
    elif kind == "bridge":
        async with bridged_pair() as (a, b):
            yield f"{a.url},{b.url}"
    else:
        nodes = RabbitCluster()
        try:
            await nodes.start()
            yield ",".join(nodes.urls)
        finally:
            await nodes.stop()


def per_game(r: dict) -> tuple[float, float]:
    """(wall ms, messages delivered) per game of a round."""
    return 1000 * r["seconds"] / r["games"], r["delivered_per_s"] * r["seconds"] / r["games"]


async def main(sizes: list[int], procs: int, connections: int, limit: float, across: list[str]) -> None:
    logging.getLogger("gamenight.net").setLevel(logging.ERROR)
    kinds = ["one", *across]
    best = dict.fromkeys(kinds, 0)
    baseline: dict[int, dict] = {}
    for kind in kinds:
        async with fabric(kind) as url:
            print(f"{kind}: {url}; {procs} process(es), {connections} client connections; "
                  f"4 peers per game, each its own key", flush=True)
            for n in sizes:
                r = await one_round(url, n, procs, connections, limit)
                if kind == "one":
                    baseline[n] = r
                elif n in baseline:
                    (ms, msgs), (ms1, msgs1) = per_game(r), per_game(baseline[n])
                    print(f"      per game: {ms:.0f} ms wall, {msgs:.0f} messages delivered "
                          f"(one broker, same run: {ms1:.0f} ms, {msgs1:.0f} messages)", flush=True)
                if r["ok"] != n:
                    break
                best[kind] = n
    for kind in kinds:
        print(f"{kind}: largest N reached (all finished, 0 desyncs, every deal verified): {best[kind]}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", default="50,100,200,500")
    parser.add_argument("--procs", type=int, default=2)
    parser.add_argument("--connections", type=int, default=16)
    parser.add_argument("--limit", type=float, default=600.0, help="seconds a round may take")
    parser.add_argument("--across", default="", help="also play on: bridge, cluster (comma-separated)")
    parser.add_argument("--worker", metavar="URL", help=argparse.SUPPRESS)
    args = parser.parse_args()
    across = [k for k in args.across.split(",") if k]
    unknown = [k for k in across if k not in ("bridge", "cluster")]
    if unknown:
        parser.error(f"--across: unknown {', '.join(unknown)} (choose bridge, cluster)")
    if "bridge" in across and not HAVE_MOSQUITTO:
        parser.error("--across bridge needs mosquitto")
    if "cluster" in across and not HAVE_RABBITMQ:
        parser.error("--across cluster needs rabbitmq-server")
    if across and args.connections % 2:
        parser.error("--connections must be even (a game's seats alternate between two brokers)")
    if args.worker:
        asyncio.run(worker(args.worker, int(args.games), args.connections, args.limit))
    else:
        asyncio.run(main([int(x) for x in args.games.split(",")], args.procs, args.connections, args.limit, across))
