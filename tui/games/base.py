"""What every game screen shares; a game's screen subclasses GameScreen (see docs/tui.md).

The base owns the frame (status line, board, scoreboard, game log, message and waiting lines,
footer), listens to the table, picks which local seat is shown (hot seat: an opaque "pass to"
screen between two humans), sends actions and turns every error into a line for the player.
A subclass draws the board from the seat's view and builds actions from the legal ones:

    compose_board()            the widgets of the board area
    render_view(view, legal)   redraw them (legal = () when this seat is not to act)
    status_text(view)          the top line
    scoreboard(view)           (header, rows, highlighted row indexes) for the side panel
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import ActiveBinding, Binding
from textual.containers import Horizontal, Vertical
from textual.reactive import Reactive
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Static

from engine.core import Action, ActionSpace, GameError, Seat, View

from ..screens.dialogs import ConfirmDialog
from ..screens.invite import InviteDialog
from ..screens.log_view import GameLogScreen
from ..screens.pass_to import PassToScreen
from ..screens.vote import ask_leave, ask_vote, vote_offered
from ..table import Table, TableEvent
from ..title import turn_title
from ..widgets import GameLogPanel, Scoreboard
from ..widgets.chat import ChatPanel
from ..widgets.flow import Forms
from ..widgets.footer import GameFooter
from ..widgets.panel import Panel

log = logging.getLogger(__name__)
STYLES = Path(__file__).resolve().parent.parent / "styles"
"""tui/styles: a game screen sets CSS_PATH = STYLES / "<game>.tcss"."""

Legal = Sequence[Action] | ActionSpace


MIN_SIZE = (80, 24)
"""The smallest terminal a game screen supports; below it the screen asks for a bigger one."""

FRAME_ACTIONS = ("help", "leave", "results", "chat", "vote", "invite", "log", "quit")
"""The frame's keys: in the footer after the game's own keys (its main key, Enter, first)."""

WHILE_TOO_SMALL = frozenset({"leave", "help"})
"""The screen's actions whose keys still act below MIN_SIZE (with the app's quit): the board
is not drawn then, so a game key would play a card nobody saw."""


class GameScreen(Screen[None]):
    GAME_ID: ClassVar[str] = ""

    # Size classes on the screen (Textual sets them on resize): too small -> the board gives way
    # to one line; wider and taller terminals grow the side panel (styles/app.tcss).
    HORIZONTAL_BREAKPOINTS = [(0, "-too-narrow"), (MIN_SIZE[0], "-normal"), (110, "-wide"), (150, "-very-wide")]
    VERTICAL_BREAKPOINTS = [(0, "-too-short"), (MIN_SIZE[1], "-normal-height"), (36, "-tall")]

    # Textual repaints the whole screen when the focus moves (Screen.focused repaints); the
    # widgets that gain and lose focus repaint themselves (their :focus styles), and a game
    # screen's own background does not depend on the focus: no full-screen repaint.
    focused: Reactive[Widget | None] = Reactive(None, repaint=False)

    BINDINGS = [
        Binding("f1,question_mark", "help", "Help", show=True),
        Binding("escape", "leave", "Menu", show=True),
        Binding("e", "results", "Results", show=True),
        Binding("ctrl+t", "chat", "Chat", show=True),
        Binding("ctrl+e", "vote", "Vote", show=True),  # network: a late, gone or cheating seat
        Binding("f2", "invite", "Invite", show=False),
        Binding("f3", "log", "Log", show=True),
    ]

    def __init__(self, table: Table) -> None:
        super().__init__(classes=f"game-screen {self.GAME_ID}-screen")
        self.table = table
        self.seat: Seat | None = None
        self._passing = False
        self._ended = False
        self._was_my_turn = False
        self._message = ""
        self._events: list[TableEvent] = []  # table events not handled yet

    # ---- for subclasses ----------------------------------------------------------------
    def compose_board(self) -> ComposeResult:
        raise NotImplementedError

    def render_view(self, view: View, legal: Legal) -> None:
        raise NotImplementedError

    def status_text(self, view: View) -> str:
        return self.table.game.name

    def scoreboard(self, view: View) -> tuple[Sequence[str], Sequence[Sequence[Any]], Sequence[int]]:
        return ["Player"], [[name] for name in self.table.names], ()

    # ---- helpers for subclasses --------------------------------------------------------
    def player_name(self, seat: Seat) -> str:
        names = self.table.names
        return names[seat] if 0 <= seat < len(names) else f"seat {seat}"

    @property
    def my_turn(self) -> bool:
        return self.seat is not None and self.seat in self.table.awaiting()

    def submit(self, action: Action) -> None:
        """Send an action for the shown seat; a refusal appears on the message line."""
        seat = self.seat
        if seat is None:
            self.show_message("You are watching: nothing to play.", error=True)
            return
        if seat not in self.table.awaiting():
            self.show_message("It is not your turn.", error=True)
            return
        self.show_message("")
        self.run_worker(self._submit(seat, action), group="submit")

    async def _submit(self, seat: Seat, action: Action) -> None:
        try:
            await self.table.submit(seat, action)
        except GameError as exc:
            self.show_message(str(exc), error=True)
        except Exception as exc:  # a bug must not take the table down: say it, log it
            log.exception("submitting %r for seat %s failed", action, seat)
            self.show_message(f"Unexpected error: {exc}", error=True)

    def show_message(self, text: str, *, error: bool = False) -> None:
        self._message = text
        line = self.query_one("#message", Static)
        line.update(("⚠ " if error and text else "") + text)
        line.set_class(error and bool(text), "error")
        line.display = bool(text)
        if error and text:
            self.app.bell()

    # ---- frame -------------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        yield Static(self._too_small_text(), id="too-small", markup=False)
        yield Panel("", id="status", markup=False)
        with Horizontal(id="game-body"):
            with Vertical(id="board"):
                yield from self.compose_board()
            with Vertical(id="side"):
                if self.invite:
                    yield Static(self._invite_line(), id="invite")
                yield Scoreboard(id="scoreboard")
                yield Panel("", id="clocks", markup=False)
                yield GameLogPanel(id="game-log")
                if self.has_chat:
                    yield ChatPanel(self.table)
        yield Panel("", id="message", markup=False)
        yield Panel("", id="waiting", markup=False)
        yield GameFooter(rank=self.footer_rank)

    def footer_rank(self, action: str) -> int:
        """Footer order: Enter's action first, the game's keys, then the frame's."""
        if action in FRAME_ACTIONS:
            return 2
        return 0 if action in self._enter_actions else 1

    @property
    def _enter_actions(self) -> frozenset[str]:
        return frozenset(b.action for b in self._bindings.key_to_bindings.get("enter", ()))

    @property
    def too_small(self) -> bool:
        width, height = self.app.size
        return width < MIN_SIZE[0] or height < MIN_SIZE[1]

    def acts_on_key(self, key: str) -> bool:
        """False for a key this screen must ignore now: below MIN_SIZE only Esc and Help act
        (the app's own keys, ctrl+q, are the app's to keep)."""
        if not self.too_small:
            return True
        return any(b.action in WHILE_TOO_SMALL for b in self._bindings.key_to_bindings.get(key, ()))

    def _too_small_text(self) -> str:
        width, height = self.app.size
        return (f"Enlarge the terminal to {MIN_SIZE[0]}×{MIN_SIZE[1]} to see the table "
                f"(it is {width}×{height} now).\nEsc: menu · ctrl+q: quit")

    def on_resize(self) -> None:
        if self.is_mounted:
            self.query_one("#too-small", Static).update(self._too_small_text())
            if self.too_small != self._was_too_small:  # the footer dims or lights its keys
                self._was_too_small = self.too_small
                self.refresh_bindings()

    _was_too_small = False

    def on_unmount(self) -> None:
        self.app.terminal_title.restore()  # back to the terminal's own title once the game is left

    @property
    def active_bindings(self) -> dict[str, ActiveBinding]:
        """Below MIN_SIZE the footer keeps showing every key, dimmed where the key does not act."""
        bindings = super().active_bindings
        if not self.too_small:
            return bindings
        return {key: active if active.node is self.app or active.binding.action in WHILE_TOO_SMALL
                else active._replace(enabled=False) for key, active in bindings.items()}

    _vote_offered = False

    def on_mount(self) -> None:
        self.query_one("#message", Static).display = False
        logs = self.query_one("#game-log", GameLogPanel)
        for line in self.table.log_lines[-200:]:
            if not (self.invite and line.endswith(self.invite)):  # on its own line above
                logs.add(line)
        self.table.subscribe(self._on_table_event)
        self.query_one("#clocks", Static).display = self.table.clocks is not None
        if self.table.supports.timed_waits or self.table.clocks is not None:
            self.set_interval(1.0, self._tick)
        self.refresh_table()
        self.run_worker(self._start_table(), group="table")

    async def _start_table(self) -> None:
        try:
            await self.table.start()
        except Exception as exc:
            log.exception("starting the table failed")
            self.show_message(f"The table could not start: {exc}", error=True)

    def _on_table_event(self, event: TableEvent) -> None:
        # Events that arrive together (bots answering at once, "waiting" then "changed") are
        # handled together: their log lines and messages, then one redraw of the final state.
        self._events.append(event)
        if len(self._events) == 1:
            self.call_later(self._handle_events)

    def _handle_events(self) -> None:
        events, self._events = self._events, []
        if not self.is_attached:
            return
        for event in events:
            self._note_event(event)
        self.refresh_table()

    def _note_event(self, event: TableEvent) -> None:
        logged = ("changed", "error", "notice", "desync", "over", "presence") + (() if self.has_chat else ("chat",))
        if event.kind in logged:
            self.query_one("#game-log", GameLogPanel).add_lines(event.log)
        if event.kind in ("error", "desync"):
            self.show_message(event.text, error=True)
        elif event.kind == "notice":
            self.show_message(event.text)
        elif event.kind == "changed" and self._message:
            self.show_message("")  # the table moved on: an old complaint no longer applies

    # ---- which seat is shown -----------------------------------------------------------
    def _pick_seat(self, awaiting: frozenset[Seat]) -> Seat | None:
        local = self.table.local_seats
        if not local:
            return None
        mine = sorted(awaiting & frozenset(local))
        if self.seat in mine:
            return self.seat
        if mine:
            return mine[0]
        return self.seat if self.seat in local else local[0]

    def refresh_table(self) -> None:
        """Redraw from the table; in hot seat, pass the keyboard before showing another hand."""
        if self._passing or not self.is_attached:
            return
        awaiting = self.table.awaiting()
        seat = self._pick_seat(awaiting)
        hot_seat = len(self.table.local_seats) > 1
        if hot_seat and seat is not None and seat != self.seat and seat in awaiting and not self.table.is_over():
            self.seat = None
            self._draw()  # nothing private stays on screen behind the pass screen
            self._passing = True
            self.app.push_screen(PassToScreen(self.player_name(seat)), lambda _: self._passed(seat))
            return
        self.seat = seat
        self._draw()

    def _passed(self, seat: Seat) -> None:
        self._passing = False
        self.seat = seat
        self._was_my_turn = False
        self.refresh_table()

    def _draw(self) -> None:
        try:
            awaiting = self.table.awaiting()
            view = self.table.view(self.seat)
            my_turn = self.seat is not None and self.seat in awaiting
            legal = self.table.legal_actions(self.seat) if my_turn else ()
            self.render_view(view, legal)
            self.query_one("#status", Static).update(self.status_text(view))
            header, rows, highlight = self.scoreboard(view)
            self.query_one("#scoreboard", Scoreboard).show(header, rows, highlight)
            self.query_one("#waiting", Static).update(self.waiting_text(awaiting))
            self._draw_clocks()
            self.refresh_bindings()
        except Exception as exc:
            log.exception("drawing the %s screen failed", self.GAME_ID)
            self.show_message(f"The screen could not be drawn: {exc}", error=True)
            return
        if my_turn and not self._was_my_turn and self.app.config.ui.bell:
            self.app.bell()
        if my_turn != self._was_my_turn and self.app.config.ui.title:
            self.app.terminal_title.show(turn_title(self.table.game.name, my_turn))
        self._was_my_turn = my_turn
        if self.table.is_over() and not self._ended:
            self._ended = True
            self.show_end()

    def waiting_text(self, awaiting: frozenset[Seat]) -> str:
        """"Your turn", or "waiting for: Ann, Bob (offline) · 12 s" (the clock on network tables)."""
        if self.table.is_over():
            return "The game is over."
        offline = self.table.offline()
        others = [
            self.player_name(s) + (" (offline)" if s in offline else "")
            for s in sorted(awaiting) if s != self.seat
        ]
        if self.seat is not None and self.seat in awaiting:
            return "Your turn" + (f" (also waiting for: {', '.join(others)})" if others else "")
        if not others:
            return ""
        return f"waiting for: {', '.join(others)}{self.waited_text()}"

    def waited_text(self) -> str:
        """" · 12 s · vote in 1:48" on a table whose waits are timed ("" on the others)."""
        if not self.table.supports.timed_waits:
            return ""
        seconds = int(self.table.waiting_for()[1])
        return (f" · {seconds} s" if seconds >= 3 else "") + self.table.deadline_text()

    def _tick(self) -> None:
        """Once a second on tables with a clock: redraw only the waiting line and the clocks."""
        if self.is_attached and not self._passing:
            try:
                self.query_one("#waiting", Static).update(self.waiting_text(self.table.awaiting()))
                self._draw_clocks()
                if vote_offered(self.table) != self._vote_offered:  # the footer shows Vote
                    self._vote_offered = not self._vote_offered
                    self.refresh_bindings()
            except Exception:
                log.exception("updating the waiting line failed")

    def _draw_clocks(self) -> None:
        if self.table.clocks is not None:
            self.query_one("#clocks", Static).update(self.table.clock_line())

    def key_pressed(self) -> None:
        """Any key at this terminal takes its seats back from the bot that played on time-out."""
        if self.table.take_back():
            self.show_message("The seat is yours again.")

    # ---- keys --------------------------------------------------------------------------
    def action_help(self) -> None:
        from ..screens.rules import RulesScreen

        self.app.push_screen(RulesScreen(self.GAME_ID))

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "results":
            return self.table.is_over()
        if action == "chat":
            return self.has_chat
        if action == "vote":
            return vote_offered(self.table)
        if action == "invite":
            return bool(self.invite)
        return True

    @property
    def has_chat(self) -> bool:
        """Networked tables carry a signed chat; a local table has nobody to talk to."""
        return self.table.supports.chat

    def action_vote(self) -> None:
        ask_vote(self)
    @property
    def invite(self) -> str:
        """A networked table's invite code ("" for a local table)."""
        return self.table.invite

    def _invite_line(self) -> Forms:
        # One line: a wrapped code reads as two codes, a cut one looks whole; F2 shows it whole.
        return Forms((Text.assemble(("F2 invite: ", "bold"), self.invite),
                      Text.assemble(("F2", "bold"), ": the invite code"), Text.assemble(("F2", "bold"), ": invite")))

    def action_invite(self) -> None:
        if self.invite:
            self.app.push_screen(InviteDialog(self.invite))

    def action_log(self) -> None:
        """The whole log, full width, scrolled with the keys (the side panel shows the newest)."""
        self.app.push_screen(GameLogScreen(self.table.log_lines))

    def action_chat(self) -> None:
        if self.has_chat:
            self.query_one(ChatPanel).focus_input()

    def on_chat_panel_said(self, message: ChatPanel.Said) -> None:
        self.run_worker(self._chat(message.text), group="chat")

    async def _chat(self, text: str) -> None:
        try:
            await self.table.chat(text)
        except GameError as exc:  # e.g. a replay: nobody is listening
            self.show_message(str(exc), error=True)
        except Exception as exc:  # the network said no: one line, the game goes on
            log.exception("sending a chat line failed")
            self.show_message(f"The chat line was not sent: {exc}", error=True)

    def action_results(self) -> None:
        if self.table.is_over():
            self.show_end()

    def show_end(self) -> None:
        """Push the end screen; a game with more to show (runs, wilds) overrides this."""
        self.app.show_end(self.table)

    def action_leave(self) -> None:
        self.ask_leaving(lambda: self.app.leave_table(self.table))

    @property
    def leaving_costs_others(self) -> bool:
        """Leaving now stops the game for the others (a host's broker): ctrl+q asks first too."""
        return bool(self.table.leave_warning) and not self.table.is_over()

    def ask_leaving(self, then: Callable[[], None]) -> None:
        """Ask whether to leave (and what leaving costs); `then` runs once the player said yes."""
        if self.table.save_path is not None:
            question = "Leave this game? It is saved: continue it from the menu."
        else:
            question = "Leave this game?"
        if self.leaving_costs_others:
            question += "\n" + self.table.leave_warning
        if not ask_leave(self, question, then):  # a network seat may go to a bot instead
            self.app.push_screen(ConfirmDialog(question), lambda yes: then() if yes else None)
