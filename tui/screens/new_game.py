"""New local game: game, players, bots and the game's options, then seed and names.

Settings are a list: up/down to move, left/right to change a value. Tab reaches the seed and
names fields; Enter starts. The engine validates everything (InvalidOption is shown as is).
"""

from __future__ import annotations

import json
import logging
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import Footer, Input, Label, Static

from engine.bots.levels import LEVELS
from engine.core import GameError
from engine.core.descriptor import SEAT
from engine.registry import game_ids, get_descriptor, get_game
from net.paths import data_dir

from ..clock import NO_CLOCK, ClockSpec
from ..games import has_screen
from ..local_table import LocalTable
from ..widgets import PickList, PickRow

log = logging.getLogger(__name__)


@dataclass
class GameSetup:
    """Everything needed to start a local game (also the app's `start=` for tests)."""

    game: str
    players: int
    bots: int
    options: dict[str, Any] = field(default_factory=dict)
    seed: str | int | None = None
    names: list[str] | None = None
    bot_delay: float | None = None
    clock: ClockSpec = NO_CLOCK
    bot_kind: str = "best"
    """A level for every bot (easy, normal, hard), or one per bot seat (comma list)."""


def start_table(setup: GameSetup, bot_delay: float) -> LocalTable:
    """The local table a setup describes (saved from its first step); bad settings raise
    GameError and nothing is saved. `bot_delay` applies where the setup names none."""
    delay = bot_delay if setup.bot_delay is None else setup.bot_delay
    return LocalTable.new(
        setup.game, setup.players, humans=setup.players - setup.bots, seed=setup.seed,
        options=setup.options, names=setup.names, bot_delay=delay, clock=setup.clock,
        bot_kind=setup.bot_kind,
    )


def playable_games() -> list[tuple[str, str]]:
    """(id, name) of games with a screen whose engine imports."""
    out = []
    for gid in game_ids():
        if not has_screen(gid):
            continue
        try:
            out.append((gid, get_game(gid).name))
        except Exception:  # a game package being written must not break the menu
            log.exception("game %s cannot be loaded", gid)
    return out


CHOICES_FILE = "new_game.json"


def choices_path() -> Path:
    return data_dir() / CHOICES_FILE


