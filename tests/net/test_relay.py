"""The relay: archives a game (verified, replayable) and lends bot peers to a host that asks."""

from __future__ import annotations

import asyncio

import pytest

from engine.core import state_hash
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
