"""New local game: game, players, bots and the game's options, then seed and names.

Settings are a list: up/down to move, left/right to change a value. Tab reaches the seed and
names fields; Enter starts. The engine validates everything (InvalidOption is shown as is).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import Footer, Input, Label, Static

from engine.core import GameError
from engine.registry import game_ids, get_game

from ..clock import NO_CLOCK, ClockSpec
from ..games import has_screen
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
        self.options: dict[str, Any] = {}

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
            self._reset_game()
        self.query_one("#settings", PickList).focus()

    # ---- settings ----------------------------------------------------------------------
    @property
    def game(self):
        return get_game(self.games[self.game_index][0])

    def _reset_game(self) -> None:
        game = self.game
        self.options = {spec.name: spec.default for spec in game.options if spec.choices}
        low, high = game.player_range(game.check_options(self.options))
        self.players = min(max(4, low), high)
        self.bots = self.players - 1
        self._draw()

    def _draw(self) -> None:
        game = self.game
        rows = [
            PickRow("game", self._row("Game", game.name)),
            PickRow("players", self._row("Players", str(self.players))),
            PickRow("bots", self._row("Bots", f"{self.bots}  ({self.players - self.bots} at this keyboard)")),
        ]
        for spec in game.options:
            if spec.choices:
                label = spec.name.replace("_", " ").capitalize()
                rows.append(PickRow(("option", spec.name), self._row(label, _option_text(self.options[spec.name]))))
        self.query_one("#settings", PickList).set_rows(rows)

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
        elif isinstance(key, tuple):
            spec = next(s for s in game.options if s.name == key[1])
            index = spec.choices.index(self.options[spec.name])
            self.options[spec.name] = spec.choices[(index + step) % len(spec.choices)]
            low, high = game.player_range(game.check_options(self.options))
            self.players = min(max(self.players, low), high)
            self.bots = min(self.bots, self.players)
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
        return GameSetup(self.game.id, self.players, self.bots, dict(self.options), seed, names)

    def action_start(self) -> None:
        if not self.games:
            return
        try:
            self.app.start_local(self.setup())
        except GameError as exc:
            self.query_one("#new-error", Static).update(f"⚠ {exc}")
        except Exception as exc:  # a bug in a game must not close the app
            log.exception("starting a game failed")
            self.query_one("#new-error", Static).update(f"⚠ The game could not start: {exc}")

    def action_back(self) -> None:
        self.dismiss(None)


def _option_text(value: object) -> str:
    """How an option value reads in the form: on/off for switches, words for ids."""
    if isinstance(value, bool):
        return "on" if value else "off"
    return str(value).replace("_", " ")