def load_choices() -> dict[str, Any]:
    """The last choices made in the form ({} when none, or when the file is unreadable)."""
    try:
        data = json.loads(choices_path().read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def save_choices(data: dict[str, Any]) -> None:
    try:
        path = choices_path()
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(".tmp")
        tmp.write_text(json.dumps(data, indent=1, sort_keys=True), encoding="utf-8")
        os.replace(tmp, path)
    except OSError:  # remembering is a convenience: never stop a game for it
        log.warning("cannot remember the new-game choices", exc_info=True)


class NewGameScreen(Screen[None]):
    BINDINGS = [
        Binding("enter", "start", "Start", show=True, priority=True),
        Binding("left,h", "change(-1)", "Change", show=True),
        Binding("right,l", "change(1)", show=False),
        Binding("escape", "back", "Back", show=True),
    ]

    def __init__(self) -> None:
        super().__init__(id="new-game")
        self.games = playable_games()
        self.game_index = 0
        self.players = 4
        self.bots = 3
        self.level = "normal"
        self.options: dict[str, Any] = {}
        self.remembered = load_choices()

    def compose(self) -> ComposeResult:
        with Vertical(id="new-box"):
            yield Static("New local game", id="new-title")
            yield PickList(id="settings", empty="No game can be played yet.")
            yield Label("Seed (empty = random):")
            yield Input(placeholder="e.g. 42", id="seed", compact=True)
            yield Label("Names, comma separated (the humans, or every seat):")
            yield Input(placeholder=self.app.config.player.name, id="names", compact=True)
            yield Static("", id="new-error", markup=False)
        yield Footer()

    def on_mount(self) -> None:
        if self.games:
            ids = [gid for gid, _ in self.games]
            last = self.remembered.get("game")
            self.game_index = ids.index(last) if last in ids else 0
            names = self.remembered.get("names")
            if isinstance(names, str):
                self.query_one("#names", Input).value = names
            self._reset_game()
        self.query_one("#settings", PickList).focus()

    # ---- settings ----------------------------------------------------------------------
    @property
    def game(self):
        return get_game(self.games[self.game_index][0])

    @property
    def descriptor(self):
        return get_descriptor(self.games[self.game_index][0])

    def form_choices(self, name: str) -> tuple[Any, ...]:
        """The values the form cycles through for an option (its descriptor says); () = not in
        the form (stacked decks and the like stay with --option: they are for tests and replays)."""
        doc = self.descriptor.option(name)
        form = doc.form if doc else None
        if form == SEAT:
            return (None, *range(self.players))
        return tuple(form or ())

    def _form_options(self) -> list[str]:
        return [spec.name for spec in self.game.options if self.form_choices(spec.name)]

    def _reset_game(self) -> None:
        """The game's defaults, then what was chosen for it last time (where still valid)."""
        game = self.game
        self.options = {spec.name: spec.default for spec in game.options if self.form_choices(spec.name)}
        low, high = game.player_range(game.check_options(self.options))
        self.players = min(max(4, low), high)
        self.bots = self.players - 1
        last = self.remembered.get("games", {}).get(game.id)
        if isinstance(last, dict):
            self._restore(last)
        self._draw()

    def _restore(self, last: dict[str, Any]) -> None:
        game = self.game
        for name, value in (last.get("options") or {}).items():
            if name in self.options and value in self.form_choices(name):
                self.options[name] = value
        try:
            low, high = game.player_range(game.check_options(self.options))
        except GameError:
            return
        players, bots = last.get("players"), last.get("bots")
        if isinstance(players, int) and low <= players <= high:
            self.players = players
        if isinstance(bots, int) and 0 <= bots <= self.players:
            self.bots = bots
        self._clamp_seat_options()

    def _clamp_seat_options(self) -> None:
        for name in self.options:
            if self._is_seat(name) and self.options[name] not in self.form_choices(name):
                self.options[name] = None

    def _draw(self) -> None:
        game = self.game
        rows = [
            PickRow("game", self._row("Game", game.name)),
            PickRow("players", self._row("Players", str(self.players))),
            PickRow("bots", self._row("Bots", f"{self.bots}  ({self.players - self.bots} at this keyboard)")),
        ]
        for name in self._form_options():
            label = self.descriptor.option(name).label  # in the form, so documented
            rows.append(PickRow(("option", name), self._row(label, self._value_text(name))))
        rows.append(PickRow("level", self._row("Bot level", self.level)))  # last: the rows above keep their keys
        self.query_one("#settings", PickList).set_rows(rows)

    def _value_text(self, name: str) -> str:
        value = self.options[name]
        if self._is_seat(name):
            return "drawn" if value is None else f"player {value + 1}"
        return _option_text(value)

    def _is_seat(self, name: str) -> bool:
        doc = self.descriptor.option(name)
        return doc is not None and doc.form == SEAT

    @staticmethod
    def _row(name: str, value: str) -> Text:
        return Text.assemble((f"{name:<12}", "bold"), " ◀ ", (value, "bold"), " ▶")

    def action_change(self, step: int) -> None:
        if not self.games:
            return
        focused = self.focused
        if isinstance(focused, Input):  # left/right move the text cursor there
            if step < 0:
                focused.action_cursor_left()
            else:
                focused.action_cursor_right()
            return
        key = self.query_one("#settings", PickList).highlighted
        game = self.game
        if key == "game":
            self.game_index = (self.game_index + step) % len(self.games)
            self._reset_game()
            return
        if key == "players":
            humans = self.players - self.bots
            low, high = game.player_range(game.check_options(self.options))
            self.players = low + (self.players - low + step) % (high - low + 1)
            self.bots = max(0, self.players - humans)
        elif key == "bots":
            self.bots = (self.bots + step) % (self.players + 1)
        elif key == "level":
            self.level = LEVELS[(LEVELS.index(self.level) + step) % len(LEVELS)]
        elif isinstance(key, tuple):
            choices = self.form_choices(key[1])
            index = choices.index(self.options[key[1]])
            self.options[key[1]] = choices[(index + step) % len(choices)]
            low, high = game.player_range(game.check_options(self.options))
            self.players = min(max(self.players, low), high)
            self.bots = min(self.bots, self.players)
        self._clamp_seat_options()
        self._draw()

    # ---- start -------------------------------------------------------------------------
    def setup(self) -> GameSetup:
        seed_text = self.query_one("#seed", Input).value.strip()
        names_text = self.query_one("#names", Input).value.strip()
        names = [n.strip() for n in names_text.split(",")] if names_text else None
        if names is None and self.players - self.bots == 1:
            names = [self.app.config.player.name]
        seed: str | int | None = None
        if seed_text:
            seed = int(seed_text) if seed_text.lstrip("-").isdigit() else seed_text
        return GameSetup(self.game.id, self.players, self.bots, dict(self.options), seed, names,
                         bot_kind=self.level)

    def _choices(self) -> dict[str, Any]:
        """This game's choices (and the names), to offer again the next time the form opens."""
        games = dict(self.remembered.get("games") or {})
        games[self.game.id] = {"players": self.players, "bots": self.bots, "options": dict(self.options)}
        return {"game": self.game.id, "games": games, "names": self.query_one("#names", Input).value.strip()}

    def action_start(self) -> None:
        if not self.games:
            return
        choices = self._choices()  # read now: the form closes when the game opens
        try:
            self.app.open_table(start_table(self.setup(), self.app.bot_delay))
        except GameError as exc:
            self.query_one("#new-error", Static).update(f"⚠ {exc}")
            return
        except Exception as exc:  # a bug in a game must not close the app
            log.exception("starting a game failed")
            self.query_one("#new-error", Static).update(f"⚠ The game could not start: {exc}")
            return
        save_choices(choices)  # only choices that started a game are remembered

    def action_back(self) -> None:
        self.dismiss(None)


def _option_text(value: object) -> str:
    """How an option value reads in the form: on/off for switches, words for ids."""
    if isinstance(value, bool):
        return "on" if value else "off"
    return str(value).replace("_", " ")
