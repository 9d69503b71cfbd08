"""Does a real host get a relay's bots while fake tables from throwaway keys flood it?

One relay with 8 bots: its embedded broker, a fresh mosquitto on loopback (`--broker
mosquitto`), or a broker at `--broker URL`. A real host
(Money!, 3 seats, 2 of them relay bots) is timed from hosting to the game's first step
(`play`: both bots seated, running and through the seed agreement): first with no flood (the
baseline, same run), then after FAKES fake hosts, each a fresh key asking for 2 relay bots:

- lobby: 4-seat tables that never fill, so they never start;
- stall: 3-seat tables that start (the bots' seats fill them) but whose host never sends its
  seed commitment;
- commit-stall: as stall, but the host commits and then never reveals (it has played its
  part of a step, so it gets bots; they are reclaimed once it is idle for `idle_seconds`).

The fakes run in a second process (the attacker's machine), the relay and the real host in
this one. Also prints the relay's resident memory and open files before and after each
flood. Figures only, no asserts. Runs against whatever `net/relay.py` is on its path (the old one included:
copy this file into an older tree to compare).

    .venv/bin/python bench/relay_bots.py [--fakes 100] [--variants lobby,stall,commit-stall]
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.relay_probe import MB, open_fds, rss_bytes  # noqa: E402

VARIANTS = {"lobby": (4, None), "stall": (3, b"seed_commit"), "commit-stall": (3, b"seed_reveal")}


async def time_to_bots(url: str, timeout: float) -> float | None:
    """Seconds from hosting to the first step with both relay bots playing (None: timed out)."""
    from net.launch import BrokerSettings, host_session

    began = time.perf_counter()
    session = await host_session("money", players=3, relay_bots=2, host_bot="random", name="Real host",
                                 settings=BrokerSettings(broker=url), persist=False)
    try:
        ls = session.peer.lockstep
        while ls.phase not in ("play", "over"):
            if time.perf_counter() - began > timeout:
                return None
            await asyncio.sleep(0.02)
        return time.perf_counter() - began
    finally:
        await session.close()


async def flood(url: str, fakes: int, variant: str) -> None:
    """`fakes` fake hosts from fresh keys on one connection, until stdin closes (a child process)."""
    from engine.registry import get_game
    from net.identity import Identity
    from net.launch import connect
    from net.session import host_game

    players, withheld = VARIANTS[variant]
    transport = await connect(url)
    if withheld is not None:  # the fakes keep what they would have to send to go on
        publish_now, publish = transport.publish_now, transport.publish

        def held_now(topic, payload, qos=1, retain=False):
            return True if withheld in payload else publish_now(topic, payload, qos, retain)

        async def held(topic, payload, qos=1, retain=False):
            if withheld not in payload:
                await publish(topic, payload, qos, retain)

        transport.publish_now, transport.publish = held_now, held
    for i in range(fakes):
        await host_game(get_game("money"), transport, Identity.generate(), players=players, persist=False,
                        name=f"Fake {i}", relay_bots=2, invite=True)
    print("ready", flush=True)
    await asyncio.get_running_loop().run_in_executor(None, sys.stdin.read)


async def attacker(url: str, fakes: int, variant: str) -> asyncio.subprocess.Process:
    """The flood in its own process; returns once every fake table is announced."""
    child = await asyncio.create_subprocess_exec(
        sys.executable, __file__, "--attack", url, "--fakes", str(fakes), "--variants", variant,
        stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.DEVNULL)
    assert child.stdout is not None
    await child.stdout.readline()
    return child


def shown(seconds: float | None, timeout: float) -> str:
    return f"{seconds:6.2f} s" if seconds is not None else f"none within {timeout:.0f} s"


async def main(args: argparse.Namespace) -> None:
    if args.broker != "mosquitto":
        await measure(args, args.broker)
        return
    from tests.net.brokers import running_broker

    async with running_broker("mosquitto") as url:
        await measure(args, url)


async def measure(args: argparse.Namespace, broker: str) -> None:
    from net.launch import BrokerSettings
    from net.relay import Relay
    from net.relay_limits import RelayLimits

    home = Path(tempfile.mkdtemp(prefix="gn-relay-bots-"))
    os.environ["GAMENIGHT_HOME"] = str(home)
    limits = RelayLimits()
    if "idle_seconds" in {f.name for f in dataclasses.fields(RelayLimits)}:
        limits = dataclasses.replace(limits, idle_seconds=args.idle)
    if args.setup_wait is not None:
        limits = dataclasses.replace(limits, setup_wait=args.setup_wait)
    settings = BrokerSettings(port=0) if broker == "embedded" else BrokerSettings(broker=broker)
    relay = Relay(settings, max_bots=8, archive=home / "archive", limits=limits)
    await relay.start()
    print(f"relay on {relay.url}, 8 bots, {limits}", flush=True)
    try:
        base = await time_to_bots(relay.url, args.timeout)
        print(f"no flood:            a real host has its 2 bots playing after {shown(base, args.timeout)}", flush=True)
        for variant in args.variants.split(","):
            rss, fds = rss_bytes() / MB, open_fds()
            began = time.perf_counter()
            child = await attacker(relay.url, args.fakes, variant)
            await asyncio.sleep(args.settle)  # the relay has seen them all, and lent what it lends
            print(f"{args.fakes} fakes ({variant}) announced in {time.perf_counter() - began:.1f} s: relay watches "
                  f"{len(relay.watchers)}, runs {relay.bots_running} bots; RSS {rss:.1f} -> {rss_bytes() / MB:.1f} MB, "
                  f"open fds {fds} -> {open_fds()}", flush=True)
            got = await time_to_bots(relay.url, args.timeout)
            print(f"flood ({variant + '):':14s} a real host has its 2 bots playing after {shown(got, args.timeout)}",
                  flush=True)
            assert child.stdin is not None
            child.stdin.close()
            await child.wait()
            await asyncio.sleep(1.0)
    finally:
        await relay.stop()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--fakes", type=int, default=100)
    parser.add_argument("--variants", default=",".join(VARIANTS))
    parser.add_argument("--broker", default="embedded", help="embedded, mosquitto, or the URL of a running broker")
    parser.add_argument("--idle", type=float, default=30.0, help="RelayLimits.idle_seconds")
    parser.add_argument("--setup-wait", type=float, default=None, help="RelayLimits.setup_wait")
    parser.add_argument("--timeout", type=float, default=60.0, help="how long the real host waits for its bots")
    parser.add_argument("--settle", type=float, default=3.0, help="seconds between the flood and the real host")
    parser.add_argument("--attack", metavar="URL", help=argparse.SUPPRESS)  # the child process
    parsed = parser.parse_args()
    if parsed.attack:
        asyncio.run(flood(parsed.attack, parsed.fakes, parsed.variants))
    else:
        asyncio.run(main(parsed))
