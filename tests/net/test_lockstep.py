"""The lockstep protocol over the in-memory transport, with a tiny game of bids and picks."""

from __future__ import annotations

import asyncio
import logging

import msgpack
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.core import HIDDEN, canonical, final_state, state_hash
from engine.core.hidden import is_token
from net import crypto
from net.codec import MAX_SIZE, canonical_bytes
from net.errors import Refused
from net.identity import Identity
from net.session import host_game, join_game
from net.transport import MemoryBroker, MemoryTransport

from .fakegame import GAME, Bid, Pick
from .helpers import (
    finish,
    forge,
    memory_table,
    memory_transports,
    ready,
    sent,
    settle,
    table_of,
    until,
    withholding_transports,
)


def _agree(peers, verdict: str | None = "verified") -> None:
    """One end on every peer; the end audit of the deal judged it `verdict` on each."""
    hashes = {p.lockstep.hash for p in peers}
    chains = {p.lockstep.chain for p in peers}
    assert len(hashes) == 1 and len(chains) == 1, "peers ended in different states"
    for p in peers:
        assert p.lockstep.phase == "over" and not p.lockstep.frozen
        assert p.lockstep.dealt and p.lockstep.deal_verdict == verdict, p.lockstep.deal_verdict


@pytest.mark.parametrize("n", [2, 3, 5])
async def test_bot_peers_finish_with_identical_states_and_a_replayable_log(n) -> None:
    _, _, peers = await memory_table(n, options={"rounds": 4})
    await finish(peers)
    _agree(peers)
    for p in peers:
        log = p.lockstep.game_log
        assert state_hash(final_state(GAME, log)) == p.lockstep.hash.hex()
        assert GAME.result(final_state(GAME, log)) == GAME.result(p.lockstep.state)


def test_the_test_game_declares_its_hidden_cards_as_the_real_games_do() -> None:
    """Guess on partial knowledge with a trusted dealer (engine/core/dealer.py), checked at
    every step against the plain game stacked as dealt: no seat learns a face its view does
    not show, and the dealt game is the plain one."""
    from engine.bots.registry import make_bot
    from engine.core import Stream
    from engine.core.dealer import checked_bot_game

    for n in (2, 5):
        bots = [make_bot(GAME, s, "random", Stream(bytes([n, s]))) for s in range(n)]
        play = checked_bot_game(GAME, n, bytes([n]) * 8, bots, {"rounds": 4})
        assert GAME.is_over(play.public) and not any(map(is_token, play.public.hands))
        assert {seat for _, seat, _ in play.learnt} == {None, *range(n)}  # each saw its own card


async def test_each_seat_sees_its_own_card_and_the_table_sees_every_card_at_the_end() -> None:
    _, _, peers = await memory_table(3)
    for seat, p in enumerate(peers):
        hands = p.lockstep.view(seat).hands
        assert [card != HIDDEN for card in hands] == [s == seat for s in range(3)], hands
        assert set(p.lockstep.view(None).hands) == {HIDDEN}
    mine = [p.lockstep.view(seat).hands[seat] for seat, p in enumerate(peers)]
    assert all(is_token(card) for p in peers for card in p.lockstep.state.hands)  # the agreed state's
    await finish(peers)
    _agree(peers)
    for p in peers:
        assert p.lockstep.view(None).hands == tuple(mine) == p.lockstep.state.hands
        assert [dict(rows)["card"] for rows in p.lockstep.result().breakdown] == [int(c[0]) for c in mine]


async def test_seed_comes_from_every_seats_share() -> None:
    _, _, peers = await memory_table(3)
    shares = [p.lockstep.secrets["seed"] for p in peers]
    assert peers[0].lockstep.seed == crypto.game_seed(peers[0].lockstep.gid, shares)
    assert len({p.lockstep.seed for p in peers}) == 1


