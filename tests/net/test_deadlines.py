"""A table that must not wait forever: deadlines, fraud proofs, the vote, handover to a bot.

Time is driven by a fake clock given to every peer's Lockstep (nothing sleeps for a deadline).
"""

from __future__ import annotations

import time
from dataclasses import replace

import pytest

from engine.core import state_hash
from engine.core.early import is_ended_early
from engine.core.hidden import is_token
from net.codec import decode_envelope
from net.identity import Identity
from net.launch import BrokerSettings, connect
from net.lockstep import Lockstep, Publish
from net.transport import MemoryBroker, MemoryTransport

from .brokers import HAVE_MOSQUITTO, running_broker
from .fakegame import GAME, Bid, Pick
from .helpers import (
    finish,
    forge,
    memory_table,
    ready,
    sent,
    settle,
    table_of,
    until,
    withholding_transports,
)
from .test_lockstep import _hold_reveals

LEFT = "not verified: {} left before revealing"
"""The verdict of the end audit when the table ended the game without that seat."""
BROKERS = ["memory", "amqtt",
           pytest.param("mosquitto", marks=pytest.mark.skipif(not HAVE_MOSQUITTO, reason="mosquitto not on PATH"))]


class FakeClock:
    """Wall-clock seconds that move only when a test says so."""

    def __init__(self) -> None:
        self.now = time.time()

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


def _clocked(peers) -> FakeClock:
    clock = FakeClock()
    for p in peers:
        p.lockstep.ctx.clock = clock
        p.lockstep.deadlines.since = clock()
    return clock


async def _table(kind: str, n: int, stack):
    """(transports, peers) on the memory broker or a real one on loopback."""
    if kind == "memory":
        _, transports, peers = await memory_table(n)
        return transports, peers
    url = await stack.enter_async_context(running_broker(kind))
    transports = [await connect(url, BrokerSettings(broker=url)) for _ in range(n)]
    peers = await table_of(n, transports)
    await until(lambda: all(map(ready, peers)), 10)
    return transports, peers


async def _close(peers, transports) -> None:
    for p in peers:
        await p.stop(clean=False)
    for t in transports:
        await t.stop()


async def _same_end(peers, seats=None, verdict: str = "verified") -> None:
    """Every peer of `seats` ends alike, and the end audit of the deal (docs/protocol.md
    section 11) judges alike on each: `verdict`, or, where the table ended the game without
    some seat, "not verified" naming the seats that left before revealing."""
    ls0 = peers[0].lockstep
    seats = range(len(peers)) if seats is None else seats
    assert all(peers[s].lockstep.phase == "over" for s in seats)
    assert {peers[s].lockstep.hash for s in seats} == {ls0.hash}
    assert {peers[s].lockstep.chain for s in seats} == {ls0.chain}
    assert state_hash(ls0.state) == ls0.hash.hex()
    assert {peers[s].lockstep.result() for s in seats} == {ls0.result()}
    assert not any(peers[s].lockstep.frozen for s in seats)
    assert all(peers[s].lockstep.dealt for s in seats)
    await until(lambda: all(peers[s].lockstep.deal_verdict for s in seats), 10)
    assert {peers[s].lockstep.deal_verdict for s in seats} == {verdict}


async def _vote_all(peers, seats, choice: str = "end") -> None:
    for s in seats:
        peers[s].vote(choice)
    await settle(60)


