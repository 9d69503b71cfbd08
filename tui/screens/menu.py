"""The main menu: new local game, resume, rules, host or join a network game, quit; behind a
door, first of all the tables on that server."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen, Screen
from textual.widgets import Footer, Static

from engine.registry import game_ids, get_game

from ..themes import CHOICES, theme_label
from ..widgets import PickList, PickRow

ENTRIES = (
    ("new", "n", "New local game"),
    ("resume", "c", "Continue the last game"),
    ("replay", "p", "Replay a game"),
    ("rules", "r", "Rules and keys"),
    ("host", "h", "Host a network game"),
    ("join", "j", "Join a network game"),
    ("theme", "v", "Theme"),
    ("quit", "q", "Quit"),
)
DOOR_ENTRY = ("tables", "t", "Tables on this server")  # first in the menu behind a door


class MenuScreen(Screen[None]):
    BINDINGS = [
        Binding("enter", "choose", "Choose", show=True),
        Binding("t", "go('tables')", "Tables", show=False),  # behind a door only; its row shows (t)
        Binding("n", "go('new')", "New game", show=True),
        Binding("c", "go('resume')", "Continue", show=True),
        Binding("p", "go('replay')", "Replay", show=False),  # the row shows (p); the footer keeps Quit
        Binding("r", "go('rules')", "Rules", show=True),
        Binding("h", "go('host')", "Host", show=True),
        Binding("j", "go('join')", "Join", show=True),
        Binding("v", "go('theme')", "Theme", show=False),  # the row shows (v) and the theme
        Binding("q", "go('quit')", "Quit", show=True),
    ]

    can_continue = False

    def compose(self) -> ComposeResult:
        with Vertical(id="menu-box"):
            yield Static("gamenight", id="menu-title")
            yield Static("Card games at the terminal, with friends or bots.", id="menu-subtitle")
            yield PickList(id="menu-list")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#menu-list", PickList).focus()
        self.refresh_entries()

    def on_screen_resume(self) -> None:
        self.refresh_entries()  # a game may have been saved, finished or deleted meanwhile

    def refresh_entries(self) -> None:
        """The menu's rows: Continue only when there is a game to continue."""
        from ..local_table import has_saved_game

        self.can_continue = has_saved_game()
        entries = ((DOOR_ENTRY,) if self.app.door is not None else ()) + ENTRIES
        menu = self.query_one("#menu-list", PickList)
        menu.set_rows([
            PickRow(key, f"{self._label(key, label)}  ({letter})")
            for key, letter, label in entries
            if key != "resume" or self.can_continue
        ])
        self.refresh_bindings()

    def _label(self, key: str, label: str) -> str:
        return f"{label}: {theme_label(self.app.theme)}" if key == "theme" else label

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """The Continue key shows in the footer only when there is a game to continue."""
        if action == "go" and parameters == ("resume",):
            return self.can_continue
        if action == "go" and parameters == ("tables",):
            return self.app.door is not None
        return True

    def action_choose(self) -> None:
        key = self.query_one("#menu-list", PickList).highlighted
        if isinstance(key, str):
            self.action_go(key)

    def action_go(self, what: str) -> None:
        app = self.app
        if what == "new":
            from .new_game import NewGameScreen

            app.push_screen(NewGameScreen())
        elif what == "resume":
            if self.can_continue:
                app.resume_last()
        elif what == "replay":
            from .replay import ReplayPickScreen

            app.push_screen(ReplayPickScreen())
        elif what == "rules":
            app.push_screen(ChooseGameScreen(), self._rules_for)
        elif what in ("host", "join") or (what == "tables" and app.door is not None):
            app.open_network_screen(what)
        elif what == "theme":
            self.next_theme()
        elif what == "quit":
            app.exit()

    def next_theme(self) -> None:
        """The next of the menu's themes, at once and kept in the config file for next time."""
        from ..config import ConfigError, save_setting

        current = self.app.theme
        choice = CHOICES[(CHOICES.index(current) + 1) % len(CHOICES)] if current in CHOICES else CHOICES[0]
        self.app.theme = choice
        self.refresh_entries()
        try:
            save_setting("ui", "theme", choice)
        except (ConfigError, OSError) as exc:
            self.notify(f"Theme {theme_label(choice)} for now; not kept: {exc}", severity="warning")

    def _rules_for(self, game_id: str | None) -> None:
        if game_id:
            from .rules import RulesScreen

            self.app.push_screen(RulesScreen(game_id))


class ChooseGameScreen(ModalScreen[str | None]):
    """Pick a game (for its rules)."""

    BINDINGS = [
        Binding("enter", "choose", "Choose", show=True),
        Binding("escape", "cancel", "Back", show=True),
    ]

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static("Which game?", classes="dialog-title")
            yield PickList(id="game-list")
        yield Footer()

    def on_mount(self) -> None:
        games = self.query_one("#game-list", PickList)
        games.set_rows([PickRow(gid, get_game(gid).name) for gid in game_ids()])
        games.focus()

    def action_choose(self) -> None:
        self.dismiss(self.query_one("#game-list", PickList).highlighted)

    def action_cancel(self) -> None:
        self.dismiss(None)