def _hold_reveals(transport: MemoryTransport) -> list[bytes]:
    """Make a transport swallow its peer's reveals (the test publishes them when it wants)."""
    held: list[bytes] = []
    publish = transport.publish_now  # MemoryTransport.publish goes through it too

    def filtered(topic, payload, qos=1, retain=False):
        if b"\xa6reveal" in payload:
            held.append(payload)
            return True
        return publish(topic, payload, qos, retain)

    transport.publish_now = filtered  # type: ignore[method-assign]
    return held


async def test_a_reveal_that_does_not_match_its_commit_is_rejected_and_the_sender_named() -> None:
    _, transports, peers = await memory_table(3)
    held = _hold_reveals(transports[2])
    for seat, p in enumerate(peers):
        p.decide(Bid(1 + seat % 3))
    await settle()
    ls0 = peers[0].lockstep
    assert ls0.step == 0 and 2 in ls0.awaited()
    cheat = forge(peers[2].lockstep.me, ls0.gid, "reveal", {"action": sent(Bid(2)), "salt": bytes(32)},
                  seat=2, step=0, state_hash=ls0.hash, prev_hash=ls0.chain)
    errors = []
    peers[0].listeners.append(lambda note: note.kind == "error" and errors.append(note.text))
    await transports[1].publish(peers[0].topics.log, cheat)
    await settle()
    assert ls0.step == 0, "a step was applied with a forged reveal"
    assert any("seat 2 (P2): reveal does not match its commit" in e for e in errors)
    await transports[1].publish(peers[0].topics.log, held[0])  # the honest reveal, relayed
    await settle()
    assert all(p.lockstep.step == 1 for p in peers)
    assert peers[0].lockstep.state.bids == (1, 2, 3)


async def test_a_reveal_before_all_commits_is_held_unopened_and_a_commit_reveals_nothing() -> None:
    _, transports, peers = await memory_table(3)
    ls1 = peers[1].lockstep
    view_before, public_before = ls1.view(1), ls1.view(None)
    peers[0].decide(Bid(3))
    await settle()
    commit_env = ls1.commits[0]
    assert set(commit_env.body) == {"commit"}
    assert canonical(Bid(3)) not in commit_env.raw
    assert ls1.view(1) == view_before and ls1.view(None) == public_before
    # seat 0 (or a cheater with its secret) reveals before seats 1 and 2 have committed
    action, salt = msgpack.unpackb(peers[0].lockstep.secrets["commit:0"], raw=False)
    early = forge(peers[0].lockstep.me, ls1.gid, "reveal", {"action": action, "salt": salt},
                  seat=0, step=0, state_hash=ls1.hash, prev_hash=ls1.chain, nonce=99)
    await transports[0].publish(peers[0].topics.log, early)
    await settle()
    assert ls1.step == 0 and ls1.view(1) == view_before and ls1.view(None) == public_before
    peers[1].decide(Bid(1))
    peers[2].decide(Bid(2))
    await settle()
    assert all(p.lockstep.step == 1 for p in peers)
    assert ls1.state.bids == (3, 1, 2)
    assert not peers[1].dropped, "the early reveal was used once every commit was in"


def _bad_payloads(peers, transports):
    ls = peers[1].lockstep
    me0, me1 = peers[0].lockstep.me, peers[1].lockstep.me
    good = forge(me1, ls.gid, "chat", {"text": "hi"}, seat=1, step=ls.step, state_hash=ls.hash, prev_hash=ls.chain)
    wrong_type = msgpack.unpackb(good, raw=False)
    wrong_type["n"] = "three"
    unknown = msgpack.unpackb(good, raw=False)
    unknown["k"] = "teleport"
    bad_sig = msgpack.unpackb(good, raw=False)
    bad_sig["b"] = {"text": "changed"}
    return {
        "malformed": (b"\x93\x01\x02", "malformed"),
        "oversize": (b"\x00" * (MAX_SIZE + 10), "oversize"),
        "wrong types": (canonical_bytes(wrong_type), "bad_field"),
        "unknown kind": (canonical_bytes(unknown), "unknown_kind"),
        "bad signature": (canonical_bytes(bad_sig), "bad_signature"),
        "another seat's key": (
            forge(me0, ls.gid, "act", {"action": sent(Pick(True))}, seat=1, step=ls.step,
                  state_hash=ls.hash, prev_hash=ls.chain),
            "bound to another key",
        ),
        "illegal action": (
            forge(me0, ls.gid, "act", {"action": sent(Bid(9))}, seat=0, step=ls.step,
                  state_hash=ls.hash, prev_hash=ls.chain),
            "illegal action from seat 0",
        ),
    }


