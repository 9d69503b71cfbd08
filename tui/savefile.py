"""The save file of a local game: a header, then one record per step, appended as play goes.

A save is a stream of canonical msgpack values. The first is the header (format, version, the
rules version, who sits where, and the game's setup as an `engine.core.GameLog` with no steps);
each later value is one step: the (seat, action) pairs of that step and a check; the last is
the end record (how many steps, and the last check). Appending a step writes that step and a
new end record over the old one, so saving costs the same at step 1 and at step 400, and it
happens on a thread of its own, so the screen never waits for the disk.

The checks chain: the header's is the first 8 bytes of SHA-256 over its other fields, each
step's covers the check before it and its own pairs. So a save cut short anywhere (it then
ends without its end record) or damaged anywhere (a check fails) is found, and where: reading
raises `DamagedSave`, which holds the steps before the damage for the player to continue from.

Reading decodes the header first, imports the game it names (its action types are registered
by that import), then decodes the steps. Each way a file can be unusable has its own message:
not a save at all, a save of a game this gamenight does not have, a save from a newer
gamenight, or a save that is damaged (and where). Saves of versions 1 and 2 (no checks) still
open; a version 2 save cut at a record's end cannot be told from a shorter game.
"""

from __future__ import annotations

import logging
import os
import secrets
import threading
import time
from collections.abc import Callable, Mapping
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from hashlib import sha256
from pathlib import Path
from typing import Any

import msgpack

from engine.core import Action, GameError, GameLog, Seat, canonical, from_plain
from engine.registry import game_ids, get_game
from net.paths import data_dir
from net.store import atomic_write

from .clock import NO_CLOCK, ClockError, ClockSpec

log = logging.getLogger(__name__)

SAVE_FORMAT = "gamenight-save"
SAVE_VERSION = 3
"""3: header, a record per step and an end record, all checked. 2: header + a record per step
(appended). 1: one map holding the whole log. (All still read.)"""
LAST_POINTER = "last"
CHECK_DOMAIN = b"gamenight save check\0"


class SaveError(Exception):
    """A save file that cannot be used; the message is one line for the player."""


class DamagedSave(SaveError):
    """A save cut short or damaged after its first `kept` steps, which `recovered` holds."""

    def __init__(self, message: str, recovered: SaveFile) -> None:
        super().__init__(message)
        self.recovered = recovered

    @property
    def kept(self) -> int:
        return len(self.recovered.game_log.steps)

    @property
    def offer(self) -> str:
        """What can be done with it, as a question."""
        return f"continue from step {self.kept}?" if self.kept else "start it again from its deal?"


@dataclass(frozen=True)
class Seating:
    """Who sits where: a name per seat, which seats are humans here, and the bot kind."""

    names: tuple[str, ...]
    humans: tuple[Seat, ...]
    bot_kind: str = "best"
    clock: ClockSpec = NO_CLOCK


def saves_dir() -> Path:
    path = data_dir() / "saves"
    path.mkdir(parents=True, exist_ok=True)
    return path


def new_save_path(game_id: str) -> Path:
    """A fresh file name: game, local time and a random suffix (two games never collide)."""
    stamp = time.strftime("%Y%m%d-%H%M%S")
    return saves_dir() / f"{game_id}-{stamp}-{secrets.token_hex(2)}.save"


def last_save_path() -> Path | None:
    """The save of the last local game played, if it still exists."""
    pointer = saves_dir() / LAST_POINTER
    try:
        name = pointer.read_text(encoding="utf-8").strip()
    except OSError:
        return None
    path = saves_dir() / name
    return path if name and path.is_file() else None


def point_last_at(path: Path) -> None:
    """Make `path` the game that Continue and `gamenight resume` pick up."""
    atomic_write(saves_dir() / LAST_POINTER, path.name.encode())


