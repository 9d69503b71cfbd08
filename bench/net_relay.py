"""A relay's memory and open files over many archived games (it must forget finished ones).

Plays GAMES 2-player Money! games one after another through a relay: each game's host runs in
this process and asks the relay for one bot, so every game costs the relay a watcher, a bot,
their connections and an archive log. After a warm-up and every STEP games it prints, for each
process apart: the relay's resident memory (VmRSS; with --trim also after glibc's malloc_trim,
which separates free-but-kept heap pages from memory in use), the bytes Python has allocated
there (tracemalloc, with --trace), its open files, tasks and what it holds per game; the
broker's VmRSS when it is a process of its own (--broker mosquitto); the hosts' VmRSS when the
relay runs in a child process (--relay-process). At the end: the growth per game after the
warm-up as a least-squares slope over those points (bounded caches fill during the warm-up:
make it long enough), and the live objects by type (and with --trace the allocations by place)
that grew in the relay's process since the warm-up. Figures only, no asserts. With --parallel K
the hosts play K games at once; every host here has the same key, and a relay watches at most
`RelayLimits.live_per_key` (4) unfinished games of one key, so K above 4 leaves the fifth game
waiting for its bot (the bench gives up on it after 120 s).

    .venv/bin/python bench/net_relay.py [--games 300] [--step 50] [--warmup 20] [--parallel 1]
        [--broker embedded|mosquitto] [--relay-process] [--trace [--frames N]] [--trim]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.relay_probe import MB, RelayProbe, malloc_trim, rss_bytes  # noqa: E402


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


# ---- the relay, here or in a child process ---------------------------------------------------
class LocalRelay:
    """The relay in this process (with the hosts: its RSS is then theirs too)."""

    def __init__(self, args: argparse.Namespace, url: str, home: Path) -> None:
        from net.launch import BrokerSettings
        from net.relay import Relay

        os.environ["GAMENIGHT_HOME"] = str(home)
        settings = BrokerSettings(port=0) if url == "embedded" else BrokerSettings(broker=url)
        self.relay = Relay(settings, max_bots=4, archive=home / "archive")
        self.args = args

    async def start(self) -> str:
        await self.relay.start()
        self.probe = RelayProbe(self.relay, self.args.trace, self.args.trim, self.args.frames)
        return self.relay.url

    async def ask(self, command: str) -> dict[str, Any]:
        return self.probe.command(command)

    async def stop(self) -> None:
        await self.relay.stop()


class ChildRelay:
    """The relay in a child process running `--serve`, asked for its figures over stdin/stdout."""

    def __init__(self, args: argparse.Namespace, url: str, home: Path) -> None:
        self.argv = [sys.executable, __file__, "--serve", url, "--home", str(home), "--frames", str(args.frames)]
        self.argv += ["--trace"] * args.trace + ["--trim"] * args.trim

    async def start(self) -> str:
        self.proc = await asyncio.create_subprocess_exec(*self.argv, stdin=asyncio.subprocess.PIPE,
                                                         stdout=asyncio.subprocess.PIPE)
        return json.loads(await self._line())["url"]

    async def _line(self) -> str:
        assert self.proc.stdout is not None
        line = await self.proc.stdout.readline()
        if not line:
            raise RuntimeError("the relay's process ended")
        return line.decode()

    async def ask(self, command: str) -> dict[str, Any]:
        assert self.proc.stdin is not None
        self.proc.stdin.write(f"{command}\n".encode())
        await self.proc.stdin.drain()
        return json.loads(await self._line())

    async def stop(self) -> None:
        await self.ask("stop")
        await self.proc.wait()


async def serve(url: str, home: Path, args: argparse.Namespace) -> None:
    """Child side of ChildRelay: run the relay, answer one JSON line per command line."""
    relay = LocalRelay(args, url, home)
    print(json.dumps({"url": await relay.start()}), flush=True)
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader()
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
    try:
        while line := (await reader.readline()).decode().strip():
            if line == "stop":
                break
            print(json.dumps(await relay.ask(line)), flush=True)
    finally:
        await relay.stop()
    print(json.dumps({}), flush=True)


# ---- the run -------------------------------------------------------------------------------
class Series:
    """Points (games, bytes) of each figure after the warm-up, and their slopes."""

    def __init__(self) -> None:
        self.points: dict[str, list[tuple[int, float]]] = {}

    def add(self, n: int, figures: dict[str, float]) -> None:
        for name, value in figures.items():
            self.points.setdefault(name, []).append((n, value))

    def report(self, since: int) -> str:
        parts, count = [], 0
        for name, points in self.points.items():
            later = [p for p in points if p[0] >= since]
            count = len(later)
            if count > 1:
                parts.append(f"{name} {slope(later):+.1f}/game ({later[0][1]:.0f} -> {later[-1][1]:.0f})"
                             if "blocks" in name else
                             f"{name} {slope(later):+.0f} B/game ({later[0][1] / MB:.1f} -> {later[-1][1] / MB:.1f} MB)")
        return f"from game {since} ({count} points): " + "; ".join(parts)


class MosquittoWatch:
    """The external broker's VmRSS, and its own count of the heap it uses ($SYS/broker/heap/current,
    published every `sys_interval` s): what the broker holds, apart from the relay's process."""

    def __init__(self, pid: int, url: str) -> None:
        self.pid, self.url, self.heap = pid, url, 0

    async def start(self) -> None:
        from net.mqtt import MqttTransport

        self.transport = MqttTransport(self.url)
        await self.transport.start()
        await self.transport.subscribe("$SYS/broker/heap/current", self._on_heap)

    def _on_heap(self, topic: str, payload: bytes, retained: bool) -> None:
        if payload.isdigit():
            self.heap = int(payload)

    def figures(self) -> dict[str, float]:
        return {"broker RSS": rss_bytes(self.pid), **({"broker heap": self.heap} if self.heap else {})}

    async def stop(self) -> None:
        await self.transport.stop()


