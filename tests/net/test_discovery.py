"""Discovery and presence without retained messages (issue 23): live questions and presence.

A broker that keeps no retained message where a joiner is (a RabbitMQ cluster keeps them per
node, and only for exact subscriptions) is played here by clients that never publish retained:
the joiner still finds the table by asking, peers still learn who is online by periodic
presence, and a seat not heard for a few periods counts offline. A hostile client on the same
broker floods questions and fake presence: the answers stay one a second, nothing changes.
"""

from __future__ import annotations

import asyncio
import time

import pytest

from net.codec import ZERO32, decode_envelope
from net.identity import Identity
from net.launch import BrokerSettings, connect
from net.lockstep import presence_payload
from net.session import fetch_announce, host_game, join_game, new_gid
from net.topics import Topics

from .brokers import HAVE_MOSQUITTO, running_broker
from .fakegame import GAME
from .helpers import forge, memory_table, settle, until

pytestmark = pytest.mark.net

BROKER = "mosquitto" if HAVE_MOSQUITTO else "amqtt"


def never_retained(transport):
    """`transport` as on a broker that keeps no retained message for the other clients."""
    publish, publish_now = transport.publish, transport.publish_now

    async def plain(topic, payload, qos=1, retain=False):
        await publish(topic, payload, qos, False)

    transport.publish = plain
    transport.publish_now = lambda topic, payload, qos=1, retain=False: publish_now(topic, payload, qos, False)
    return transport


async def _clients(url: str, n: int):
    return [never_retained(await connect(url, BrokerSettings(broker=url))) for _ in range(n)]


async def _stop(peers, transports) -> None:
    for p in peers:
        await p.stop(clean=False)
    for t in transports:
        await t.stop()


async def test_a_joiner_finds_a_table_no_broker_kept_by_asking_and_plays_it():
    async with running_broker(BROKER) as url:
        transports = await _clients(url, 3)
        ids = [Identity.generate() for _ in range(3)]
        host = await host_game(GAME, transports[0], ids[0], players=3, persist=False, bot="random")
        peers = [host]
        await asyncio.sleep(0.5)  # the announcement has gone by: a joiner now can only ask
        try:
            for i in (1, 2):
                peers.append(await join_game(transports[i], ids[i], host.lockstep.gid, persist=False,
                                             bot="random", game=GAME, timeout=5))
            await asyncio.wait_for(asyncio.gather(*(p.done.wait() for p in peers)), 20)
            assert {p.lockstep.hash for p in peers} == {host.lockstep.hash}
        finally:
            await _stop(peers, transports)


async def test_only_the_host_answers_and_nobody_answers_for_a_wrong_table():
    async with running_broker(BROKER) as url:
        transports = await _clients(url, 3)
        ids = [Identity.generate() for _ in range(2)]
        host = await host_game(GAME, transports[0], ids[0], players=2, persist=False)
        joiner = await join_game(transports[1], ids[1], host.lockstep.gid, persist=False, game=GAME)
        try:
            found = await fetch_announce(transports[2], host.lockstep.gid, timeout=4)
            assert found.sender == ids[0].public and found.kind == "announce"
            with pytest.raises(Exception, match="no open game"):
                await fetch_announce(transports[2], new_gid("fake"), timeout=1.5)
            # without its host a table is not announced by anyone else (a seated joiner holds a copy)
            await host.stop(clean=False)
            with pytest.raises(Exception, match="no open game"):
                await fetch_announce(transports[2], host.lockstep.gid, timeout=2)
        finally:
            await _stop([joiner], transports)


async def test_live_presence_tells_who_is_online_and_a_silent_seat_counts_offline():
    async with running_broker(BROKER) as url:
        transports = await _clients(url, 3)
        ids = [Identity.generate() for _ in range(3)]
        host = await host_game(GAME, transports[0], ids[0], players=3, persist=False)
        peers = [host] + [await join_game(transports[i], ids[i], host.lockstep.gid, persist=False, game=GAME)
                          for i in (1, 2)]
        try:
            for p in peers:
                p.presence_every = 1.0  # a seat counts offline after 3 s of silence
            await until(lambda: all(p.lockstep.phase == "play" for p in peers))
            await asyncio.sleep(2.0)
            assert all(not p.lockstep.offline for p in peers)
            # seat 2 goes silent without a will reaching anyone (a node that died with it)
            await peers[2].stop(clean=False)
            await transports[2].stop()
            await until(lambda: all(2 in p.lockstep.offline for p in peers[:2]), timeout=8)
            assert all(p.lockstep.offline == {2} for p in peers[:2])
        finally:
            await _stop(peers[:2], transports[:2])