# ---- encoding ------------------------------------------------------------------------------
def check(previous: bytes, record: bytes) -> bytes:
    """A record's check: it covers the check before it too, so damage anywhere shows."""
    return sha256(CHECK_DOMAIN + previous + record).digest()[:8]


@dataclass
class SaveTail:
    """How a save ends as written: its steps and last check, to append the next step."""

    steps: int = 0
    last: bytes = b""
    end: bytes = field(default=b"", repr=False)  # the end record, overwritten by the next step

    def header(self, game_log: GameLog, seating: Seating, rules_version: str) -> bytes:
        fields = {
            "format": SAVE_FORMAT,
            "version": SAVE_VERSION,
            "rules_version": rules_version,
            "names": list(seating.names),
            "humans": list(seating.humans),
            "bot_kind": seating.bot_kind,
            "clock": str(seating.clock),
            "log": replace(game_log, steps=()),
        }
        self.steps, self.last = 0, check(b"", canonical(fields))
        return canonical({**fields, "check": self.last})

    def step(self, actions: Mapping[Seat, Action]) -> bytes:
        pairs = canonical([[seat, actions[seat]] for seat in sorted(actions)])
        self.steps, self.last = self.steps + 1, check(self.last, pairs)
        return b"\x92" + pairs + msgpack.packb(self.last, use_bin_type=True)  # [pairs, check]

    def close(self) -> bytes:
        self.end = canonical({"end": self.steps, "check": self.last})
        return self.end

    def append(self, actions: Mapping[Seat, Action]) -> tuple[bytes, int]:
        """(the bytes to write, how many bytes at the file's end they replace: the old end)."""
        back = len(self.end)
        return self.step(actions) + self.close(), back


def save_bytes(game_log: GameLog, seating: Seating, rules_version: str, tail: SaveTail | None = None) -> bytes:
    """A whole save at once (a new game, or a save rewritten clean); `tail` follows it."""
    tail = tail if tail is not None else SaveTail()
    records = [tail.header(game_log, seating, rules_version)]
    records += [tail.step(dict(step)) for step in game_log.steps]
    return b"".join(records) + tail.close()


# ---- decoding ------------------------------------------------------------------------------
@dataclass(frozen=True)
class SaveFile:
    """A save as read: the game so far, who sits where, and whether the bytes need rewriting."""

    game_log: GameLog
    seating: Seating
    clean: bool
    """False for a version 1 save or one with a torn last record: rewrite before appending."""


def read_save(path: Path) -> tuple[GameLog, Seating]:
    """Parse and check a save (the file is only read). Raises SaveError with one clear line."""
    saved = read_save_file(path)
    return saved.game_log, saved.seating


def read_save_file(path: Path) -> SaveFile:
    """The save at `path`; SaveError (DamagedSave with what it can recover) says why not."""
    path = Path(path)
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        raise SaveError(f"no save file at {path}") from None
    except OSError as exc:
        raise SaveError(f"cannot read the save {path}: {exc.strerror or exc}") from None
    values, good_end, garbage = _unpack_all(raw)
    if not values and raw[:1] and 0x80 <= raw[0] <= 0x8F and not garbage:  # a map, cut short
        raise SaveError(f"{path.name} is cut short in its header (or is not a gamenight save): nothing to continue from")
    if not values or not isinstance(values[0], dict) or values[0].get("format") != SAVE_FORMAT:
        raise SaveError(f"{path.name} is not a gamenight save")
    head = values[0]
    version = _version(path, head)
    if version >= 3 or "check" in head:  # a damaged version number must not skip the checks
        _check_header(path, head)
    if version == 1:
        game_log = _decode(path, head.get("log"), "its game record")
        return SaveFile(game_log, _seating(path, head, game_log), clean=False)
    setup = _decode(path, head.get("log"), "its header")
    if version == 2:
        steps = tuple(_decode_step(path, k, value) for k, value in enumerate(values[1:]))
        problem = None if good_end == len(raw) else _damage(path, len(steps), None, garbage)
    else:
        steps, problem = _checked_steps(path, head, values[1:], garbage)
    game_log = replace(setup, steps=steps) if isinstance(setup, GameLog) else setup
    saved = SaveFile(game_log, _seating(path, head, game_log), clean=version == SAVE_VERSION and problem is None)
    if problem is not None:
        raise DamagedSave(problem, saved)
    return saved


