"""A table played on this terminal: the engine, local bots, hot seat, and a save after every step.

The save is the game's action log (engine.core.GameLog) plus who sits where (tui/savefile.py:
a header and a record per step, appended), so resuming is a replay: the engine rebuilds the
exact state, and a save that does not replay is refused with a clear message instead of being
"repaired".
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from engine.bots import make_bot
from engine.bots.registry import seat_kinds
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
    new_log,
    seed_bytes,
)
from engine.registry import get_game
from net.bot_time import DEFAULT_BOT_TIME, give_time, searches

from .clock import NO_CLOCK, ClockSpec
from .log_text import event_lines
from .savefile import (
    DamagedSave,
    SaveError,
    SaveFile,
    SaveTail,
    SaveWriter,
    Seating,
    last_save_path,
    new_save_path,
    point_last_at,
    read_save,
    read_save_file,
    save_bytes,
    saves_dir,
)
from .table import Table, TableEvent, TableSupports

__all__ = [
    "DamagedSave", "LocalTable", "SaveError", "Seating", "default_names", "has_saved_game", "last_save_path",
    "damaged_copy", "load_save", "network_game_is_newer", "read_save", "recover_save", "saves_dir",
]

log = logging.getLogger(__name__)


class LocalTable(Table):
    """The engine with local bots; humans at this terminal submit for `local_seats`."""

    supports = TableSupports(rematch=True)

    def __init__(
        self,
        game: Game,
        game_log: GameLog,
        seating: Seating,
        *,
        bot_delay: float = 0.5,
        save_path: Path | None = None,
        bot_time: float = DEFAULT_BOT_TIME,
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
        self.bot_time = bot_time
        self.save_path = save_path
        self.state = self._replay(game_log)
        root = Stream(game_log.seed)
        bot_seats = [seat for seat in range(game_log.n_players) if seat not in self.local_seats]
        kinds = seat_kinds(seating.bot_kind, len(bot_seats))
        self._bots = {
            seat: give_time(make_bot(game, seat, kind, root.fork(f"bot{seat}")), bot_time)
            for seat, kind in zip(bot_seats, kinds, strict=True)
        }
        self._pending: dict[Seat, Action] = {}
        self._lock = asyncio.Lock()
        self._closed = False
        self._writer = SaveWriter(save_path, self._save_failed) if save_path is not None else None
        self._tail = SaveTail()  # where the save's checks stand, for the next step's record
        self.set_clock(seating.clock)

    def _replay(self, game_log: GameLog) -> Any:
        """The state after the log, with the game log panel's lines as they were written."""
        state = self.game.setup(game_log.n_players, game_log.seed, game_log.options_dict())
        for step in game_log.steps:
            actions = dict(step)
            before, state = state, self.game.apply(state, actions)
            self.log_lines.extend(self._lines(before, actions, state))
        return state

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
        clock: ClockSpec = NO_CLOCK,
        bot_time: float = DEFAULT_BOT_TIME,
    ) -> LocalTable:
        """A new game: humans take seats 0..humans-1, bots the rest. Bad input raises GameError.

        `bot_kind`: one kind for every bot, or a comma list with one per bot seat in seat
        order; `bot_time`: a hard bot's seconds per decision."""
        game = get_game(game_id)
        if not 0 <= humans <= n_players:
            raise IllegalAction(f"{humans} humans do not fit at a table of {n_players}")
        seed_value = secrets.token_bytes(16) if seed is None else seed_bytes(seed)
        opts = dict(options or {})
        game.setup(n_players, seed_value, opts)  # validates players and options
        game_log = new_log(game, n_players, seed_value, game.check_options(opts))
        seating = Seating(default_names(n_players, humans, names), tuple(range(humans)), bot_kind, clock)
        path = new_save_path(game.id) if save else None
        table = cls(game, game_log, seating, bot_delay=bot_delay, save_path=path, bot_time=bot_time)
        table.save_all()
        return table

    def rematch(self) -> LocalTable:
        seating = self.seating
        return LocalTable.new(
            self.game.id, self.n_players, humans=len(seating.humans), options=self.game_log.options_dict(),
            names=seating.names, bot_kind=seating.bot_kind, bot_delay=self.bot_delay, clock=seating.clock,
            save=self.save_path is not None, bot_time=self.bot_time,
        )

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

    def moves_made(self) -> int:
        return len(self.game_log.steps)

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
                raise type(exc)(self._refusal(seat, exc.reason)) from None
            self._pending[seat] = action
            self.emit(TableEvent("waiting"))
            await self._advance()

    async def start(self) -> None:
        """Let the bots play until a human must act (or the game ends)."""
        self.start_clock_watch()
        async with self._lock:
            await self._advance()

    async def close(self) -> None:
        self._closed = True
        await self.stop_clock_watch()
        if self._writer is not None:
            await asyncio.to_thread(self._writer.close)

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
                    if searches(self._bots[seat]):  # a hard bot thinks off the event loop
                        self._pending[seat] = await asyncio.to_thread(self._bot_choice, seat)
                    else:
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
        before, self.state = self.state, self.game.apply(self.state, actions)
        self._pending.clear()
        self.game_log = self.game_log.append(actions)
        if self._writer is not None:
            self._writer.append(*self._tail.append(actions))
        lines = tuple(self._lines(before, actions, self.state))
        self.emit(TableEvent("changed", lines[-1] if lines else "", {"seats": sorted(actions)}, lines))

    def _lines(self, before: Any, actions: Mapping[Seat, Action], after: Any) -> list[str]:
        """The game log panel's lines for one step: its public events, with names."""
        return event_lines(self.game.id, self.game.events(before, actions, after), self.names)

    def _refusal(self, seat: Seat, reason: str) -> str:
        """The engine's refusal opens with the acting seat ("seat 0 cannot ..."): say who."""
        own = f"seat {seat}"
        if reason.startswith((own + " ", own + "'")):
            return self.names[seat] + reason[len(own):]
        return reason

    # ---- saving ------------------------------------------------------------------------
    def save_all(self) -> None:
        """Write the whole save anew and point "last game" at it (no-op without a path).

        Play appends one record per step instead; this is for a new game and for a save
        read in an older format or with a torn last record.
        """
        if self._writer is not None:
            self._writer.rewrite(save_bytes(self.game_log, self.seating, self.game.rules_version, self._tail))
            self._writer.flush()

    def follow_save(self) -> None:
        """Take up a clean save as it is on disk: the next step is appended to it."""
        save_bytes(self.game_log, self.seating, self.game.rules_version, self._tail)  # the same bytes
        if self.save_path is not None:
            point_last_at(self.save_path)

    def flush_save(self) -> None:
        """Wait until every step handed to the save is on disk."""
        if self._writer is not None:
            self._writer.flush()

    def _save_failed(self, message: str) -> None:
        self.emit(TableEvent("error", message))


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


