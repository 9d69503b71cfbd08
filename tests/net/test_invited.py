"""Only the invited sit at the table: pinned invites, strangers' hellos and floods (loopback).

Every attacker here signs its messages correctly with a key of its own: signatures alone let
anyone in; the invite's pin (host key fingerprint, table secret) is what keeps them out.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import tracemalloc

import pytest

from engine.core import to_plain
from net.codec import VERIFIED_BYTES_MAX, decode_envelope, verified_cache_bytes
from net.identity import Identity
from net.invite import make_invite, parse_invite
from net.launch import BrokerSettings, connect
from net.lockstep import Lockstep
from net.lockstep.admission import admission_proof, host_pin
from net.lockstep.buffer import UNSEATED_BYTES
from net.session import host_game, join_game
from net.transport import MemoryBroker, MemoryTransport

from .brokers import HAVE_MOSQUITTO, running_broker
from .fakegame import GAME, Bid
from .helpers import finish, forge, ready, settle, until

ZERO = bytes(32)
BROKERS = ["amqtt", pytest.param("mosquitto", marks=pytest.mark.skipif(not HAVE_MOSQUITTO, reason="no mosquitto"))]


async def _memory(n: int) -> tuple[MemoryBroker, list[MemoryTransport]]:
    broker = MemoryBroker()
    transports = [MemoryTransport(broker) for _ in range(n)]
    for t in transports:
        await t.start()
    return broker, transports


def _hello(identity: Identity, gid: str, ls: Lockstep, proof: bytes) -> bytes:
    body = {"name": "squatter", "game": GAME.id, "versions": ls.versions, "options": ls.table.options, "proof": proof}
    return forge(identity, gid, "hello", body, seat=-1, step=0, state_hash=ZERO, prev_hash=ZERO)


def _spy(transport: MemoryTransport, topic_part: str) -> list:
    """Every envelope this transport's broker delivers on topics containing `topic_part`."""
    seen: list = []
    asyncio.get_running_loop().create_task(
        transport.subscribe(f"gamenight/v1/game/+/{topic_part}", lambda t, p, r: p and seen.append(decode_envelope(p))))
    return seen


def test_an_old_invite_code_is_one_clear_line_and_a_new_one_round_trips() -> None:
    identity = Identity.generate()
    pin = host_pin(identity, "money-1a2b3c4d")
    code = make_invite("mqtt://192.168.1.20:1883", "money-1a2b3c4d", pin)
    assert parse_invite(code) == ("mqtt://192.168.1.20:1883", "money-1a2b3c4d", pin, "")
    assert parse_invite(code.upper().replace("MQTT://", "mqtt://")).pin == pin  # read aloud, typed in capitals
    assert len(code.rsplit("/", 1)[1]) == 39  # 32 base32 characters in groups of four
    wrapped = code[:60] + "\n" + code[60:] + "  "  # copied from an 80-column screen where it wrapped
    assert parse_invite(wrapped).pin == pin
    with pytest.raises(ValueError, match="has no host key and table secret") as err:
        parse_invite("mqtt://192.168.1.20:1883/money-1a2b3c4d")
    assert "\n" not in str(err.value)


def _code() -> str:
    return make_invite("mqtt://192.168.1.20:1884", "sheriff-1a2b3c4d", host_pin(Identity.generate(), "sheriff-1a2b3c4d"))


def test_a_plain_code_of_every_game_fits_one_80_column_line_and_the_older_form_still_reads() -> None:
    from engine.registry import game_ids

    pin = host_pin(Identity.generate(), "seven_wonders-1a2b3c4d")
    for game in game_ids():
        gid = f"{game}-1a2b3c4d"
        code = make_invite("mqtt://192.168.100.200:1883", gid, pin)
        assert len(code) <= 80, code
        assert parse_invite(code) == ("mqtt://192.168.100.200:1883", gid, pin, "")
        assert parse_invite(f"mqtt://192.168.100.200:1883/{code.split('/', 1)[1]}") == parse_invite(code)
    assert make_invite("mqtt://10.0.0.2:1884", "money-1a2b3c4d", pin).startswith("10.0.0.2:1884/money-1a2b3c4d/")


@pytest.mark.parametrize("damage, says", [
    pytest.param(lambda c: c[:-1], "table's key and secret .* is 1 character short [(]31 of 32[)]", id="one short"),
    pytest.param(lambda c: c[:-6], "is 5 characters short", id="a group and a dash short"),
    pytest.param(lambda c: c + "x", "has 1 character too many", id="one too many"),
    pytest.param(lambda c: c[:-1] + "0", "has '0', which no code contains", id="a zero for an o"),
    pytest.param(lambda c: c.replace("sheriff-1a2b3c4d", "sheriff 1a2b!3c4d"), "game id 'sheriff1a2b!3c4d'",
                 id="a bad game id"),
    pytest.param(lambda c: c.replace(":1884", ":18x4"), "broker address in the invite code is wrong: bad port",
                 id="a bad port"),
])
def test_a_damaged_invite_code_says_which_part_is_wrong(damage, says) -> None:
    with pytest.raises(ValueError, match=says) as err:
        parse_invite(damage(_code()))
    assert "older gamenight" not in str(err.value) and "\n" not in str(err.value)