@pytest.mark.parametrize("kind", BROKERS)
async def test_a_seat_that_never_acts_is_voted_out_and_the_game_scored_as_it_stands(kind) -> None:
    import contextlib
    async with contextlib.AsyncExitStack() as stack:
        transports, peers = await _table(kind, 3, stack)
        clock = _clocked(peers)
        peers[0].decide(Bid(1))
        peers[1].decide(Bid(2))
        await until(lambda: all(len(p.lockstep.commits) == 2 for p in peers))
        ls0 = peers[0].lockstep
        assert ls0.awaited() == {2} and ls0.vote_options() is None  # not late yet
        left = ls0.deadline_left()
        assert left is not None and 119 <= left <= 120
        clock.advance(121)
        options = ls0.vote_options()
        assert options is not None and options["seats"] == (2,) and options["cause"] == "late"
        assert peers[2].lockstep.vote_options() is None, "the late seat votes about nobody"
        with pytest.raises(ValueError):
            peers[2].vote("end")
        peers[0].vote("end")
        await settle(60)
        assert ls0.phase == "play", "one vote of two is no majority"
        peers[1].vote("end")
        await until(lambda: all(p.lockstep.phase == "over" for p in peers), 10)
        await _same_end(peers, verdict=LEFT.format("P2"))
        result = ls0.result()
        assert is_ended_early(result) and result.places[2] == 3, "the stalling seat is ranked last"
        assert ls0.outcome.choice == "end" and ls0.outcome.seats == (2,)
        await _close(peers, transports)


async def test_a_vote_to_keep_waiting_restarts_the_deadline() -> None:
    _, transports, peers = await memory_table(3)
    clock = _clocked(peers)
    peers[0].decide(Bid(1))
    peers[1].decide(Bid(2))
    await settle()
    clock.advance(121)
    await _vote_all(peers, (0, 1), "wait")
    ls0 = peers[0].lockstep
    assert ls0.phase == "play" and ls0.vote_options() is None
    clock.advance(121)
    assert ls0.vote_options()["cause"] == "late"
    peers[2].decide(Bid(3))  # the late seat comes back: the game goes on
    await settle(60)
    assert all(p.lockstep.step == 1 for p in peers)


async def test_a_reveal_that_fails_its_commit_is_proven_checked_by_all_and_voted_on() -> None:
    _, transports, peers = await memory_table(3)
    _clocked(peers)
    _hold_reveals(transports[2])
    for seat, p in enumerate(peers):
        p.decide(Bid(1 + seat % 3))
    await settle()
    ls0 = peers[0].lockstep
    cheat = forge(peers[2].lockstep.me, ls0.gid, "reveal", {"action": sent(Bid(2)), "salt": bytes(32)},
                  seat=2, step=0, state_hash=ls0.hash, prev_hash=ls0.chain)
    await transports[1].publish(peers[0].topics.log, cheat)
    await settle(60)
    for p in peers:
        assert p.lockstep.proofs.proven.get(2, ("",))[0] == "reveal"
    assert ls0.vote_options()["cause"] == "proof", "a proven cheat needs no deadline"
    await _vote_all(peers, (0, 1))
    await _same_end(peers, verdict=LEFT.format("P2"))
    assert ls0.result().places[2] == 3


async def test_a_proof_that_does_not_hold_is_dropped_and_blames_nobody() -> None:
    _, transports, peers = await memory_table(3)
    ls0 = peers[0].lockstep
    peers[0].decide(Bid(1))
    await settle()
    commit = ls0.commits[0].raw
    # seat 1 claims seat 0's commit and a made-up reveal that matches nothing of seat 0's
    fake = forge(peers[1].lockstep.me, ls0.gid, "proof",
                 {"seat": 0, "what": "equivocation", "step": 0, "evidence": [commit, commit]},
                 seat=1, step=0, state_hash=ls0.hash, prev_hash=ls0.chain)
    await transports[1].publish(peers[0].topics.log, fake)
    await settle()
    assert 0 not in ls0.proofs.proven and 0 not in peers[2].lockstep.proofs.proven
    assert any("does not hold" in d for d in peers[2].dropped)


@pytest.mark.parametrize("kind", BROKERS)
async def test_two_signed_acts_for_one_step_are_proven_as_equivocation(kind) -> None:
    import contextlib
    async with contextlib.AsyncExitStack() as stack:
        transports, peers = await _table(kind, 3, stack)
        await _two_acts(transports, peers)
        await _close(peers, transports)


