"""Host a network game: choose game, players, bots and broker; share the invite; seats fill.

While the seats fill the host sees who sits and can remove a player (x, then the seat's
number). When every seat is taken and the seed is agreed, the game's own screen opens with a
NetTable (the same screen as local play). Escape before that closes the table and the broker.

Behind a door the table goes through the relay's broker (the form has no broker to choose)
and the host chooses "open to this server" (listed in Tables on this server, for the door's
visitors) or "invite only"; the invite code is shown either way.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rich.text import Text
from textual import events, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets import Footer, Input, Label, Static

from engine.registry import get_game
from net.codec import MAX_NAME
from net.relay_limits import RelayLimits

from ..clock import ClockSpec
from ..config import broker_settings
from ..messages import CloseTable, TableCreated
from ..net_table import NetTable
from ..table import TableEvent
from ..widgets import PickList, PickRow
from ..widgets.invite_code import InviteCode, copy_invite
from .net_setup import TableSetupScreen
from .new_game import playable_games

log = logging.getLogger(__name__)
STYLES = Path(__file__).resolve().parent.parent / "styles"
RELAY_PATIENCE = 20.0
"""Seconds a relay's bots may take to sit once they are the last free seats; then the host is
told why they may not come (the relay answers a table it will not serve with silence)."""
CLOCKS = ("off", "move:60", "move:120", "bank:600+5", "bank:1200+10")  # the host form's choices


@dataclass
class HostRequest:
    """What `gamenight host` (or this screen's form) asks for."""

    game_id: str
    players: int
    bots: int = 0
    options: dict[str, Any] = field(default_factory=dict)
    settings: Any = None
    name: str = "Host"
    relay_bots: int = 0
    gid: str | None = None
    bot_delay: float = 0.6
    table: dict[str, Any] = field(default_factory=dict)  # deadlines and clock (deadlines.py)
    listed: bool = False  # behind a door: in its table list ("open to this server")
    rematch_of: Any = None  # the NetTable whose players this table is offered to, once it is up


class HostScreen(TableSetupScreen):
    STATUS_ID = "host-status"
    CSS_PATH = STYLES / "host.tcss"
    BINDINGS = [
        Binding("enter", "host", "Host", show=True),
        Binding("left", "change(-1)", "Change", show=True),
        Binding("right", "change(1)", show=False),
        Binding("x", "remove", "Remove a player", show=True),
        Binding("c", "copy_code", "Copy code", show=True),
        Binding("escape", "back", "Back", show=True),
    ]

    def __init__(self, request: HostRequest | None = None) -> None:
        super().__init__(id="host-screen")
        self.request = request
        self.games = playable_games()
        self.game_index = 0
        self.players = 4
        self.bots = 3
        self.removing = False  # x was pressed: the next digit names the seat to free
        self.clock_index = 0
        self.listed = True  # behind a door: "open to this server" (False: invite only)
        self._relay_since: float | None = None  # since when only the relay's seats are free

    def compose(self) -> ComposeResult:
        with Vertical(id="host-box"):
            yield Static("Host a network game", id="host-title")
            yield PickList(id="host-settings", empty="No game can be played yet.")
            if self.app.door is None:  # behind a door the relay's broker carries every table
                yield Label("Broker: 'embedded' starts one here, or mqtt://host:port", classes="form")
                yield Input(value="embedded", id="host-broker", compact=True, classes="form")
            yield Label("Your name:", classes="form")
            yield Input(value=self.app.config.player.name, id="host-name", compact=True, classes="form")
            yield Static("", id="host-seats")
            yield Static("", id="host-status", markup=False)
        yield InviteCode(id="host-invite")  # outside the box: the whole width for the code
        yield Footer()

    def on_mount(self) -> None:
        super().on_mount()
        self.set_interval(1.0, self._watch_relay_bots)
        if self.request is not None:
            self._start(self.request)
            return
        if self.games:
            self._reset()
        self.query_one("#host-settings", PickList).focus()

    # ---- the form ----------------------------------------------------------------------
    def _reset(self) -> None:
        game = get_game(self.games[self.game_index][0])
        low, high = game.player_range(game.check_options({}))
        self.players = min(max(4, low), high)
        self.bots = self.players - 1
        self._draw_form()

    def _draw_form(self) -> None:
        name = self.games[self.game_index][1]
        rows = [
            PickRow("game", self._row("Game", name)),
            PickRow("players", self._row("Players", str(self.players))),
            PickRow("bots", self._row("Bots", f"{self.bots}  (bot peers run here)")),
            PickRow("clock", self._row("Clock", ClockSpec.parse(CLOCKS[self.clock_index]).describe())),
        ]
        if self.app.door is not None:
            rows.append(PickRow("listed", self._row("Table", "open to this server" if self.listed else "invite only")))
        self.query_one("#host-settings", PickList).set_rows(rows)

    @staticmethod
    def _row(name: str, value: str) -> Text:
        return Text.assemble((f"{name:<10}", "bold"), " ◀ ", (value, "bold"), " ▶")

    def action_change(self, step: int) -> None:
        focused = self.focused
        if isinstance(focused, Input):
            (focused.action_cursor_left if step < 0 else focused.action_cursor_right)()
            return
        if self.session is not None or not self.games:
            return
        key = self.query_one("#host-settings", PickList).highlighted
        game = get_game(self.games[self.game_index][0])
        low, high = game.player_range(game.check_options({}))
        if key == "game":
            self.game_index = (self.game_index + step) % len(self.games)
            self._reset()
            return
        if key == "players":
            self.players = low + (self.players - low + step) % (high - low + 1)
            self.bots = min(self.bots, self.players - 1)
        elif key == "bots":
            self.bots = (self.bots + step) % self.players
        elif key == "clock":
            self.clock_index = (self.clock_index + step) % len(CLOCKS)
        elif key == "listed":
            self.listed = not self.listed
        self._draw_form()

    def action_host(self) -> None:
        if self.session is not None or self.request is not None or not self.games:
            return
        from net.mqtt import parse_broker

        config = self.app.config
        door = self.app.door
        broker = door.broker if door else self.query_one("#host-broker", Input).value.strip() or "embedded"
        if broker != "embedded":
            try:
                broker = parse_broker(broker).url
            except ValueError as exc:
                self._status(str(exc), error=True)
                return
        name = self.query_one("#host-name", Input).value.strip()[:MAX_NAME] or config.player.name
        settings = broker_settings(config, broker)
        self._start(HostRequest(self.games[self.game_index][0], self.players, self.bots, {}, settings, name,
                                bot_delay=self.app.bot_delay, table={"clock": CLOCKS[self.clock_index]},
                                listed=door is not None and self.listed))

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.action_host()

    # ---- hosting -----------------------------------------------------------------------
    def _start(self, request: HostRequest) -> None:
        self.listed = request.listed
        self.session = "starting"
        self._show_form(False)
        self._status("Starting…")
        self._host(request)

    def _show_form(self, show: bool) -> None:
        self.query_one("#host-settings").display = show
        for widget in self.query(".form"):
            widget.display = show
        if show:
            self.query_one("#host-settings").focus()
        self.refresh_bindings()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in ("host", "change"):
            return self.session is None  # the form's keys only while there is a form
        if action == "copy_code":
            return self.table is not None and bool(self.table.invite)
        if action == "remove":  # only while the seats fill
            return self.table is not None and self.table.lockstep.phase == "lobby"
        if action == "vote":
            return self.vote_allowed()
        return True

    # ---- removing a player -------------------------------------------------------------
    def action_copy_code(self) -> None:
        if self.table is not None:
            copy_invite(self.app, self.table.invite)

    def action_remove(self) -> None:
        self.removing = True
        self._status("Remove which seat? Press its number (Escape: keep everyone).")

    def action_back(self) -> None:
        if self.removing:
            self.removing = False
            self._draw_seats()
            return
        super().action_back()

    def on_key(self, event: events.Key) -> None:
        if not self.removing or self.table is None or not (event.character or "").isdigit():
            return
        event.stop()
        self.removing = False
        try:
            self.table.peer.kick(int(event.character or "0"))
        except ValueError as exc:
            self._status(str(exc), error=True)
            return
        self._draw_seats()

    @work(exclusive=True, group="host")
    async def _host(self, request: HostRequest) -> None:
        from net.launch import BrokerSettings, host_session

        try:
            session = await host_session(
                request.game_id, players=request.players, bots=request.bots, options=request.options,
                settings=request.settings or BrokerSettings(), name=request.name,
                relay_bots=request.relay_bots, gid=request.gid, bot_delay=request.bot_delay, table=request.table,
            )
        except Exception as exc:  # unreachable broker, busy port, bad options: say it plainly
            log.info("hosting failed", exc_info=True)
            self.session = None
            if self.request is None:
                self._show_form(True)
            self._status(f"Cannot host: {exc}", error=True)
            return
        self.session = session
        self.table = NetTable(session.peer, invite=session.invite, closers=[session.close], session=session)
        self.table.host_request = request
        self.post_message(TableCreated(self.table))
        if request.rematch_of is not None:
            await self._offer_rematch(request.rematch_of, session)
        if session.broker is not None:  # this terminal runs the broker (after a rematch too)
            self.table.leave_warning = (
                "The game's broker runs in this terminal: leaving stops it and the others wait "
                "until you rejoin (gamenight join or resume)."
            )
        if request.listed:
            self._list_on_server(session)
        self.table.subscribe(self._on_event)
        self.refresh_bindings()
        self.query_one("#host-invite", InviteCode).show(session.invite)
        self._draw_seats()
        self._maybe_open()

    async def _offer_rematch(self, old: Any, session: Any) -> None:
        """The new table is up: it takes the old table's broker over, the old table's players
        get the offer, and the old table closes."""
        from net.launch import offer_rematch

        try:
            await offer_rematch(old.session, session)
        except Exception as exc:  # the old peer already stopped, say: the code still works
            log.info("offering the rematch failed", exc_info=True)
            self._status(f"The players were not told of the rematch ({exc}): give them the code", error=True)
        self.post_message(CloseTable(old))

    def _list_on_server(self, session: Any) -> None:
        """Open to this server: the door's visitors see the table (until it ends or we leave),
        and so does our own Continue after a disconnect (the meta remembers it)."""
        from net.doors.tables import ListedTable

        door = self.app.door
        if door is None or self.table is None:
            return
        listing = ListedTable(door.tables, session.peer, session.invite)
        listing.start()
        self.table.add_closer(listing.stop)
        store = session.peer.store
        if store is not None:
            store.save_meta({**store.load_meta(), "listed": True})

    def _on_event(self, event: TableEvent) -> None:
        self.app.call_later(self._refresh)

    def _refresh(self) -> None:
        if not self.is_attached:
            return
        self.refresh_bindings()
        if not self.removing:
            self._draw_seats()
        self._maybe_open()

    def _draw_seats(self) -> None:
        table = self.table
        if table is None:
            return
        seats = table.lockstep.lobby_seats() if not table.lockstep.names else table.lockstep.names
        lines = [f"  seat {i}: {name}" if name else f"  seat {i}: (free)" for i, name in enumerate(seats)]
        self.query_one("#host-seats", Static).update("\n".join(lines))
        free = sum(1 for n in seats if not n)
        late = self._relay_late(free)
        if table.lockstep.refused:
            self._status(table.lockstep.refused, error=True)
        elif late:
            self._status(late)
        elif free:
            where = "they find it in Tables on this server, or send them" if self.listed else "send them"
            self._status(f"Waiting for {free} more player{'s' if free > 1 else ''}: {where} the invite code.")
        else:
            self._status("All seats taken. " + self.seed_text())

    def on_seed_tick(self) -> None:
        self._draw_seats()

    def _watch_relay_bots(self) -> None:
        """Once a second in the lobby: the wait for a relay's bots is counted (`_relay_late`)."""
        if self.table is not None and self.table.lockstep.phase == "lobby" and not self.removing:
            self._draw_seats()

    def _relay_late(self, free: int) -> str | None:
        """Why the relay's bots may not come, once they alone are missing for RELAY_PATIENCE
        seconds (a relay seats its bots when they are the last free seats); None before."""
        assert self.table is not None
        info = self.table.lockstep.table
        wanted = info.relay_bots if info is not None else 0
        now = asyncio.get_running_loop().time()
        if not 0 < free <= wanted:
            self._relay_since = None
            return None
        if self._relay_since is None:
            self._relay_since = now
        waited = now - self._relay_since
        if waited < RELAY_PATIENCE:
            return None
        bots = f"{free} bot{'s' if free > 1 else ''}"
        return (f"Waiting for the relay's {bots}: none has sat down in {waited:.0f} s. Is this broker a "
                f"gamenight relay with bots (gamenight relay --bots N)? A relay also serves at most "
                f"{RelayLimits().live_per_key} unfinished games of one host at once. Esc: back.")

    def _maybe_open(self) -> None:
        table = self.table
        if table is not None and table.drawable and not self._opened:
            self._opened = True
            self.app.open_table(table)
