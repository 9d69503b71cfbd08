"""The relay: archives a game (verified, replayable) and lends bot peers to a host that asks."""

from __future__ import annotations

import asyncio

import pytest

import net.transport as transport_module
from engine.core import state_hash
from engine.registry import get_game
from net.codec import decode_envelope
from net.identity import Identity, load_or_create
from net.launch import BrokerSettings, connect, host_session
from net.lockstep import Lockstep
from net.relay import Relay
from net.session import join_game
from net.store import read_log

pytestmark = pytest.mark.net


async def test_relay_bots_fill_the_seats_and_the_archive_replays_the_game(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("GAMENIGHT_HOME", str(tmp_path))
    relay = Relay(BrokerSettings(port=0), max_bots=2, archive=tmp_path / "archive")
    await relay.start()
    try:
        session = await host_session("money", players=3, relay_bots=2, host_bot="best", name="Host",
                                     settings=BrokerSettings(broker=relay.url), persist=False)
        try:
            await asyncio.wait_for(session.peer.done.wait(), 60)
            ls = session.peer.lockstep
            assert ls.phase == "over"
            assert [n for n in ls.names] == ["Host", "Bot 1", "Bot 2"]
            gid = ls.gid
            watcher = relay.watchers[gid]
            await asyncio.wait_for(watcher.done.wait(), 10)
            assert watcher.lockstep.hash == ls.hash
        finally:
            await session.close()
        # every player is gone: a seat's key still gets the whole game, answered by the archive;
        # a stranger (no seat, no invite) gets nothing
        transport = await connect(relay.url)
        try:
            stranger = await join_game(transport, Identity.generate(), gid, watch=True, persist=False, timeout=0.5)
            player = await join_game(transport, load_or_create(), gid, watch=True, persist=False, timeout=0.5)
            await asyncio.wait_for(player.done.wait(), 20)
            assert player.lockstep.hash == ls.hash
            assert stranger.lockstep.state is None, "the archive answered a key with no seat and no invite"
            await player.stop()
            await stranger.stop()
        finally:
            await transport.stop()
        # the archived log, verified from scratch by a fresh peer, ends in the same state
        raws = read_log(tmp_path / "archive" / gid / "log.bin")
        fresh = Lockstep(ls.game, gid, Identity.generate())
        for raw in raws:
            fresh.receive(decode_envelope(raw))
        assert fresh.phase == "over" and state_hash(fresh.state) == ls.hash.hex()
    finally:
        await relay.stop()


async def _relay_game(url: str, identity: Identity | None = None) -> str:
    session = await host_session("money", players=2, relay_bots=1, host_bot="random", name="Host",
                                 settings=BrokerSettings(broker=url), persist=False, identity=identity)
    try:
        await asyncio.wait_for(session.peer.done.wait(), 60)  # a hang detector
        assert session.peer.lockstep.phase == "over"
        return session.peer.lockstep.gid
    finally:
        await session.close()


async def _until(predicate, timeout: float = 20.0) -> None:
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while not predicate():
        assert loop.time() < end, "condition not reached"
        await asyncio.sleep(0.05)


def _fds() -> int:
    """Open file descriptors, once the disk writer has closed what it was asked to."""
    import os

    from net.store import WRITER

    WRITER.drain()
    return len(os.listdir("/proc/self/fd"))


async def test_a_relay_forgets_finished_games_but_still_serves_them(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("GAMENIGHT_HOME", str(tmp_path))
    relay = Relay(BrokerSettings(port=0), max_bots=2, archive=tmp_path / "archive")
    await relay.start()
    try:
        first = await _relay_game(relay.url)
        await _until(lambda: relay.forgotten == 1)
        fds = _fds()
        await asyncio.sleep(transport_module.UNSUBSCRIBE_AFTER + 0.5)
        relay.broker._broker.subscriptions.prune()
        subscriptions = relay.broker.subscription_count()
        for n in range(2, 9):
            await _relay_game(relay.url)
            await _until(lambda n=n: relay.forgotten == n)
        assert relay.watchers == {} and relay.bots == {} and relay.bots_running == 0
        assert len(relay._loaded) <= relay.limits.loaded_archives
        assert _fds() <= fds + 1, "open files grew with archived games"  # +1: a socket closing
        await asyncio.sleep(transport_module.UNSUBSCRIBE_AFTER + 0.5)
        relay.broker._broker.subscriptions.prune()  # as the broker does every PRUNE_EVERY s
        assert relay.broker.subscription_count() <= subscriptions, "broker subscriptions kept per game"
        # the first game is long unloaded: a late watcher is answered from the log on disk
        assert first not in relay._loaded
        transport = await connect(relay.url)
        try:
            watcher = await join_game(transport, Identity.generate(), first, watch=True, persist=False, timeout=0.5)
            await asyncio.wait_for(watcher.done.wait(), 20)
            assert watcher.lockstep.phase == "over"
            await watcher.stop()
        finally:
            await transport.stop()
    finally:
        await relay.stop()


async def test_what_one_announcing_key_may_take_is_capped(tmp_path, monkeypatch) -> None:
    from net.relay import RelayLimits
    from net.session import host_game

    monkeypatch.setenv("GAMENIGHT_HOME", str(tmp_path))
    limits = RelayLimits(live_per_key=2, bots_per_key=1, archived_per_key=2)
    relay = Relay(BrokerSettings(port=0), max_bots=8, archive=tmp_path / "archive", limits=limits)
    await relay.start()
    host = Identity.generate()
    try:
        # archive: the host's oldest finished game goes when a third one is archived
        gids = [await _relay_game(relay.url, host) for _ in range(3)]
        await _until(lambda: relay.forgotten == 3)
        assert [(tmp_path / "archive" / g).exists() for g in gids] == [False, True, True]
        # games watched at once, and bots lent at once, per key
        transport = await connect(relay.url)
        peers = []
        try:
            for _ in range(3):
                peers.append(await host_game(get_game("money"), transport, host, players=3, persist=False,
                                             name="Host", relay_bots=2))
            await _until(lambda: len(relay.watchers) == 2 and relay.bots_running == 1)
            await asyncio.sleep(0.5)  # nothing more comes
            assert len(relay.watchers) == 2 and relay.bots_running == 1
        finally:
            for peer in peers:
                await peer.stop()
            await transport.stop()
    finally:
        await relay.stop()


async def test_a_table_that_never_starts_gives_the_relay_its_bots_back(tmp_path, monkeypatch) -> None:
    from net.relay import RelayLimits
    from net.session import host_game

    monkeypatch.setenv("GAMENIGHT_HOME", str(tmp_path))
    relay = Relay(BrokerSettings(port=0), max_bots=2, archive=tmp_path / "archive",
                  limits=RelayLimits(lobby_seconds=1.0))
    await relay.start()
    transport = await connect(relay.url)
    try:
        # a "game" for four that asks for two relay bots and never finds its fourth player
        fake = await host_game(get_game("money"), transport, Identity.generate(), players=4, persist=False,
                               name="Host", relay_bots=2)
        await _until(lambda: relay.bots_running == 2)
        await _until(lambda: relay.bots_running == 0 and not relay.watchers)
        assert fake.lockstep.phase == "lobby"
        await fake.stop()
        # the bots are there for the next table
        assert await _relay_game(relay.url)
    finally:
        await transport.stop()
        await relay.stop()


async def test_archive_reloads_for_old_games_are_rate_limited(tmp_path, monkeypatch) -> None:
    from net.relay import RelayLimits

    monkeypatch.setenv("GAMENIGHT_HOME", str(tmp_path))
    relay = Relay(BrokerSettings(port=0), archive=tmp_path / "archive", limits=RelayLimits(loads_per_minute=3))
    assert [relay._may_load() for _ in range(5)] == [True, True, True, False, False]
