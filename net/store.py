"""A game's files on this machine: the signed log (appended as it goes), secrets, metadata.

Layout under <data dir>/games/<gid>/<peer id>/: `log.bin` (each accepted envelope as a 4-byte
big-endian length then the bytes, in acceptance order), `secrets.bin` (msgpack map, rewritten
atomically: the seed share and the opening of an unrevealed commitment), `meta.json` (what
`gamenight resume` needs to reconnect).
"""

from __future__ import annotations

import asyncio
import atexit
import json
import logging
import os
import queue
import threading
from collections.abc import Awaitable, Callable
from concurrent.futures import Future
from pathlib import Path
from typing import Any

import msgpack

from .paths import atomic_write, data_dir

log = logging.getLogger("gamenight.net")


def games_dir() -> Path:
    path = data_dir() / "games"
    path.mkdir(parents=True, exist_ok=True)
    return path


class _Writer:
    """The one thread that writes game files, so no disk wait ever holds up the event loop.

    Jobs run in the order they were handed over (one FIFO for every store of the process).
    Log appends are written and flushed job by job; whenever the queue runs dry the logs
    written since are fsynced together (one fsync per file per burst, not per message).
    """

    def __init__(self) -> None:
        self._jobs: queue.SimpleQueue[Callable[[], None]] = queue.SimpleQueue()
        self._dirty: dict[int, Any] = {}  # fd -> open log file to fsync at the end of a burst
        self._thread: threading.Thread | None = None
        self._start_lock = threading.Lock()

    def submit(self, job: Callable[[], None]) -> None:
        if self._thread is None:
            with self._start_lock:
                if self._thread is None:
                    self._thread = threading.Thread(target=self._run, name="gamenight-disk", daemon=True)
                    self._thread.start()
        self._jobs.put(job)

    def dirty(self, fh: Any) -> None:
        self._dirty[fh.fileno()] = fh

    def forget(self, fh: Any) -> None:
        self._dirty.pop(fh.fileno(), None)

    def _run(self) -> None:
        while True:
            self._do(self._jobs.get())
            if self._jobs.empty() and self._dirty:
                for fh in list(self._dirty.values()):
                    try:
                        os.fsync(fh.fileno())
                    except (OSError, ValueError):
                        pass
                self._dirty.clear()

    @staticmethod
    def _do(job: Callable[[], None]) -> None:
        try:
            job()
        except Exception:  # a full disk must not kill the writer: the game goes on, logged
            log.exception("writing a game file failed")

    def drain(self, timeout: float = 10.0) -> None:
        """Block until everything handed over so far is written (exit, tests, reading back)."""
        if self._thread is None or threading.current_thread() is self._thread:
            return
        done = threading.Event()
        self._jobs.put(done.set)
        done.wait(timeout)


WRITER = _Writer()
atexit.register(WRITER.drain)


