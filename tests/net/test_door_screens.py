"""The TUI behind a door, driven by the Pilot: the first visit's name, the host's choice "open
to this server" or "invite only", and the door's table list, on a real broker (the relay's).

The door's variables point at a tmp folder; every player has a GAMENIGHT_HOME of their own
(two apps in one process switch it, as two SSH keys would have two folders).
"""

from __future__ import annotations

import pytest
from textual.widgets import Input, Static

from net.doors.tables import entry_path, read_tables, write_entry
from tui.app import GamenightApp
from tui.config import saved_player_name, user_config_path
from tui.games.base import GameScreen
from tui.screens.host import HostScreen
from tui.screens.join import JoinScreen
from tui.screens.menu import MenuScreen
from tui.screens.name import NameScreen
from tui.screens.server_tables import ServerTablesScreen

from .brokers import running_broker
from .helpers import ended_pid, listed_entry, pilot_until

pytestmark = pytest.mark.net


async def _wait(pilot, predicate, what: str) -> None:
    await pilot_until(pilot, predicate, timeout=30.0, what=what)  # generous: the machine is shared


def _behind_a_door(monkeypatch, tmp_path, broker: str = "mqtt://127.0.0.1:1") -> object:
    from net.doors.env import current

    monkeypatch.setenv("GAMENIGHT_DOOR", str(tmp_path / "door"))
    monkeypatch.setenv("GAMENIGHT_DOOR_BROKER", broker)
    monkeypatch.setenv("GAMENIGHT_DOOR_KIND", "ssh")
    return current()


def _visitor(monkeypatch, tmp_path, who: str, name: str | None = None) -> GamenightApp:
    """The app a door starts for `who` (their own home; `name`: they came before)."""
    monkeypatch.setenv("GAMENIGHT_HOME", str(tmp_path / who))
    if name is not None:
        path = user_config_path()
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(f'[player]\nname = "{name}"\n\n[ui]\nbell = false\nbot_delay = 0\n', encoding="utf-8")
    return GamenightApp()


def _menu_rows(app) -> list[str]:
    return [str(row.text) for row in app.screen.query_one("#menu-list").rows]


async def test_the_first_visit_asks_the_name_once_and_keeps_it(tmp_path, monkeypatch) -> None:
    _behind_a_door(monkeypatch, tmp_path)
    app = _visitor(monkeypatch, tmp_path, "key-a")
    path = user_config_path()
    async with app.run_test(size=(80, 24)) as pilot:
        await _wait(pilot, lambda: isinstance(app.screen, NameScreen), what="the name question")
        await pilot.press("enter")  # nothing typed: asked again, nothing saved
        assert "Type a name" in str(app.screen.query_one("#name-status", Static).render())
        assert not path.exists()
        await pilot.press(*"Zoe", "enter")
        await _wait(pilot, lambda: isinstance(app.screen, MenuScreen), what="the menu")
        assert app.config.player.name == "Zoe"
        assert _menu_rows(app)[0] == "Tables on this server  (t)"
    assert saved_player_name(path) == "Zoe"
    again = _visitor(monkeypatch, tmp_path, "key-a")  # the same key, next time
    async with again.run_test(size=(80, 24)) as pilot:
        await pilot.pause(0.3)
        assert isinstance(again.screen, MenuScreen) and again.config.player.name == "Zoe"
        await pilot.press("h")  # the host form has the name, and no broker to choose
        await _wait(pilot, lambda: isinstance(again.screen, HostScreen), what="the host form")
        assert again.screen.query_one("#host-name", Input).value == "Zoe"
        assert not again.screen.query("#host-broker")
        rows = [str(row.text) for row in again.screen.query_one("#host-settings").rows]
        assert "open to this server" in rows[-1]


async def test_not_behind_a_door_nothing_is_asked_and_the_menu_is_as_before(tmp_path, monkeypatch) -> None:
    for name in ("GAMENIGHT_DOOR", "GAMENIGHT_DOOR_BROKER", "GAMENIGHT_DOOR_KIND"):
        monkeypatch.delenv(name, raising=False)
    app = _visitor(monkeypatch, tmp_path, "local")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause(0.3)
        assert isinstance(app.screen, MenuScreen)
        assert not any("Tables" in row for row in _menu_rows(app))
        await pilot.press("t")  # no such key here
        await pilot.pause(0.1)
        assert isinstance(app.screen, MenuScreen)
        await pilot.press("h")
        await _wait(pilot, lambda: isinstance(app.screen, HostScreen), what="the host form")
        assert app.screen.query_one("#host-broker", Input).value == "embedded"
    assert not user_config_path().exists()


