"""A rematch at a network table: the host deals again for the same players, on the same broker.

Once a game is over the host offers a new table in one signed `rematch` message, its secret
sealed to each seated key (net/lockstep/rematch.py). Tried as players and attackers would: a
seated player takes the offer through its end screen and sits at the new table with the same
name; a watcher learns nothing it can use; a key without a seat, or a seated player who is not
the host, cannot offer one; an offer before the end, or of another game's table, is refused.
"""

from __future__ import annotations

import asyncio

import pytest

from engine.registry import get_game
from net.deck.group import seal_keys
from net.identity import Identity
from net.lockstep.admission import host_pin
from net.session import join_game, new_gid

from .helpers import finish, forge, memory_table, pilot_until, until

pytestmark = pytest.mark.net

MONEY = get_game("money")


def _offer(identity: Identity, peers, gid: str, secret: bytes, *, seat: int) -> bytes:
    """A rematch offer signed by `identity`, with `secret` sealed to every seat."""
    ls = peers[0].lockstep
    boxes = [[s, seal_keys(secret, key)] for s, key in enumerate(ls.keys)]
    return forge(identity, ls.gid, "rematch", {"gid": gid, "boxes": boxes}, seat=seat, step=ls.step,
                 state_hash=ls.hash, prev_hash=ls.chain)


async def test_only_the_host_offers_a_rematch_and_only_seated_players_can_take_it() -> None:
    broker, transports, peers = await memory_table(3, game=MONEY)
    identities = [p.lockstep.ctx.me for p in peers]
    host = peers[0]
    new = new_gid("money")
    secret = host_pin(identities[0], new).secret
    with pytest.raises(ValueError, match="once the game is over"):
        await host.offer_rematch(new, secret)
    await finish(peers)
    watcher = await join_game(transports[0], Identity.generate(), host.lockstep.gid, watch=True, persist=False,
                              game=MONEY)
    await until(lambda: watcher.lockstep.phase == "over")
    # a key without a seat, and a seated player who is not the host, offer tables of their own
    for forger, seat in ((Identity.generate(), 2), (identities[2], 2)):
        raw = _offer(forger, peers, new_gid("money"), b"x" * 10, seat=seat)
        for peer in peers[1:]:
            peer._on_message(host.topics.log, raw, False)
    # the host offers a table of another game, and signs one twice (a redelivery)
    other = _offer(identities[0], peers, new_gid("ten"), secret, seat=0)
    for peer in peers[1:]:
        peer._on_message(host.topics.log, other, False)
    assert all(p.lockstep.rematch_offer is None for p in peers[1:])
    with pytest.raises(ValueError, match="not a new table of this game"):
        await host.offer_rematch(new_gid("ten"), secret)
    # the same way in, the host's own offer is taken: the ones above were refused, not lost
    peers[1]._on_message(host.topics.log, _offer(identities[0], peers, new, secret, seat=0), False)
    assert peers[1].lockstep.rematch_offer == (new, secret) and peers[2].lockstep.rematch_offer is None
    await host.offer_rematch(new, secret)
    await until(lambda: all(p.lockstep.rematch_offer == (new, secret) for p in peers[1:]))
    await asyncio.sleep(0.05)
    assert watcher.lockstep.rematch_offer is None and host.lockstep.rematch_offer is None
    for p in [*peers, watcher]:
        await p.stop()