async def test_bad_input_is_dropped_with_a_logged_reason_and_the_game_goes_on(caplog) -> None:
    caplog.set_level(logging.INFO, logger="gamenight.net")
    _, transports, peers = await memory_table(3, options={"rounds": 3})
    for seat, p in enumerate(peers):
        p.decide(Bid(1 + seat))
    await settle()
    ls1 = peers[1].lockstep
    assert ls1.step == 1 and ls1.active() == {0}  # a sequential step: seat 0 takes or passes
    old_commit = next(raw for _, raw in reversed(peers[0].lockstep.accepted) if b"\xa6commit" in raw)
    attacker = transports[2]
    cases = _bad_payloads(peers, transports)
    cases["replayed old message"] = (old_commit, "")
    for name, (payload, reason) in cases.items():
        before = (ls1.step, ls1.hash, len(peers[1].dropped))
        caplog.clear()
        await attacker.publish(peers[1].topics.log, payload)
        await settle()
        assert (ls1.step, ls1.hash) == before[:2], f"{name} changed the game"
        assert len(peers[1].dropped) > before[2], f"{name} was not dropped"
        assert reason in peers[1].dropped[-1], f"{name}: {peers[1].dropped[-1]}"
        assert any(r.name == "gamenight.net" for r in caplog.records), f"{name} was not logged"
    await finish(peers)
    _agree(peers)


async def test_a_peer_whose_hash_differs_from_two_others_freezes_with_a_report() -> None:
    # one seat with another hash is reported with a proof (tests/net/test_deadlines.py); two
    # seats that agree with each other against this peer mean this peer is the odd one out
    _, transports, peers = await memory_table(3)
    ls = peers[0].lockstep
    reports = []
    peers[0].listeners.append(lambda note: note.kind == "desync" and reports.append(note))
    for seat in (1, 2):
        liar = forge(peers[seat].lockstep.me, ls.gid, "commit", {"commit": bytes(32)}, seat=seat, step=0,
                     state_hash=b"\x01" * 32, prev_hash=ls.chain)
        await transports[seat].publish(peers[0].topics.log, liar)
    await settle()
    assert ls.phase == "frozen" and reports
    assert "desync at step 0: seat 2 has state 0101" in reports[0].text
    assert reports[0].data["ours"] == ls.hash.hex()
    with pytest.raises(Exception, match="frozen"):
        peers[0].decide(Bid(1))


async def test_a_version_mismatch_refuses_the_join_with_a_clear_message(monkeypatch) -> None:
    from net.session import host_game

    broker, transports = await memory_transports(2)
    host = await host_game(GAME, transports[0], Identity.generate(), players=3, persist=False)
    import net.lockstep.router as lockstep_module

    real = lockstep_module.local_versions
    monkeypatch.setattr(lockstep_module, "local_versions", lambda g: {**real(g), "rules": "1-deadbeef"})
    with pytest.raises(Refused, match="rules data differs \\(the host: '1-.*', this client: '1-deadbeef'\\)"):
        await join_game(transports[1], Identity.generate(), host.lockstep.gid, game=GAME, persist=False)


