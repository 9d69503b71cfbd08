"""Every registered game plays over the generic lockstep on a real broker (no game code in net/).

The issues name one table per game: 7 Wonders with 7 peers (simultaneous picks by
commit-reveal), Sheriff with 4 (hidden bags), Ten with 3 (sequential auctions); Money! is
covered in test_brokers.py. Every game is dealt by the deck protocol: every peer must end
with one state hash, the audit verified, and the log (completed with the deal) must replay to
the same public game.
"""

from __future__ import annotations

import asyncio

import pytest

from engine.core import final_state, to_plain
from engine.registry import get_game
from net.identity import Identity
from net.launch import BrokerSettings, connect, presence_will
from net.session import host_game, join_game, new_gid

from .brokers import HAVE_MOSQUITTO, running_broker
from .helpers import until

pytestmark = pytest.mark.net

TABLES = [("seven_wonders", 7), ("sheriff", 4), ("ten", 3)]
BROKERS = ["amqtt", pytest.param("mosquitto", marks=pytest.mark.skipif(not HAVE_MOSQUITTO, reason="mosquitto not on PATH"))]


async def _table(game, url: str, n: int):
    gid = new_gid(game.id)
    ids = [Identity.generate() for _ in range(n)]
    settings = BrokerSettings(broker=url)
    transports = [
        await connect(url, settings, presence_will(i, gid, f"B{s}", settings.prefix))
        for s, i in enumerate(ids)
    ]
    peers = [await host_game(game, transports[0], ids[0], players=n, gid=gid, persist=False,
                             bot="best", name="B0")]
    for s in range(1, n):
        peers.append(await join_game(transports[s], ids[s], gid, name=f"B{s}", persist=False,
                                     bot="best", bot_delay=0.0))
    peers[0].bot_delay = 0.0
    return transports, peers


@pytest.mark.parametrize("broker", BROKERS)
@pytest.mark.parametrize(("game_id", "n"), TABLES)
async def test_a_networked_bot_game_ends_with_identical_hashes_on_every_peer(broker, game_id, n):
    game = get_game(game_id)
    async with running_broker(broker) as url:
        transports, peers = await _table(game, url, n)
        try:
            await asyncio.wait_for(asyncio.gather(*(p.done.wait() for p in peers)), 120)
            first = peers[0].lockstep
            assert first.phase == "over", f"stopped at step {first.step} in phase {first.phase}"
            assert {p.lockstep.hash for p in peers} == {first.hash}
            assert {p.lockstep.chain for p in peers} == {first.chain}
            # every game hides cards: the deck protocol dealt it and the end audit verified it
            assert first.steps.dealing.on
            await until(lambda: all(p.lockstep.steps.dealing.verdict for p in peers))
            assert {p.lockstep.steps.dealing.verdict for p in peers} == {"verified"}
            # the log replays with the plain engine (a dealt game's, with the deal the audit showed)
            replayed = final_state(game, first.game_log)
            assert game.is_over(replayed)
            # cards never shown stay tokens in the table's state: the public views agree
            assert to_plain(game.view(replayed, None)) == to_plain(game.view(first.state, None))
            for p in peers:
                assert not p.lockstep.frozen
                assert game.result(p.lockstep.state) == game.result(replayed)
        finally:
            for p in peers:
                await p.stop(clean=False)
            for t in transports:
                await t.stop()