class GameStore:
    """The files of one peer in one game; every write is done by the writer thread, in order."""

    def __init__(self, path: Path) -> None:
        self.path = path
        path.mkdir(parents=True, exist_ok=True)
        self._log = open(path / "log.bin", "ab")  # noqa: SIM115 - kept open while playing
        self._meta: dict[str, Any] | None = None  # the last saved, so reading it never waits
        self._submitted = 0
        self._written = 0  # advanced by the writer thread
        self._waiters: list[tuple[int, Future[None]]] = []
        self._lock = threading.Lock()
        self.closed = False

    @staticmethod
    def for_peer(gid: str, peer: str) -> GameStore:
        return GameStore(games_dir() / gid / peer)

    def _submit(self, job: Callable[[], None]) -> None:
        self._submitted += 1
        ticket = self._submitted

        def run() -> None:
            try:
                job()
            finally:
                self._mark_written(ticket)

        WRITER.submit(run)

    def _mark_written(self, ticket: int) -> None:
        with self._lock:
            self._written = ticket
            ready = [f for t, f in self._waiters if t <= ticket]
            self._waiters = [(t, f) for t, f in self._waiters if t > ticket]
        for future in ready:
            if future.set_running_or_notify_cancel():  # its waiter may have been cancelled (a peer stopping)
                future.set_result(None)

    def unwritten(self) -> Awaitable[None] | None:
        """None if all this store was asked to write is written; else an awaitable for when it is.

        A peer awaits it before publishing, so what it sends (its own signed messages, the
        secret behind a commitment) is on disk first, as the protocol assumes after a crash.
        """
        with self._lock:
            if self._written >= self._submitted:
                return None
            future: Future[None] = Future()
            self._waiters.append((self._submitted, future))
        return asyncio.wrap_future(future)

    def sync(self) -> None:
        """Block until this store's writes are done (reading back; tests)."""
        WRITER.drain()

    def append(self, raw: bytes) -> None:
        record = len(raw).to_bytes(4, "big") + raw
        fh = self._log

        def write() -> None:
            fh.write(record)
            fh.flush()
            WRITER.dirty(fh)

        self._submit(write)

    def read_log(self) -> list[bytes]:
        self.sync()
        return read_log(self.path / "log.bin")

    def save_secrets(self, secrets: dict[str, bytes]) -> None:
        data = msgpack.packb(secrets, use_bin_type=True)  # a snapshot: later changes are not ours
        self._submit(lambda: atomic_write(self.path / "secrets.bin", data, mode=0o600))

    def load_secrets(self) -> dict[str, bytes]:
        self.sync()
        try:
            data = msgpack.unpackb((self.path / "secrets.bin").read_bytes(), raw=False)
        except (FileNotFoundError, ValueError, msgpack.ExtraData):
            return {}
        return {str(k): bytes(v) for k, v in data.items() if isinstance(v, bytes)}

    def save_meta(self, meta: dict[str, Any]) -> None:
        self._meta = dict(meta)
        data = json.dumps(meta, indent=1, sort_keys=True).encode()
        self._submit(lambda: atomic_write(self.path / "meta.json", data))

    def load_meta(self) -> dict[str, Any]:
        if self._meta is not None:
            return dict(self._meta)
        try:
            return json.loads((self.path / "meta.json").read_text())
        except (FileNotFoundError, ValueError):
            return {}

    def close(self) -> None:
        """Close the log once what is queued is written (returns at once)."""
        if self.closed:
            return
        self.closed = True
        fh = self._log

        def close() -> None:
            WRITER.forget(fh)
            try:
                fh.flush()
                os.fsync(fh.fileno())
            except (OSError, ValueError):
                pass
            fh.close()

        self._submit(close)


class PendingStore:
    """A peer's files held in memory until they are worth writing (a relay following a table
    that has not begun to play: a flood of fake tables costs it no file).

    Has what a Peer uses of a GameStore; `to_disk` writes it all, in order, and returns the
    GameStore to go on with.
    """

    def __init__(self, meta: dict[str, Any] | None = None) -> None:
        self.raws: list[bytes] = []
        self.secrets: dict[str, bytes] | None = None
        self.meta = dict(meta or {})

    def append(self, raw: bytes) -> None:
        self.raws.append(raw)

    def unwritten(self) -> Awaitable[None] | None:
        return None

    def save_secrets(self, secrets: dict[str, bytes]) -> None:
        self.secrets = dict(secrets)

    def save_meta(self, meta: dict[str, Any]) -> None:
        self.meta = dict(meta)

    def load_meta(self) -> dict[str, Any]:
        return dict(self.meta)

    def close(self) -> None:
        pass

    def to_disk(self, path: Path) -> GameStore:
        store = GameStore(path)
        for raw in self.raws:
            store.append(raw)
        if self.secrets is not None:
            store.save_secrets(self.secrets)
        store.save_meta(self.meta)
        return store


def read_log(path: Path) -> list[bytes]:
    """The envelopes of a log file; a torn last record (crash mid-write) is ignored.

    What this process handed to the writer thread is written first: a replay of a game just
    played here reads every step."""
    WRITER.drain()
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return []
    out: list[bytes] = []
    i = 0
    while i + 4 <= len(data):
        size = int.from_bytes(data[i : i + 4], "big")
        if i + 4 + size > len(data):
            break
        out.append(data[i + 4 : i + 4 + size])
        i += 4 + size
    return out


def saved_games() -> list[tuple[str, str, dict[str, Any]]]:
    """(gid, peer id, meta) of every game with files here, newest first."""
    out = []
    for meta_path in games_dir().glob("*/*/meta.json"):
        try:
            meta = json.loads(meta_path.read_text())
        except ValueError:
            continue
        out.append((meta_path.parent.parent.name, meta_path.parent.name, meta, meta_path.stat().st_mtime))
    out.sort(key=lambda t: -t[3])
    return [(g, p, m) for g, p, m, _ in out]