def test_a_joiner_trusts_only_the_announcement_signed_by_the_pinned_key() -> None:
    host, attacker = Identity.generate(), Identity.generate()
    gid = "nettest-00000001"
    real = Lockstep(GAME, gid, host)
    real.host(3, {}, invite=True)
    fake = Lockstep(GAME, gid, attacker)
    fake_announce = fake.host(3, {})[-1].payload
    joiner = Lockstep(GAME, gid, Identity.generate(), pin=real.pin)
    out = joiner.receive(decode_envelope(fake_announce))  # the attacker's comes first
    assert joiner.host_key is None and any("not signed by the host the invite names" in o.text for o in out)
    forged_start = forge(attacker, gid, "start", {"game": GAME.id, "players": 1, "options": {}, "versions": {},
                                                  "keys": [joiner.me.public], "names": ["x"], "table": {}},
                         seat=0, step=0, state_hash=ZERO, prev_hash=ZERO)
    joiner.receive(decode_envelope(forged_start))
    assert joiner.phase == "lobby" and joiner.host_key is None
    joiner.receive(decode_envelope(real.lobby.announce_raw))
    assert joiner.host_key == host.public
    hello = decode_envelope(joiner.hello()[0].payload)
    assert hello.body["proof"] == admission_proof(real.pin.secret, gid, joiner.me.public)
    assert real.pin.secret not in hello.raw  # proven, never sent


@pytest.mark.parametrize("kind", ["memory", *BROKERS])
async def test_a_hijacking_announcement_seen_first_does_not_seat_the_joiner(kind) -> None:
    async with contextlib.AsyncExitStack() as stack:
        if kind == "memory":
            _, transports = await _memory(3)
        else:
            url = await stack.enter_async_context(running_broker(kind))
            transports = [await connect(url, BrokerSettings(broker=url)) for _ in range(3)]
            for t in transports:
                stack.push_async_callback(t.stop)
        await _hijack(*transports)


async def _hijack(t_host, t_evil, t_join) -> None:
    host = await host_game(GAME, t_host, Identity.generate(), players=2, persist=False, invite=True, name="Host")
    gid, pin = host.lockstep.gid, host.lockstep.pin
    # the attacker hosts the same game id with its own key after the host: the retained
    # announcement a newcomer sees first is the attacker's
    evil = await host_game(GAME, t_evil, Identity.generate(), players=2, persist=False, gid=gid, name="Host")
    joining = asyncio.create_task(join_game(t_join, Identity.generate(), gid, name="Friend", persist=False,
                                            game=GAME, pin=pin, timeout=3))
    await settle()
    host._run(host.lockstep.lobby.announce())  # the real host announces again (a seat change does so)
    friend = await joining
    await until(lambda: ready(friend) and ready(host))  # dealt: the friend's card is in
    assert friend.lockstep.keys == [host.lockstep.me.public, friend.lockstep.me.public]
    assert friend.lockstep.host_key == host.lockstep.me.public
    # the attacker may seat the friend in its own books (the hello is public); the friend
    # never follows it: it played the real host's table from its announcement on
    assert friend.lockstep.hash == host.lockstep.hash and evil.lockstep.host_key != host.lockstep.me.public


async def test_squatters_without_the_secret_get_no_seat_and_no_answer_and_the_friend_sits() -> None:
    _, (t_host, t_evil, t_join) = await _memory(3)
    host = await host_game(GAME, t_host, Identity.generate(), players=3, persist=False, invite=True, name="Host")
    ls, gid = host.lockstep, host.lockstep.gid
    replies = _spy(t_evil, "log")
    await settle()
    wrong = host_pin(Identity.generate(), gid).secret
    for index in range(30):
        squatter = Identity.generate()
        proof = b"" if index % 2 else admission_proof(wrong, gid, squatter.public)
        await t_evil.publish(host.topics.log, _hello(squatter, gid, ls, proof))
    await settle()
    assert set(ls.seat_keys) == {0}
    assert not [e for e in replies if e.sender == ls.me.public], "the host answered a stranger"
    friend = await join_game(t_join, Identity.generate(), gid, name="Friend", persist=False, game=GAME, pin=ls.pin)
    await until(lambda: friend.lockstep.my_seat == 1)
    assert ls.lobby_seats() == ["Host", "Friend", ""]
    # the host sees who sits and removes them before the start
    refused = []
    friend.listeners.append(lambda note: note.kind == "refused" and refused.append(note.text))
    host._run(ls.kick(1))
    await until(lambda: bool(refused))
    assert ls.lobby_seats() == ["Host", "", ""] and friend.lockstep.my_seat is None
    assert refused == ["the host removed you from the table"]
    with pytest.raises(ValueError, match="no guest"):
        ls.kick(0)