async def _host(pilot, app, players_left: int, *, invite_only: bool = False) -> HostScreen:
    """Menu -> Host: Money! with 4 - `players_left` seats and no bots, then Enter."""
    await pilot.press("h")
    await _wait(pilot, lambda: isinstance(app.screen, HostScreen), what="the host form")
    await pilot.press("down", *["left"] * players_left)  # players 4 -> fewer (bots follow)
    await pilot.press("down", "right")  # bots -> 0
    if invite_only:
        await pilot.press("down", "down", "left")  # Table: open to this server -> invite only
    screen = app.screen
    await pilot.press("enter")
    await _wait(pilot, lambda: screen.table is not None, what="the hosted table")
    return screen


async def test_a_table_open_to_this_server_is_listed_picked_joined_and_unlisted(tmp_path, monkeypatch) -> None:
    async with running_broker("amqtt") as url:
        door = _behind_a_door(monkeypatch, tmp_path, url)
        alice = _visitor(monkeypatch, tmp_path, "key-a", "Alice")
        bob = _visitor(monkeypatch, tmp_path, "key-b", "Bob")
        try:
            async with alice.run_test(size=(80, 24)) as pa, bob.run_test(size=(80, 24)) as pb:
                monkeypatch.setenv("GAMENIGHT_HOME", str(tmp_path / "key-a"))
                host = await _host(pa, alice, 2)  # 2 players
                gid = host.table.lockstep.gid
                assert "Invite code" in str(host.query_one("#host-invite", Static).render())  # for outsiders
                assert "Tables on this server" in str(host.query_one("#host-status", Static).render())
                await _wait(pa, lambda: bool(read_tables(door.tables)), what="the entry")
                (listed,) = read_tables(door.tables)
                assert (listed.gid, listed.seats, listed.host, listed.started) == (gid, ("Alice", ""), "Alice", False)
                assert listed.invite == host.table.invite
                # Bob: t opens the list; the table shows with its free seat; Enter takes it
                monkeypatch.setenv("GAMENIGHT_HOME", str(tmp_path / "key-b"))
                await pb.press("t")
                await _wait(pb, lambda: isinstance(bob.screen, ServerTablesScreen), what="Bob's table list")
                tables = bob.screen.query_one("#tables-list")
                await _wait(pb, lambda: bool(tables.rows), what="Alice's table in the list")
                row = str(tables.rows[0].text)
                assert "Money!" in row and "1 of 2 free" in row and "host Alice" in row
                await pb.press("enter")
                await _wait(pb, lambda: isinstance(bob.screen, (JoinScreen, GameScreen)), what="Bob joining")
                await _wait(pa, lambda: isinstance(alice.screen, GameScreen), what="Alice's game screen")
                await _wait(pb, lambda: isinstance(bob.screen, GameScreen), what="Bob's game screen")
                ta, tb = alice.screen.table, bob.screen.table
                assert ta.names == tb.names == ["Alice", "Bob"] and tb.local_seats == (1,)
                await _wait(pa, lambda: read_tables(door.tables)[0].started, what="the entry says playing")
                assert read_tables(door.tables)[0].seats == ("Alice", "Bob")
                # one bid each, through the screens: the same game on both terminals
                await pa.press("space", "enter")
                await pb.press("space", "enter")
                await _wait(pa, lambda: ta.lockstep.step >= 1 and tb.lockstep.step >= 1, what="the first step")
                assert ta.lockstep.hash == tb.lockstep.hash
                await tb.close()
                await ta.close()  # Alice leaves: her table is off the list at once
                assert not entry_path(door.tables, gid).exists()
        finally:
            for app in (alice, bob):
                for table in list(app.tables):
                    await table.close()


async def test_an_invite_only_table_is_never_listed(tmp_path, monkeypatch) -> None:
    async with running_broker("amqtt") as url:
        door = _behind_a_door(monkeypatch, tmp_path, url)
        alice = _visitor(monkeypatch, tmp_path, "key-a", "Alice")
        try:
            async with alice.run_test(size=(80, 24)) as pa:
                host = await _host(pa, alice, 1, invite_only=True)  # 3 players, invite only
                assert "Invite code" in str(host.query_one("#host-invite", Static).render())
                status = host.query_one("#host-status", Static)
                await _wait(pa, lambda: "send them the invite code" in str(status.render()), what="the wait line")
                assert "Tables on this server" not in str(status.render())
                await pa.pause(1.0)
                assert read_tables(door.tables) == [] and not door.tables.exists()
                await pa.press("escape")  # back to the menu; the list says it is empty
                await pa.press("t")
                await _wait(pa, lambda: isinstance(alice.screen, ServerTablesScreen), what="the table list")
                await pa.pause(0.3)
                assert alice.screen.query_one("#tables-list").rows == []
        finally:
            for table in list(alice.tables):
                await table.close()


