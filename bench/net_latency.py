"""Step latency of commit-reveal steps with 3, 5 and 7 peers, next to the broker's raw latency.

For each broker (mosquitto when on PATH, and the embedded amqtt), in the same run:
  raw      one-way publish -> receive latency of a QoS 1 message between two connections,
           and the round trip (publish, echo back), with TCP_NODELAY as the client uses it;
           then the same through aiomqtt's client (what GAMENIGHT_MQTT_FAST=0 selects);
  nagle    the same round trip with Nagle left on (what the client would suffer without
           TCP_NODELAY: the ~88 ms regression this benchmark exists to show);
  steps    median and p99 of a commit-reveal step (every seat commits, then reveals) with
           N bot peers, each its own connection and key, measured at every peer from the step
           becoming current to its being applied;
  after    the protocol's own share: from the last seat's choice (the moment a player would
           press Enter) to the step being applied at that peer: its commit out, every commit
           in, the reveals out and in.
  floor    the same pattern of messages with no protocol at all (N connections, two rounds of
           all-to-all QoS 1 messages, nothing signed or checked): the least a step can cost
           through this client and broker on this machine.
Target: a commit-reveal step within 3x one broker round trip. Figures only, no asserts.
On 2 cores the floor alone is past that target for 3 peers and more: a step is N*2 publishes
and N*N*2 deliveries of client work against the round trip's 2 and 2, and loopback adds
almost nothing, so the ratio measures how much client work a step needs, not the network.

Two placements of the peers: "one process" (all peers share one Python process: every message
is handled N times on one core, so this measures CPU more than the network) and "a process
per peer" (like real players on their own machines, here sharing 2 cores).

    .venv/bin/python bench/net_latency.py [--rounds 30] [--peers 3,5,7]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.core import Game, IllegalAction, Result, plain  # noqa: E402
from net.identity import Identity  # noqa: E402
from net.launch import BrokerSettings, connect, presence_will  # noqa: E402
from net.mqtt import FAST_PATH, MqttTransport  # noqa: E402
from net.session import host_game, join_game, new_gid  # noqa: E402
from tests.net.brokers import HAVE_MOSQUITTO, running_broker  # noqa: E402


@plain("bench.Pick")
@dataclass(frozen=True, slots=True)
class Pick:
    value: int


@plain("bench.State")
@dataclass(frozen=True, slots=True)
class State:
    n_players: int
    rounds: int
    round: int
    totals: tuple[int, ...]


@plain("bench.View")
@dataclass(frozen=True, slots=True)
class View:
    round: int
    totals: tuple[int, ...]


class BlindPicks(Game):
    """Every step is simultaneous: all seats pick 1-3 at once, for `rounds` rounds."""

    id = "benchpicks"
    name = "Blind picks"
    min_players = 2
    max_players = 16

    def __init__(self, rounds: int) -> None:
        super().__init__()  # the fast lane's tables (Game.__init__)
        self.rounds = rounds

    def _setup(self, n_players, seed, options):
        return State(n_players, self.rounds, 0, (0,) * n_players)

    def _active(self, state):  # nobody once the game is over (the contract of Game._active)
        return frozenset() if self.is_over(state) else frozenset(range(state.n_players))

    def _legal_actions(self, state, seat):
        return (Pick(1), Pick(2), Pick(3))

    def _validate(self, state, seat, action):
        if not isinstance(action, Pick) or action.value not in (1, 2, 3):
            raise IllegalAction(f"seat {seat} must pick 1, 2 or 3")

    def _apply(self, state, actions):
        totals = tuple(t + actions[s].value for s, t in enumerate(state.totals))
        return State(state.n_players, state.rounds, state.round + 1, totals)

    def _view(self, state, seat):
        return View(state.round, state.totals)

    def is_over(self, state):
        return state.round >= state.rounds

    def _result(self, state):
        return Result.from_breakdown([[("points", t)] for t in state.totals])


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


async def raw_latency(url: str, samples: int, nodelay: bool = True, fast: bool = FAST_PATH) -> tuple[float, float]:
    """(median one-way ms, median round-trip ms) of QoS 1 messages between two connections.

    `fast`: the transport's own client (paho on the loop); False: aiomqtt's client."""
    a = MqttTransport(url, nodelay=nodelay)
    b = MqttTransport(url, nodelay=nodelay)
    a.fast = b.fast = fast
    await a.start()
    await b.start()
    one_way: list[float] = []
    round_trip: list[float] = []
    got: asyncio.Queue[float] = asyncio.Queue()
    back: asyncio.Queue[float] = asyncio.Queue()
    loop = asyncio.get_running_loop()

    def at_b(topic: str, payload: bytes, retained: bool) -> None:
        got.put_nowait(time.perf_counter())
        loop.create_task(b.publish("bench/back", payload, qos=1))

    await b.subscribe("bench/there", at_b)
    await a.subscribe("bench/back", lambda t, p, r: back.put_nowait(time.perf_counter()))
    await asyncio.sleep(0.2)
    for i in range(samples):
        sent = time.perf_counter()
        await a.publish("bench/there", str(i).encode(), qos=1)
        one_way.append((await asyncio.wait_for(got.get(), 5) - sent) * 1000)
        round_trip.append((await asyncio.wait_for(back.get(), 5) - sent) * 1000)
    await a.stop()
    await b.stop()
    return statistics.median(one_way), statistics.median(round_trip)


async def exchange_floor(url: str, peers: int, rounds: int) -> list[float]:
    """What the transport alone allows: the shape of a commit-reveal step with no protocol.

    N connections in this process each publish a 200-byte QoS 1 message, wait until they hold
    all N of that round, publish a second and wait for all N again: the same messages and
    deliveries as a step among N peers, without signing, checking or the engine.
    """
    transports = [MqttTransport(url) for _ in range(peers)]
    for t in transports:
        await t.start()
    seen: list[dict[tuple[int, int], int]] = [{} for _ in range(peers)]
    wake: list[asyncio.Event] = [asyncio.Event() for _ in range(peers)]

    def handler(me: int):
        def on_message(topic: str, payload: bytes, retained: bool) -> None:
            key = (payload[0], int.from_bytes(payload[1:5], "big"))
            seen[me][key] = seen[me].get(key, 0) + 1
            wake[me].set()
        return on_message

    for me, t in enumerate(transports):
        await t.subscribe("bench/floor", handler(me))
    await asyncio.sleep(0.2)
    times: list[float] = []

    async def peer(me: int) -> None:
        async def all_in(key: tuple[int, int]) -> None:
            while seen[me].get(key, 0) < peers:
                wake[me].clear()
                await wake[me].wait()
        for r in range(rounds):
            start = time.perf_counter()
            for phase in (0, 1):
                await transports[me].publish("bench/floor", bytes([phase]) + r.to_bytes(4, "big") + bytes(195))
                await all_in((phase, r))
            times.append((time.perf_counter() - start) * 1000)

    await asyncio.gather(*(peer(me) for me in range(peers)))
    for t in transports:
        await t.stop()
    return times


def after_last_choice(tables: list[dict[int, tuple[float, float]]]) -> list[float]:
    """Per step, the wait of the seat that chose last (ms)."""
    out = []
    for step in set().union(*tables):
        chosen = [t[step] for t in tables if step in t]
        last = max(chosen)
        out.append((last[1] - last[0]) * 1000)
    return out


LAST: dict[str, list[float]] = {}


async def step_latency(url: str, peers: int, rounds: int) -> list[float]:
    game = BlindPicks(rounds)
    gid = new_gid(game.id)
    ids = [Identity.generate() for _ in range(peers)]
    settings = BrokerSettings(broker=url)
    transports = [await connect(url, settings, presence_will(i, gid, f"B{s}", settings.prefix)) for s, i in enumerate(ids)]
    table = [await host_game(game, transports[0], ids[0], players=peers, gid=gid, persist=False, bot="random", name="B0")]
    for s in range(1, peers):
        table.append(await join_game(transports[s], ids[s], gid, name=f"B{s}", persist=False, bot="random", game=game))
    await asyncio.wait_for(asyncio.gather(*(p.done.wait() for p in table)), 120)
    times = [t * 1000 for p in table for kind, t in p.metrics.step_kinds if kind == "commit"]
    LAST["after"] = after_last_choice([p.metrics.choices for p in table])
    assert len({p.lockstep.hash for p in table}) == 1, "desync in the benchmark"
    for p in table:
        await p.stop(clean=False)
    for t in transports:
        await t.stop()
    return times


async def step_latency_processes(url: str, peers: int, rounds: int) -> list[float]:
    """The same steps with every peer but the host in its own process."""
    game = BlindPicks(rounds)
    gid = new_gid(game.id)
    identity = Identity.generate()
    settings = BrokerSettings(broker=url)
    transport = await connect(url, settings)
    host = await host_game(game, transport, identity, players=peers, gid=gid, persist=False, bot="random", name="B0")
    children = [
        await asyncio.create_subprocess_exec(sys.executable, __file__, "--peer", url, gid, str(rounds),
                                             stdout=subprocess.PIPE)
        for _ in range(peers - 1)
    ]
    await asyncio.wait_for(host.done.wait(), 120)
    times = [t * 1000 for kind, t in host.metrics.step_kinds if kind == "commit"]
    for child in children:
        out, _ = await child.communicate()
        report = json.loads(out.decode().strip().splitlines()[-1])
        assert report["hash"] == host.lockstep.hash.hex(), "desync in the benchmark"
        times += report["times"]
    await host.stop(clean=False)
    await transport.stop()
    return times


async def peer_process(url: str, gid: str, rounds: int) -> None:
    game = BlindPicks(rounds)
    identity = Identity.generate()
    transport = await connect(url, BrokerSettings(broker=url))
    peer = await join_game(transport, identity, gid, name="P", persist=False, bot="random", game=game)
    await asyncio.wait_for(peer.done.wait(), 120)
    await peer.flush()
    times = [t * 1000 for kind, t in peer.metrics.step_kinds if kind == "commit"]
    print(json.dumps({"hash": peer.lockstep.hash.hex(), "times": times}), flush=True)
    await asyncio.sleep(0.2)  # let the last reveal reach the others
    await peer.stop(clean=False)
    await transport.stop()


async def main(rounds: int, counts: list[int]) -> None:
    kinds = (["mosquitto"] if HAVE_MOSQUITTO else []) + ["amqtt"]
    if not HAVE_MOSQUITTO:
        print("mosquitto not on PATH: embedded amqtt only")
    for kind in kinds:
        async with running_broker(kind) as url:
            one_way, rtt = await raw_latency(url, 200)
            _, rtt_nagle = await raw_latency(url, 20, nodelay=False)
            print(f"{kind:>9}: raw QoS1 one-way {one_way:.3f} ms, round trip {rtt:.3f} ms "
                  f"(Nagle on: round trip {rtt_nagle:.1f} ms)")
            if FAST_PATH:  # the other client, in the same run: aiomqtt's (GAMENIGHT_MQTT_FAST=0)
                one_way_a, rtt_a = await raw_latency(url, 200, fast=False)
                print(f"{kind:>9}: raw QoS1 through aiomqtt's client: one-way {one_way_a:.3f} ms, "
                      f"round trip {rtt_a:.3f} ms = {rtt_a / rtt:.2f}x the transport's")
            for n in counts:
                floor = await exchange_floor(url, n, rounds * 3)
                print(f"{kind:>9}: transport floor, {n} peers, one process (no signing, no protocol): median "
                      f"{statistics.median(floor):.3f} ms = {statistics.median(floor) / rtt:.1f}x round trip",
                      flush=True)
                for placement, measure in (("one process", step_latency),
                                           ("a process per peer", step_latency_processes)):
                    times = await measure(url, n, rounds)
                    med, p99 = statistics.median(times), pct(times, 0.99)
                    print(f"{kind:>9}: commit-reveal step, {n} peers, {placement:>18}: median {med:.3f} ms, "
                          f"p99 {p99:.3f} ms = {med / rtt:.1f}x round trip ({len(times)} samples)", flush=True)
                    if placement == "one process":
                        after = LAST["after"]
                        print(f"{kind:>9}:   after the last choice, {n} peers, one process: median "
                              f"{statistics.median(after):.3f} ms, p99 {pct(after, 0.99):.3f} ms = "
                              f"{statistics.median(after) / rtt:.1f}x round trip", flush=True)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=30)
    parser.add_argument("--peers", default="3,5,7")
    parser.add_argument("--peer", nargs=3, metavar=("URL", "GID", "ROUNDS"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.peer:
        asyncio.run(peer_process(args.peer[0], args.peer[1], int(args.peer[2])))
    else:
        asyncio.run(main(args.rounds, [int(x) for x in args.peers.split(",")]))