async def _two_acts(transports, peers) -> None:
    for seat, p in enumerate(peers):
        p.decide(Bid(1 + seat))
    await until(lambda: all(p.lockstep.step == 1 for p in peers), 10)
    ls1 = peers[1].lockstep
    assert ls1.step == 1 and ls1.active() == {0}
    me0 = peers[0].lockstep.me
    take = forge(me0, ls1.gid, "act", {"action": sent(Pick(True))}, seat=0, step=1,
                 state_hash=ls1.hash, prev_hash=ls1.chain, nonce=10**15)
    skip = forge(me0, ls1.gid, "act", {"action": sent(Pick(False))}, seat=0, step=1,
                 state_hash=ls1.hash, prev_hash=ls1.chain, nonce=10**15 + 1)
    await transports[0].publish(peers[0].topics.log, take)
    await transports[0].publish(peers[0].topics.log, skip)
    await until(lambda: all(p.lockstep.proofs.proven.get(0) for p in peers[1:]), 10)
    # neither version counts: every peer stands at the contested step, waiting for the vote
    await until(lambda: {p.lockstep.step for p in peers[1:]} == {1}, 10)
    for p in peers[1:]:
        assert p.lockstep.proofs.proven.get(0, ("",))[0] == "equivocation"
        assert not p.lockstep.frozen
        assert p.lockstep.awaited() == {0}
        assert p.lockstep.vote_options()["cause"] == "proof"
    assert peers[1].lockstep.hash == peers[2].lockstep.hash


async def test_equivocation_inside_a_sync_does_not_make_an_honest_peer_blame_an_honest_seat() -> None:
    broker, transports, peers = await memory_table(3)
    clock = _clocked(peers)
    for seat, p in enumerate(peers):
        p.decide(Bid(1 + seat))
    await settle()
    ls1, ls2 = peers[1].lockstep, peers[2].lockstep
    broker.clients.remove(transports[2])  # peer 2 is cut off: it misses seat 0's act
    me0 = peers[0].lockstep.me
    take = forge(me0, ls1.gid, "act", {"action": sent(Pick(True))}, seat=0, step=1,
                 state_hash=ls1.hash, prev_hash=ls1.chain, nonce=10**15)
    await transports[0].publish(peers[0].topics.log, take)
    await settle()
    assert ls1.step == 2 and ls2.step == 1
    # seat 0 answers peer 2's sync with another version of its move, for peer 2 alone
    skip = forge(me0, ls1.gid, "act", {"action": sent(Pick(False))}, seat=0, step=1,
                 state_hash=ls2.hash, prev_hash=ls2.chain, nonce=10**15 + 1)
    lie = forge(me0, ls1.gid, "sync", {"for": ls2.me.public, "msgs": [skip]}, seat=0, step=1,
                state_hash=ls2.hash, prev_hash=ls2.chain, nonce=10**15 + 2)
    peers[2]._run(ls2.receive(decode_envelope(lie)))
    assert ls2.step == 2 and ls2.hash != ls1.hash, "peer 2 now stands on seat 0's other version"
    # seat 1 moves on; its commit carries the table's chain, which peer 2 does not share
    errors: list = []
    peers[2].listeners.append(lambda note: note.kind in ("error", "desync") and errors.append(note.text))
    peers[1].decide(Bid(2))
    await settle()
    out = ls2.receive(ls1.commits[1])
    assert not ls2.frozen and 1 not in ls2.proofs.proven and not errors, "an honest seat was blamed"
    assert ls2.step == 1, "peer 2 goes back to the move only its author vouched for"
    requests = [o for o in out if isinstance(o, Publish) and o.channel == "sync"]
    assert requests, "and asks the table again"
    # seats answer in turn; the honest seat 1 answers with what the table holds
    answered = False
    for _ in range(3):
        clock.advance(2)
        request = decode_envelope(ls2.sync_request()[0].payload)
        for out in ls1.receive(request):
            if isinstance(out, Publish) and out.channel == "sync":
                answered = True
                peers[2]._run(ls2.receive(decode_envelope(out.payload)))
        if answered:
            break
    assert answered
    assert ls2.proofs.proven.get(0, ("",))[0] == "equivocation"
    assert not ls2.frozen and 1 not in ls2.proofs.proven and not errors
    # seat 0's move at step 1 is contested: peer 2's proof brings the table back to that step
    proof = next(raw for _, raw in ls2.accepted if decode_envelope(raw).kind == "proof")
    peers[1]._run(ls1.receive(decode_envelope(proof)))  # (peer 2 is still cut off)
    assert (ls2.step, ls2.hash, ls2.chain) == (ls1.step, ls1.hash, ls1.chain) == (1, ls1.hash, ls1.chain)
    assert 1 not in ls1.proofs.proven