async def test_a_flood_from_an_unseated_key_stays_under_the_byte_budget() -> None:
    _, (t_host, t_evil) = await _memory(2)
    host = await host_game(GAME, t_host, Identity.generate(), players=2, persist=False, invite=True, name="Host")
    ls, gid = host.lockstep, host.lockstep.gid
    flooder = Identity.generate()
    junk = b"\x07" * (60 * 1024)
    # mostly 60 KiB actions for steps to come (what a lobby would buffer), and the small kinds
    kinds = [("act", lambda n: {"action": junk}), ("act", lambda n: {"action": junk}),
             ("seed_commit", lambda n: {"commit": ZERO}), ("act", lambda n: {"action": junk}),
             ("chat", lambda n: {"text": "x" * 500}), ("sync_req", lambda n: {"from": n, "proof": b""})]
    gc.collect()
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    for n in range(300):
        kind, body = kinds[n % len(kinds)]
        payload = forge(flooder, gid, kind, body(n), seat=1, step=n, state_hash=ZERO, prev_hash=ZERO, nonce=n + 1)
        await t_evil.publish(host.topics.sync if kind == "sync_req" else host.topics.log, payload)
        if n % 20 == 0:
            await settle()
    await settle()
    gc.collect()
    grown = tracemalloc.get_traced_memory()[0] - before
    tracemalloc.stop()
    assert ls.buffer.bytes_held(seated=False) <= UNSEATED_BYTES
    assert verified_cache_bytes() <= VERIFIED_BYTES_MAX
    assert len(host.dropped) <= 200
    # 300 messages, ~9 MB on the wire: what stays is the budgets, not the flood
    print(f"heap growth after the flood: {grown / 2**20:.2f} MiB")
    assert grown < UNSEATED_BYTES + VERIFIED_BYTES_MAX + 2 * 1024 * 1024, grown


@pytest.mark.parametrize("kind", ["memory", *BROKERS])
async def test_sync_req_from_an_unknown_key_gets_no_answer_and_an_invited_watcher_one(kind) -> None:
    async with contextlib.AsyncExitStack() as stack:
        if kind == "memory":
            _, transports = await _memory(4)
        else:
            url = await stack.enter_async_context(running_broker(kind))
            transports = [await connect(url, BrokerSettings(broker=url)) for _ in range(4)]
            for t in transports:
                stack.push_async_callback(t.stop)
        await _stranger_and_watcher(transports)


async def _stranger_and_watcher(transports) -> None:
    ids = [Identity.generate() for _ in range(3)]
    host = await host_game(GAME, transports[0], ids[0], players=3, persist=False, invite=True, name="P0",
                           options={"rounds": 2})
    pin = host.lockstep.pin
    peers = [host] + [await join_game(transports[i], ids[i], host.lockstep.gid, name=f"P{i}", persist=False,
                                      game=GAME, pin=pin) for i in (1, 2)]
    await until(lambda: all(map(ready, peers)), 10)
    for seat, p in enumerate(peers):
        p.decide(Bid(1 + seat))
    await until(lambda: all(p.lockstep.step == 1 for p in peers), 10)
    answers: list = []
    await transports[3].subscribe(host.topics.sync, lambda t, p, r: p and answers.append(decode_envelope(p)))
    stranger = Identity.generate()
    ls = host.lockstep
    for proof in (b"", admission_proof(b"\x00" * 10, ls.gid, stranger.public)):
        request = forge(stranger, ls.gid, "sync_req", {"from": 0, "proof": proof}, seat=-1, step=0,
                        state_hash=ZERO, prev_hash=ZERO, nonce=len(proof) + 1)
        await transports[3].publish(host.topics.sync, request)
    # the invited watcher asks after the stranger, on the same connection and topic: by the time
    # its answer is here, the stranger's requests were seen (the broker keeps their order)
    watching = Identity.generate()
    watcher = await join_game(transports[3], watching, ls.gid, game=GAME, persist=False, watch=True, pin=pin)
    await until(lambda: watcher.lockstep.step == ls.step, 10)
    synced = [e for e in answers if e.kind == "sync"]
    assert synced and all(e.body["for"] == watching.public for e in synced), "a stranger's sync_req was answered"
    assert len({e.sender for e in synced}) == 1, "one designated peer answers"
    # the invited watcher may chat; the stranger may not
    lines = []
    peers[1].listeners.append(lambda note: note.kind == "chat" and lines.append(note.text))
    stray = forge(stranger, ls.gid, "chat", {"text": "buy gold"}, seat=-1, step=0, state_hash=ZERO, prev_hash=ZERO)
    await transports[3].publish(host.topics.chat, stray, qos=0)  # as chat goes: one order
    watcher.chat("hello table")  # after the stray one, on the same connection
    await until(lambda: bool(lines), 10)
    assert lines == ["watcher: hello table"]
    await finish(peers)
    await until(lambda: watcher.lockstep.phase == "over", 10)
    assert watcher.lockstep.hash == ls.hash
    for p in [*peers, watcher]:
        await p.stop(clean=False)


