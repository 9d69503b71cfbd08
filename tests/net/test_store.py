"""A game's files: written in order by the writer thread, never on the event loop.

The writer is held at a gate in these tests: were any write done on the calling thread, the
call would not return before the gate opens.
"""

from __future__ import annotations

import asyncio
import os
import threading
from pathlib import Path

import pytest

import net.store as store_module
from engine.registry import get_game
from net.identity import Identity
from net.lockstep import Lockstep, Publish
from net.paths import atomic_write
from net.peer import Peer
from net.store import GameStore
from net.store import atomic_write as reexported
from net.transport import MemoryBroker, MemoryTransport


@pytest.fixture
def gate(monkeypatch, tmp_path):
    """Every atomic write under this test's folder waits for the gate and notes its thread.

    Writes queued by earlier tests are drained first and never counted: the writer is shared.
    """
    store_module.WRITER.drain()
    opened = threading.Event()
    threads: list[str] = []
    real = store_module.atomic_write

    def gated(path, data, mode=0o644):
        if tmp_path in Path(path).parents:
            threads.append(threading.current_thread().name)
            opened.wait(10)
        real(path, data, mode)

    monkeypatch.setattr(store_module, "atomic_write", gated)
    yield opened, threads
    opened.set()


async def test_secrets_are_written_off_the_loop_and_a_sender_can_wait_for_them(tmp_path, gate) -> None:
    opened, threads = gate
    store = GameStore(tmp_path / "g")
    store.save_secrets({"seed": b"s" * 32})  # returns while the writer is held
    pending = store.unwritten()
    assert pending is not None and not (tmp_path / "g" / "secrets.bin").exists()
    opened.set()
    await asyncio.wait_for(pending, 10)
    assert store.unwritten() is None and threads == ["gamenight-disk"]
    assert store.load_secrets() == {"seed": b"s" * 32}
    assert (tmp_path / "g" / "secrets.bin").stat().st_mode & 0o077 == 0
    store.close()


async def test_appends_keep_their_order_and_meta_reads_never_wait(tmp_path, gate) -> None:
    opened, _ = gate
    store = GameStore(tmp_path / "g")
    records = [i.to_bytes(4, "big") * (i % 7 + 1) for i in range(500)]
    store.save_meta({"gid": "g", "finished": ""})
    for raw in records:
        store.append(raw)
    assert store.load_meta() == {"gid": "g", "finished": ""}  # from memory: the writer is held
    opened.set()
    assert store.read_log() == records
    store.close()
    store_module.WRITER.drain()
    assert GameStore(tmp_path / "g").read_log() == records


def test_closing_a_store_releases_its_file(tmp_path) -> None:
    before = len(os.listdir("/proc/self/fd"))
    stores = [GameStore(tmp_path / f"g{i}") for i in range(50)]
    for s in stores:
        s.append(b"x")
        s.close()
    store_module.WRITER.drain()
    assert len(os.listdir("/proc/self/fd")) <= before


def test_atomic_write_leaves_the_old_or_the_new_content(tmp_path) -> None:
    path = tmp_path / "f"
    atomic_write(path, b"old")
    atomic_write(path, b"new", mode=0o600)
    assert path.read_bytes() == b"new" and [p.name for p in tmp_path.iterdir()] == ["f"]


def test_there_is_one_atomic_write() -> None:
    assert reexported is atomic_write  # net.store's name (tui/savefile.py) is net.paths' function


async def test_a_flush_waits_for_a_message_the_sender_holds_until_the_disk_has_it(tmp_path, gate) -> None:
    """A relay parks a bot (stops its peer, which flushes first) just as the bot commits: the
    commit, taken from the queue and waiting for its secret's write, is handed over before the
    flush returns. (Stopped before, the commit was on the bot's disk only.)"""
    opened, _ = gate
    broker = MemoryBroker()
    transport, listener = MemoryTransport(broker), MemoryTransport(broker)
    await transport.start()
    await listener.start()
    seen: list[bytes] = []
    await listener.subscribe("#", lambda topic, payload, retained: seen.append(payload))
    peer = Peer(Lockstep(get_game("money"), "money-0123456789", Identity.generate(), name="Bot 1"), transport,
                store=GameStore(tmp_path / "g"), stall_after=0)
    await peer.start()
    await asyncio.sleep(0.05)
    peer.store.save_secrets({"commit": b"s" * 32})  # held at the gate
    peer.outbox.put_nowait(Publish("log", b"our commit"))
    await asyncio.sleep(0.05)
    assert peer.outbox.empty() and b"our commit" not in seen  # the sender holds it
    asyncio.get_running_loop().call_later(0.2, opened.set)
    await peer.flush(timeout=5.0)
    assert transport.sent >= 2  # the presence, then the commit: handed to the connection
    await asyncio.sleep(0.01)
    assert b"our commit" in seen
    await peer.stop()