async def test_a_flood_of_questions_and_fake_presence_changes_nothing_and_costs_little():
    async with running_broker(BROKER) as url:
        transports = await _clients(url, 4)
        hostile, watcher = transports[2], transports[3]
        ids = [Identity.generate() for _ in range(2)]
        host = await host_game(GAME, transports[0], ids[0], players=2, persist=False)
        joiner = await join_game(transports[1], ids[1], host.lockstep.gid, persist=False, game=GAME)
        peers = [host, joiner]
        topics = Topics(host.lockstep.gid)
        answers: list[bytes] = []
        try:
            await until(lambda: all(p.lockstep.phase == "play" for p in peers))
            await watcher.subscribe(topics.lobby, lambda t, payload, r: answers.append(payload))
            await asyncio.sleep(0.3)
            answers.clear()
            # a stranger's key: its presence (here "offline" for seat 1's topic and "online") moves nobody
            stranger = Identity.generate()
            for status in ("offline", "online"):
                fake = presence_payload(stranger, host.lockstep.gid, status, "P1")
                await hostile.publish(topics.presence(ids[1].peer_id), fake)
            # a replay of seat 1's own last "online" after its "offline" (its will) keeps it offline
            seen: list[bytes] = []
            await watcher.subscribe(topics.presence(ids[1].peer_id), lambda t, payload, r: seen.append(payload))
            await asyncio.sleep(0.2)
            joiner._publish_presence("online")
            await until(lambda: seen)
            await hostile.publish(topics.presence("x"), presence_payload(ids[1], host.lockstep.gid, "offline", "P1"))
            for _ in range(500):
                hostile.publish_now(topics.ask, b"?", 0)
            hostile.publish_now(topics.ask, b"x" * 10_000, 0)  # not a question: never answered
            await asyncio.sleep(1.6)
            await hostile.publish(topics.presence("x"), seen[-1])
            await asyncio.sleep(0.3)
            assert 1 <= len(answers) <= 3, len(answers)  # one a second, whatever the flood
            # the host's announcement, as it is now (a stalled host signs it again with the rest
            # of its part, so the bytes may be of an earlier signing)
            current = decode_envelope(host.lockstep.lobby.announce_raw)
            for answer in map(decode_envelope, answers):
                assert (answer.kind, answer.sender, answer.body) == ("announce", ids[0].public, current.body)
            assert host.lockstep.offline == {1}  # the real "offline" counted, the replayed "online" did not
            assert len(host.lockstep.social.heard) <= 2 and len(host.lockstep.social.stamps) <= 2
            assert host.lockstep.phase == "play" and not host.lockstep.frozen
        finally:
            await _stop(peers, transports)


async def test_a_seat_that_signs_is_heard_without_repeating_its_presence_and_a_replay_is_not():
    """What a seat signs anew tells the table it is there, so a peer at play repeats no
    presence; a message of its replayed (an old stamp) keeps nobody online."""
    identities = [Identity.generate() for _ in range(3)]
    _, _, peers = await memory_table(3, options={"rounds": 4}, identities=identities)
    try:
        now = [time.time()]
        for p in peers:
            p.presence_every = 0.0  # this test moves the clock and asks itself
            p.lockstep.ctx.clock = lambda: now[0]
        host = peers[0].lockstep
        assert host.awaited() == {0, 1, 2} and not host.social.expire(30)
        now[0] += 20
        peers[2].chat("still thinking")
        await settle()
        assert peers[2].lockstep.social.silent_for() < 0.001
        gid = host.gid
        replayed = forge(identities[1], gid, "chat", {"text": "an old line"}, seat=1, step=0,
                         state_hash=ZERO32, prev_hash=ZERO32, nonce=1)
        host.receive(decode_envelope(replayed))
        now[0] += 15
        assert peers[1].lockstep.social.silent_for() >= 35 > peers[2].lockstep.social.silent_for()
        notes = host.social.expire(30)
        assert host.offline == {1}, "seat 1 signed nothing new for 35 s; seat 2 chatted 15 s ago"
        assert [n.text for n in notes] == ["P1 is offline: the table waits for them"]
    finally:
        for p in peers:
            await p.stop(clean=False)
