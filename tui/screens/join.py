"""Join a network game: the open games on a broker (from their retained announcements), or an
invite code; Enter takes a seat, w watches. The game's screen opens once the seed is agreed.
"""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path
from typing import Any, NamedTuple

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets import Footer, Input, Label, Static

from net.codec import MAX_NAME

from ..config import broker_settings
from ..messages import CloseTable, TableCreated
from ..net_table import NetTable
from ..table import TableEvent
from ..widgets import PickList, PickRow
from ..widgets.invite_code import CodeInput
from .net_setup import TableSetupScreen

log = logging.getLogger(__name__)
JOIN_PATIENCE = 30.0
"""Seconds a joiner waits for the host's seat before giving up with a hint: a host never
answers a hello without the table secret (a stranger's hello costs it nothing), so a wrong
code would otherwise leave the joiner asking forever."""
STYLES = Path(__file__).resolve().parent.parent / "styles"


class _Asking(NamedTuple):
    """A join under way: which table, and since when (the loop's clock)."""

    gid: str
    url: str
    watch: bool
    since: float


class JoinScreen(TableSetupScreen):
    STATUS_ID = "join-status"
    CSS_PATH = STYLES / "join.tcss"
    BINDINGS = [
        Binding("enter", "join", "Join", show=True),
        Binding("w", "watch", "Watch", show=True),
        Binding("f5,ctrl+r", "find", "Refresh", show=True),
        Binding("escape", "back", "Back", show=True),
    ]

    def __init__(self, code: str | None = None, *, watch: bool = False, name: str | None = None,
                 rematch_of: Any = None) -> None:
        super().__init__(id="join-screen")
        self.code = code
        self.rematch_of = rematch_of  # a table whose host offered this one: closed once we join
        self.watch_only = watch
        self.name_override = name
        self._asking: _Asking | None = None

    def compose(self) -> ComposeResult:
        with Vertical(id="join-box"):
            yield Static("Join a network game", id="join-title")
            yield Label("Broker (mqtt://host:port) or an invite code:")
            yield CodeInput(value=self.code or self.app.config.broker.url, id="join-broker", compact=True)
            yield Label("Your name at the table:")
            yield Input(value=self.name_override or self.app.config.player.name, id="join-name", compact=True,
                        max_length=MAX_NAME)
            yield Label("Open games (Enter: join, w: watch, F5: refresh):")
            yield PickList(id="join-games", empty="No open game found on this broker.")
            yield Static("", id="join-seats")
            yield Static("", id="join-status", markup=False)
        yield Footer()

    def on_mount(self) -> None:
        super().on_mount()
        self.set_interval(1.0, self._check_patience)
        if self.code:
            from net.invite import parse_invite

            try:
                url, gid, pin, cert = parse_invite(self.code, self.app.config.broker.url)
            except ValueError as exc:
                self._status(str(exc), error=True)
                return
            self._go(url, gid, self.watch_only, pin, cert)
            return
        self.query_one("#join-games", PickList).focus()
        self.action_find()

    # ---- finding games -----------------------------------------------------------------
    def _address(self) -> tuple[str, str | None, Any, str] | None:
        """(broker, gid, table pin, certificate pin) typed in the form: a code or a bare broker."""
        from net.invite import parse_invite
        from net.mqtt import parse_broker

        text = self.query_one("#join-broker", Input).value.strip()
        try:
            if "/" in text.replace("://", ""):
                code = parse_invite(text, self.app.config.broker.url)
                return code.broker, code.gid, code.pin, code.cert
            return parse_broker(text).url, None, None, ""
        except ValueError as exc:
            self._status(str(exc), error=True)
            return None

    def action_find(self) -> None:
        address = self._address()
        if address is not None:
            self._find(address[0], address[3])

    @work(exclusive=True, group="find")
    async def _find(self, url: str, cert: str = "") -> None:
        from net.launch import connect
        from net.session import list_open_games

        self._status(f"Looking for games on {url}…")
        try:
            transport = await connect(url, self._settings(url, cert), timeout=3)
        except Exception as exc:
            self._status(f"Cannot reach {url}: {exc}", error=True)
            return
        try:
            games = await list_open_games(transport)
        finally:
            await transport.stop()
        picklist = self.query_one_optional("#join-games", PickList)
        if picklist is None or self.session is not None:
            return  # joined (or left) while the broker answered: the list is being torn down
        rows = []
        for g in games:
            seats = f"{g.players - g.free}/{g.players} seated"
            state = f"{g.free} free" if g.open and g.free else "playing"
            rows.append(PickRow((url, g.gid, g.invite, cert), f"{g.gid:<22} {g.game:<10} host {g.host_name:<12} {seats}, {state}"))
        picklist.set_rows(rows)
        self._status(f"{len(games)} game(s) on {url}." if games else f"No open game on {url} yet (F5 to look again).")

    def _settings(self, url: str, cert: str = "") -> Any:
        """The config's settings for `url`, trusting the certificate an invite code pins."""
        from net.launch import trusting

        return trusting(broker_settings(self.app.config, url), url, cert)

    # ---- joining -----------------------------------------------------------------------
    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        address = self._address()
        if address is None:
            return
        url, gid, pin, cert = address
        if gid:
            self._go(url, gid, False, pin, cert)
        else:
            self._find(url, cert)

    def action_join(self) -> None:
        self._join_selected(False)

    def action_watch(self) -> None:
        if isinstance(self.focused, Input):
            self.focused.insert_text_at_cursor("w")
            return
        self._join_selected(True)

    def _join_selected(self, watch: bool) -> None:
        key = self.query_one("#join-games", PickList).highlighted
        if isinstance(key, tuple):
            if key[2]:  # an invite-only table: the list shows it, only its code lets us in
                self._status(f"{key[1]} is by invitation: paste the host's invite code above.", error=True)
                return
            self._go(key[0], key[1], watch, None, key[3])

    def _go(self, url: str, gid: str, watch: bool, pin: Any = None, cert: str = "") -> None:
        if self.session is not None:
            return
        self.session = "joining"
        self.workers.cancel_group(self, "find")  # its answer would land on a screen being replaced
        self._status(f"{'Watching' if watch else 'Joining'} {gid}…")
        self._join(url, gid, watch, pin, cert)

    def player_name(self) -> str:
        """The name typed in the form; empty means the one from the settings."""
        typed = self.query_one("#join-name", Input).value.strip()
        return typed[:MAX_NAME] or self.name_override or self.app.config.player.name

    @work(exclusive=True, group="join")
    async def _join(self, url: str, gid: str, watch: bool, pin: Any = None, cert: str = "") -> None:
        from net.launch import join_session

        name = self.player_name()
        try:
            session = await join_session(url, gid, settings=self._settings(url, cert), name=name, watch=watch,
                                         pin=pin)
        except Exception as exc:  # refused (versions, full), unreachable: one clear line
            log.info("join failed", exc_info=True)
            self.session = None
            self._status(f"Cannot join: {exc}", error=True)
            return
        self.session = session
        self.table = NetTable(session.peer, invite=session.invite, closers=[session.close], session=session)
        self.post_message(TableCreated(self.table))
        if self.rematch_of is not None:
            self.post_message(CloseTable(self.rematch_of))
            self.rematch_of = None
        self.table.subscribe(self._on_event)
        self._asking = _Asking(gid, url, watch, asyncio.get_running_loop().time())
        self._refresh()

    def _check_patience(self) -> None:
        """Once a second: a seat asked for and not given within JOIN_PATIENCE ends the join
        with what to check (the code's host key or its secret), instead of waiting forever."""
        table, asking = self.table, self._asking
        if table is None or asking is None or self._opened or asking.watch:
            return
        ls = table.lockstep
        if ls.my_seat is not None or ls.refused or asyncio.get_running_loop().time() - asking.since < JOIN_PATIENCE:
            return
        gid, url = asking.gid, asking.url
        if ls.hello_sent:
            hint = (f"The host of {gid} has not given you a seat in {JOIN_PATIENCE:.0f} s: the table "
                    "secret in your invite code may be wrong (ask the host for the whole code again), or "
                    "the host has left.")
        else:
            hint = (f"No table {gid} of the host your invite code names was found on {url} in "
                    f"{JOIN_PATIENCE:.0f} s: check the code with the host, and that the table is still open.")
        self._give_up(hint)

    def _give_up(self, hint: str) -> None:
        table, self.table, self.session, self._asking = self.table, None, None, None
        if table is not None:
            self.app.run_worker(table.close(), group="close")
        self._status(hint + " Enter: try again, Esc: back.", error=True)

    def _on_event(self, event: TableEvent) -> None:
        if event.data.get("note") == "lobby_closed" and not self._opened:
            self.app.call_later(self._status, "The host closed this table.", True)
        self.app.call_later(self._refresh)

    def on_seed_tick(self) -> None:
        self._refresh()

    def _refresh(self) -> None:
        table = self.table
        if table is None or not self.is_attached:
            return
        ls = table.lockstep
        seats = ls.names or ls.lobby_seats()
        mine = ls.my_seat
        lines = [f"  seat {i}: {n or '(free)'}{'  ← you' if i == mine else ''}" for i, n in enumerate(seats)]
        self.query_one("#join-seats", Static).update("\n".join(lines))
        if ls.refused:
            self._status(ls.refused, error=True)
        elif table.drawable and not self._opened:
            self._opened = True
            self.app.open_table(table)
        elif mine is not None:
            free = sum(1 for n in seats if not n)
            self._status(f"You have seat {mine}. Waiting for {free} more player(s)…" if free else self.seed_text())
        elif ls.hello_sent:
            self._status("Asking the host for a seat…")
        elif self._asking is not None and not self._asking.watch:
            self._status("Looking for the host's table…")
        else:
            self._status("Watching: the game shows once it has started…")