async def measure(relay: LocalRelay | ChildRelay, broker: MosquittoWatch | None, split: bool, trim: bool
                  ) -> tuple[dict[str, float], str]:
    await asyncio.sleep(1.5)  # the relay forgets a game a second after its end
    got = await relay.ask("measure")
    figures = {"relay RSS": got["rss"]}
    if "rss_trimmed" in got:
        figures["relay RSS trimmed"] = got["rss_trimmed"]
    figures["relay malloc"] = got["malloc"]
    figures["relay pymalloc blocks"] = got["pymalloc"]
    if "traced" in got:
        figures["relay heap"] = got["traced"]
        figures["relay tracemalloc's own"] = got["trace overhead"]
    if broker is not None:
        figures.update(broker.figures())
    if split:
        if trim:
            malloc_trim()
        figures["hosts RSS"] = rss_bytes()
    line = ", ".join(f"{k} {v / MB:.1f} MB" if "blocks" not in k else f"{k} {v:.0f}" for k, v in figures.items())
    return figures, f"{line}; fds {got['fds']}, tasks {got['tasks']}; {got['holdings']}"


async def play(args: argparse.Namespace, url: str, broker: MosquittoWatch | None) -> None:
    home = Path(tempfile.mkdtemp(prefix="gn-relay-bench-"))
    relay = ChildRelay(args, url, home / "relay") if args.relay_process else LocalRelay(args, url, home)
    os.environ["GAMENIGHT_HOME"] = str(home)
    relay_url = await relay.start()
    series, finished, start = Series(), 0, time.perf_counter()
    n = 0
    try:
        while n < args.games:
            k = min(args.parallel, args.games - n)  # games at once: the relay archives them alike
            finished += sum(await asyncio.gather(*(one_game(relay_url) for _ in range(k))))
            before, n = n, n + k
            stepped = n // args.step > before // args.step
            out_of_time = args.minutes and time.perf_counter() - start > args.minutes * 60 and stepped
            if before < args.warmup <= n or (stepped and n > args.warmup) or n == args.games or out_of_time:
                figures, line = await measure(relay, broker, args.relay_process, args.trim)
                print(f"after {n:5d} games ({time.perf_counter() - start:5.0f} s): {line}", flush=True)
                if before < args.warmup <= n:
                    await relay.ask("baseline")
                if n >= args.warmup:
                    series.add(n, figures)
                if out_of_time:
                    break
        grown = await relay.ask("diff")
    finally:
        await relay.stop()
    print(f"{finished}/{n} games finished in {time.perf_counter() - start:.0f} s; broker {args.broker}, "
          f"relay {'in its own process' if args.relay_process else 'in the hosts process'}")
    print(series.report(args.warmup))
    points = series.points.get("relay RSS", [])
    if len(points) > 3:
        print(series.report(points[len(points) // 2][0]))
    for name in ("types", "places"):
        for row in grown.get(name, []):
            print(f"  grown {name}: {row}")


async def main(args: argparse.Namespace) -> None:
    if args.broker == "embedded":
        await play(args, "embedded", None)
        return
    from tests.net.brokers import Mosquitto

    mosquitto = Mosquitto(extra="sys_interval 2\n")
    await mosquitto.start()
    try:
        assert mosquitto.proc is not None
        watch = MosquittoWatch(mosquitto.proc.pid, mosquitto.url)
        await watch.start()
        try:
            await play(args, mosquitto.url, watch)
        finally:
            await watch.stop()
    finally:
        await mosquitto.stop()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--step", type=int, default=50)
    parser.add_argument("--parallel", type=int, default=1, help="games played at once (each its own host; at most 4)")
    parser.add_argument("--warmup", type=int, default=20)
    parser.add_argument("--broker", choices=("embedded", "mosquitto"), default="embedded")
    parser.add_argument("--relay-process", action="store_true", help="the relay in a child process")
    parser.add_argument("--trace", action="store_true", help="also count Python's allocations (slower)")
    parser.add_argument("--frames", type=int, default=1, help="with --trace: frames kept per allocation")
    parser.add_argument("--minutes", type=float, default=0, help="stop at the first step after so long")
    parser.add_argument("--trim", action="store_true", help="also RSS after malloc_trim (a diagnostic)")
    parser.add_argument("--serve", help=argparse.SUPPRESS)  # the child of --relay-process
    parser.add_argument("--home", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        asyncio.run(serve(args.serve, Path(args.home), args))
    else:
        asyncio.run(main(args))
