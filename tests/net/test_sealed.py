"""Sealed steps over the network: Sheriff's bags are committed at LOAD and opened one by one.

At LOAD each merchant publishes `seal` (its commitment and `SealedLoad(count)`); no reveal is
ever sent, so no peer holds another merchant's bag until the rules open it: then the merchant's
peer sends `open` by itself, which every peer checks against the commitment.

A network Sheriff table is dealt face down now (its bags are tokens, no seal needed); these
tests play Sheriff with that deal off (`NETWORK_DEAL`), so the sealed mechanism stays tested.
"""

from __future__ import annotations

import asyncio

import pytest

import engine.sheriff.rules as sheriff_rules
from engine.bots import make_bot
from engine.core import HIDDEN, Stream, final_state, state_hash, to_plain
from engine.registry import get_game
from engine.sheriff.cards import GOODS
from engine.sheriff.state import Load, OpenBag, SealedLoad
from net.codec import decode_envelope
from net.identity import Identity
from net.lockstep import Note
from net.session import host_game, join_game
from net.transport import MemoryBroker, MemoryTransport

from .brokers import running_broker
from .helpers import forge, until

GAME = get_game("sheriff")
ZERO = (0,) * len(GOODS)


@pytest.fixture(autouse=True)
def sealed_sheriff(monkeypatch):
    """A network Sheriff table dealt from the seed: its bags go sealed."""
    monkeypatch.setattr(sheriff_rules, "NETWORK_DEAL", False)


async def _sheriff_table(transports, *, bots, persist=False, identities=None):
    """A 4-seat Sheriff table; `bots[s]` is seat s's bot kind (None = driven by the test)."""
    n = len(transports)
    identities = identities or [Identity.generate() for _ in range(n)]
    peers = [await host_game(GAME, transports[0], identities[0], players=n, persist=persist,
                             bot=bots[0], name="P0")]
    for s in range(1, n):
        peers.append(await join_game(transports[s], identities[s], peers[0].lockstep.gid, name=f"P{s}",
                                     persist=persist, bot=bots[s], game=GAME))
    return peers


async def _memory_transports(n: int, broker: MemoryBroker | None = None):
    broker = broker or MemoryBroker()
    transports = [MemoryTransport(broker) for _ in range(n)]
    for t in transports:
        await t.start()
    return broker, transports


def _wire_log(transport: MemoryTransport) -> list:
    """Every envelope the transport's peer publishes on the log and sync topics, decoded."""
    sent: list = []
    publish = transport.publish_now  # MemoryTransport.publish goes through it too

    def spy(topic, payload, qos=1, retain=False):
        if "/log" in topic or "/sync" in topic:
            env = decode_envelope(payload)
            sent.append(env)
            if env.kind == "sync":
                sent.extend(decode_envelope(raw) for raw in env.body["msgs"])
        return publish(topic, payload, qos, retain)

    transport.publish_now = spy  # type: ignore[method-assign]
    return sent


def _no_foreign_bag_is_known(peer) -> None:
    """The peer's state holds no other merchant's bag until that bag has been opened."""
    ls = peer.lockstep
    state, me = ls.state, ls.my_seat
    if state is None:
        return
    for seat in range(state.n_players):
        if seat == me:
            continue
        if seat in ls.sealed:
            assert state.sealed[seat] and state.bags[seat] == ZERO, f"seat {seat}'s bag is known to seat {me}"
        if state.phase in ("declare", "inspect") and seat in state.pending and state.merchant != seat:
            assert state.bags[seat] == ZERO, f"seat {seat}'s bag was opened before it was dealt with"
        view = ls.view(me)
        assert all(c == HIDDEN for c in view.players[seat].bag)


def _agree(peers) -> None:
    first = peers[0].lockstep
    assert first.phase == "over", f"stopped at step {first.step} in phase {first.phase}"
    assert {p.lockstep.hash for p in peers} == {first.hash}
    assert {p.lockstep.chain for p in peers} == {first.chain}
    replayed = final_state(GAME, first.game_log)
    assert state_hash(replayed) == first.hash.hex()
    for p in peers:
        assert not p.lockstep.frozen
        assert GAME.result(p.lockstep.state) == GAME.result(replayed)


