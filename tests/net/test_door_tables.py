"""A door's table list: what a host writes, what a reader of the folder lists, and what it skips.

The folder is shared by every visitor's process, so a reader trusts nothing in it: a stale
entry (its host's process gone, or silent too long) is removed, a malformed, oversized or
linked one is skipped, and a listing reads a bounded number of files.
"""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
import time
from pathlib import Path

import pytest

from net.doors.tables import (
    MAX_ENTRY_BYTES,
    STALE_AFTER,
    ListedTable,
    TableEntry,
    entry_path,
    read_tables,
    write_entry,
)
from net.identity import Identity
from net.invite import make_invite
from net.launch import BrokerSettings, connect, presence_will
from net.lockstep.admission import host_pin
from net.session import host_game, join_game, new_gid

from .brokers import running_broker
from .helpers import ended_pid, listed_entry, until

BROKER = "mqtt://127.0.0.1:18830"


def entry(gid: str = "money-0000aaaa", *, seats: tuple[str, ...] = ("Ann", "", "", ""), broker: str = BROKER,
          **changes) -> TableEntry:
    return listed_entry(gid, seats, broker=broker, **changes)


def test_an_entry_written_is_listed_as_it_was_and_readable_by_the_door_only(tmp_path):
    folder = tmp_path / "tables"
    written = entry()
    write_entry(folder, written)
    assert read_tables(folder) == [written]
    assert read_tables(folder, broker=BROKER) == [written]
    assert (written.players, written.free) == (4, 3)
    assert entry_path(folder, written.gid).stat().st_mode & 0o077 == 0  # it carries the table secret
    assert read_tables(tmp_path / "never-made") == []


def test_free_seats_come_first_then_full_tables_then_those_playing(tmp_path):
    folder = tmp_path / "tables"
    playing = entry("ten-00000001", seats=("Cy", "Di", "Ed"), started=True, game="ten")
    full = entry("money-00000002", seats=("Bo", "Al"))
    free = entry("sheriff-00000003", seats=("Zed", "", ""), game="sheriff")
    for e in (playing, full, free):
        write_entry(folder, e)
    assert [e.gid for e in read_tables(folder)] == [free.gid, full.gid, playing.gid]


@pytest.mark.parametrize("why", ["silent too long", "a heartbeat from the future", "its process is gone"])
def test_an_entry_whose_host_is_gone_is_skipped_and_removed(tmp_path, why):
    folder = tmp_path / "tables"
    now = time.time()
    gone = {"silent too long": {"heartbeat": now - STALE_AFTER - 1},
            "a heartbeat from the future": {"heartbeat": now + STALE_AFTER + 60},
            "its process is gone": {"pid": ended_pid()}}[why]
    live = entry("money-0000000b")
    write_entry(folder, entry("money-0000000a", **gone))
    write_entry(folder, live)
    assert read_tables(folder, now=now) == [live]
    assert sorted(p.name for p in folder.iterdir()) == ["money-0000000b.json"]


def _good_json(table: str, **changes) -> bytes:
    data = json.loads(entry(table).to_json())
    data.update(changes)
    return json.dumps(data).encode()


BAD = {
    "not JSON": b"{not json",
    "a list": b"[1, 2]",
    "another format": _good_json("money-00000001", v=2),
    "its gid is not its name": _good_json("money-00000001", gid="money-00000002"),
    "a code for another table": _good_json("money-00000001", invite=entry("money-00000009").invite),
    "a code that is none": _good_json("money-00000001", invite="mqtt://x:1/money-00000001/nope"),
    "a name with an escape sequence": _good_json("money-00000001", host="\x1b[2Jboo"),
    "a seat that is no name": _good_json("money-00000001", seats=["Ann", 7]),
    "too many seats": _good_json("money-00000001", seats=["x"] * 65),
    "a pid that is no pid": _good_json("money-00000001", pid=True),
    "a heartbeat that is no time": _good_json("money-00000001", heartbeat="now"),
    "oversized": _good_json("money-00000001", host="Ann", pad="x" * MAX_ENTRY_BYTES),
}


@pytest.mark.parametrize("what", BAD)
def test_a_malformed_entry_is_skipped_without_an_error(tmp_path, what):
    folder = tmp_path / "tables"
    folder.mkdir()
    (folder / "money-00000001.json").write_bytes(BAD[what])
    live = entry("money-0000000b")
    write_entry(folder, live)
    assert read_tables(folder) == [live]
    assert (folder / "money-00000001.json").exists()  # maybe a newer gamenight's: not ours to delete


def test_links_folders_temporary_files_and_other_names_are_not_read(tmp_path):
    folder = tmp_path / "tables"
    live = entry("money-0000000b")
    write_entry(folder, live)
    outside = tmp_path / "elsewhere.json"
    outside.write_bytes(entry("money-0000000c").to_json())
    (folder / "money-0000000c.json").symlink_to(outside)
    (folder / "money-0000000d.json").mkdir()
    (folder / ".money-0000000e.json.123.tmp").write_bytes(entry("money-0000000e").to_json())
    (folder / "notes.txt").write_text("hello")
    assert read_tables(folder) == [live]


def test_a_listing_reads_a_bounded_number_of_entries(tmp_path):
    folder = tmp_path / "tables"
    for i in range(120):
        write_entry(folder, entry(f"money-{i:08x}"))
    assert len(read_tables(folder)) == 100
    assert len(read_tables(folder, limit=7)) == 7