def has_saved_game() -> bool:
    """True when Continue has something to open: a local save or an unfinished network game."""
    return last_save_path() is not None or network_game_is_newer(None)


def network_game_is_newer(local_save: Path | None) -> bool:
    """True when the last unfinished network game was played after the local save."""
    from .net_games import last_network_activity

    network = last_network_activity()
    if network is None:
        return False
    return local_save is None or network > local_save.stat().st_mtime


def load_save(path: Path, *, bot_delay: float = 0.5) -> LocalTable:
    """A table continuing the saved game; a bad save raises SaveError (DamagedSave: it can be
    continued from its last good step, see `recover_save`) and is left untouched."""
    saved = read_save_file(Path(path))
    table = _table_of(saved, Path(path), bot_delay)
    if not saved.clean:
        table.save_all()  # an older format: appending needs the current one
    else:
        table.follow_save()
    return table


def recover_save(path: Path, damaged: DamagedSave, *, bot_delay: float = 0.5) -> LocalTable:
    """Continue a damaged save from its last good step. The damaged file is kept beside it
    (`<name>.damaged`, see `damaged_copy`) and the save is written anew, clean."""
    path = Path(path)
    table = _table_of(damaged.recovered, path, bot_delay)
    path.replace(damaged_copy(path))
    table.save_all()
    return table


def damaged_copy(path: Path) -> Path:
    """Where `recover_save` keeps a damaged save: beside it, never over an earlier one."""
    candidate, number = path.with_name(path.name + ".damaged"), 1
    while candidate.exists():
        number += 1
        candidate = path.with_name(f"{path.name}.damaged-{number}")
    return candidate


def _table_of(saved: SaveFile, path: Path, bot_delay: float) -> LocalTable:
    game = get_game(saved.game_log.game)
    try:
        return LocalTable(game, saved.game_log, saved.seating, bot_delay=bot_delay, save_path=path)
    except GameError as exc:
        raise SaveError(f"{path.name} does not replay with this version of {game.name}: {exc}") from None
