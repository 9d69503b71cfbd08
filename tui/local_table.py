"""A table played on this terminal: the engine, local bots, hot seat, and a save after every step.

The save is the game's action log (engine.core.GameLog) plus who sits where, in canonical
msgpack, so resuming is a replay: the engine rebuilds the exact state, and a save that does
not replay is refused with a clear message instead of being "repaired".
"""

from __future__ import annotations

import asyncio
import logging
import os
import re
import secrets
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engine.bots import make_bot
from engine.core import (
    Action,
    ActionSpace,
    Game,
    GameError,
    GameLog,
    IllegalAction,
    Result,
    Seat,
    Stream,
    View,
    canonical,
    decode,
    final_state,
    new_log,
    seed_bytes,
)
from engine.registry import get_game
from net.paths import data_dir

from .table import Table, TableEvent

log = logging.getLogger(__name__)
_SEAT = re.compile(r"\bseat (\d+)\b")

SAVE_FORMAT = "gamenight-save"
SAVE_VERSION = 1
LAST_POINTER = "last"


class SaveError(Exception):
    """A save file that cannot be used; the message is one line for the player."""


@dataclass(frozen=True)
class Seating:
    """Who sits where: a name per seat, which seats are humans here, and the bot kind."""

    names: tuple[str, ...]
    humans: tuple[Seat, ...]
    bot_kind: str = "best"


def saves_dir() -> Path:
    path = data_dir() / "saves"
    path.mkdir(parents=True, exist_ok=True)
    return path


def new_save_path(game_id: str) -> Path:
    """A fresh file name: game, local time and a random suffix (two games never collide)."""
    stamp = time.strftime("%Y%m%d-%H%M%S")
    return saves_dir() / f"{game_id}-{stamp}-{secrets.token_hex(2)}.save"