@pytest.mark.parametrize("kind", BROKERS)
async def test_a_deliberately_wrong_hash_is_proven_and_voted_on_instead_of_freezing_the_table(kind) -> None:
    import contextlib
    async with contextlib.AsyncExitStack() as stack:
        transports, peers = await _table(kind, 3, stack)
        _clocked(peers)
        ls0 = peers[0].lockstep
        liar = forge(peers[1].lockstep.me, ls0.gid, "commit", {"commit": bytes(32)}, seat=1, step=0,
                     state_hash=b"\x01" * 32, prev_hash=ls0.chain, nonce=10**15)
        await transports[1].publish(peers[0].topics.log, liar)
        await until(lambda: all(p.lockstep.proofs.proven.get(1) for p in peers), 10)
        for p in peers:
            assert not p.lockstep.frozen
            assert p.lockstep.proofs.proven.get(1, ("",))[0] == "hash"
        assert peers[2].lockstep.vote_options()["seats"] == (1,)
        peers[0].vote("end")
        peers[2].vote("end")
        await until(lambda: all(p.lockstep.phase == "over" for p in peers), 10)
        await _same_end(peers, verdict=LEFT.format("P1"))
        assert ls0.result().places[1] == 3
        await _close(peers, transports)


async def test_a_seat_offline_past_the_grace_lets_the_others_vote_to_end() -> None:
    _, transports, peers = await memory_table(3)
    clock = _clocked(peers)
    await peers[2].stop()  # says "offline" on its way out
    await settle()
    ls0 = peers[0].lockstep
    assert 2 in ls0.offline and ls0.vote_options() is None
    clock.advance(61)
    options = ls0.vote_options()
    assert options["seats"] == (2,) and options["cause"] == "offline"
    await _vote_all(peers, (0, 1))
    await _same_end(peers, seats=(0, 1), verdict=LEFT.format("P2"))
    assert is_ended_early(ls0.result())
    assert "went offline" in ls0.outcome.text


@pytest.mark.parametrize("kind", BROKERS)
async def test_a_seat_handed_to_a_bot_is_played_to_the_end(kind) -> None:
    import contextlib
    async with contextlib.AsyncExitStack() as stack:
        transports, peers = await _table(kind, 3, stack)
        peers[2].handover("random")
        await until(lambda: all(2 in p.lockstep.votes.handed for p in peers), 10)
        await peers[2].stop()
        assert peers[0].lockstep.own_seats() == [0, 2]
        await finish(peers[:2])
        await _same_end(peers, seats=(0, 1))
        assert not is_ended_early(peers[0].lockstep.result())
        await _close(peers, transports)


async def test_resume_after_a_vote_replays_to_the_same_end() -> None:
    _, transports, peers = await memory_table(3)
    clock = _clocked(peers)
    for seat, p in enumerate(peers):
        p.decide(Bid(1 + seat))
    await settle()
    ls0 = peers[0].lockstep
    assert ls0.step == 1 and ls0.awaited() == {0}
    clock.advance(121)
    await _vote_all(peers, (1, 2))
    assert ls0.phase == "over" and ls0.outcome is not None
    again = Lockstep(GAME, ls0.gid, Identity.generate(), host_key=ls0.host_key)
    again.replaying = True
    for _, raw in ls0.accepted:
        again.receive(decode_envelope(raw))
    assert again.phase == "over" and (again.hash, again.chain) == (ls0.hash, ls0.chain)
    assert again.outcome == ls0.outcome and again.result() == ls0.result()


