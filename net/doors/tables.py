"""The table list of one door: the tables its visitors host "open to this server".

One small JSON file a table, `<door>/tables/<gid>.json`, written whole (net.paths.atomic_write)
by the host's own process: when the table opens, as its seats fill, when it starts, and every
few seconds besides (its heartbeat); removed when the game ends or the host leaves. A host
process killed outright cannot remove its file: its pid and its heartbeat tell a reader so.

The door is the trusted server: its visitors may read each other's open tables' invite codes
(they carry the table secret), and a table hosted "invite only" is never written here. A
reader still trusts nothing in the folder: it scans at most MAX_SCANNED names, reads at most
`limit` entries, skips a file over MAX_ENTRY_BYTES, a symlink or anything malformed (one
logged line, never an exception), and removes the entries whose host is gone.
"""

from __future__ import annotations

import asyncio
import atexit
import contextlib
import json
import logging
import math
import os
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..codec import MAX_NAME, MAX_SEAT, _gid
from ..invite import parse_invite
from ..lockstep import Note
from ..mqtt import parse_broker
from ..paths import atomic_write
from ..peer import Peer

log = logging.getLogger(__name__)

FORMAT = 1
MAX_ENTRY_BYTES = 4096  # an entry is ~400 bytes: anything bigger is not one
MAX_TABLES = 100  # entries a listing reads
MAX_SCANNED = 400  # names a listing looks at in the folder (a flooded folder costs no more)
HEARTBEAT = 5.0  # seconds between the host's rewrites of its entry
STALE_AFTER = 20.0  # an entry not rewritten for this long: its host is gone (or hangs)
MAX_INVITE = 300


def _name_ok(value: Any, empty: bool = False) -> bool:
    """A player's name as a screen may draw it: printable (no escape sequences), short."""
    return (isinstance(value, str) and len(value) <= MAX_NAME and value.isprintable()
            and (empty or bool(value.strip())))


@dataclass(frozen=True)
class TableEntry:
    """One table in a door's list, as its host last wrote it."""

    gid: str
    game: str  # the engine registry's id
    seats: tuple[str, ...]  # the name in each seat, "" for a free one
    host: str
    started: bool
    invite: str
    pid: int  # the host's process
    heartbeat: float  # when the host last wrote it (seconds since the epoch)

    @property
    def players(self) -> int:
        return len(self.seats)

    @property
    def free(self) -> int:
        return sum(1 for name in self.seats if not name)

    def to_json(self) -> bytes:
        return json.dumps({"v": FORMAT, "gid": self.gid, "game": self.game, "seats": list(self.seats),
                           "host": self.host, "started": self.started, "invite": self.invite,
                           "pid": self.pid, "heartbeat": self.heartbeat}, sort_keys=True).encode()

    @classmethod
    def from_json(cls, data: bytes, gid: str) -> TableEntry:
        """The entry in file `<gid>.json`; ValueError saying what is wrong with it."""
        try:
            raw = json.loads(data)
        except (ValueError, UnicodeDecodeError) as exc:
            raise ValueError(f"not JSON ({exc})") from None
        if not isinstance(raw, dict) or raw.get("v") != FORMAT:
            raise ValueError("not a table entry of this format")
        problem = _problem(raw, gid)
        if problem:
            raise ValueError(problem)
        return cls(gid, raw["game"], tuple(raw["seats"]), raw["host"], raw["started"], raw["invite"],
                   raw["pid"], float(raw["heartbeat"]))


def _problem(raw: dict[str, Any], gid: str) -> str | None:
    """What makes `raw` no entry of table `gid` (None: it is one)."""
    seats, heartbeat, pid = raw.get("seats"), raw.get("heartbeat"), raw.get("pid")
    if raw.get("gid") != gid:
        return "its gid is not its file's name"
    if not _gid(raw.get("game")):
        return "no game id"
    if not (isinstance(seats, list) and 1 <= len(seats) <= MAX_SEAT + 1 and all(_name_ok(s, True) for s in seats)):
        return "its seats are not a list of names"
    if not _name_ok(raw.get("host")) or not isinstance(raw.get("started"), bool):
        return "no host name or started flag"
    if not (isinstance(pid, int) and not isinstance(pid, bool) and pid > 0):
        return "no pid"
    if not (isinstance(heartbeat, (int, float)) and not isinstance(heartbeat, bool) and math.isfinite(heartbeat)):
        return "no heartbeat"
    invite = raw.get("invite")
    if not isinstance(invite, str) or len(invite) > MAX_INVITE:
        return "no invite code"
    try:
        code = parse_invite(invite)
    except ValueError as exc:
        return str(exc)
    return None if code.gid == gid else "its invite code is for another table"


# ---- the folder ----------------------------------------------------------------------------
def entry_path(folder: Path, gid: str) -> Path:
    if not _gid(gid):
        raise ValueError(f"not a game id: {gid!r}")
    return folder / f"{gid}.json"


def write_entry(folder: Path, entry: TableEntry) -> None:
    """Put `entry` in the list, whole or not at all (readable by the door's user only)."""
    folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    atomic_write(entry_path(folder, entry.gid), entry.to_json(), mode=0o600)


