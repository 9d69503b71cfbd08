"""The table's vote, as a small modal: end the game now (scored as it stands) or keep waiting.

Offered by a network game screen (Ctrl+E) when a seat is late past its deadline, offline past
the grace, or proven to cheat (net/lockstep/vote.py). Dismisses with "end", "abandon", "wait"
or None (closed without voting).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Footer, Static

from ..table import Table

WHY = {"late": "did not play in time", "offline": "went offline", "proof": "was proven to cheat"}


def vote_question(options: dict[str, Any]) -> str:
    """"Bob did not play in time. End the game now, scored as it stands?" (and any vote cast)."""
    who = ", ".join(options["names"])
    text = f"{who} {WHY.get(options['cause'], 'stalls the table')}.\nEnd the game now, scored as it stands?"
    if options["cause"] != "offline":
        text += f"\n(Ended for cause: {who} placed last.)"
    if options.get("voted"):
        text += f"\nYou voted: {options['voted']}."
    return text


class VoteDialog(ModalScreen[str | None]):
    """e: end now · a: abandon (no score) · w: keep waiting · Escape: decide later."""

    BINDINGS = [
        Binding("e", "choose('end')", "End now", show=True),
        Binding("w", "choose('wait')", "Keep waiting", show=True),
        Binding("a", "choose('abandon')", "Abandon", show=True),
        Binding("escape", "choose('')", "Later", show=True),
    ]

    def __init__(self, options: dict[str, Any]) -> None:
        super().__init__(classes="dialog-screen")
        self.options = options

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog") as box:
            box.border_title = "The table votes"
            yield Static(vote_question(self.options), id="dialog-message", markup=False)
            yield Static("e: end now   w: keep waiting   a: abandon   Esc: later", classes="dialog-hint")
        yield Footer()

    def action_choose(self, choice: str) -> None:
        self.dismiss(choice or None)


def vote_offered(table: Table | None) -> bool:
    """True when this terminal's table lets its player vote now (network tables only)."""
    return table is not None and table.supports.vote and table.vote_options() is not None


def ask_vote(screen: Any) -> None:
    """Open the vote dialog from a game screen and send the choice (one line on refusal)."""
    table = screen.table
    options = table.vote_options() if vote_offered(table) else None
    if options is None:
        screen.show_message("There is nothing to vote about now.")
        return

    def answer(choice: str | None) -> None:
        if not choice:
            return
        try:
            table.vote(choice)
        except ValueError as exc:
            screen.show_message(str(exc), error=True)
            return
        screen.show_message(f"You voted to {choice}.")

    screen.app.push_screen(VoteDialog(options), answer)


class LeaveDialog(ModalScreen[str | None]):
    """Leaving a running network game: come back later, or hand the seat to a bot for good."""

    BINDINGS = [
        Binding("y,enter", "choose('leave')", "Leave", show=True),
        Binding("b", "choose('bot')", "Leave, a bot plays", show=True),
        Binding("n,escape", "choose('')", "Stay", show=True),
    ]

    def __init__(self, question: str) -> None:
        super().__init__(classes="dialog-screen")
        self.question = question

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static(self.question, id="dialog-message", markup=False)
            yield Static("y: leave (rejoin later)   b: leave, a bot plays my seat   n: stay",
                         classes="dialog-hint")
        yield Footer()

    def action_choose(self, choice: str) -> None:
        self.dismiss(choice or None)


def ask_leave(screen: Any, question: str, then: Callable[[], None]) -> bool:
    """On a running network game, ask with the handover choice and run `then` once the player
    leaves (after handing the seat over, if asked); False if the choice does not apply."""
    table = screen.table
    if not table.supports.hand_over or table.is_over() or not table.local_seats:
        return False

    def answer(choice: str | None) -> None:
        if choice == "bot":
            try:
                table.hand_over()
            except ValueError as exc:
                screen.show_message(str(exc), error=True)
                return
        if choice:
            then()

    screen.app.push_screen(LeaveDialog(question), answer)
    return True