def atomic_write(path: Path, data: bytes) -> None:
    """Write via a temporary file and os.replace, so a crash never leaves half a save."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    with open(tmp, "wb") as fh:
        fh.write(data)
        fh.flush()
        os.fsync(fh.fileno())
    os.replace(tmp, path)


def last_save_path() -> Path | None:
    """The save of the last local game played, if it still exists."""
    pointer = saves_dir() / LAST_POINTER
    try:
        name = pointer.read_text(encoding="utf-8").strip()
    except OSError:
        return None
    path = saves_dir() / name
    return path if name and path.is_file() else None


def _save_bytes(log_: GameLog, seating: Seating, rules_version: str) -> bytes:
    return canonical(
        {
            "format": SAVE_FORMAT,
            "version": SAVE_VERSION,
            "rules_version": rules_version,
            "names": list(seating.names),
            "humans": list(seating.humans),
            "bot_kind": seating.bot_kind,
            "log": log_,
        }
    )


def read_save(path: Path) -> tuple[GameLog, Seating]:
    """Parse and check a save (the file is only read). Raises SaveError with one clear line."""
    try:
        raw = Path(path).read_bytes()
    except FileNotFoundError:
        raise SaveError(f"no save file at {path}") from None
    except OSError as exc:
        raise SaveError(f"cannot read the save {path}: {exc.strerror or exc}") from None
    try:
        data = decode(raw)
    except GameError:
        raise SaveError(f"{path.name} is not a gamenight save (it is damaged or another kind of file)") from None
    if not isinstance(data, dict) or data.get("format") != SAVE_FORMAT:
        raise SaveError(f"{path.name} is not a gamenight save")
    if data.get("version") != SAVE_VERSION:
        raise SaveError(f"{path.name} was written by another gamenight version (save format {data.get('version')!r}, this one reads {SAVE_VERSION})")
    game_log = data.get("log")
    names, humans = data.get("names"), data.get("humans")
    if (
        not isinstance(game_log, GameLog)
        or not isinstance(names, tuple)
        or not all(isinstance(n, str) for n in names)
        or not isinstance(humans, tuple)
        or not all(isinstance(h, int) and 0 <= h < len(names) for h in humans)
        or len(names) != game_log.n_players
    ):
        raise SaveError(f"{path.name} is damaged: its seats do not match its game")
    try:
        game = get_game(game_log.game)
    except GameError as exc:
        raise SaveError(f"{path.name} cannot be resumed: {exc}") from None
    if data.get("rules_version") != game.rules_version:
        raise SaveError(f"{path.name} was saved with {game.name} rules version {data.get('rules_version')!r}; this gamenight has {game.rules_version!r}")
    bot_kind = data.get("bot_kind") if isinstance(data.get("bot_kind"), str) else "best"
    return game_log, Seating(tuple(names), tuple(sorted(humans)), bot_kind)


class LocalTable(Table):
    """The engine with local bots; humans at this terminal submit for `local_seats`."""

    def __init__(
        self,
        game: Game,
        game_log: GameLog,
        seating: Seating,
        *,
        bot_delay: float = 0.5,
        save_path: Path | None = None,
    ) -> None:
        super().__init__()
        if len(seating.names) != game_log.n_players:
            raise ValueError("one name per seat")
        self.game = game
        self.game_log = game_log
        self.seating = seating
        self.names = list(seating.names)
        self.local_seats = tuple(seating.humans)
        self.bot_delay = bot_delay
        self.save_path = save_path
        self.state = final_state(game, game_log)
        root = Stream(game_log.seed)
        self._bots = {
            seat: make_bot(game, seat, seating.bot_kind, root.fork(f"bot{seat}"))
            for seat in range(game_log.n_players)
            if seat not in self.local_seats
        }
        self._pending: dict[Seat, Action] = {}
        self._lock = asyncio.Lock()
        self._closed = False

    # ---- construction ------------------------------------------------------------------
    @classmethod
    def new(
        cls,
        game_id: str,
        n_players: int,
        *,
        humans: int,
        seed: bytes | int | str | None = None,
        options: Mapping[str, Any] | None = None,
        names: Sequence[str] | None = None,
        bot_kind: str = "best",
        bot_delay: float = 0.5,
        save: bool = True,
    ) -> LocalTable:
        """A new game: humans take seats 0..humans-1, bots the rest. Bad input raises GameError."""
        game = get_game(game_id)
        if not 0 <= humans <= n_players:
            raise IllegalAction(f"{humans} humans do not fit at a table of {n_players}")
        seed_value = secrets.token_bytes(16) if seed is None else seed_bytes(seed)
        opts = dict(options or {})
        game.setup(n_players, seed_value, opts)  # validates players and options
        game_log = new_log(game, n_players, seed_value, game.check_options(opts))
        seating = Seating(default_names(n_players, humans, names), tuple(range(humans)), bot_kind)
        path = new_save_path(game.id) if save else None
        table = cls(game, game_log, seating, bot_delay=bot_delay, save_path=path)
        table.save()
        return table

    @classmethod
    def load(cls, path: Path, *, bot_delay: float = 0.5) -> LocalTable:
        return load_save(path, bot_delay=bot_delay)

    # ---- Table interface ---------------------------------------------------------------
    def view(self, seat: Seat | None) -> View:
        return self.game.view(self.state, seat)

    def legal_actions(self, seat: Seat) -> Sequence[Action] | ActionSpace:
        return self.game.legal_actions(self.state, seat)

    def active(self) -> frozenset[Seat]:
        return self.game.active(self.state)

    def awaiting(self) -> frozenset[Seat]:
        return self.game.active(self.state) - frozenset(self._pending)

    def has_chosen(self, seat: Seat) -> bool:
        """True when a seat's action for the current step is in (shown as "has chosen")."""
        return seat in self._pending

    def is_over(self) -> bool:
        return self.game.is_over(self.state)

    def result(self) -> Result:
        return self.game.result(self.state)

    async def submit(self, seat: Seat, action: Action) -> None:
        if seat not in self.local_seats:
            raise IllegalAction(f"seat {seat} is not played at this terminal")
        async with self._lock:  # checked against the state the action will really meet
            if seat in self._pending:
                raise IllegalAction(f"{self.names[seat]} has already chosen this step")
            try:
                self.game.validate(self.state, seat, action)
            except IllegalAction as exc:
                raise type(exc)(self.with_names(exc.reason)) from None
            self._pending[seat] = action
            self.emit(TableEvent("waiting"))
            await self._advance()

    async def start(self) -> None:
        """Let the bots play until a human must act (or the game ends)."""
        async with self._lock:
            await self._advance()

    async def close(self) -> None:
        self._closed = True
        self.save()

    async def chat(self, text: str) -> None:
        self.emit(TableEvent("chat", text))

    # ---- play --------------------------------------------------------------------------
    async def _advance(self) -> None:
        """Apply steps while every active seat has acted, asking bots as their turns come."""
        while not self._closed and not self.game.is_over(self.state):
            active = self.game.active(self.state)
            bots = sorted(s for s in active if s not in self.local_seats and s not in self._pending)
            if bots:
                humans_waiting = any(s in self.local_seats and s not in self._pending for s in active)
                # A bot that acts together with a waiting human chooses at once (the choice is
                # hidden); a bot acting alone waits a moment so people can follow the table.
                if not humans_waiting and self.bot_delay > 0:
                    await asyncio.sleep(self.bot_delay)
                    if self._closed:
                        return
                for seat in bots:
                    self._pending[seat] = self._bot_choice(seat)
                self.emit(TableEvent("waiting"))
            if not active <= frozenset(self._pending):
                return
            self._step()
            await asyncio.sleep(0)  # let the screen draw between steps
        if self.game.is_over(self.state) and not self._closed:
            self.emit(TableEvent("over", "The game is over."))

    def _bot_choice(self, seat: Seat) -> Action:
        bot = self._bots[seat]
        # Each decision gets its own stream, so a resumed game plays on exactly as it would have.
        bot.rng = Stream(self.game_log.seed).fork(f"bot{seat}/step{len(self.game_log.steps)}")
        return bot.choose(self.game.view(self.state, seat), self.game.legal_actions(self.state, seat))

    def _step(self) -> None:
        actions = dict(self._pending)
        self.state = self.game.apply(self.state, actions)
        self._pending.clear()
        self.game_log = self.game_log.append(actions)
        self.save()
        for seat in sorted(actions):
            line = f"{self.names[seat]}: {self.with_names(self.game.describe(actions[seat]))}"
            self.emit(TableEvent("changed", line, {"seat": seat}))

    def with_names(self, text: str) -> str:
        """Engine text says "seat 2"; the table says the player's name."""
        return _SEAT.sub(lambda m: self.names[int(m.group(1))] if int(m.group(1)) < len(self.names) else m.group(0), text)

    # ---- saving ------------------------------------------------------------------------
    def save(self) -> None:
        """Write the log atomically and point "last game" at it (no-op without a path)."""
        if self.save_path is None:
            return
        try:
            atomic_write(self.save_path, _save_bytes(self.game_log, self.seating, self.game.rules_version))
            atomic_write(saves_dir() / LAST_POINTER, self.save_path.name.encode())
        except OSError as exc:
            log.exception("saving %s failed", self.save_path)
            self.emit(TableEvent("error", f"The game could not be saved: {exc.strerror or exc}"))


def default_names(n_players: int, humans: int, names: Sequence[str] | None) -> tuple[str, ...]:
    """Names for every seat: given names for all seats or for the humans; bots are "Bot k"."""
    given = [n.strip() for n in (names or ()) if n.strip()]
    if len(given) not in (0, humans, n_players):
        raise IllegalAction(f"give {humans} names (the humans) or {n_players} (every seat), not {len(given)}")
    if len(given) == n_players:
        out = given
    else:
        human_names = given or (["You"] if humans == 1 else [f"Player {i + 1}" for i in range(humans)])
        out = human_names + [f"Bot {i + 1}" for i in range(n_players - humans)]
    if len(set(out)) != len(out):
        raise IllegalAction("every player needs a different name")
    return tuple(out)


def load_save(path: Path, *, bot_delay: float = 0.5) -> LocalTable:
    """A table continuing the saved game; a bad save raises SaveError and is left untouched."""
    game_log, seating = read_save(Path(path))
    game = get_game(game_log.game)
    try:
        return LocalTable(game, game_log, seating, bot_delay=bot_delay, save_path=Path(path))
    except GameError as exc:
        raise SaveError(f"{Path(path).name} does not replay with this version of {game.name}: {exc}") from None