def _version(path: Path, head: dict[str, Any]) -> int:
    """The save's format version, once its game and rules are known to be this gamenight's."""
    version = head.get("version")
    if not isinstance(version, int) or version < 1:
        raise SaveError(f"{path.name} is damaged: its format version is unreadable")
    if version > SAVE_VERSION:
        raise SaveError(
            f"{path.name} was written by a newer gamenight (save format {version}; "
            f"this one reads up to {SAVE_VERSION}): update gamenight to continue it"
        )
    game_id = _game_id(path, head)
    try:
        game = get_game(game_id)  # importing the game registers its action types
    except GameError:
        raise SaveError(
            f"{path.name} is a save of {game_id!r}, a game this gamenight does not have "
            f"(games: {', '.join(game_ids())})"
        ) from None
    if head.get("rules_version") != game.rules_version:
        raise SaveError(
            f"{path.name} was saved with {game.name} rules version {head.get('rules_version')!r}; "
            f"this gamenight has {game.rules_version!r}"
        )
    return version


def _checked_steps(path: Path, head: dict[str, Any], records: list[Any],
                   garbage: bool) -> tuple[tuple[tuple[tuple[Seat, Action], ...], ...], str | None]:
    """The steps whose checks hold, up to the end record; and what is wrong after them, if anything."""
    last = head["check"]
    steps: list[tuple[tuple[Seat, Action], ...]] = []
    for k, record in enumerate(records):
        if isinstance(record, dict):  # the end record: the last one, naming every step and check
            if record == {"end": len(steps), "check": last} and k == len(records) - 1 and not garbage:
                return tuple(steps), None
            total = record.get("end") if isinstance(record.get("end"), int) else None
            return tuple(steps), _damage(path, len(steps), total, True)
        if not (isinstance(record, list) and len(record) == 2 and record[1] == check(last, canonical(record[0]))):
            return tuple(steps), _damage(path, len(steps), _end_of(records[k:]), True)
        last = record[1]
        steps.append(_decode_step(path, k, record[0]))
    return tuple(steps), _damage(path, len(steps), None, garbage)


def _check_header(path: Path, head: dict[str, Any]) -> None:
    if head.get("check") != check(b"", canonical({k: v for k, v in head.items() if k != "check"})):
        raise SaveError(f"{path.name} is damaged in its header: nothing to continue from")


def _end_of(records: list[Any]) -> int | None:
    """How many steps the end record (if it is still there) says the save had."""
    end = records[-1] if records else None
    return end.get("end") if isinstance(end, dict) and isinstance(end.get("end"), int) else None


def _damage(path: Path, kept: int, total: int | None, damaged: bool) -> str:
    what = "damaged" if damaged else "cut short"
    of = f" of {total}" if total is not None and total > kept else ""
    return f"{path.name} is {what} after step {kept}{of}"


def _unpack_all(raw: bytes) -> tuple[list[Any], int, bool]:
    """Every complete msgpack value, where the last one ended, and whether bytes that are no
    msgpack value followed (True) rather than a value cut short or nothing (False)."""
    unpacker = msgpack.Unpacker(raw=False, strict_map_key=True, max_buffer_size=max(len(raw), 1))
    unpacker.feed(raw)
    values: list[Any] = []
    end = 0
    try:
        for value in unpacker:
            values.append(value)
            end = unpacker.tell()
    except (ValueError, msgpack.UnpackException, msgpack.ExtraData):
        # Garbage after a good record: keep what decoded. Garbage at the start: not a save.
        return values, end, True
    return values, end, False