async def test_votes_that_cross_the_late_move_end_every_peer_at_the_voted_step() -> None:
    # seat 2 moves just as the others' votes go out: a peer that applied the move goes back
    _, transports, peers = await memory_table(3)
    clock = _clocked(peers)
    peers[0].decide(Bid(1))
    peers[1].decide(Bid(2))
    await settle()
    at_step_0 = peers[0].lockstep.state
    clock.advance(121)
    votes = [peers[s].lockstep.vote("end") for s in (0, 1)]  # signed, not sent yet
    peers[2].decide(Bid(3))
    await settle(60)
    assert peers[2].lockstep.step == 1
    for s in (0, 1):
        peers[s]._run(votes[s])
    await settle(60)
    await _same_end(peers, verdict=LEFT.format("P2"))
    ls0 = peers[0].lockstep
    assert ls0.step == 0
    # the state of step 0, with the cards of the seats that stayed turned over to score
    assert replace(ls0.state, hands=at_step_0.hands) == at_step_0
    assert [is_token(card) for card in ls0.state.hands] == [False, False, True]


async def _net_tables(clock: str):
    from net.session import host_game, join_game
    from tui.net_table import NetTable

    broker = MemoryBroker()
    transports = [MemoryTransport(broker) for _ in range(3)]
    for t in transports:
        await t.start()
    ids = [Identity.generate() for _ in range(3)]
    peers = [await host_game(GAME, transports[0], ids[0], players=3, persist=False, name="P0",
                             table={"clock": clock})]
    tables = [NetTable(peers[0])]
    for i in (1, 2):
        peers.append(await join_game(transports[i], ids[i], peers[0].lockstep.gid, name=f"P{i}",
                                     persist=False, game=GAME))
        tables.append(NetTable(peers[i]))
    await until(lambda: all(map(ready, peers)))
    return peers, tables


async def test_the_hosts_clock_reaches_every_terminal_and_each_plays_only_its_own_seat() -> None:
    peers, tables = await _net_tables("move:30")
    now = [1000.0]
    for t in tables:
        assert t.clocks is not None and str(t.clocks.spec) == "move:30"
        t.clocks._now = lambda: now[0]
    for t in tables:
        assert t.due_for_autoplay() == []
    now[0] += 31
    notices = []
    tables[0].subscribe(lambda e: e.kind == "notice" and notices.append(e.text))
    for seat, t in enumerate(tables):
        assert t.due_for_autoplay() == [seat], "a terminal plays its own seat, never another's"
        await t.play_for(seat)
    await settle(60)
    assert {p.lockstep.step for p in peers} == {1}
    assert len({p.lockstep.hash for p in peers}) == 1
    assert any("P0's clock ran out" in n for n in notices)
    for t in tables:
        await t.stop_clock_watch()


async def test_a_second_run_out_in_a_row_makes_the_seat_away_and_lets_the_others_vote() -> None:
    peers, tables = await _net_tables("move:30")
    lockstep_clock = _clocked(peers)
    now = [1000.0]
    for t in tables:
        t.clocks._now = lambda: now[0]
    for t in tables:
        t.due_for_autoplay()  # every clock starts
    now[0] += 31
    for seat, t in enumerate(tables):  # the first run-out: each terminal's bot plays its seat's turn
        assert t.due_for_autoplay() == [seat]
        await t.out_of_time(seat)
    await settle(60)
    assert {p.lockstep.step for p in peers} == {1} and not tables[1].away
    assert tables[1].due_for_autoplay() == []  # P1 is not awaited in this step
    await tables[0].play_for(0)  # the round's leader takes or passes: the next round's bids
    await settle(60)
    assert {p.lockstep.step for p in peers} == {2}
    assert tables[1].due_for_autoplay() == []  # a new turn, a full clock: P1 is waited for
    now[0] += 31
    assert tables[1].due_for_autoplay() == [1]
    await tables[1].out_of_time(1)  # the second run-out in a row: nobody plays P1
    await settle(20)
    assert tables[1].away == {1} and peers[1].lockstep.step == 2
    assert "P1 is away" in tables[1].log_lines[-1]
    await until(lambda: 1 in tables[0].offline())
    assert tables[0].vote_options() is None  # as for a leaver: the grace first
    lockstep_clock.advance(61)
    options = tables[0].vote_options()
    assert options is not None and options["cause"] == "offline" and options["seats"] == (1,)
    assert tables[1].take_back()  # a key at P1's terminal: back, and the others hear it
    await until(lambda: 1 not in tables[0].offline())
    assert tables[0].vote_options() is None or tables[0].vote_options()["cause"] != "offline"
    for t in tables:
        await t.stop_clock_watch()


