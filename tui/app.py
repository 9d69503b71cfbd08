"""GamenightApp: the menu, local games, and the hand-off to a game's screen.

`GamenightApp(start=...)` is also the factory tests use: start=None shows the menu; a
GameSetup starts a local game; a Path resumes that save ("resume" = the last one); a Table
(local or networked) is played as is.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import replace
from pathlib import Path
from typing import Any

from textual import events
from textual.app import App
from textual.binding import Binding

from engine.core import GameError
from net.doors.env import current as current_door

from .config import Config, ConfigError, load_config, saved_player_name
from .games import screen_class
from .games.base import GameScreen
from .local_table import (
    DamagedSave,
    LocalTable,
    SaveError,
    damaged_copy,
    last_save_path,
    load_save,
    network_game_is_newer,
    recover_save,
)
from .logfile import log_path
from .messages import CloseTable, TableCreated
from .replay import Replay
from .screens.dialogs import ConfirmDialog, ErrorDialog
from .screens.end import EndScreen
from .screens.menu import MenuScreen
from .screens.new_game import GameSetup, start_table
from .screens.vote import LeaveDialog
from .table import Table
from .terminal import TerminalWatch, on_signals, terminal_fd
from .themes import THEMES
from .title import TerminalTitle, driver_writer

log = logging.getLogger(__name__)

STYLES = Path(__file__).resolve().parent / "styles"


class GamenightApp(App[int]):
    TITLE = "gamenight"
    CSS_PATH = [STYLES / "app.tcss"]
    # Every key a player needs is in the footer; Textual's own palette (themes, screenshots)
    # only took room there ("^p palette" on the Host and Join screens).
    ENABLE_COMMAND_PALETTE = False
    BINDINGS = [
        Binding("ctrl+q", "quit", "Quit", show=True, priority=True),
        Binding("f1,question_mark", "help", "Help", show=True),
    ]

    def __init__(self, start: Any = None, config: Config | None = None, *, bot_delay: float | None = None) -> None:
        super().__init__()
        self.start_with = start
        self.config_error: str | None = None
        if config is None:
            try:
                config = load_config()
            except ConfigError as exc:
                self.config_error = str(exc)
                config = Config()
        self.config = config
        self.door = current_door()  # behind an SSH or browser door: its table list, its broker
        self.bot_delay = config.ui.bot_delay if bot_delay is None else bot_delay
        self.tables: list[Table] = []
        self.terminal_title = TerminalTitle(driver_writer(self))  # "your turn" (ui.title)
        self._leaving = False

    def on_mount(self) -> None:
        for theme in THEMES:
            self.register_theme(theme)
        try:
            self.theme = self.config.ui.theme
        except Exception:
            log.warning("unknown theme %r", self.config.ui.theme)
        self.push_screen(MenuScreen())
        if self.config_error:
            self.show_error(f"{self.config_error}\nUsing the default settings.", "Settings")
        elif self.door is not None and saved_player_name() is None:
            from .screens.name import NameScreen

            self.push_screen(NameScreen(self.door.kind), self._named)
        self.call_after_refresh(self._open_start)
        self._watch_terminal()

    def _watch_terminal(self) -> None:
        """Quit as ctrl+q does when the player's terminal goes away (tui/terminal.py)."""
        fd = None if self.is_headless else terminal_fd()
        if fd is None:
            return
        loop = asyncio.get_running_loop()
        watch = TerminalWatch(fd, lambda why: loop.call_soon_threadsafe(self._player_left, why))
        watch.start()
        on_signals(loop, lambda: watch.hung_up("SIGHUP"), lambda: self._player_left("SIGTERM"))

    def _player_left(self, why: str) -> None:
        if self._leaving:
            return
        self._leaving = True
        log.info("quitting: %s", why)
        self.run_worker(self.quit_now(), group="leave")

    def _named(self, name: str | None) -> None:
        """A door's first visit: the name the player gave is theirs from now on."""
        if name:
            self.config = replace(self.config, player=replace(self.config.player, name=name))

    def _open_start(self) -> None:
        start = self.start_with
        if start is None:
            return
        if isinstance(start, Table):
            self.open_table(start)
        elif isinstance(start, GameSetup):
            self.try_start_local(start)
        elif start == "resume":
            self.resume_last()
        elif isinstance(start, (str, Path)):
            self.resume(Path(start))
        else:
            raise TypeError(f"cannot start from {start!r}")

    # ---- navigation --------------------------------------------------------------------
    def show_menu(self) -> None:
        """Back to the menu (the first screen on the stack)."""
        while len(self.screen_stack) > 2:
            self.pop_screen()

    def show_error(self, message: str, title: str = "Something went wrong") -> None:
        self.push_screen(ErrorDialog(message, title))

    def start_local(self, setup: GameSetup) -> LocalTable:
        """Start a local game; bad settings raise GameError (nothing is saved then)."""
        table = start_table(setup, self.bot_delay)
        self.open_table(table)
        return table

    def try_start_local(self, setup: GameSetup) -> LocalTable | None:
        """start_local, with any failure shown in a dialog (a bug in a game must not exit)."""
        try:
            return self.start_local(setup)
        except GameError as exc:
            self.show_error(str(exc), "Cannot start the game")
        except Exception as exc:
            log.exception("starting %s failed", setup.game)
            self.show_error(f"{exc}\n(details in {log_path()})", "Cannot start the game")
        return None

    def resume(self, path: Path) -> LocalTable | None:
        try:
            table = load_save(path, bot_delay=self.bot_delay)
        except DamagedSave as exc:  # say so, and offer what is left of it
            self._offer_recovery(Path(path), exc)
            return None
        except SaveError as exc:
            self.show_error(str(exc), "Cannot continue that game")
            return None
        except Exception as exc:  # a bug in a game's replay must not exit the app
            log.exception("resuming %s failed", path)
            self.show_error(f"{exc}\n(details in {log_path()})", "Cannot continue that game")
            return None
        self.open_table(table)
        return table

    def _offer_recovery(self, path: Path, damaged: DamagedSave) -> None:
        question = f"{damaged}: {damaged.offer}\n(the damaged file is kept as {damaged_copy(path).name})"
        self.push_screen(ConfirmDialog(question), lambda yes: self._recover(path, damaged) if yes else None)

    def _recover(self, path: Path, damaged: DamagedSave) -> None:
        try:
            self.open_table(recover_save(path, damaged, bot_delay=self.bot_delay))
        except (SaveError, OSError) as exc:
            log.warning("recovering %s failed: %s", path, exc)
            self.show_error(str(exc), "Cannot continue that game")

    def resume_last(self) -> LocalTable | None:
        """Continue whichever was played last: the local save or an unfinished network game."""
        path = last_save_path()
        if network_game_is_newer(path):
            self._rejoin_network_game()
            return None
        if path is None:
            self.show_error("There is no saved game to continue.", "Continue")
            return None
        return self.resume(path)

    def _rejoin_network_game(self) -> None:
        from .net_resume import last_network_screen

        try:
            screen = last_network_screen(self.config)
        except Exception as exc:  # the CLI's one-line error, or a damaged meta file
            log.exception("rejoining the last network game failed")
            self.show_error(str(exc), "Continue")
            return
        self.push_screen(screen)

    def open_table(self, table: Table) -> None:
        """Show a table (local or networked) with its game's screen, over the menu."""
        try:
            screen_type = screen_class(table.game.id)
        except LookupError as exc:
            self.show_error(str(exc), "Cannot show this game")
            return
        self.show_menu()
        if table not in self.tables:
            self.tables.append(table)
        self.push_screen(screen_type(table))

    def show_end(self, table: Table) -> None:
        self.push_screen(EndScreen(table.game.name, table.names, table.result(), table))

    def leave_table(self, table: Table) -> None:
        self.run_worker(self._close(table), group="close")
        self.show_menu()

    async def _close(self, table: Table) -> None:
        try:
            await table.close()
        except Exception:
            log.exception("closing the table failed")
        if table in self.tables:
            self.tables.remove(table)

    # ---- what screens hand up ----------------------------------------------------------
    def on_table_created(self, message: TableCreated) -> None:
        if message.table not in self.tables:
            self.tables.append(message.table)  # closed on quit even if it never opens

    def on_close_table(self, message: CloseTable) -> None:
        self.run_worker(self._close(message.table), group="close")

    def open_network_screen(self, what: str) -> None:
        """The Host or Join screen, or a door's table list (imported on use: the network stack
        loads only when needed)."""
        from .screens.host import HostScreen
        from .screens.join import JoinScreen
        from .screens.server_tables import ServerTablesScreen

        screens = {"host": HostScreen, "join": JoinScreen, "tables": ServerTablesScreen}
        self.push_screen(screens[what]())

    # ---- keys --------------------------------------------------------------------------
    async def on_event(self, event: events.Event) -> None:
        # Every key, bound or not, tells a game screen that its player is here (clocks).
        # Below its minimum size a game screen takes no game key (its board is not drawn).
        if isinstance(event, events.Key) and self.screen_stack and isinstance(self.screen, GameScreen):
            self.screen.key_pressed()
            if not self.screen.acts_on_key(event.key) and event.key not in self._bindings.key_to_bindings:
                return
        await super().on_event(event)

    def action_help(self) -> None:
        from .screens.menu import ChooseGameScreen
        from .screens.rules import RulesScreen

        def show(game_id: str | None) -> None:
            if game_id:
                self.push_screen(RulesScreen(game_id))

        self.push_screen(ChooseGameScreen(), show)

    async def action_quit(self) -> None:
        """ctrl+q: quit, but at a table whose leaving stops the others' game (a host's broker)
        ask first, as Esc does there."""
        costly = [s for s in self.screen_stack if isinstance(s, GameScreen) and s.leaving_costs_others]
        if not costly:
            await self.quit_now()
        elif not isinstance(self.screen, (ConfirmDialog, LeaveDialog)):  # asked already: answer it
            costly[-1].ask_leaving(lambda: self.run_worker(self.quit_now(), group="leave"))

    async def quit_now(self) -> None:
        """Close every table and exit (also when the player's terminal went away)."""
        # every table, also one still filling its seats on a Host or Join screen (TableCreated)
        for table in list(self.tables):
            await self._close(table)
        self.terminal_title.restore()  # while the driver still writes
        self.exit(0)

    # ---- errors ------------------------------------------------------------------------
    def _fatal_error(self) -> None:
        """An unexpected error ends the app with one line (the traceback goes to the log)."""
        error = self._exception
        log.error("unexpected error", exc_info=(type(error), error, error.__traceback__) if error else None)
        self._exit_renderables.append(
            f"gamenight stopped after an unexpected error: {error}. "
            f"A local game is saved after every step; details are in {log_path()}"
        )
        self._close_messages_no_wait()


class ReplayApp(GamenightApp):
    """The app opened on a replay (`gamenight replay FILE`); Back leads to the menu."""

    def __init__(self, recorded: Replay, config: Config | None = None) -> None:
        super().__init__(start=None, config=config)
        self.recorded = recorded

    def _open_start(self) -> None:
        from .screens.replay import replay_screen, show_replay

        try:
            screen = replay_screen(self.recorded)
        except LookupError as exc:
            self.show_error(str(exc), "Cannot show this game")
            return
        show_replay(self, screen, self.recorded)
