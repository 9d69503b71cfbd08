"""Shared helpers for the network tests: tables of peers over a memory or a real broker."""

from __future__ import annotations

import asyncio
from typing import Any

from engine.core import to_plain
from net.codec import PROTOCOL_VERSION
from net.identity import Identity
from net.lockstep.dealing import Shown
from net.peer import Peer
from net.session import host_game, join_game
from net.transport import MemoryBroker, MemoryTransport, Transport

from .fakegame import GAME


async def settle(rounds: int = 30) -> None:
    """Let queued deliveries run (the memory broker delivers with call_soon)."""
    for _ in range(rounds):
        await asyncio.sleep(0)


async def until(predicate, timeout: float = 5.0) -> None:
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while not predicate():
        if loop.time() > end:
            raise TimeoutError("condition not reached")
        await asyncio.sleep(0.005)


async def pilot_until(pilot, predicate, timeout: float = 15.0, what: str = "condition") -> None:
    """Let a Textual app run until `predicate()` holds (TimeoutError naming `what` after `timeout`)."""
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while not predicate():
        if loop.time() > end:
            raise TimeoutError(f"{what} not reached")
        await pilot.pause(0.05)


def ready(peer: Peer) -> bool:
    """The game runs and the cards of its last change reached every seat (a dealt table's show
    is over): a seat may choose now."""
    return peer.lockstep.phase == "play" and not peer.lockstep.steps.dealing.busy()


async def table_of(
    n: int,
    transports: list[Transport],
    *,
    game=GAME,
    options: dict[str, Any] | None = None,
    bot: str | None = None,
    persist: bool = False,
    identities: list[Identity] | None = None,
) -> list[Peer]:
    """Host with transports[0], n-1 joiners; returns once every seat is taken."""
    identities = identities or [Identity.generate() for _ in range(n)]
    host = await host_game(game, transports[0], identities[0], players=n, options=options,
                           persist=persist, bot=bot, name="P0")
    peers = [host]
    for i in range(1, n):
        peers.append(await join_game(transports[i], identities[i], host.lockstep.gid, name=f"P{i}",
                                     persist=persist, bot=bot, game=game))
    return peers


async def memory_transports(n: int) -> tuple[MemoryBroker, list[MemoryTransport]]:
    """n started transports on one memory broker."""
    broker = MemoryBroker()
    transports = [MemoryTransport(broker) for _ in range(n)]
    for t in transports:
        await t.start()
    return broker, transports


async def withholding_transports(n: int, seat: int, *markers: bytes) -> list[MemoryTransport]:
    """n started transports on one memory broker; `seat`'s never publishes a message holding
    one of `markers` (its peer makes and keeps them: a seat that will not send them)."""
    broker, transports = await memory_transports(n)
    publish = transports[seat].publish_now

    def withheld(topic, payload, qos=1, retain=False):
        return True if any(m in payload for m in markers) else publish(topic, payload, qos, retain)

    transports[seat].publish_now = withheld  # type: ignore[method-assign]
    return transports


async def memory_table(n: int, **kw) -> tuple[MemoryBroker, list[MemoryTransport], list[Peer]]:
    broker, transports = await memory_transports(n)
    peers = await table_of(n, transports, **kw)
    await until(lambda: all(map(ready, peers)))
    return broker, transports, peers


def sent(action: Any) -> Any:
    """`action` in the plain form a dealt table sends it: with the proofs of the cards of its
    own that it plays (a Guess action plays none)."""
    return to_plain(Shown(action))


def forge(identity: Identity, gid: str, kind: str, body: dict, *, seat: int, step: int,
          state_hash: bytes, prev_hash: bytes, nonce: int = 1) -> bytes:
    """A correctly signed envelope with whatever content a test (or a cheater) wants."""
    return identity.sign({"v": PROTOCOL_VERSION, "g": gid, "k": kind, "p": identity.public, "s": seat,
                          "n": step, "q": nonce, "b": body, "h": state_hash, "c": prev_hash})


async def finish(peers: list[Peer], bot: str = "random", timeout: float = 20.0) -> None:
    """Hand every seat to a bot and wait for the end."""
    for p in peers:
        p.bot_kind = bot
        if p.lockstep.my_turn():
            p._schedule_bot()
    await asyncio.wait_for(asyncio.gather(*(p.done.wait() for p in peers)), timeout)


def listed_entry(gid: str, seats: tuple[str, ...], *, started: bool = False, pid: int | None = None,
                 broker: str = "mqtt://127.0.0.1:18830", **changes: Any) -> Any:
    """A door's table-list entry of a live host (this process), as a host would write it."""
    import os
    import time
    from dataclasses import replace

    from net.doors.tables import TableEntry
    from net.invite import make_invite
    from net.lockstep.admission import host_pin

    invite = make_invite(broker, gid, host_pin(Identity.generate(), gid))
    entry = TableEntry(gid, gid.rsplit("-", 1)[0], seats, seats[0], started, invite, pid or os.getpid(), time.time())
    return replace(entry, **changes)


def ended_pid() -> int:
    """The pid of a process that has ended (a host killed outright)."""
    import subprocess
    import sys

    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return child.pid