async def test_the_host_refuses_a_hello_with_other_versions() -> None:
    broker_peers = await memory_table(2)
    _, transports, peers = broker_peers
    ls = peers[0].lockstep
    stranger = Identity.generate()
    hello = forge(stranger, ls.gid, "hello",
                  {"name": "eve", "game": GAME.id, "versions": {**ls.versions, "engine": "0.0.1"}, "options": ls.table.options,
                   "proof": b""},
                  seat=-1, step=0, state_hash=bytes(32), prev_hash=bytes(32))
    seen = []
    await transports[1].subscribe("gamenight/v1/game/+/log", lambda t, p, r: seen.append(p))
    await transports[1].publish(peers[0].topics.log, hello)
    await settle()
    from net.codec import decode_envelope

    refusals = [decode_envelope(p) for p in seen if b"\xa6refuse" in p]
    assert refusals and "gamenight version differs (you: '0.0.1', the host: " in refusals[0].body["reason"]


async def test_players_who_join_with_a_name_already_seated_get_a_number() -> None:
    broker, transports = await memory_transports(4)
    ids = [Identity.generate() for _ in range(4)]
    host = await host_game(GAME, transports[0], ids[0], players=4, persist=False, name="Player")
    long_name = "Abcdefghijklmnopqrstuvwx"  # 24 characters: the number replaces its end
    others = [await join_game(transports[i], ids[i], host.lockstep.gid, name=name, persist=False, game=GAME)
              for i, name in ((1, "Player"), (2, long_name), (3, "Player"))]
    await until(lambda: all(p.lockstep.phase == "play" for p in [host, *others]))
    for p in [host, *others]:
        assert p.lockstep.names == ["Player", "Player 2", long_name, "Player 3"]
    assert host.lockstep._unique_name(long_name) == "Abcdefghijklmnopqrstuv 2"


async def test_chat_is_signed_and_bound_to_the_seat() -> None:
    _, transports, peers = await memory_table(3)
    lines = []
    peers[2].listeners.append(lambda note: note.kind == "chat" and lines.append(note.text))
    peers[0].chat("good luck")
    await settle()
    ls = peers[0].lockstep
    fake = forge(peers[1].lockstep.me, ls.gid, "chat", {"text": "I am P0"}, seat=0, step=0,
                 state_hash=ls.hash, prev_hash=ls.chain)
    await transports[1].publish(peers[0].topics.chat, fake)
    await settle()
    assert lines == ["P0: good luck"]
    assert "signed by another key" in peers[2].dropped[-1]


