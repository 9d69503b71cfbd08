"""Replays: a game read back from disk, step by step, as a read-only table (export: replay_export.py).

Three kinds of file replay:

- a local save (tui/savefile.py: a header, then one record per step);
- a network log, `<data dir>/games/<gid>/<peer>/log.bin`: the signed envelopes one peer
  accepted, in order;
- a relay archive, `<archive>/<gid>/log.bin`: the same format, written by the relay's watcher.

A network log is never taken on trust: its envelopes go through `decode_envelope` (size,
schema, signature) and then through a spectator `Lockstep`, the same state machine a peer
resumes with, fed offline. It checks seats against keys, commitments against reveals and
openings, every action against the engine, and the hash chain; only the steps it applied are
replayed. A log that freezes it is refused with its report.

`ReplayTable` is a `Table` whose state is the replay at a cursor, so the game screens draw
it unchanged; `submit` refuses.
"""

from __future__ import annotations

import json
import logging
import re
import time
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any

from engine.core import (
    Action,
    ActionSpace,
    Event,
    Game,
    GameError,
    GameLog,
    IllegalAction,
    Result,
    Seat,
    State,
    View,
    replay,
)
from engine.core.descriptor import Rounds
from engine.registry import game_ids, get_descriptor, get_game

from .log_text import event_lines
from .savefile import DamagedSave, SaveError, read_save_file, saves_dir
from .table import Table, TableEvent, TableSupports, deal_text

log = logging.getLogger(__name__)

LOG_FILE = "log.bin"


class CannotReplay(Exception):
    """A file that cannot be replayed; the message is one line for the player."""


# ---- rounds ---------------------------------------------------------------------------------
def game_rounds(game_id: str) -> Rounds | None:
    """Where a game has rounds, "jump" asks for one (its descriptor says what it calls them)."""
    try:
        return get_descriptor(game_id).rounds
    except GameError:  # a game outside the registry: the replay moves by steps
        return None


# ---- the replay -----------------------------------------------------------------------------
@dataclass(frozen=True)
class Replay:
    """A game as recorded: its log, who sat where, which seats this player held, every state."""

    game: Game
    game_log: GameLog
    names: tuple[str, ...]
    own_seats: tuple[Seat, ...]
    """Seats this player held (a save's humans; a network log's seat bound to our key)."""
    source: str
    """"save", "network" or "archive"."""
    path: Path
    states: tuple[State, ...]
    """states[k] = the state after k steps (states[0]: the deal)."""
    deal: str = ""
    """A network game's deal as its end audit found it (the end screen's line), else ""."""
    notice: str = ""
    """What is wrong with the file, when only a part of it replays (a damaged save), else ""."""

    @property
    def steps(self) -> int:
        return len(self.game_log.steps)

    def is_over(self) -> bool:
        return self.game.is_over(self.states[-1])

    @cached_property
    def step_events(self) -> tuple[tuple[Event, ...], ...]:
        """The public events of each step (what the table saw)."""
        states = self.states
        return tuple(self.game.events(states[k], dict(step), states[k + 1])
                     for k, step in enumerate(self.game_log.steps))

    @cached_property
    def step_lines(self) -> tuple[tuple[str, ...], ...]:
        """The game log panel's lines of each step: its events, with names."""
        return tuple(tuple(event_lines(self.game.id, events, self.names)) for events in self.step_events)

    def lines_until(self, k: int) -> list[str]:
        """The game log panel as it read after k steps."""
        return [line for step in self.step_lines[:k] for line in step]

    def round_label(self) -> str | None:
        """What the game calls a round ("round", "age"), or None where it has none."""
        rounds = game_rounds(self.game.id)
        return rounds.label if rounds and self._round_of(self.states[0]) is not None else None

    def round_at(self, k: int) -> int | None:
        return self._round_of(self.states[k])

    def round_start(self, number: int) -> int | None:
        """The first cursor position in round `number`, or None if the game never reached it."""
        for k, state in enumerate(self.states):
            if self._round_of(state) == number:
                return k
        return None

    def _round_of(self, state: State) -> int | None:
        rounds = game_rounds(self.game.id)
        if rounds is None:
            return None
        try:
            return int(rounds.number(state))
        except (AttributeError, TypeError, ValueError):  # the state changed shape: steps only
            return None


