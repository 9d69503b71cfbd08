"""Host and Join screens driven by the Pilot: two app instances, one embedded broker, one game."""

from __future__ import annotations

import asyncio

import pytest
from textual.widgets import Input, Static

from net.broker import free_port
from tui.app import GamenightApp
from tui.config import BrokerConfig, Config, PlayerConfig, UiConfig
from tui.games.base import GameScreen
from tui.net_table import NetTable
from tui.screens.host import HostScreen
from tui.screens.join import JoinScreen
from tui.widgets.chat import ChatPanel

from .helpers import pilot_until as _wait

pytestmark = pytest.mark.net


def _config(name: str, port: int) -> Config:
    return Config(player=PlayerConfig(name), broker=BrokerConfig(url=f"mqtt://127.0.0.1:{port}", port=port),
                  ui=UiConfig(bell=False, bot_delay=0.0))


async def test_pilot_hosts_in_one_app_and_joins_from_another(tmp_path, monkeypatch) -> None:
    port = free_port()
    alice = GamenightApp(config=_config("Alice", port))
    bob = GamenightApp(config=_config("Bob", port))
    try:
        async with alice.run_test(size=(100, 32)) as pa, bob.run_test(size=(100, 32)) as pb:
            # Alice: menu -> Host; 2 players, no bots, on an embedded broker her app starts
            monkeypatch.setenv("GAMENIGHT_HOME", str(tmp_path / "alice"))
            await pa.press("h")
            await _wait(pa, lambda: isinstance(alice.screen, HostScreen), what="host screen")
            await pa.press("down", "left", "left")  # players 4 -> 3 -> 2 (bots follow)
            await pa.press("down", "right")  # bots 1 -> 0
            assert alice.screen.query_one("#host-broker", Input).value == "embedded"
            alice.screen.query_one("#host-broker", Input).focus()
            await pa.press("enter")
            host_screen = alice.screen
            await _wait(pa, lambda: "Invite code" in str(host_screen.query_one("#host-invite", Static).render()),
                        what="invite code")
            # Bob: menu -> Join; the open game is listed with its free seat; Enter joins it
            monkeypatch.setenv("GAMENIGHT_HOME", str(tmp_path / "bob"))
            await pb.press("j")
            await _wait(pb, lambda: isinstance(bob.screen, JoinScreen), what="join screen")
            games = bob.screen.query_one("#join-games")
            await _wait(pb, lambda: bool(games.rows), what="the open game in the list")
            assert "1/2 seated, 1 free" in str(games.rows[0].text)
            await pb.press("enter")  # the table is by invitation: the list alone does not seat Bob
            status = bob.screen.query_one("#join-status", Static)
            await _wait(pb, lambda: "by invitation" in str(status.render()), what="the invitation line")
            code = bob.screen.query_one("#join-broker", Input)
            code.value = host_screen.table.invite
            code.focus()
            await pb.press("enter")
            # both terminals move on to the Money! screen over a NetTable once the seed is agreed
            await _wait(pa, lambda: isinstance(alice.screen, GameScreen), what="Alice's game screen")
            await _wait(pb, lambda: isinstance(bob.screen, GameScreen), what="Bob's game screen")
            ta, tb = alice.screen.table, bob.screen.table
            assert isinstance(ta, NetTable) and isinstance(tb, NetTable)
            assert ta.names == tb.names == ["Alice", "Bob"]
            assert ta.local_seats == (0,) and tb.local_seats == (1,)
            # one simultaneous bid through each screen: a commit-reveal step over the broker
            assert ta.awaiting() == {0, 1}
            await pa.press("space", "enter")
            await _wait(pa, lambda: ta.awaiting() == {1}, what="Alice's bid committed")
            await pb.press("space", "enter")
            await _wait(pa, lambda: ta.lockstep.step >= 1 and tb.lockstep.step >= 1, what="the bid step applied")
            assert ta.lockstep.hash == tb.lockstep.hash
            # chat: every networked game screen has the panel; ctrl+t types, Escape goes back
            assert bob.screen.query(ChatPanel)
            await pa.press("ctrl+t", *"hi", "enter", "escape")
            await _wait(pb, lambda: "Alice: hi" in tb.chat_lines, what="chat line at Bob's")
            await _wait(pb, lambda: any("Alice: hi" in str(line) for line in
                                        bob.screen.query_one(ChatPanel).query_one("RichLog").lines),
                        what="chat line in Bob's panel")
            await tb.close()
            await ta.close()  # the host's table owns the embedded broker: closing stops it
            with pytest.raises(OSError):
                await asyncio.open_connection("127.0.0.1", port)
    finally:
        for app in (alice, bob):
            for table in list(app.tables):
                await table.close()