async def _play_and_watch(url_or_broker) -> None:
    if isinstance(url_or_broker, str):
        from net.launch import BrokerSettings, connect

        settings = BrokerSettings(broker=url_or_broker)
        transports = [await connect(url_or_broker, settings, None) for _ in range(4)]
    else:
        _, transports = await _memory_transports(4, url_or_broker)
    wires = [_wire_log(t) for t in transports]
    peers = await _sheriff_table(transports, bots=["best"] * 4)
    checks = []
    for p in peers:
        def check(note: Note, p=p) -> None:
            if note.kind == "changed":
                _no_foreign_bag_is_known(p)
                checks.append(1)
        p.listeners.append(check)
    try:
        await asyncio.wait_for(asyncio.gather(*(p.done.wait() for p in peers)), 120)
        _agree(peers)
        assert len(checks) > 100
        actions = [a for step in peers[0].lockstep.game_log.steps for _, a in step]
        assert not any(isinstance(a, Load) for a in actions), "a bag's content went into the log at LOAD"
        sealed = sum(isinstance(a, SealedLoad) for a in actions)
        opened = sum(isinstance(a, OpenBag) for a in actions)
        assert sealed == opened > 0, "every sealed bag is opened exactly once"
        sent = [env for wire in wires for env in wire]
        kinds = {env.kind for env in sent}
        assert "seal" in kinds and "open" in kinds
        assert not kinds & {"reveal", "commit"}, "a sealed step must not be revealed"
        for env in sent:
            if env.kind == "seal":
                assert set(env.body) == {"commit", "public"}
                assert not any(good.encode() in env.raw for good in GOODS), "a seal names a card"
    finally:
        for p in peers:
            await p.stop(clean=False)
        for t in transports:
            await t.stop()


async def test_sheriff_over_the_memory_broker_keeps_every_bag_sealed_until_it_is_dealt_with() -> None:
    await _play_and_watch(MemoryBroker())


@pytest.mark.net
async def test_sheriff_over_amqtt_keeps_every_bag_sealed_until_it_is_dealt_with() -> None:
    async with running_broker("amqtt") as url:
        await _play_and_watch(url)


def _hold_opens(transport: MemoryTransport) -> tuple[list[bytes], list[bool]]:
    """Make a transport keep its peer's `open` messages (direct or inside a sync) until released."""
    held: list[bytes] = []
    released = [False]
    publish = transport.publish_now  # MemoryTransport.publish goes through it too

    def filtered(topic, payload, qos=1, retain=False):
        if not released[0] and ("/log" in topic or "/sync" in topic):
            env = decode_envelope(payload)
            inner = [decode_envelope(raw) for raw in env.body["msgs"]] if env.kind == "sync" else [env]
            if any(e.kind == "open" for e in inner):
                held.append(payload)
                return True
        return publish(topic, payload, qos, retain)

    transport.publish_now = filtered  # type: ignore[method-assign]
    return held, released


async def test_a_forged_open_is_rejected_with_the_sender_named_and_the_honest_one_plays_on() -> None:
    _, transports = await _memory_transports(4)
    held, released = _hold_opens(transports[2])
    peers = await _sheriff_table(transports, bots=["best"] * 4)
    errors: list[str] = []
    peers[0].listeners.append(lambda note: note.kind == "error" and errors.append(note.text))
    try:
        await until(lambda: held, timeout=30)
        honest = next(e for e in map(decode_envelope, held) if e.kind == "open")
        ls0 = peers[0].lockstep
        await until(lambda: ls0.step == honest.step and GAME.opening(ls0.state) == 2)
        original = Load(tuple(honest.body["action"]["cards"]))
        other = "cheese" if original.cards[0] != "cheese" else "apple"
        forged_cards = tuple(sorted((other,) + original.cards[1:]))
        cheat = forge(peers[2].lockstep.me, ls0.gid, "open",
                      {"action": to_plain(Load(forged_cards)), "salt": honest.body["salt"]},
                      seat=2, step=honest.step, state_hash=ls0.hash, prev_hash=ls0.chain, nonce=7)
        await transports[1].publish(peers[0].topics.log, cheat)
        await until(lambda: errors)
        assert "seat 2 (P2): open does not match its commit" in errors[0]
        assert ls0.step == honest.step and 2 in ls0.sealed, "a forged open was applied"
        assert ls0.state.bags[2] == ZERO
        await until(lambda: 2 in ls0.proofs.proven)  # the forged open fails its seal: proven
        assert ls0.proofs.proven[2][0] == "reveal"
        released[0] = True
        await transports[2].publish(peers[0].topics.log, honest.raw)
        await asyncio.wait_for(asyncio.gather(*(p.done.wait() for p in peers)), 60)
        _agree(peers)
    finally:
        for p in peers:
            await p.stop(clean=False)