@contextlib.asynccontextmanager
async def _hosted_on(kind: str):
    """An invite-only table for two on a real broker: (host peer, attacker's and joiner's transports)."""
    async with running_broker(kind) as url:
        settings = BrokerSettings(broker=url)
        transports = [await connect(url, settings) for _ in range(3)]
        try:
            host = await host_game(GAME, transports[0], Identity.generate(), players=2, persist=False, invite=True,
                                   name="Host", options={"rounds": 2})
            yield host, transports[1], transports[2]
        finally:
            for t in transports:
                await t.stop()


async def _invited_friend_plays(host, t_join) -> None:
    """The friend with the invite code sits at the real table and both play it to one end."""
    ls = host.lockstep
    friend = await join_game(t_join, Identity.generate(), ls.gid, name="Friend", persist=False, game=GAME,
                             pin=ls.pin, timeout=5)
    await until(lambda: friend.lockstep.phase == "play", 10)
    assert friend.lockstep.host_key == ls.me.public
    assert ls.keys == [ls.me.public, friend.lockstep.me.public]
    await finish([host, friend])
    assert host.lockstep.hash == friend.lockstep.hash
    for p in (host, friend):
        await p.stop(clean=False)


@pytest.mark.parametrize("kind", BROKERS)
async def test_squatting_and_flooding_over_a_real_broker(kind) -> None:
    async with _hosted_on(kind) as (host, t_evil, t_join):
        ls, gid = host.lockstep, host.lockstep.gid
        junk = b"\x07" * (60 * 1024)
        for n in range(60):
            squatter = Identity.generate()
            await t_evil.publish(host.topics.log, _hello(squatter, gid, ls, b""))
            flood = forge(squatter, gid, "act", {"action": to_plain(junk)}, seat=1, step=n,
                          state_hash=ZERO, prev_hash=ZERO, nonce=n + 1)
            await t_evil.publish(host.topics.log, flood)
        await _invited_friend_plays(host, t_join)
        assert ls.buffer.bytes_held(seated=False) <= UNSEATED_BYTES


@pytest.mark.parametrize("kind", BROKERS)
async def test_lobby_junk_and_fake_games_neither_block_an_invited_joiner_nor_grow_the_list(kind) -> None:
    from net.session import MAX_LISTED, list_open_games
    from net.topics import Topics

    async with _hosted_on(kind) as (host, t_evil, t_join):
        ls = host.lockstep
        body = {"game": GAME.id, "players": 2, "options": {}, "versions": ls.versions, "names": ["Evil", ""],
                "open": True, "relay_bots": 0, "invite": False}
        for n in range(MAX_LISTED + 100):  # fake games, each from a key of its own
            fake_gid = f"{GAME.id}-fake{n:04d}"
            fake = forge(Identity.generate(), fake_gid, "announce", body, seat=0, step=0,
                         state_hash=ZERO, prev_hash=ZERO)
            await t_evil.publish(Topics(fake_gid).lobby, fake, retain=True)
        # the real game's retained announcement is overwritten with junk, then cleared
        await t_evil.publish(host.topics.lobby, b"\x00junk" * 100, retain=True)
        await t_evil.publish(host.topics.lobby, b"", retain=True)
        assert len(await list_open_games(t_join, wait=1.0)) <= MAX_LISTED
        await _invited_friend_plays(host, t_join)


def test_the_pin_and_proof_match_the_protocol_document_vectors() -> None:
    from net.invite import pin_text
    from net.lockstep.admission import TablePin, fingerprint

    key, secret = bytes([2]) * 32, bytes([1]) * 10
    assert fingerprint(key).hex() == "75877bb41d393b5fb845"
    assert pin_text(TablePin(fingerprint(key), secret)) == "owdx-xna5-he5v-7ocf-aeaq-caib-aeaq-caib"
    assert admission_proof(secret, "money-0001", key).hex() == (
        "e138ebbd76b4cc3f81534278b21d9ebcb78b5212fcf6b60dbcbab8f542fab700")