async def test_a_network_table_shows_the_deadline_and_reports_a_game_ended_by_vote() -> None:
    from tui.results import winners_line

    peers, tables = await _net_tables("off")
    clock = _clocked(peers)
    assert tables[0].clocks is None
    await tables[0].submit(0, Bid(1))
    await tables[1].submit(1, Bid(2))
    await settle()
    assert tables[0].deadline_text().startswith(" · vote in 2:0")
    assert tables[0].vote_options() is None
    clock.advance(125)
    assert tables[0].deadline_text() == " · ^E: vote"
    assert tables[0].vote_options()["names"] == ["P2"]
    tables[0].vote("end")
    tables[1].vote("end")
    await settle(60)
    assert all(t.is_over() for t in tables)
    line = winners_line(tables[2].names, tables[2].result())
    assert line.startswith("Ended early: P2 did not play in time; cards shown by P0, P1; P2 showed none")
    assert "P2 did not play in time" in tables[2].ended_why


def test_host_clock_and_deadline_options_become_the_table_settings() -> None:
    import argparse

    from tui.cli import CliError
    from tui.cli_net_host import host_table_settings

    assert host_table_settings(argparse.Namespace(clock="bank:10m+5s", deadline=90)) == {"clock": "bank:600+5", "act": 90}
    assert host_table_settings(argparse.Namespace(clock=None, deadline=None)) == {"clock": "off"}
    with pytest.raises(CliError, match="clock 'soon'"):
        host_table_settings(argparse.Namespace(clock="soon", deadline=None))
    with pytest.raises(CliError, match="--deadline"):
        host_table_settings(argparse.Namespace(clock=None, deadline=2))


async def _seed_withheld():
    """A 3-seat table whose seat 2 keeps its seed share: (peers, fake clock), stuck in `seed`."""
    transports = await withholding_transports(3, 2, b"\xabseed_reveal")  # sees the others' shares
    peers = await table_of(3, transports)
    await until(lambda: all(p.lockstep.phase == "seed" and p.lockstep.awaited() == {2} for p in peers[:2]))
    return peers, _clocked(peers)


async def test_a_seat_that_withholds_its_seed_reveal_is_voted_off_before_the_deal() -> None:
    peers, clock = await _seed_withheld()
    ls0 = peers[0].lockstep
    assert ls0.vote_options() is None
    clock.advance(31)
    assert ls0.vote_options() == {"seats": (2,), "cause": "late", "names": ["P2"], "voted": None}
    await _vote_all(peers, (0, 1))  # "end" means abandon: nothing is dealt to score
    for p in peers:  # the withholder's own peer, which saw the deal, ends too
        assert p.lockstep.phase == "over" and p.lockstep.outcome.choice == "abandon"
    for p in peers[:2]:
        assert p.lockstep.state is None
        assert "abandoned before the deal" in p.lockstep.result().breakdown[0][-1][0]


