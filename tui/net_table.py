"""NetTable: the Table interface over a lockstep peer, so a game screen plays networked unchanged.

It owns what the game needs on this terminal (the peer, its broker connection, an embedded
broker when this terminal hosts, local bot peers) and closes them with the table. Peer notes
become TableEvents: changed, waiting (who is awaited, since when), presence, chat, error,
desync, over; plus "lobby" while seats fill.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any

from engine.core import Action, ActionSpace, IllegalAction, Result, Seat, View
from net.lockstep import Note
from net.peer import Peer

from .clock import ClockError, ClockSpec, clock_text
from .log_text import event_lines
from .table import Table, TableEvent, TableSupports, deal_text

log = logging.getLogger(__name__)

Closer = Callable[[], Awaitable[None]]


@dataclass(frozen=True)
class NetRematch:
    """What a network table's rematch opens, replacing `table` once the new one is up: hosting
    again (`host`: the Host screen's request) or the table the host offered (`code`: its
    invite code, joined as `name`)."""

    table: NetTable
    host: Any = None
    code: str = ""
    name: str | None = None


class NetTable(Table):
    """A networked game as seen from this terminal (one seat, or none when watching)."""

    def __init__(self, peer: Peer, *, invite: str = "", closers: Sequence[Closer] = (),
                 session: Any = None) -> None:
        super().__init__()
        self.session = session  # net.launch.Session: what a rematch reuses (broker, settings)
        self.host_request: Any = None  # the Host screen's request, when this terminal hosts
        self.peer = peer
        self.lockstep = peer.lockstep
        self.game = peer.lockstep.game
        self.invite = invite
        self._closers = list(closers)
        self.waiting_since = time.monotonic()
        self.waiting_text = ""
        self._closed = False
        peer.listeners.append(self._on_note)
        if invite:
            self.log_lines.append(f"Invite code: {invite}")
        for note in peer.restored:  # resumed: the log panel as it was
            self.log_lines.extend(line for line in self._step_lines(note) if line)
        if self.started:  # resumed: the start (and its settings) came from the disk log
            self._use_settings()

    # ---- reading -----------------------------------------------------------------------
    @property
    def supports(self) -> TableSupports:  # type: ignore[override]
        """Chat, the vote, a handover and timed waits; a rematch once the game is over, for
        the host that hosted it here or a player the host offered one."""
        ls = self.lockstep
        rematch = self.session is not None and ls.phase == "over" and (
            self.host_request is not None if ls.is_host else ls.rematch_offer is not None)
        return TableSupports(chat=True, vote=True, hand_over=True, timed_waits=True, rematch=rematch)

    @property
    def names(self) -> list[str]:  # type: ignore[override]
        ls = self.lockstep
        return list(ls.names) if ls.names else [n or f"seat {i}" for i, n in enumerate(ls.lobby_seats())]

    @property
    def local_seats(self) -> tuple[Seat, ...]:  # type: ignore[override]
        seat = self.lockstep.my_seat
        return () if seat is None or self.peer.bot_kind else (seat,)

    @property
    def started(self) -> bool:
        return self.lockstep.state is not None

    @property
    def drawable(self) -> bool:
        """The game screen may open: the game began and this seat's first cards are here."""
        return self.lockstep.drawable

    def view(self, seat: Seat | None) -> View:
        ls = self.lockstep
        if seat is not None and seat != ls.my_seat:
            seat = None  # this terminal only ever sees its own seat's view
        return ls.view(seat)

    def legal_actions(self, seat: Seat) -> Sequence[Action] | ActionSpace:
        ls = self.lockstep
        if seat != ls.my_seat or not ls.my_turn() or ls.frozen:
            return ()
        return ls.legal_actions(seat)

    def active(self) -> frozenset[Seat]:
        return self.lockstep.active()

    def awaiting(self) -> frozenset[Seat]:
        ls = self.lockstep
        awaited = ls.awaited()
        seat = ls.my_seat
        if seat is not None and seat in awaited and not ls.my_turn():
            awaited = awaited - {seat}  # we chose; our reveal goes out by itself
        return awaited

    def waiting_for(self) -> tuple[list[str], float]:
        """Names awaited now and for how many seconds (for a clock on screen)."""
        names = self.names
        who = [names[s] for s in sorted(self.awaiting()) if s < len(names)]
        return who, time.monotonic() - self.waiting_since

    def waiting_line(self) -> str:
        """"waiting for Bob (offline), Cy · 0:12" — who is awaited, and for how long."""
        awaited = sorted(self.awaiting())
        if not awaited or self.is_over():
            return ""
        names = self.names
        offline = self.offline()
        who = ", ".join(names[s] + (" (offline)" if s in offline else "") for s in awaited if s < len(names))
        seconds = int(time.monotonic() - self.waiting_since)
        return f"waiting for {who} · {seconds // 60}:{seconds % 60:02d}{self.deadline_text()}"

    def deadline_text(self) -> str:
        """" · vote in 1:48", or " · ^E: vote" once the table may vote ("" otherwise)."""
        if self.vote_options() is not None:
            return " · ^E: vote"
        left = self.lockstep.deadline_left()
        return "" if left is None or self.lockstep.my_turn() else f" · vote in {clock_text(max(0.0, left))}"

    # ---- the table's vote --------------------------------------------------------------
    def vote_options(self) -> dict[str, Any] | None:
        """What this terminal may vote about now ({"seats", "cause", "names", "voted"}), or None."""
        if self.lockstep.frozen:
            return None
        return self.lockstep.vote_options()  # over: only when the end audit proved a cheat

    def vote(self, choice: str) -> None:
        """Vote "end", "abandon" or "wait"; ValueError with a line for the player otherwise."""
        self.peer.vote(choice)

    def went_away(self, seat: int) -> None:
        self.peer.set_away(True)

    def came_back(self, seats: set[int]) -> None:
        self.peer.set_away(False)

    def hand_over(self, bot: str = "best") -> None:
        """Leave for good: another terminal's bot plays this seat (ValueError if nobody can)."""
        self.peer.handover(bot)

    def rematch(self) -> NetRematch:
        """What opens this table's rematch (net/lockstep/rematch.py): as the host, hosting
        again on the same broker with the same request (a new game id); as a player, the
        table the host offered (ValueError: none yet)."""
        import dataclasses

        from net.invite import make_invite
        from net.launch import BrokerSettings
        from net.lockstep.admission import TablePin, fingerprint

        ls, session = self.lockstep, self.session
        if session is None or not self.is_over():
            raise ValueError("a rematch starts once the game is over")
        if ls.is_host:
            if self.host_request is None:
                raise ValueError("this table was not hosted from this terminal's Host screen")
            settings = dataclasses.replace(session.settings or self.host_request.settings or BrokerSettings(),
                                           broker=session.broker_url)
            return NetRematch(self, host=dataclasses.replace(self.host_request, gid=None, settings=settings,
                                                             rematch_of=self))
        if ls.rematch_offer is None or ls.host_key is None:
            raise ValueError("the host has not offered a rematch yet")
        gid, secret = ls.rematch_offer
        code = make_invite(session.broker_url, gid, TablePin(fingerprint(ls.host_key), secret), session.fingerprint)
        seat = ls.my_seat
        return NetRematch(self, code=code, name=self.names[seat] if seat is not None else None)

    @property
    def ended_why(self) -> str:
        outcome = self.lockstep.outcome
        return outcome.text if outcome is not None else ""

    def is_over(self) -> bool:
        return self.lockstep.phase == "over"

    @property
    def deal_line(self) -> str:
        """What the end audit says of the deal ("" for a game with no hidden cards)."""
        return deal_text(self.lockstep.dealt, self.lockstep.deal_verdict)

    def result(self) -> Result:
        return self.lockstep.result()  # marked "ended early" when the table voted to end it

    def moves_made(self) -> int:
        return self.lockstep.step

    def offline(self) -> frozenset[Seat]:
        return frozenset(self.lockstep.offline)

    @property
    def frozen(self) -> str | None:
        return self.lockstep.frozen

    # ---- acting ------------------------------------------------------------------------
    async def submit(self, seat: Seat, action: Action) -> None:
        if seat != self.lockstep.my_seat:
            raise IllegalAction(f"this terminal plays seat {self.lockstep.my_seat}, not seat {seat}")
        self.peer.decide(action)

    async def chat(self, text: str) -> None:
        self.peer.chat(text)

    async def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        try:
            await self.peer.stop()
        except Exception:
            log.exception("stopping the peer failed")
        for closer in reversed(self._closers):
            try:
                await closer()
            except Exception:
                log.exception("closing a network resource failed")

    def add_closer(self, closer: Closer) -> None:
        self._closers.append(closer)

    # ---- events ------------------------------------------------------------------------
    def _on_note(self, note: Note) -> None:
        kind = note.kind
        if kind == "waiting":
            self.waiting_since = time.monotonic()
            self.waiting_text = note.text
            self.emit(TableEvent("waiting", note.text, dict(note.data)))
        elif kind == "changed":
            lines = tuple(line for line in self._step_lines(note) if line)
            self.emit(TableEvent(kind, lines[-1] if lines else "", dict(note.data), lines))
        elif kind == "presence" and note.data.get("seat") in self.local_seats:
            self.emit(TableEvent("waiting", self.waiting_text, dict(note.data)))  # our own, echoed: no news here
        elif kind in ("presence", "error", "desync", "over"):
            self.emit(TableEvent(kind, note.text, dict(note.data)))
        elif kind == "your_turn":  # (after a move we waited to see confirmed): redraw
            self.emit(TableEvent("waiting", self.waiting_text, dict(note.data)))
        elif kind == "chat":
            self.chat_lines.append(note.text)
            self.emit(TableEvent("chat", note.text, dict(note.data)))
        elif kind == "refused":
            self.emit(TableEvent("error", note.text, dict(note.data)))
        elif kind in ("lobby", "started", "seated", "lobby_closed"):
            self.emit(TableEvent("lobby", note.text, {**note.data, "note": kind}))
        elif kind == "rematch":
            self.emit(TableEvent("rematch", "The host deals again: press r for the new table",
                                 {"gid": note.data.get("gid")}))
        elif kind in ("vote", "proof", "handover", "audit", "ending"):
            self.emit(TableEvent("notice", note.text, {**note.data, "note": kind}))
        if kind == "changed" and note.data.get("step") == 0:
            self._use_settings()  # the game began: the host's clock is known now

    def _step_lines(self, note: Note) -> list[str]:
        """A step's log lines: its public events worded here, with the players' names."""
        if "events" not in note.data:  # the game's start
            return [note.text]
        return event_lines(self.game.id, note.data["events"], self.names)

    def _use_settings(self) -> None:
        """The host's clock travels in the start; each terminal runs only its own seat's."""
        if self.clocks is not None:
            return
        try:
            spec = ClockSpec.parse(str(self.lockstep.settings.get("clock", "off")))
        except ClockError as exc:
            log.info("the host's clock is not one this client reads: %s", exc)
            return
        if spec.on:
            self.set_clock(spec)
            try:
                self.start_clock_watch()
            except RuntimeError:  # no event loop yet (built outside one): start() does it
                pass

    async def start(self) -> None:
        self._use_settings()
        self.start_clock_watch()
