"""The replay viewer: a game's own screen drawn from a ReplayTable, plus keys to move through it.

`replay_screen(table)` makes the viewer from the game's GameScreen subclass (one class per
game, made once): the board, side panel and log are the game's own; the viewer adds the keys
(←/→ a step, Home/End, g a round or step, w whose view) and turns the game's own action keys
off, so the footer shows only what works here. `ReplayPickScreen` is the menu's list of games
to replay; `tui.app.ReplayApp` opens a replay straight from `gamenight replay FILE`.
"""

from __future__ import annotations

import asyncio
import functools
import logging
from pathlib import Path
from typing import Any

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen, Screen
from textual.widgets import Footer, Input, Static

from ..games import screen_class
from ..games.base import STYLES, GameScreen
from ..replay import CannotReplay, Replay, ReplayTable, game_rounds, load_replay, replayable_files
from ..widgets import GameLogPanel, PickList, PickRow
from ..widgets.footer import GameFooter
from .dialogs import ErrorDialog

log = logging.getLogger(__name__)

REPLAY_CSS = STYLES / "replay.tcss"
VIEW_ONLY = frozenset({"help", "leave", "results", "collections", "cities"})
"""Keys of the game screens that only look (rules, leave, scores, Ten's cards, 7 Wonders'
cities): they stay on in a replay; every key that would act is off."""


class ReplayFrame(GameScreen):
    """What a replay adds to a game's screen (mixed in before the game's own class)."""

    table: ReplayTable

    def __init__(self, table: ReplayTable) -> None:
        super().__init__(table)
        self.add_class("replay-screen")

    # ---- the frame ---------------------------------------------------------------------
    def on_mount(self) -> None:
        # Textual runs every on_mount along the class chain: the game's own already ran.
        self.query_one(GameFooter).compact = True  # room for the viewer's keys at 80 columns

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action.startswith("replay_"):
            return action != "replay_view" or bool(self.table.replay.own_seats)
        if action in VIEW_ONLY:
            return super().check_action(action, parameters)
        return False  # the game's keys that act: a replay takes no action

    def waiting_text(self, awaiting: frozenset[int]) -> str:
        """The replay's line: where the cursor is, who acts next, whose view is shown."""
        table, recorded = self.table, self.table.replay
        parts = [f"Replay · step {table.cursor}/{recorded.steps}"]
        label, number = recorded.round_label(), recorded.round_at(table.cursor)
        if label and number:
            parts.append(f"{label} {number}")
        seat = table.viewed_seat
        parts.append("public view" if seat is None else f"{self.player_name(seat)}'s view")
        if table.is_over():
            parts.append("the game is over")
        elif table.cursor == recorded.steps:
            parts.append("the record ends here, unfinished")
        else:
            acting = sorted(table.active())
            if acting:
                parts.append("to act: " + ", ".join(self.player_name(s) for s in acting))
        return " · ".join(parts)

    def show_end(self) -> None:
        if self.table.is_over():
            super().show_end()

    # ---- keys --------------------------------------------------------------------------
    def action_replay_step(self, delta: int) -> None:
        self._seek(self.table.cursor + delta)

    def action_replay_seek(self, where: str) -> None:
        self._seek(0 if where == "start" else self.table.replay.steps)

    def action_replay_jump(self) -> None:
        recorded = self.table.replay
        label = recorded.round_label()
        if label:
            numbers = [n for n in (recorded.round_at(k) for k in range(recorded.steps + 1)) if n]
            low, high = (min(numbers), max(numbers)) if numbers else (1, 1)
            question = f"Go to which {label}? ({low}-{high})"
        else:
            low, high, label = 0, recorded.steps, "step"
            question = f"Go to which step? (0-{high}; 0 is the deal)"
        self.app.push_screen(NumberPrompt(question, low, high), functools.partial(self._jump_to, label))

    def _jump_to(self, label: str, number: int | None) -> None:
        if number is None:
            return
        if label == "step":
            self._seek(number)
            return
        start = self.table.replay.round_start(number)
        if start is None:
            self.show_message(f"This game has no {label} {number}.", error=True)
            return
        self._seek(start)

    def action_replay_view(self) -> None:
        self.table.next_view()  # the replay line says whose view is shown

    def action_leave(self) -> None:
        """Nothing to lose in a replay: back at once (to the list, or the menu)."""
        self.app.pop_screen()

    def _seek(self, k: int) -> None:
        if not self.table.seek(k):
            return
        if not self.table.is_over():
            self._ended = False  # arriving at the end again shows the scores again
        panel = self.query_one("#game-log", GameLogPanel)
        panel.clear()
        for line in self.table.log_lines[-200:]:
            panel.add(line)