async def test_the_list_skips_stale_and_malformed_entries_and_watches_a_started_table(tmp_path, monkeypatch) -> None:
    door = _behind_a_door(monkeypatch, tmp_path)
    write_entry(door.tables, listed_entry("money-0000000a", ("Ann", "", "", ""), broker="mqtt://127.0.0.1:1"))
    write_entry(door.tables, listed_entry("ten-0000000b", ("Cy", "Di", "Ed"), started=True, broker="mqtt://127.0.0.1:1"))
    write_entry(door.tables, listed_entry("sheriff-0000000c", ("Gone", ""), pid=ended_pid()))  # its host was killed
    (door.tables / "money-0000000d.json").write_text('{"v": 1, "gid": "money-0000000d"}')
    app = _visitor(monkeypatch, tmp_path, "key-c", "Cleo")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("t")
        await _wait(pilot, lambda: isinstance(app.screen, ServerTablesScreen), what="the table list")
        tables = app.screen.query_one("#tables-list")
        await _wait(pilot, lambda: len(tables.rows) == 2, what="two tables")
        rows = [str(r.text) for r in tables.rows]
        assert "3 of 4 free" in rows[0] and "host Ann" in rows[0]
        assert "Ten" in rows[1] and "playing" in rows[1] and "host Cy" in rows[1]
        assert not entry_path(door.tables, "sheriff-0000000c").exists()  # removed by the reader
        assert "2 tables, 1 playing" in str(app.screen.query_one("#tables-status", Static).render())
        # a table that plays is watched; Enter on one with a free seat joins
        await pilot.press("down", "enter")
        await _wait(pilot, lambda: isinstance(app.screen, JoinScreen), what="the join screen")
        assert app.screen.watch_only and "/ten-0000000b/" in app.screen.code
        await pilot.press("escape")
        await _wait(pilot, lambda: isinstance(app.screen, ServerTablesScreen), what="back to the list")
        await pilot.press("up", "enter")
        await _wait(pilot, lambda: isinstance(app.screen, JoinScreen), what="the join screen")
        assert not app.screen.watch_only and "/money-0000000a/" in app.screen.code
        status = app.screen.query_one("#join-status", Static)  # no broker on port 1: one line
        await _wait(pilot, lambda: "Cannot join" in str(status.render()), what="the join's error line")


async def test_a_host_who_comes_back_continues_the_table_and_it_is_listed_again(tmp_path, monkeypatch) -> None:
    """The SSH connection drops (the app quits); the same key's next visit: Continue reopens
    the table it hosts, seats as they were, open to this server again."""
    async with running_broker("amqtt") as url:
        door = _behind_a_door(monkeypatch, tmp_path, url)
        first = _visitor(monkeypatch, tmp_path, "key-a", "Alice")
        async with first.run_test(size=(80, 24)) as pilot:
            host = await _host(pilot, first, 1)  # 3 players
            gid = host.table.lockstep.gid
            await _wait(pilot, lambda: bool(read_tables(door.tables)), what="the entry")
            await pilot.press("ctrl+q")
        assert not entry_path(door.tables, gid).exists()  # the host left: not listed meanwhile
        again = _visitor(monkeypatch, tmp_path, "key-a")
        try:
            async with again.run_test(size=(80, 24)) as pilot:
                await _wait(pilot, lambda: isinstance(again.screen, MenuScreen), what="the menu")
                assert "Continue the last game  (c)" in _menu_rows(again)
                await pilot.press("c")
                await _wait(pilot, lambda: isinstance(again.screen, HostScreen) and again.screen.table is not None,
                            what="the table reopened")
                assert again.screen.table.lockstep.gid == gid
                await _wait(pilot, lambda: bool(read_tables(door.tables)), what="the entry again")
                (listed,) = read_tables(door.tables)
                assert (listed.gid, listed.seats, listed.host) == (gid, ("Alice", "", ""), "Alice")
                await pilot.press("ctrl+q")
        finally:
            for table in list(again.tables):
                await table.close()
        assert not entry_path(door.tables, gid).exists()