async def test_the_host_screen_shows_who_sits_and_removes_a_player(tmp_path, monkeypatch) -> None:
    from net.identity import Identity
    from net.invite import parse_invite
    from net.launch import connect
    from net.session import join_game

    port = free_port()
    monkeypatch.setenv("GAMENIGHT_HOME", str(tmp_path / "alice"))
    alice = GamenightApp(config=_config("Alice", port))
    try:
        async with alice.run_test(size=(100, 32)) as pa:
            await pa.press("h")
            await _wait(pa, lambda: isinstance(alice.screen, HostScreen), what="host screen")
            await pa.press("down", "left")  # players 4 -> 3 (bots follow: 2)
            await pa.press("down", "right")  # bots 2 -> 0
            alice.screen.query_one("#host-broker", Input).focus()
            await pa.press("enter")
            host_screen = alice.screen
            await _wait(pa, lambda: host_screen.table is not None, what="the table")
            url, gid, pin, _ = parse_invite(host_screen.table.invite)
            transport = await connect(url)
            try:
                carl = await join_game(transport, Identity.generate(), gid, name="Carl", persist=False, pin=pin)
                seats = host_screen.query_one("#host-seats", Static)
                await _wait(pa, lambda: "seat 1: Carl" in str(seats.render()), what="Carl in seat 1")
                await pa.press("x", "1")
                await _wait(pa, lambda: "seat 1: (free)" in str(seats.render()), what="seat 1 free again")
                await _wait(pa, lambda: carl.lockstep.refused == "the host removed you from the table",
                            what="Carl told")
                await carl.stop(clean=False)
            finally:
                await transport.stop()
    finally:
        for table in list(alice.tables):
            await table.close()


async def _host_two_seats(pilot, app, monkeypatch, home) -> HostScreen:
    """From the menu: Host, 2 players and no bots on the embedded broker, with `home` as the
    data folder; the Host screen once its invite code is made."""
    monkeypatch.setenv("GAMENIGHT_HOME", str(home))
    await pilot.press("h")
    await _wait(pilot, lambda: isinstance(app.screen, HostScreen), what="host screen")
    await pilot.press("down", "left", "left", "down", "right")  # 2 players, no bots
    app.screen.query_one("#host-broker", Input).focus()
    await pilot.press("enter")
    host_screen = app.screen
    await _wait(pilot, lambda: host_screen.table is not None and bool(host_screen.table.invite), what="the code")
    return host_screen


async def _open_join(pilot, app, monkeypatch, home) -> JoinScreen:
    """From the menu: Join, with `home` as the data folder."""
    monkeypatch.setenv("GAMENIGHT_HOME", str(home))
    await pilot.press("j")
    await _wait(pilot, lambda: isinstance(app.screen, JoinScreen), what="join screen")
    return app.screen


def _other_letter(code: str, index: int) -> str:
    """`code` with its letter at `index` replaced by another letter of the code's alphabet."""
    letter = code[index]
    return code[:index] + ("b" if letter != "b" else "c") + code[index + 1:]


async def test_a_wrong_invite_code_gives_up_with_a_hint_and_the_right_one_still_joins(tmp_path, monkeypatch) -> None:
    import tui.screens.join as join_screen

    monkeypatch.setattr(join_screen, "JOIN_PATIENCE", 2.0)
    port = free_port()
    alice = GamenightApp(config=_config("Alice", port))
    bob = GamenightApp(config=_config("Bob", port))
    try:
        async with alice.run_test(size=(100, 32)) as pa, bob.run_test(size=(100, 32)) as pb:
            host_screen = await _host_two_seats(pa, alice, monkeypatch, tmp_path / "alice")
            good = host_screen.table.invite
            join = await _open_join(pb, bob, monkeypatch, tmp_path / "bob")
            status = join.query_one("#join-status", Static)
            field = join.query_one("#join-broker", Input)
            for wrong, says in ((_other_letter(good, good.rindex("/") + 1), "is the invite code right"),  # host key
                                (_other_letter(good, len(good) - 1), "table secret in your invite code may be wrong")):
                field.value = wrong
                field.focus()
                await pb.press("enter")
                await _wait(pb, lambda says=says: says in str(status.render()), what=f"the hint {says!r}", timeout=15)
                assert bob.screen.table is None and not isinstance(bob.screen, GameScreen)
            field.value = good
            await pb.press("enter")
            await _wait(pb, lambda: isinstance(bob.screen, GameScreen), what="Bob's game screen")
            await _wait(pa, lambda: isinstance(alice.screen, GameScreen), what="Alice's game screen")
    finally:
        for app in (alice, bob):
            for table in list(app.tables):
                await table.close()