def _game_id(path: Path, head: dict[str, Any]) -> str:
    setup = head.get("log")
    game_id = setup.get("game") if isinstance(setup, dict) else None
    if not isinstance(game_id, str):
        raise SaveError(f"{path.name} is damaged: it does not say which game it is")
    return game_id


def _decode(path: Path, value: Any, what: str) -> Any:
    try:
        return from_plain(value)
    except GameError as exc:
        raise SaveError(f"{path.name} is damaged: {what} does not decode ({exc})") from None


def _decode_step(path: Path, k: int, value: Any) -> tuple[tuple[Seat, Action], ...]:
    step = _decode(path, value, f"step {k + 1}")
    if (
        not isinstance(step, tuple)
        or not step
        or not all(isinstance(p, tuple) and len(p) == 2 and isinstance(p[0], int) for p in step)
    ):
        raise SaveError(f"{path.name} is damaged: step {k + 1} is not a list of actions")
    return step


def _seating(path: Path, head: dict[str, Any], game_log: Any) -> Seating:
    names, humans = head.get("names"), head.get("humans")
    if (
        not isinstance(game_log, GameLog)
        or not isinstance(names, list)
        or not all(isinstance(n, str) for n in names)
        or not isinstance(humans, list)
        or not all(isinstance(h, int) and 0 <= h < len(names) for h in humans)
        or len(names) != game_log.n_players
    ):
        raise SaveError(f"{path.name} is damaged: its seats do not match its game")
    bot_kind = head.get("bot_kind") if isinstance(head.get("bot_kind"), str) else "best"
    try:
        clock = ClockSpec.parse(head.get("clock") or "off")
    except (ClockError, AttributeError):
        raise SaveError(f"{path.name} is damaged: its clock setting {head.get('clock')!r} does not read") from None
    return Seating(tuple(names), tuple(sorted(humans)), bot_kind, clock)


# ---- writing -------------------------------------------------------------------------------
class SaveWriter:
    """Writes one save file on a thread of its own, in order; the caller never waits for it.

    A failed write is remembered and handed to `on_error` from the caller's side (at the next
    write or at `flush`), so the table can tell the player in its own event loop.
    """

    def __init__(self, path: Path, on_error: Callable[[str], None]) -> None:
        self.path = path
        self._on_error = on_error
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="save")
        self._failed: list[str] = []
        self._lock = threading.Lock()
        self._last: Future[None] | None = None

    def rewrite(self, data: bytes) -> None:
        """Replace the whole file (atomically) and point "last game" at it."""
        self._submit(self._rewrite, data)

    def append(self, data: bytes, back: int = 0) -> None:
        """Write `data` over the last `back` bytes of the file (the end record it replaces)."""
        self._submit(lambda chunk: self._append(chunk, back), data)

    def flush(self) -> None:
        """Wait until everything handed over is on disk (leaving a game, tests)."""
        if self._last is not None:
            self._last.result()
        self._report()

    def close(self) -> None:
        self.flush()
        self._pool.shutdown(wait=True)

    def _submit(self, write: Callable[[bytes], None], data: bytes) -> None:
        self._report()
        self._last = self._pool.submit(self._guarded, write, data)

    def _guarded(self, write: Callable[[bytes], None], data: bytes) -> None:
        try:
            write(data)
        except OSError as exc:
            log.exception("saving %s failed", self.path)
            with self._lock:
                self._failed.append(f"The game could not be saved: {exc.strerror or exc}")

    def _rewrite(self, data: bytes) -> None:
        atomic_write(self.path, data)
        point_last_at(self.path)

    def _append(self, data: bytes, back: int) -> None:
        with open(self.path, "r+b") as fh:
            end = fh.seek(0, os.SEEK_END)
            fh.seek(max(0, end - back))
            fh.write(data)
            fh.flush()

    def _report(self) -> None:
        with self._lock:
            failed, self._failed = self._failed, []
        for message in failed[-1:]:
            self._on_error(message)
