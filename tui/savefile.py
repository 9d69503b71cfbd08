"""The save file of a local game: a header, then one record per step, appended as play goes.

A save is a stream of canonical msgpack values. The first is the header (format, version, the
rules version, who sits where, and the game's setup as an `engine.core.GameLog` with no steps);
each later value is one step: the (seat, action) pairs of that step. Appending a step writes
only that step, so saving costs the same at step 1 and at step 400, and it happens on a thread
of its own, so the screen never waits for the disk.

Reading decodes the header first, imports the game it names (its action types are registered
by that import), then decodes the steps. Each way a file can be unusable has its own message:
not a save at all, a save of a game this gamenight does not have, a save from a newer
gamenight, or a save that is damaged (and where). A torn last record (the machine stopped
mid-write) is dropped: the game resumes one step earlier.
"""

from __future__ import annotations

import logging
import secrets
import threading
import time
from collections.abc import Callable, Mapping
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, replace
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
SAVE_VERSION = 2
"""2: header + a record per step (appended). 1: one map holding the whole log (still read)."""
LAST_POINTER = "last"


class SaveError(Exception):
    """A save file that cannot be used; the message is one line for the player."""


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
def header_bytes(game_log: GameLog, seating: Seating, rules_version: str) -> bytes:
    return canonical(
        {
            "format": SAVE_FORMAT,
            "version": SAVE_VERSION,
            "rules_version": rules_version,
            "names": list(seating.names),
            "humans": list(seating.humans),
            "bot_kind": seating.bot_kind,
            "clock": str(seating.clock),
            "log": replace(game_log, steps=()),
        }
    )


def step_bytes(actions: Mapping[Seat, Action]) -> bytes:
    return canonical([[seat, actions[seat]] for seat in sorted(actions)])


def save_bytes(game_log: GameLog, seating: Seating, rules_version: str) -> bytes:
    """A whole save at once (a new game, or a save rewritten clean)."""
    records = [header_bytes(game_log, seating, rules_version)]
    records += [step_bytes(dict(step)) for step in game_log.steps]
    return b"".join(records)


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
    path = Path(path)
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        raise SaveError(f"no save file at {path}") from None
    except OSError as exc:
        raise SaveError(f"cannot read the save {path}: {exc.strerror or exc}") from None
    values, good_end = _unpack_all(raw)
    if not values or not isinstance(values[0], dict) or values[0].get("format") != SAVE_FORMAT:
        raise SaveError(f"{path.name} is not a gamenight save")
    head = values[0]
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
    if version == 1:
        game_log = _decode(path, head.get("log"), "its game record")
        clean = False
    else:
        setup = _decode(path, head.get("log"), "its header")
        steps = tuple(_decode_step(path, k, value) for k, value in enumerate(values[1:]))
        game_log = replace(setup, steps=steps) if isinstance(setup, GameLog) else setup
        clean = good_end == len(raw)
    seating = _seating(path, head, game_log)
    return SaveFile(game_log, seating, clean)


def _unpack_all(raw: bytes) -> tuple[list[Any], int]:
    """Every complete msgpack value, and where the last one ended (a torn tail is left out)."""
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
        pass
    return values, end


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

    def append(self, data: bytes) -> None:
        self._submit(self._append, data)

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

    def _append(self, data: bytes) -> None:
        with open(self.path, "ab") as fh:
            fh.write(data)
            fh.flush()

    def _report(self) -> None:
        with self._lock:
            failed, self._failed = self._failed, []
        for message in failed[-1:]:
            self._on_error(message)