async def test_from_the_end_screens_the_host_deals_again_and_the_player_sits_at_the_new_table(
        tmp_path, monkeypatch) -> None:
    """Two real apps: Alice hosts Money! (from the menu) on the broker her app runs, Bob joins by the code; the
    game is played to the end; Alice's `r` hosts again on the same broker and Bob's end screen
    offers the new table, which `r` joins: same names and options, a new game id and deal, and
    the old tables closed (the broker stays up for the new one)."""
    from textual.widgets import Input

    from net.broker import free_port
    from tui.app import GamenightApp
    from tui.games.base import GameScreen
    from tui.net_table import NetTable
    from tui.screens.end import EndScreen
    from tui.screens.host import HostScreen
    from tui.screens.join import JoinScreen

    from .test_screens import _config

    port = free_port()
    alice, bob = GamenightApp(config=_config("Alice", port)), GamenightApp(config=_config("Bob", port))
    try:
        async with alice.run_test(size=(100, 32)) as pa, bob.run_test(size=(100, 32)) as pb:
            monkeypatch.setenv("GAMENIGHT_HOME", str(tmp_path / "alice"))
            await pa.press("h")
            await pilot_until(pa, lambda: isinstance(alice.screen, HostScreen), what="host screen")
            await pa.press("down", "left", "left", "down", "right")  # 2 players, no bots
            alice.screen.query_one("#host-broker", Input).focus()
            await pa.press("enter")
            await pilot_until(pa, lambda: getattr(alice.screen, "table", None) is not None, what="Alice hosting")
            monkeypatch.setenv("GAMENIGHT_HOME", str(tmp_path / "bob"))
            await pb.press("j")
            await pilot_until(pb, lambda: isinstance(bob.screen, JoinScreen), what="join screen")
            code = bob.screen.query_one("#join-broker", Input)
            code.value = alice.screen.table.invite
            code.focus()
            await pb.press("enter")
            await pilot_until(pa, lambda: isinstance(alice.screen, GameScreen), what="Alice's game screen")
            await pilot_until(pb, lambda: isinstance(bob.screen, GameScreen), what="Bob's game screen")
            old_a, old_b = alice.screen.table, bob.screen.table
            assert isinstance(old_a, NetTable) and isinstance(old_b, NetTable)
            assert not old_b.supports.rematch  # not before the end
            await finish([old_a.peer, old_b.peer], bot="heuristic", timeout=60)  # 30 steps; random bots take ~1,000
            for peer in (old_a.peer, old_b.peer):
                peer.bot_kind = None  # the players are back at their keyboards
            await pilot_until(pa, lambda: isinstance(alice.screen, EndScreen), what="Alice's end screen")
            await pilot_until(pb, lambda: isinstance(bob.screen, EndScreen), what="Bob's end screen")
            assert old_a.supports.rematch and not old_b.supports.rematch  # Bob waits for the offer
            monkeypatch.setenv("GAMENIGHT_HOME", str(tmp_path / "alice"))  # each player's own files
            await pa.press("r")
            await pilot_until(pa, lambda: isinstance(alice.screen, HostScreen)
                              and getattr(alice.screen, "table", None) is not None, what="the new table")
            new_a = alice.screen.table
            await pilot_until(pb, lambda: old_b.supports.rematch, what="the offer at Bob's")
            monkeypatch.setenv("GAMENIGHT_HOME", str(tmp_path / "bob"))
            await pb.press("r")
            await pilot_until(pa, lambda: isinstance(alice.screen, GameScreen), what="Alice's new game")
            await pilot_until(pb, lambda: isinstance(bob.screen, GameScreen), what="Bob's new game")
            new_b = bob.screen.table
            assert new_a is not old_a and new_b is not old_b
            assert new_a.lockstep.gid == new_b.lockstep.gid != old_a.lockstep.gid
            assert new_a.names == new_b.names == ["Alice", "Bob"]
            assert new_b.lockstep.table.options == old_b.lockstep.table.options
            await pilot_until(pa, lambda: old_a._closed and old_b._closed, what="the old tables closed")
            assert old_a not in alice.tables and old_b not in bob.tables
            # the broker the old table started still carries the new game: one bid each
            await pa.press("space", "enter")
            await pb.press("space", "enter")
            await pilot_until(pa, lambda: new_a.lockstep.step >= 1 and new_b.lockstep.step >= 1,
                              what="the new game's first step")
            assert new_a.lockstep.hash == new_b.lockstep.hash
    finally:
        for app in (alice, bob):
            for table in list(app.tables):
                await table.close()