@functools.cache
def replay_screen_class(game_id: str) -> type[GameScreen]:
    """The viewer for one game: ReplayFrame before the game's own screen class."""
    game_screen = screen_class(game_id)
    own_css = game_screen.CSS_PATH
    css = [*(own_css if isinstance(own_css, (list, tuple)) else [own_css] if own_css else []), REPLAY_CSS]
    counted = game_rounds(game_id)
    rounds = (counted.label if counted is not None else "step").capitalize()
    # Priority: the arrows and Home/End move through the game even where the game's screen
    # gives them to a widget (its hand list, its bid). One footer entry per pair, so that
    # every key of the viewer fits at 80 columns.
    bindings = [
        Binding("left", "replay_step(-1)", "Step", key_display="←→", priority=True),
        Binding("right", "replay_step(1)", "Step", show=False, priority=True),
        Binding("home", "replay_seek('start')", "Start/end", key_display="Home/End", priority=True),
        Binding("end", "replay_seek('end')", "End", show=False, priority=True),
        Binding("g", "replay_jump", f"{rounds}…", priority=True),
        Binding("w", "replay_view", "View", priority=True),
        Binding("escape", "leave", "Close", show=True),
    ]
    return type(f"Replay{game_screen.__name__}", (ReplayFrame, game_screen),
                {"BINDINGS": bindings, "CSS_PATH": css})


def replay_screen(recorded: Replay, cursor: int = 0) -> GameScreen:
    """The viewer on a replay, at step `cursor` (LookupError if the game has no screen)."""
    return replay_screen_class(recorded.game.id)(ReplayTable(recorded, cursor))


class NumberPrompt(ModalScreen[int | None]):
    """Ask for a whole number in a range (a round, an age or a step)."""

    CSS_PATH = REPLAY_CSS
    BINDINGS = [Binding("escape", "cancel", "Cancel", show=True)]

    def __init__(self, question: str, low: int, high: int) -> None:
        super().__init__(classes="dialog-screen replay-prompt")
        self.question, self.low, self.high = question, low, high

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static(self.question, classes="dialog-title", markup=False)
            yield Input(type="integer", id="replay-number")
            yield Static("", id="replay-prompt-error", markup=False)
            yield Static("Enter: go   Esc: cancel", classes="dialog-hint")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#replay-number", Input).focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        text = event.value.strip()
        number = int(text) if text.lstrip("-").isdigit() else None
        if number is None or not self.low <= number <= self.high:
            self.query_one("#replay-prompt-error", Static).update(f"A number from {self.low} to {self.high}, please.")
            return
        self.dismiss(number)

    def action_cancel(self) -> None:
        self.dismiss(None)


class ReplayPickScreen(Screen[None]):
    """The saves and network games on this machine, newest first; Enter replays one."""

    CSS_PATH = REPLAY_CSS
    BINDINGS = [
        Binding("enter", "choose", "Replay", show=True),
        Binding("escape", "back", "Back", show=True),
    ]

    def __init__(self) -> None:
        super().__init__(id="replay-pick")

    def compose(self) -> ComposeResult:
        with Vertical(id="replay-pick-box"):
            yield Static("Replay a game", id="replay-pick-title")
            yield Static("Local saves and network games on this machine, newest first.", id="replay-pick-help")
            yield PickList(id="replay-list", empty="No games yet: play one, then replay it here.")
        yield Footer()

    def on_mount(self) -> None:
        files = self.query_one("#replay-list", PickList)
        try:
            found = replayable_files()
        except OSError as exc:
            log.exception("listing the games to replay failed")
            self.app.show_error(f"Cannot list the saved games: {exc}", "Replay")
            found = []
        files.set_rows([PickRow(str(f.path), f.label) for f in found])
        files.focus()

    def action_choose(self) -> None:
        key = self.query_one("#replay-list", PickList).highlighted
        if isinstance(key, str):
            self.run_worker(open_replay(self.app, Path(key)), group="replay", exclusive=True)

    def action_back(self) -> None:
        self.app.pop_screen()


async def open_replay(app: Any, path: Path) -> None:
    """Read and check a file off the event loop, then show its viewer (or one clear dialog)."""
    try:
        recorded = await asyncio.to_thread(load_replay, path)
        screen = replay_screen(recorded)
    except (CannotReplay, LookupError) as exc:
        app.show_error(str(exc), "Cannot replay that game")
        return
    except Exception as exc:  # a bug in a game's replay must not end the app
        log.exception("replaying %s failed", path)
        app.show_error(f"Unexpected error: {exc}", "Cannot replay that game")
        return
    show_replay(app, screen, recorded)


def show_replay(app: Any, screen: Screen, recorded: Replay) -> None:
    """The viewer, and over it what is wrong with the file when only a part of it replays."""
    app.push_screen(screen)
    if recorded.notice:
        app.push_screen(ErrorDialog(recorded.notice, "A damaged save", error=False))