async def test_an_open_whose_public_part_lied_about_the_count_is_rejected() -> None:
    """A cheater seals 3 cards publicly but commits to a 2-card bag: its open is refused."""
    from net import crypto
    from net.lockstep import Lockstep

    ids = [Identity.generate() for _ in range(3)]
    _, transports = await _memory_transports(3)
    peers = await _sheriff_table(transports, bots=[None] * 3, identities=ids)
    try:
        ls = peers[0].lockstep
        await until(lambda: all(p.lockstep.phase == "play" for p in peers))
        follower = Lockstep(GAME, ls.gid, Identity.generate())
        for _, raw in ls.accepted:
            follower.receive(decode_envelope(raw))
        assert GAME.opening(follower.state) is None and follower.step == 0
        # play the market with empty set-asides until LOAD, by forged (correctly signed) acts
        from engine.sheriff.state import SetAside

        while not GAME.sealed(follower.state):
            seat = next(iter(GAME.active(follower.state)))
            env = forge(ids[seat], ls.gid, "act", {"action": to_plain(SetAside(()))}, seat=seat,
                        step=follower.step, state_hash=follower.hash, prev_hash=follower.chain, nonce=100 + follower.step)
            follower.receive(decode_envelope(env))
        loaders = sorted(GAME.active(follower.state))
        salt = bytes(32)
        bags = {}
        for seat in loaders:
            hand = [GOODS[i] for i, k in enumerate(follower.state.hands[seat]) for _ in range(k)]
            bags[seat] = Load(tuple(hand[:2]))
            commit = crypto.action_commit(ls.gid, follower.step, seat, bags[seat], salt)
            public = SealedLoad(3 if seat == loaders[0] else 2)  # the first one lies
            env = forge(ids[seat], ls.gid, "seal", {"commit": commit, "public": to_plain(public)}, seat=seat,
                        step=follower.step, state_hash=follower.hash, prev_hash=follower.chain, nonce=500 + seat)
            follower.receive(decode_envelope(env))
        assert set(follower.sealed) == set(loaders) and not GAME.sealed(follower.state)
        assert follower.state.sealed[loaders[0]] == 3
        liar = loaders[0]
        # declare, then the Sheriff lets the liar pass: its bag must now be opened
        from engine.sheriff.state import Choose, Declare, NoOffer, Pass

        moves = {"": Declare("apple"), "choose": Choose(liar), "offer": NoOffer(), "answer": Pass()}
        while GAME.opening(follower.state) is None:
            seat = next(iter(GAME.active(follower.state)))
            action = moves[follower.state.step]
            env = forge(ids[seat], ls.gid, "act", {"action": to_plain(action)}, seat=seat,
                        step=follower.step, state_hash=follower.hash, prev_hash=follower.chain, nonce=900 + follower.step)
            follower.receive(decode_envelope(env))
        assert GAME.opening(follower.state) == liar
        opening = forge(ids[liar], ls.gid, "open", {"action": to_plain(bags[liar]), "salt": salt}, seat=liar,
                        step=follower.step, state_hash=follower.hash, prev_hash=follower.chain, nonce=5000)
        out = follower.receive(decode_envelope(opening))
        reasons = [o.text for o in out if isinstance(o, Note) and o.kind == "dropped"]
        assert reasons and f"seat {liar} (P{liar}): opened action does not match its public part" in reasons[0]
        assert GAME.opening(follower.state) == liar and liar in follower.sealed
    finally:
        for p in peers:
            await p.stop(clean=False)


async def test_a_peer_killed_while_its_bag_is_sealed_resumes_and_opens_it(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("GAMENIGHT_HOME", str(tmp_path))
    broker, transports = await _memory_transports(4)
    ids = [Identity.generate() for _ in range(4)]
    peers = await _sheriff_table(transports, bots=["best", None, "best", "best"], persist=True, identities=ids)
    for t, p in zip(transports, peers, strict=True):
        t.will = p.will()
    me = peers[1]
    ls = me.lockstep
    bot = make_bot(GAME, 1, "best", Stream(b"seat-1"))
    try:
        await until(lambda: ls.phase == "play")
        while 1 not in ls.sealed:  # seat 1 plays by hand until its bag is sealed
            if ls.my_turn():
                me.decide(bot.choose(ls.view(1), GAME.legal_actions(ls.state, 1)))
            await asyncio.sleep(0.002)
        step = ls.sealed[1].step
        own_bag = ls.view(1).players[1].bag
        assert own_bag and HIDDEN not in own_bag, "the merchant sees its own sealed bag"
        from tui.net_table import NetTable

        screen_view = NetTable(me).view(1)
        assert screen_view.players[1].bag == own_bag and HIDDEN not in screen_view.players[1].hand
        assert GAME.view(ls.state, 1).players[1].bag == (HIDDEN,) * len(own_bag)
        assert f"sealed:{step}" in me.store.load_secrets()
        transports[1].kill()
        await me.stop(clean=False)
        again = MemoryTransport(broker)
        await again.start()
        resumed = await join_game(again, ids[1], ls.gid, name="P1", game=GAME, persist=True, bot="best")
        peers[1] = resumed
        assert resumed.lockstep.view(1).players[1].bag == own_bag
        await asyncio.wait_for(asyncio.gather(*(p.done.wait() for p in peers)), 60)
        _agree(peers)
        opened = [a for entry in peers[0].lockstep.game_log.steps for s, a in entry
                  if s == 1 and isinstance(a, OpenBag)]
        assert opened and tuple(sorted(opened[0].cards)) == tuple(sorted(own_bag))
    finally:
        for p in peers:
            await p.stop(clean=False)