def remove_entry(folder: Path, gid: str) -> None:
    with contextlib.suppress(FileNotFoundError):
        entry_path(folder, gid).unlink()


def pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # someone else's process: alive
        return True
    except (OverflowError, OSError):
        return False
    return True


def is_stale(entry: TableEntry, now: float) -> bool:
    """The host is gone: its process ended, or it has not written for STALE_AFTER seconds
    (a hung or stopped process, a reused pid, a heartbeat from the future)."""
    return abs(now - entry.heartbeat) > STALE_AFTER or not pid_alive(entry.pid)


def read_tables(folder: Path, *, broker: str | None = None, now: float | None = None,
                limit: int = MAX_TABLES) -> list[TableEntry]:
    """The live tables in `folder`: free seats first, then the started ones. Stale entries are
    removed; with `broker`, only the tables on that broker are listed (a door's own)."""
    now = time.time() if now is None else now
    home = parse_broker(broker).url if broker else None
    found: list[TableEntry] = []
    try:
        scan = os.scandir(folder)
    except OSError:  # no table was ever listed here (or the folder is unreadable)
        return []
    with scan:
        for scanned, item in enumerate(scan):
            if scanned >= MAX_SCANNED or len(found) >= limit:
                break
            entry = _read_entry(item)
            if entry is None:
                continue
            if is_stale(entry, now):
                log.info("removing the stale table entry %s (pid %d)", item.name, entry.pid)
                with contextlib.suppress(OSError):
                    os.unlink(item.path)
            elif home is None or parse_invite(entry.invite).broker == home:
                found.append(entry)
    return sorted(found, key=lambda e: (e.started, e.free == 0, e.game, e.host, e.gid))


def _read_entry(item: os.DirEntry[str]) -> TableEntry | None:
    """The entry in one file of the folder; None (and a logged line) for anything else."""
    name = item.name
    if name.startswith(".") or not name.endswith(".json") or not _gid(name[:-5]):
        return None  # a temporary file of atomic_write, or not ours
    try:
        if not item.is_file(follow_symlinks=False) or item.stat(follow_symlinks=False).st_size > MAX_ENTRY_BYTES:
            log.info("skipping the table entry %s: not a small regular file", name)
            return None
        fd = os.open(item.path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
        with os.fdopen(fd, "rb") as fh:
            data = fh.read(MAX_ENTRY_BYTES + 1)
    except OSError as exc:  # removed meanwhile, or swapped for a symlink
        log.info("skipping the table entry %s: %s", name, exc.strerror or exc)
        return None
    if len(data) > MAX_ENTRY_BYTES:
        return None
    try:
        return TableEntry.from_json(data, name[:-5])
    except ValueError as exc:
        log.info("skipping the table entry %s: %s", name, exc)
        return None


# ---- the host's side ---------------------------------------------------------------------
class ListedTable:
    """Keeps the entry of one table this process hosts in its door's list, until the game
    ends or `stop()` (the host leaves). Start it inside the running event loop."""

    def __init__(self, folder: Path, peer: Peer, invite: str, *, heartbeat: float = HEARTBEAT) -> None:
        self.folder = folder
        self.peer = peer
        self.invite = invite
        self.heartbeat = heartbeat
        self._changed = asyncio.Event()
        self._ended = False
        self._gone = False
        self._lock = threading.Lock()  # a write in a thread never brings back a removed entry
        self._task: asyncio.Task[None] | None = None

    @property
    def gid(self) -> str:
        return self.peer.lockstep.gid

    def entry(self, now: float | None = None) -> TableEntry:
        """The table as it stands now."""
        ls = self.peer.lockstep
        seats = tuple(ls.names) if ls.names else tuple(ls.lobby_seats())
        return TableEntry(self.gid, ls.game.id, seats, seats[0] or ls.name, ls.phase != "lobby",
                          self.invite, os.getpid(), time.time() if now is None else now)

    def start(self) -> None:
        self.peer.listeners.append(self._on_note)
        atexit.register(self.remove)  # a process that exits normally leaves no entry behind
        self._task = asyncio.create_task(self._keep())

    async def stop(self) -> None:
        """Take the table off the list (the host leaves, or the game is over)."""
        if self._on_note in self.peer.listeners:
            self.peer.listeners.remove(self._on_note)
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        self.remove()
        atexit.unregister(self.remove)

    def remove(self) -> None:
        with self._lock:
            self._gone = True
            remove_entry(self.folder, self.gid)

    def _write(self, entry: TableEntry) -> None:
        with self._lock:
            if not self._gone:
                write_entry(self.folder, entry)

    def _on_note(self, note: Note) -> None:
        if note.kind == "over":
            self._ended = True
        if note.kind in ("over", "lobby", "started", "seated"):  # not every step: seats and the start
            self._changed.set()

    async def _keep(self) -> None:
        """Write the entry now, again at each change of the seats and every heartbeat."""
        while True:
            if self._ended:
                await asyncio.to_thread(self.remove)
                return
            self._changed.clear()
            try:
                await asyncio.to_thread(self._write, self.entry())
            except OSError as exc:  # a full disk: the table plays on, unlisted until it clears
                log.warning("cannot write the table entry of %s: %s", self.gid, exc)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._changed.wait(), self.heartbeat)