async def test_a_lost_peer_shows_offline_and_resumes_from_its_disk_log(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("GAMENIGHT_HOME", str(tmp_path))

    broker = MemoryBroker()
    transports = [MemoryTransport(broker) for _ in range(3)]
    ids = [Identity.generate() for _ in range(3)]
    for t in transports:
        await t.start()
    peers = await table_of(3, transports, options={"rounds": 4}, persist=True, identities=ids)
    for p in peers:
        transports[peers.index(p)].will = p.will()
    await until(lambda: all(map(ready, peers)))
    for seat, p in enumerate(peers):
        p.decide(Bid(1 + seat))
    await until(lambda: all(p.lockstep.step == 1 for p in peers))  # sends wait for the disk writes
    notices = []
    peers[0].listeners.append(lambda note: note.kind == "presence" and notices.append(note.text))
    # seat 2 crashes in the middle of step 1's sequential turn of seat 0
    transports[2].kill()
    await peers[2].stop(clean=False)
    await settle()
    assert notices and "P2 is offline" in notices[-1]
    peers[0].decide(Pick(True))  # step 1; seat 2 misses it
    await until(lambda: peers[0].lockstep.step == 2)
    again = MemoryTransport(broker)
    await again.start()
    resumed = await join_game(again, ids[2], peers[0].lockstep.gid, name="P2", game=GAME, persist=True)
    await until(lambda: resumed.lockstep.step == 2)
    assert resumed.lockstep.hash == peers[0].lockstep.hash
    assert notices[-1] == "P2 is back online"
    peers[2] = resumed
    await finish(peers)
    _agree(peers)
    assert len(peers[0].lockstep.game_log.steps) == peers[0].lockstep.step


async def test_a_peer_resumed_while_a_card_opens_signs_nothing_anew_and_nobody_is_blamed(tmp_path, monkeypatch):
    """Seat 2 crashes after its reveal went out and before its key for the round's secret did
    (kept on its disk, lost on the wire). Restarted from its files it holds the table's own
    version of every message; the others get its key by asking on sync, play on to one end,
    and no seat is taken for an equivocator (nobody plays a step twice)."""
    monkeypatch.setenv("GAMENIGHT_HOME", str(tmp_path))
    ids = [Identity.generate() for _ in range(3)]
    transports = await withholding_transports(3, 2, b"deck_open")
    peers = await table_of(3, transports, persist=True, identities=ids)
    await until(lambda: all(map(ready, peers)))
    for seat, p in enumerate(peers):
        p.decide(Bid(1 + seat))
    ls0 = peers[0].lockstep
    await until(lambda: ls0.steps.dealing.busy() and ls0.awaited() == {2} and peers[2].lockstep.step == 1)
    transports[2].kill()
    await peers[2].stop(clean=False)
    again = MemoryTransport(transports[0].broker)
    await again.start()
    peers[2] = await join_game(again, ids[2], ls0.gid, name="P2", game=GAME, persist=True)
    for p in peers:
        p.stall_after = 0.1  # the watchdog asks on sync soon (the real one waits 2 s)
    await finish(peers)
    _agree(peers)
    assert not any(p.lockstep.proofs.proven for p in peers)
    assert not [d for p in peers for d in p.dropped if "equivocation" in d]


@pytest.mark.parametrize("lost", [False, True], ids=["sent", "lost"])
async def test_a_peer_resumed_before_the_others_reveals_reveals_again_as_the_same_message(lost, tmp_path, monkeypatch):
    """Seat 2 revealed, then crashed before the others' reveals came (its disk holds none) and
    its reveal was `lost` on the wire or not. Restarted, it reveals again, signed anew: the
    table takes it for the one it holds (not for an equivocation), or for the first, and the
    step goes on once the others' reveals are in."""
    monkeypatch.setenv("GAMENIGHT_HOME", str(tmp_path))
    ids = [Identity.generate() for _ in range(3)]
    broker, transports = await memory_transports(3)
    peers = await table_of(3, transports, persist=True, identities=ids)
    await until(lambda: all(map(ready, peers)))
    held = [_hold_reveals(t) for t in transports]
    for seat, p in enumerate(peers):
        p.decide(Bid(1 + seat))
    await until(lambda: all(held))
    if not lost:  # its reveal went out before the crash
        MemoryTransport.publish_now(transports[2], peers[0].topics.log, held[2][0])
        await until(lambda: all(2 in p.lockstep.reveals for p in peers))
    await peers[2].flush()
    transports[2].kill()
    await peers[2].stop(clean=False)
    again = MemoryTransport(broker)
    await again.start()
    peers[2] = await join_game(again, ids[2], peers[0].lockstep.gid, name="P2", game=GAME, persist=True)
    for t in transports[:2]:
        del t.publish_now  # the others' reveals reach the table at last
    for raw in held[0][:1] + held[1][:1]:
        await again.publish(peers[0].topics.log, raw)
    await until(lambda: all(p.lockstep.step == 1 for p in peers))
    await finish(peers)
    _agree(peers)
    assert not any(p.lockstep.proofs.proven for p in peers)
    assert not [d for p in peers for d in p.dropped if "equivocation" in d]


async def test_a_watcher_follows_the_public_view() -> None:
    broker, transports, peers = await memory_table(2, options={"rounds": 2})
    watcher_t = MemoryTransport(broker)
    await watcher_t.start()
    watcher = await join_game(watcher_t, Identity.generate(), peers[0].lockstep.gid, game=GAME,
                              persist=False, watch=True)
    await finish(peers)
    await until(lambda: watcher.lockstep.phase == "over")
    assert watcher.lockstep.my_seat is None
    assert watcher.lockstep.hash == peers[0].lockstep.hash
    with pytest.raises(Exception, match="no seat"):
        watcher.decide(Bid(1))
    assert asyncio.get_running_loop() is not None


async def test_a_seated_peer_that_lost_its_files_gets_its_seat_back_from_the_others() -> None:
    """Its seat and the game come back from the others' logs; its deck keys do not (new ones
    would fail the deal's commitments): the table waits for them at the next card to open,
    then votes it out and scores the game, and the returned peer ends alike."""
    import time

    from engine.core.early import is_ended_early

    broker = MemoryBroker()
    transports = [MemoryTransport(broker) for _ in range(2)]
    ids = [Identity.generate() for _ in range(2)]
    for t in transports:
        await t.start()
    peers = await table_of(2, transports, options={"rounds": 3}, identities=ids)
    await until(lambda: all(map(ready, peers)))
    for seat, p in enumerate(peers):
        p.decide(Bid(1 + seat))
    await until(lambda: all(p.lockstep.step == 1 for p in peers))
    transports[1].kill()
    await peers[1].stop(clean=False)
    fresh = MemoryTransport(broker)
    await fresh.start()
    again = await join_game(fresh, ids[1], peers[0].lockstep.gid, name="P1", game=GAME, persist=False)
    await until(lambda: again.lockstep.step == peers[0].lockstep.step)
    assert again.lockstep.my_seat == 1 and again.lockstep.hash == peers[0].lockstep.hash
    with pytest.raises(Refused, match="already started and you have no seat"):
        await join_game(fresh, Identity.generate(), peers[0].lockstep.gid, game=GAME, persist=False, timeout=0.5)
    now = [time.time()]
    table = [peers[0], again]
    for p in table:
        p.lockstep.ctx.clock = lambda: now[0]
        p.lockstep.deadlines.since = now[0]
        p.bot_kind = "random"
        p._bot_if_my_turn()
    ls0 = peers[0].lockstep
    # it plays its seat, but the next secret opens with every seat's key, and it has none
    await until(lambda: ls0.steps.dealing.busy() and ls0.awaited() == {1} == again.lockstep.awaited())
    assert ls0.step == 2 and not again.lockstep.steps.dealing.seats
    now[0] += 10_000
    peers[0].vote("end")
    await until(lambda: all(p.lockstep.phase == "over" and p.lockstep.deal_verdict for p in table))
    _agree(table, verdict="not verified: P1 left before revealing")
    result = ls0.result()
    assert is_ended_early(result) and result.places == (1, 2)
    assert again.lockstep.result() == result


@pytest.fixture(scope="module")
def finished_game_log():
    """Every accepted envelope of one finished 3-seat game (setup and all steps)."""

    async def play():
        _, _, peers = await memory_table(3, options={"rounds": 3})
        await finish(peers)
        return [raw for _, raw in peers[0].lockstep.accepted], peers[0].lockstep.hash, peers[0].lockstep.gid

    return asyncio.run(play())


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_order_comes_from_steps_and_the_chain_not_from_the_broker(finished_game_log, data) -> None:
    """Any delivery order, with duplicates, ends in the same state: early messages wait,
    duplicates are ignored, and what a sync would resend changes nothing."""
    from net.codec import decode_envelope
    from net.lockstep import Lockstep

    raws, final_hash, gid = finished_game_log
    shuffled = data.draw(st.permutations(raws), label="order")
    dupes = data.draw(st.lists(st.sampled_from(raws), max_size=10), label="duplicates")
    follower = Lockstep(GAME, gid, Identity.generate())
    for raw in shuffled + dupes:
        follower.receive(decode_envelope(raw))
        assert not follower.frozen, follower.frozen
    for raw in raws:  # what a sync answer would resend
        follower.receive(decode_envelope(raw))
    assert follower.phase == "over" and follower.hash == final_hash


async def test_a_long_log_is_synced_in_chunks_under_the_size_limit() -> None:
    from net.codec import MAX_SIZE, decode_envelope

    broker, _, peers = await memory_table(6, options={"rounds": 20})
    await finish(peers)
    sizes = []
    late = MemoryTransport(broker)
    await late.start()
    senders = set()

    def answer(topic, payload, retained):
        env = decode_envelope(payload)
        if env.kind == "sync":
            sizes.append(len(payload))
            senders.add(env.sender)

    await late.subscribe(peers[0].topics.sync, answer)
    watcher = await join_game(late, Identity.generate(), peers[0].lockstep.gid, game=GAME, persist=False,
                              watch=True, timeout=0.2)
    await until(lambda: watcher.lockstep.phase == "over")
    assert watcher.lockstep.hash == peers[0].lockstep.hash
    assert len(senders) == 1, "one designated peer answers, not the whole table"
    assert len(sizes) >= 2 and max(sizes) <= MAX_SIZE


def _pump(lockstep_peers, outputs) -> list[bytes]:
    """Deliver every published payload to every other Lockstep until nothing new is sent."""
    from net.codec import decode_envelope
    from net.lockstep import Publish

    wire: list[bytes] = []
    queue = [(None, o.payload) for o in outputs if isinstance(o, Publish) and o.payload]
    while queue:
        sender, payload = queue.pop(0)
        wire.append(payload)
        env = decode_envelope(payload)
        for ls in lockstep_peers:
            if ls is not sender and ls.me.public != env.sender:
                queue += [(ls, o.payload) for o in ls.receive(env) if isinstance(o, Publish) and o.payload]
    return wire


def test_the_protocol_takes_time_and_randomness_only_from_what_it_is_given() -> None:
    from net.codec import decode_envelope
    from net.lockstep import Lockstep

    ids = [Identity.from_seed(bytes([s + 1]) * 32) for s in range(2)]

    def play() -> tuple[list[bytes], list[Lockstep]]:
        ticks = iter(range(10**6))
        peers = [Lockstep(GAME, "nettest-0000cafe", ids[s], name=f"P{s}", entropy=lambda n, s=s: bytes([s + 7]) * n,
                          clock=lambda: 1_700_000_000 + next(ticks) / 1000) for s in range(2)]
        wire = _pump(peers, peers[0].host(2, {"rounds": 1}))
        wire += _pump(peers, peers[1].hello())
        for seat, ls in enumerate(peers):
            wire += _pump(peers, ls.decide(Bid(1 + seat)))
        return wire, peers

    first, peers = play()
    assert [ls.secrets["seed"] for ls in peers] == [bytes([7]) * 32, bytes([8]) * 32]
    assert all(ls.step == 1 and ls.hash == peers[0].hash for ls in peers)
    assert peers[0].seed == crypto.game_seed("nettest-0000cafe", [bytes([7]) * 32, bytes([8]) * 32])
    nonces = [decode_envelope(raw).nonce for raw in first]
    assert all(1_700_000_000_000_000 <= q < 1_700_001_000_000_000 for q in nonces), "a nonce from the real clock"
    assert any(b"boxes" in raw for raw in first), "the deal showed each seat its card"
    again, _ = play()
    assert list(map(_but_boxes, again)) == list(map(_but_boxes, first)), (
        "same keys, clock and entropy: the same bytes on the wire")


def _but_boxes(raw: bytes):
    """A message as two runs must send it alike: a sealed box takes a fresh ephemeral key
    (docs/protocol.md section 11), so its bytes and the signature over them differ; their
    sizes, and everything else, do not."""
    data = msgpack.unpackb(raw, raw=False)
    boxes = data["b"].get("boxes") if isinstance(data["b"], dict) else None
    if not boxes:
        return raw
    data["b"]["boxes"] = [[to, deck, pos, len(box)] for to, deck, pos, box in boxes]
    del data["z"]
    return data