def load_replay(target: str | Path, *, identity_key: bytes | None = None) -> Replay:
    """Read a save, a network log or a relay archive (a file, its folder, or a game id).

    `identity_key`: the public key of this player (default: this machine's identity, if it
    has one). Raises CannotReplay with one line.
    """
    try:
        kind, path = locate(target)
        if kind == "save":
            return _from_save(path)
        return _from_network_log(path, kind, identity_key)
    except OSError as exc:  # a folder or file that cannot be read (permissions, a vanished file)
        raise CannotReplay(f"cannot read {target}: {exc.strerror or exc}") from None


def locate(target: str | Path) -> tuple[str, Path]:
    """("save" | "network" | "archive", the file) for what the player typed."""
    path = Path(target).expanduser()
    if path.is_dir():
        return _log_in_folder(path)
    if path.is_file():
        return _kind_of_file(path), path
    if not path.exists() and re.fullmatch(r"[A-Za-z0-9_-]{1,64}", str(target)):
        found = _find_game_id(str(target))
        if found is not None:
            return found
    raise CannotReplay(f"no such file: {path}")


def _log_in_folder(folder: Path) -> tuple[str, Path]:
    """A game's folder: its own log.bin, or (games/<gid>/) the one peer folder under it."""
    if (folder / LOG_FILE).is_file():
        return _log_kind(folder / LOG_FILE), folder / LOG_FILE
    logs = sorted(folder.glob(f"*/{LOG_FILE}"), key=lambda p: -p.stat().st_mtime)
    if not logs:
        raise CannotReplay(f"{folder} holds no game log ({LOG_FILE}) and is not a save")
    return _log_kind(logs[0]), logs[0]


def _kind_of_file(path: Path) -> str:
    try:
        with open(path, "rb") as fh:
            first = fh.read(1)
    except OSError as exc:
        raise CannotReplay(f"cannot read {path}: {exc.strerror or exc}") from None
    if not first:
        raise CannotReplay(f"{path} is empty: nothing to replay")
    # A log record starts with its 4-byte big-endian length (< 64 KiB: a zero first byte);
    # a save starts with a msgpack map.
    return _log_kind(path) if first == b"\x00" else "save"


def _log_kind(path: Path) -> str:
    meta = _meta(path.parent)
    return "archive" if meta.get("role") == "archive" else "network"