async def test_at_80_columns_the_code_shows_whole_copies_and_pastes_back_whole(tmp_path, monkeypatch) -> None:
    from textual import events

    from net.invite import parse_invite

    port = free_port()
    alice = GamenightApp(config=_config("Alice", port))
    bob = GamenightApp(config=_config("Bob", port))
    try:
        async with alice.run_test(size=(80, 24)) as pa, bob.run_test(size=(80, 24)) as pb:
            host_screen = await _host_two_seats(pa, alice, monkeypatch, tmp_path / "alice")
            shown = host_screen.query_one("#host-invite", Static)
            await _wait(pa, lambda: "Invite code" in str(shown.render()), what="the code")
            code = host_screen.table.invite
            lines = str(shown.render()).splitlines()[1:]
            assert all(len(line) <= 80 for line in lines) and "".join(lines) == code  # no cut
            assert shown.region.width == 80  # unboxed: no frame or padding takes columns from it
            await pa.press("c")
            assert alice.clipboard == code
            # Bob pastes the code as a terminal copies a wrapped one: in two lines
            field = (await _open_join(pb, bob, monkeypatch, tmp_path / "bob")).query_one("#join-broker", Input)
            field.value = ""
            field.focus()
            field.post_message(events.Paste(code[:40] + "\n" + code[40:] + "\n"))
            await _wait(pb, lambda: field.value == code, what=f"the whole code in the field ({field.value!r})")
            assert parse_invite(field.value).gid == host_screen.table.lockstep.gid
            await pb.press("enter")
            await _wait(pb, lambda: isinstance(bob.screen, GameScreen), what="Bob's game screen")
            await _wait(pa, lambda: isinstance(alice.screen, GameScreen), what="Alice's game screen")
            # nothing cut on a network game screen either: the chat hint, the network footer
            from tests.tui.helpers import screen_text
            from tests.tui.test_no_clipping import cropped_panels, ellipsis_cuts

            for pilot, app in ((pa, alice), (pb, bob)):
                await pilot.pause()
                assert not ellipsis_cuts(screen_text(app)) + cropped_panels(app.screen), screen_text(app)
            # in the game, F2 shows the code whole again and c copies it
            from tui.screens.invite import InviteDialog

            alice.copy_to_clipboard("")
            await pa.press("f2")
            await _wait(pa, lambda: isinstance(alice.screen, InviteDialog), what="the invite dialog")
            await pa.pause()
            dialog_lines = str(alice.screen.query_one("#invite-code", Static).render()).splitlines()[1:]
            assert "".join(dialog_lines) == code and all(len(line) <= 80 for line in dialog_lines)
            await pa.press("c")
            assert alice.clipboard == code
            await pa.press("escape")
            await _wait(pa, lambda: isinstance(alice.screen, GameScreen), what="back in the game")
    finally:
        for app in (alice, bob):
            for table in list(app.tables):
                await table.close()



@pytest.mark.parametrize("players", [2, 3])
async def test_a_host_whose_relay_bots_never_sit_is_told_why(players, tmp_path, monkeypatch) -> None:
    """`--relay-bots 1` on a broker with no relay: the bot's seat stays free. Once it is the
    last free seat (2 players), past RELAY_PATIENCE the status line says why the bot may not
    come instead of waiting for a player; while a human seat is free too (3 players), the
    status still asks for players and says nothing of the relay."""
    import tui.screens.host as host_screen
    from tui.screens.host import HostRequest

    monkeypatch.setattr(host_screen, "RELAY_PATIENCE", 1.0)
    monkeypatch.setenv("GAMENIGHT_HOME", str(tmp_path))
    app = GamenightApp(config=_config("Alice", free_port()))
    async with app.run_test(size=(80, 24)) as pilot:
        await app.push_screen(HostScreen(HostRequest("money", players=players, relay_bots=1, name="Alice")))
        screen = app.screen
        status = screen.query_one("#host-status", Static)
        await _wait(pilot, lambda: screen.table is not None and bool(screen.table.invite), what="the code")
        if players == 2:
            await _wait(pilot, lambda: "Waiting for the relay's 1 bot" in str(status.render()), what="the hint")
            assert "gamenight relay" in str(status.render())
        else:
            await pilot.pause(2.5)  # past the patience, twice over
            assert "Waiting for 2 more players" in str(status.render())
            assert "relay" not in str(status.render())
    for table in list(app.tables):
        await table.close()