def test_a_door_lists_only_the_tables_on_its_own_broker(tmp_path):
    folder = tmp_path / "tables"
    ours, theirs = entry("money-0000000a"), entry("money-0000000b", broker="mqtt://10.9.9.9:1883")
    write_entry(folder, ours)
    write_entry(folder, theirs)
    assert read_tables(folder, broker=BROKER) == [ours]
    assert len(read_tables(folder)) == 2


async def _until(predicate, what: str) -> None:
    try:
        await until(predicate, timeout=60.0)
    except TimeoutError:
        raise TimeoutError(f"{what} not reached") from None


@pytest.mark.net
async def test_the_hosts_entry_follows_its_seats_and_start_and_goes_at_the_end(tmp_path):
    """Three bot peers on a real broker: the entry appears with the host alone, shows each
    seat taken, says started once all are, is rewritten every heartbeat, and is gone at the end."""
    folder = tmp_path / "tables"
    async with running_broker("amqtt") as url:
        gid = new_gid("money")
        ids = [Identity.generate() for _ in range(3)]
        settings = BrokerSettings(broker=url)
        transports = [await connect(url, settings, presence_will(i, gid, f"B{s}", settings.prefix))
                      for s, i in enumerate(ids)]
        peers = [await host_game(_money(), transports[0], ids[0], players=3, gid=gid, persist=False,
                                 bot="best", name="Host", invite=True)]
        pin = host_pin(ids[0], gid)
        listing = ListedTable(folder, peers[0], make_invite(url, gid, pin), heartbeat=0.2)
        listing.start()
        try:
            def listed() -> list[TableEntry]:
                return read_tables(folder, broker=url)

            await _until(lambda: len(listed()) == 1, "the entry")
            first = listed()[0]
            assert (first.seats, first.host, first.started) == (("Host", "", ""), "Host", False)
            await _until(lambda: listed() and listed()[0].heartbeat > first.heartbeat, "a heartbeat")
            peers.append(await join_game(transports[1], ids[1], gid, name="B1", persist=False, bot="best", pin=pin))
            await _until(lambda: listed() and listed()[0].seats == ("Host", "B1", ""), "the second seat")
            peers.append(await join_game(transports[2], ids[2], gid, name="B2", persist=False, bot="best", pin=pin))
            await _until(lambda: listed() and listed()[0].started, "the start")
            assert listed()[0].seats == ("Host", "B1", "B2") and listed()[0].free == 0
            await asyncio.wait_for(asyncio.gather(*(p.done.wait() for p in peers)), 120)
            assert peers[0].lockstep.phase == "over"
            await _until(lambda: not entry_path(folder, gid).exists(), "the entry removed at the end")
            await asyncio.sleep(0.5)  # two heartbeats later it has not come back
            assert not entry_path(folder, gid).exists()
        finally:
            await listing.stop()
            for p in peers:
                await p.stop(clean=False)
            for t in transports:
                await t.stop()


def _money():
    from engine.registry import get_game

    return get_game("money")


async def test_the_host_leaving_takes_its_entry_off_and_no_heartbeat_brings_it_back(tmp_path):
    from net.transport import MemoryBroker, MemoryTransport

    folder = tmp_path / "tables"
    transport = MemoryTransport(MemoryBroker())
    await transport.start()
    identity = Identity.generate()
    peer = await host_game(_money(), transport, identity, players=2, persist=False, name="Ann", invite=True)
    gid = peer.lockstep.gid
    listing = ListedTable(folder, peer, make_invite(BROKER, gid, host_pin(identity, gid)), heartbeat=0.01)
    listing.start()
    try:
        await _until(lambda: entry_path(folder, gid).exists(), "the entry")
        await asyncio.sleep(0.05)  # heartbeats under way
        await listing.stop()
        assert not entry_path(folder, gid).exists()
        await asyncio.sleep(0.1)
        assert not entry_path(folder, gid).exists() and read_tables(folder) == []
        assert listing._on_note not in peer.listeners
    finally:
        await peer.stop(clean=False)
        await transport.stop()


def test_a_host_process_that_exits_leaves_no_entry(tmp_path):
    """A host that exits without closing its table (SystemExit from inside the game loop)."""
    folder = tmp_path / "tables"
    script = f"""
import asyncio, sys
from pathlib import Path
from engine.registry import get_game
from net.doors.tables import ListedTable, entry_path
from net.identity import Identity
from net.invite import make_invite
from net.lockstep.admission import host_pin
from net.session import host_game
from net.transport import MemoryBroker, MemoryTransport

async def main():
    transport = MemoryTransport(MemoryBroker())
    await transport.start()
    me = Identity.generate()
    peer = await host_game(get_game("money"), transport, me, players=3, persist=False, name="Ann", invite=True)
    gid = peer.lockstep.gid
    ListedTable(Path({str(folder)!r}), peer, make_invite({BROKER!r}, gid, host_pin(me, gid))).start()
    for _ in range(500):
        await asyncio.sleep(0.02)
        if entry_path(Path({str(folder)!r}), gid).exists():
            print(gid, flush=True)
            sys.exit(0)
    sys.exit(3)

asyncio.run(main())
"""
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120,
                          cwd=Path(__file__).resolve().parents[2])
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().startswith("money-")  # it was listed while it ran
    assert list(folder.iterdir()) == []