def _meta(folder: Path) -> dict[str, Any]:
    try:
        meta = json.loads((folder / "meta.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return meta if isinstance(meta, dict) else {}


def _find_game_id(gid: str) -> tuple[str, Path] | None:
    from net.paths import data_dir

    for folder in (data_dir() / "games" / gid, data_dir() / "archive" / gid):
        if folder.is_dir():
            try:
                return _log_in_folder(folder)
            except CannotReplay:
                continue
    return None


def _states(game: Game, game_log: GameLog, path: Path) -> tuple[State, ...]:
    try:
        return tuple(replay(game, game_log))
    except GameError as exc:
        raise CannotReplay(f"{path.name} does not replay with this version of {game.name}: {exc}") from None


def _from_save(path: Path) -> Replay:
    notice = ""
    try:
        saved = read_save_file(path)
    except DamagedSave as exc:  # the part before the damage still replays
        saved, notice = exc.recovered, f"{exc}: replaying its first {exc.kept} steps"
    except SaveError as exc:
        raise CannotReplay(str(exc)) from None
    game = get_game(saved.game_log.game)  # read_save_file checked that it exists
    states = _states(game, saved.game_log, path)
    seating = saved.seating
    return Replay(game, saved.game_log, tuple(seating.names), tuple(seating.humans), "save", path, states,
                  notice=notice)


def _from_network_log(path: Path, kind: str, identity_key: bytes | None) -> Replay:
    from net.codec import decode_envelope
    from net.errors import WireError
    from net.identity import peer_id

    envelopes = []
    raws = _read_records(path)
    for raw in raws:
        try:
            envelopes.append(decode_envelope(raw))
        except WireError as exc:  # unverified bytes are never used
            log.warning("replay of %s: record dropped: %s", path, exc)
    start = next((env for env in envelopes if env.kind == "start"), None)
    if start is None:
        raise CannotReplay(f"{_shown(path)} holds no started game: nothing to replay")
    game = _game_of(start.body["game"], path)
    lockstep = _verified_lockstep(game, start, envelopes, path)
    keys = list(lockstep.keys)
    mine = {identity_key} if identity_key is not None else _my_keys()
    owner = path.parent.name  # games/<gid>/<peer id>/: the peer that wrote this log, here
    own = tuple(seat for seat, key in enumerate(keys)
                if key in mine or (kind == "network" and peer_id(key) == owner))
    assert lockstep.game_log is not None
    deal = _deal_of(lockstep)
    if lockstep.dealt and lockstep.deal_verdict != "verified":
        # hidden cards whose deal no audit has shown yet: the table's public states only
        states = lockstep.public_states
        return Replay(game, lockstep.game_log, tuple(lockstep.names), (), kind, path, states, deal)
    states = _states(game, lockstep.game_log, path)
    if not lockstep.replays():  # the engine and the protocol must agree
        raise CannotReplay(f"{_shown(path)}: the replayed game does not reach the logged state")
    return Replay(game, lockstep.game_log, tuple(lockstep.names), own, kind, path, states, deal)


def _deal_of(lockstep: Any) -> str:
    """The end screen's line on the deal of a network log: the audit's verdict, if it ran."""
    if lockstep.dealt and lockstep.deal_verdict is None:
        return "Deal: not audited (the log ends before the end audit)" if lockstep.phase == "over" else ""
    return deal_text(lockstep.dealt, lockstep.deal_verdict)


def _read_records(path: Path) -> list[bytes]:
    from net.store import read_log

    try:
        raws = read_log(path)
    except OSError as exc:
        raise CannotReplay(f"cannot read {path}: {exc.strerror or exc}") from None
    if not raws:
        raise CannotReplay(f"{_shown(path)} holds no game messages")
    return raws


def _game_of(game_id: str, path: Path) -> Game:
    try:
        return get_game(game_id)
    except GameError:
        raise CannotReplay(f"{_shown(path)} is a game of {game_id!r}, which this gamenight does not have "
                           f"(games: {', '.join(game_ids())})") from None


def _verified_lockstep(game: Game, start: Any, envelopes: list[Any], path: Path) -> Any:
    """A spectator Lockstep fed the log offline: it applies only what checks out."""
    from net.lockstep import Lockstep, Note
    from net.versions import local_versions, version_mismatch

    # The host signs the start; trusting its key for the seat messages is what a joiner does.
    lockstep = Lockstep(game, start.gid, None, host_key=start.sender)
    lockstep.replaying = True
    dropped = 0
    for env in envelopes:
        for out in lockstep.receive(env):
            dropped += isinstance(out, Note) and out.kind == "dropped"
    if lockstep.frozen or lockstep.game_log is None:
        problem = lockstep.frozen or "the players never agreed on the seed"
        versions = version_mismatch(local_versions(game), start.body["versions"], "this gamenight", "the log")
        raise CannotReplay(f"{_shown(path)} does not replay: {problem}" + (f" ({versions})" if versions else ""))
    if dropped:
        log.info("replay of %s: %d messages did not check out and were left out", path, dropped)
    return lockstep


def _my_keys() -> set[bytes]:
    """This machine's public key, if it has one (a replay never creates nor rewrites one)."""
    from net.identity import KEY_FILE, Identity
    from net.paths import data_dir

    try:
        seed = (data_dir() / KEY_FILE).read_bytes()
    except OSError:
        return set()
    return {Identity.from_seed(seed).public} if len(seed) == 32 else set()


def _shown(path: Path) -> str:
    """A log file named by its game folder (every log is called log.bin)."""
    return f"{path.parent.parent.name}/{path.parent.name}/{path.name}" if path.name == LOG_FILE else path.name


# ---- what the menu lists -------------------------------------------------------------------
@dataclass(frozen=True)
class ReplayFile:
    path: Path
    label: str
    mtime: float


def replayable_files() -> list[ReplayFile]:
    """Local saves, this machine's network games and relay archives, newest first."""
    from net.paths import data_dir

    found = [ReplayFile(p, _save_label(p), p.stat().st_mtime) for p in saves_dir().glob("*.save")]
    for folder, what in ((data_dir() / "games", "network"), (data_dir() / "archive", "archive")):
        pattern = f"*/*/{LOG_FILE}" if what == "network" else f"*/{LOG_FILE}"
        if folder.is_dir():
            found += [ReplayFile(p, _log_label(p, what), p.stat().st_mtime) for p in folder.glob(pattern)]
    found.sort(key=lambda f: -f.mtime)
    return found


def _game_name(game_id: str) -> str:
    try:
        return get_game(game_id).name
    except GameError:
        return game_id


def _save_label(path: Path) -> str:
    return f"{_game_name(path.name.split('-', 1)[0])} · local save · {_when(path)}"


def _log_label(path: Path, what: str) -> str:
    gid = path.parent.name if what == "archive" else path.parent.parent.name
    meta = _meta(path.parent)
    game = meta.get("game") if isinstance(meta.get("game"), str) else gid.rsplit("-", 1)[0]
    role = f" ({meta['role']})" if what == "network" and isinstance(meta.get("role"), str) else ""
    return f"{_game_name(game)} · {what} game {gid}{role} · {_when(path)}"


def _when(path: Path) -> str:
    return time.strftime("%Y-%m-%d %H:%M", time.localtime(path.stat().st_mtime))


# ---- the read-only table -------------------------------------------------------------------
class ReplayTable(Table):
    """The replay at a cursor, for a game screen: views and legal actions of that state."""

    supports = TableSupports(actions=False)

    def __init__(self, recorded: Replay, cursor: int = 0) -> None:
        super().__init__()
        self.replay = recorded
        self.game = recorded.game
        self.names = list(recorded.names)
        self.local_seats = ()
        self.cursor = max(0, min(cursor, recorded.steps))
        self.log_lines = recorded.lines_until(self.cursor)

    # ---- the cursor --------------------------------------------------------------------
    @property
    def state(self) -> State:
        return self.replay.states[self.cursor]

    def seek(self, k: int) -> bool:
        """Move to position k (0 = the deal, steps = the end); True if it moved."""
        k = max(0, min(k, self.replay.steps))
        if k == self.cursor:
            return False
        self.cursor = k
        self.log_lines = self.replay.lines_until(k)
        self.emit(TableEvent("changed", "", {"step": k}))
        return True

    @property
    def deal_line(self) -> str:
        """What the end audit said of a network game's deal (the end screen shows it)."""
        return self.replay.deal

    @property
    def viewed_seat(self) -> Seat | None:
        return self.local_seats[0] if self.local_seats else None

    def next_view(self) -> Seat | None:
        """Cycle the shown view: the public one, then each seat this player held."""
        order: list[Seat | None] = [None, *self.replay.own_seats]
        self.local_seats = (order[(order.index(self.viewed_seat) + 1) % len(order)],)
        if self.local_seats == (None,):
            self.local_seats = ()
        self.emit(TableEvent("changed", "", {"view": self.viewed_seat}))
        return self.viewed_seat

    # ---- Table interface ---------------------------------------------------------------
    def view(self, seat: Seat | None) -> View:
        return self.game.view(self.state, seat)

    def legal_actions(self, seat: Seat) -> Sequence[Action] | ActionSpace:
        return self.game.legal_actions(self.state, seat)

    def active(self) -> frozenset[Seat]:
        return self.game.active(self.state)

    def awaiting(self) -> frozenset[Seat]:
        """Nobody is awaited in a replay: no seat is asked to act (the screen says who was)."""
        return frozenset()

    def has_chosen(self, seat: Seat) -> bool:
        return False

    def is_over(self) -> bool:
        return self.game.is_over(self.state)

    def result(self) -> Result:
        return self.game.result(self.state)

    async def submit(self, seat: Seat, action: Action) -> None:
        raise IllegalAction("this is a replay: nothing can be played")

    async def chat(self, text: str) -> None:
        raise IllegalAction("this is a replay: nobody is listening")