async def test_a_bot_seat_follows_the_first_players_vote() -> None:
    _, transports, peers = await memory_table(3)
    clock = _clocked(peers)
    peers[0].decide(Bid(1))
    peers[1].decide(Bid(2))
    await settle()
    peers[1].bot_kind = "random"  # seat 1 is played by a bot from now: it never starts a vote
    clock.advance(121)
    assert peers[0].lockstep.phase == "play"
    peers[0].vote("wait")
    await settle(60)
    ls0 = peers[0].lockstep
    assert ls0.phase == "play" and ls0.votes.rounds.get(0) == 1, "the bot followed: the table waits"
    clock.advance(121)
    peers[0].vote("end")
    await settle(60)
    await _same_end(peers, verdict=LEFT.format("P2"))


def _setup_screen():
    """The part of the Host and Join screens that a table being set up shows: a status line
    (what it waits for, the deadline, the vote key) and the footer."""
    from textual.widgets import Footer, Static

    from tui.screens.net_setup import TableSetupScreen

    class Waiting(TableSetupScreen):
        STATUS_ID = "status"

        def compose(self):
            yield Static("", id="status")
            yield Footer()

        def on_seed_tick(self) -> None:
            self._status(self.seed_text())

    return Waiting(id="waiting")


async def test_the_seed_vote_is_offered_on_the_setup_screen_before_any_game_screen() -> None:
    from textual.app import App
    from textual.widgets import Static

    from tui.net_table import NetTable
    from tui.screens.vote import VoteDialog

    peers, clock = await _seed_withheld()
    screen = _setup_screen()
    screen.table = NetTable(peers[0])
    app = App()
    async with app.run_test(size=(80, 24)) as pilot:
        await app.push_screen(screen)
        screen._watch_seed_deadline()
        await pilot.pause()
        assert "Agreeing on the seed… · vote in 0:" in str(screen.query_one("#status", Static).render())
        assert not screen.vote_allowed()
        clock.advance(31)
        screen._watch_seed_deadline()
        await pilot.pause()
        assert "^E: vote" in str(screen.query_one("#status", Static).render())
        assert any(b.action == "vote" for _, b, enabled, _ in screen.active_bindings.values() if enabled)
        await pilot.press("ctrl+e")
        await pilot.pause()
        assert isinstance(app.screen, VoteDialog)
        await pilot.press("e")
        for _ in range(400):  # the vote goes through the peer: a loaded machine takes a while (20 s)
            await pilot.pause(0.05)
            if "You voted to end" in str(screen.query_one("#status", Static).render()):
                break
        assert "You voted to end" in str(screen.query_one("#status", Static).render())
    peers[1].vote("end")
    await settle(60)
    assert all(p.lockstep.phase == "over" for p in peers)


async def test_a_seat_that_withholds_its_keys_for_the_first_hands_is_voted_on_the_setup_screen() -> None:
    """A dealt game whose seat 2 never sends its keys for the first hands (each seat's own
    card): the game has begun but no hand is in, so no game screen opens; the setup screen
    says it is dealing, counts the deadline down and offers the vote."""
    from textual.app import App
    from textual.widgets import Static

    from tui.net_table import NetTable

    transports = await withholding_transports(3, 2, b"deck_show")
    peers = await table_of(3, transports)
    await until(lambda: all(p.lockstep.phase == "play" and p.lockstep.awaited() == {2} for p in peers[:2]))
    clock = _clocked(peers)
    table = NetTable(peers[0])
    assert not table.drawable  # the game began, but no hand is in: nothing to draw yet
    screen = _setup_screen()
    screen.table = table
    app = App()
    async with app.run_test(size=(80, 24)) as pilot:
        await app.push_screen(screen)
        screen._watch_seed_deadline()
        await pilot.pause()
        assert "Dealing the cards… · vote in 0:" in str(screen.query_one("#status", Static).render())
        clock.advance(31)
        screen._watch_seed_deadline()
        await pilot.pause()
        assert "^E: vote" in str(screen.query_one("#status", Static).render())
        assert screen.vote_allowed()
    for p in peers:
        await p.stop(clean=False)
