"""Every wait ends and every end scores: the hostile scenarios on the four real games, dealt.

Each scenario plays a real game over the network the way every network game is played (the
deck protocol deals it), on the memory broker; seat 1 is the cheater or the staller, seats 0
and 2 are honest bots. Whatever seat 1 does, the honest seats end with one agreed, scored
result (or an abandoned table where the vote's rules say so): the same result and state hash
on both, seat 1 ranked last where the table ended the game for its cause, nobody honest named,
no traceback logged. Time is a fake clock (no test sleeps for a deadline).
"""

from __future__ import annotations

import contextlib
import logging
import os
import time
from pathlib import Path

import pytest

from engine.core import canonical, state_hash, to_plain
from engine.core.early import early_reason, is_ended_early
from engine.registry import get_game
from net import crypto
from net.codec import decode_envelope
from net.launch import BrokerSettings, connect
from net.lockstep import Publish
from net.transport import MemoryTransport

from .brokers import HAVE_MOSQUITTO, running_broker
from .helpers import forge, memory_transports, table_of, until
from .test_dealt import _Cheating, _seat_1_deals_as

pytestmark = pytest.mark.net

ROOT = Path(__file__).resolve().parents[2]
GAMES = ["money", "sheriff", "ten", "seven_wonders"]
CHEAT = 1
HONEST = (0, 2)


class FakeClock:
    def __init__(self) -> None:
        self.offset = 0.0

    def __call__(self) -> float:
        return time.time() + self.offset


def _kind(payload: bytes) -> str | None:
    try:
        return decode_envelope(payload).kind
    except Exception:
        return None


def _withhold(transport: MemoryTransport, kinds: set[str]) -> None:
    """The cheater's transport never publishes messages of these kinds (its peer makes them)."""
    publish = transport.publish_now

    def filtered(topic, payload, qos=1, retain=False):
        return True if _kind(payload) in kinds else publish(topic, payload, qos, retain)

    transport.publish_now = filtered  # type: ignore[method-assign]


async def _dealt_table(gid: str, withheld: set[str] = frozenset(), kind: str = "memory", stack=None,
                      **table):
    """Three peers of `gid` (seat 1 the cheater, whose transport withholds `withheld`), every
    peer's Lockstep on one fake clock."""
    if kind == "memory":
        broker, transports = await memory_transports(3)
    else:
        url = await stack.enter_async_context(running_broker(kind))
        transports = [await connect(url, BrokerSettings(broker=url)) for _ in range(3)]
    if withheld:
        _withhold(transports[CHEAT], set(withheld))
    peers = await table_of(3, transports, game=get_game(gid), **table)
    clock = FakeClock()
    for p in peers:
        p.lockstep.ctx.clock = clock
        p.lockstep.deadlines.since = clock()
    return transports, peers, clock


def _play(peers, seats=(0, 1, 2)) -> None:
    for s in seats:
        peers[s].bot_kind = "random"
        peers[s]._bot_if_my_turn()


async def _cheater_to_move(peers, mode: str | None = None, timeout: float = 60) -> None:
    """Honest bots play until the table waits for seat 1 alone (in `mode`, if given)."""
    _play(peers, HONEST)

    def waiting() -> bool:
        ls = peers[0].lockstep
        return all(p.lockstep.phase == "play" and not p.lockstep.steps.dealing.busy()
                   and p.lockstep.awaited() == {CHEAT} and p.lockstep.step == ls.step
                   and (mode is None or p.lockstep.step_mode() == mode)
                   for p in (peers[s] for s in HONEST))

    await until(waiting, timeout)


async def _vote(peers, choice: str = "end", cause: str | None = None) -> None:
    for s in HONEST:
        options = peers[s].lockstep.vote_options()
        assert options is not None and options["seats"] == (CHEAT,), options
        if cause is not None:
            assert options["cause"] == cause, options
        peers[s].vote(choice)


async def _agreed_end(peers, *, last: bool = True, abandoned: bool = False) -> None:
    """The honest seats end with one result, one state, seat 1 last; the audit is over."""
    honest = [peers[s].lockstep for s in HONEST]
    await until(lambda: all(ls.phase == "over" and ls.outcome is not None for ls in honest), 30)
    first = honest[0]
    assert {ls.hash for ls in honest} == {first.hash}
    assert all(state_hash(ls.state) == ls.hash.hex() for ls in honest)
    assert {ls.result() for ls in honest} == {first.result()}
    result = first.result()
    assert is_ended_early(result), result
    reason = early_reason(result) or ""
    assert ("abandoned" in reason) == abandoned, reason
    if last:
        assert result.places[CHEAT] == max(result.places), result
        assert all(result.places[s] < result.places[CHEAT] for s in HONEST), result
    for ls in honest:
        assert not ls.frozen
        assert not set(ls.accused()) & set(HONEST), ls.accused()
    if first.state is not None and first.dealt:  # the end audit finishes (no seat that left
        await until(lambda: all(ls.deal_verdict for ls in honest), 20)  # is waited for), alike
        assert {ls.deal_verdict for ls in honest} == {first.deal_verdict}
        assert first.deal_verdict == "verified" or "P1" in first.deal_verdict, first.deal_verdict


async def _stop(peers) -> None:
    for p in peers:
        await p.stop(clean=False)


@pytest.fixture(autouse=True)
def no_traceback(caplog):
    """No traceback reaches a log: every fault is a line with its reason."""
    caplog.set_level(logging.WARNING)
    yield
    tracebacks = [r for r in caplog.records if r.name.startswith("gamenight")
                  and (r.exc_info or "Traceback" in r.getMessage())]
    assert not tracebacks, tracebacks[0].getMessage()


# ---- the scenarios ------------------------------------------------------------------------
@pytest.mark.parametrize("gid", GAMES)
async def test_a_seat_that_stops_playing_is_voted_out_and_the_game_scored(gid) -> None:
    transports, peers, clock = await _dealt_table(gid, {"act", "commit", "reveal"})
    _play(peers, (CHEAT,))  # its bot plays, but nothing it decides leaves its terminal
    await _cheater_to_move(peers)
    assert peers[0].lockstep.vote_options() is None  # not late yet
    clock.offset += 10_000
    await _vote(peers, cause="late")
    await _agreed_end(peers)
    await _stop(peers)


@pytest.mark.parametrize("gid", GAMES)
async def test_a_seat_that_withholds_its_seed_share_leaves_an_abandoned_table(gid) -> None:
    transports, peers, clock = await _dealt_table(gid, {"seed_reveal"})
    await until(lambda: all(p.lockstep.awaited() == {CHEAT} for p in peers if p is not peers[CHEAT]), 20)
    clock.offset += 10_000
    await _vote(peers, "end", cause="late")  # sent as abandon: nothing is dealt yet
    honest = [peers[s].lockstep for s in HONEST]
    await until(lambda: all(ls.phase == "over" for ls in honest), 20)
    assert {ls.outcome.choice for ls in honest} == {"abandon"}
    assert {ls.result() for ls in honest} == {honest[0].result()}
    await _stop(peers)


@pytest.mark.parametrize("gid", GAMES)
async def test_a_seat_that_withholds_its_deal_keys_is_voted_out_and_the_game_scored(gid) -> None:
    transports, peers, clock = await _dealt_table(gid, {"deck_show", "deck_open", "deck_give"})
    _play(peers)
    honest = [peers[s] for s in HONEST]
    await until(lambda: all(p.lockstep.phase == "play" and p.lockstep.steps.dealing.busy()
                            and p.lockstep.awaited() == {CHEAT} for p in honest), 60)
    clock.offset += 10_000
    await _vote(peers, cause="late")
    await _agreed_end(peers)
    await _stop(peers)


@pytest.mark.parametrize("gid", GAMES)
async def test_a_substituted_card_ends_in_a_vote_with_the_cheater_last(gid, monkeypatch) -> None:
    """A card of no deck, masked in seat 1's shuffle: when it opens (or at the end) the audit
    names seat 1, and the audit's proof lets the table vote, the cheater ranked last."""
    _seat_1_deals_as(monkeypatch, _Cheating, how="substitute")
    transports, peers, clock = await _dealt_table(gid)
    _play(peers)
    honest = [peers[s].lockstep for s in HONEST]
    await until(lambda: all(ls.proofs.proven.get(CHEAT, ("",))[0] == "audit" for ls in honest), 120)
    for ls in honest:
        assert ls.steps.dealing.accused == (CHEAT,), ls.deal_verdict
    await _vote(peers, cause="proof")
    await _agreed_end(peers)
    await _stop(peers)


async def _two_versions(peers, mode: str) -> tuple[bytes, bytes]:
    """Two different signed messages of seat 1 for the step in progress (its `mode`'s kind)."""
    ls = peers[CHEAT].lockstep
    ctx = ls.ctx
    if mode == "commit":
        first = ctx.sign("commit", {"commit": bytes(32)}, seat=CHEAT)
        second = ctx.sign("commit", {"commit": b"\x01" * 32}, seat=CHEAT)
        return first.raw, second.raw
    actions = list(ls.legal_actions(CHEAT))[:2]
    if len(actions) < 2:
        pytest.skip("seat 1 has one legal action here")
    state, dealing = ls.steps.state, ls.steps.dealing
    raws = [ctx.sign("act", {"action": to_plain(dealing.shown_action(state, CHEAT, a))}, seat=CHEAT).raw
            for a in actions]
    return raws[0], raws[1]


@pytest.mark.parametrize("gid", GAMES)
async def test_two_versions_of_one_move_are_proven_and_every_honest_peer_ends_alike(gid) -> None:
    """A double commit (or a double act): each honest peer gets the other version first."""
    transports, peers, clock = await _dealt_table(gid)
    await _cheater_to_move(peers)
    first, second = await _two_versions(peers, peers[0].lockstep.step_mode())
    for seat, order in ((0, (first, second)), (2, (second, first))):
        for raw in order:
            peers[seat]._run(peers[seat].lockstep.receive(decode_envelope(raw)))
    await until(lambda: all(peers[s].lockstep.proofs.proven.get(CHEAT, ("",))[0] == "equivocation"
                            for s in HONEST), 20)
    await _vote(peers, cause="proof")
    await _agreed_end(peers)
    await _stop(peers)


async def _commit_step(peers, gid) -> None:
    """Play on (seat 1 too, by hand) until the table waits for seat 1's commitment."""
    for _ in range(200):
        await _cheater_to_move(peers, timeout=90)
        ls = peers[CHEAT].lockstep
        if peers[0].lockstep.step_mode() == "commit":
            return
        step = peers[0].lockstep.step
        peers[CHEAT].decide(list(ls.legal_actions(CHEAT))[0])
        await until(lambda step=step: peers[0].lockstep.step != step, 20)
    pytest.fail("seat 1 never had to commit")


@pytest.mark.parametrize("gid", GAMES)
async def test_a_reveal_that_fails_its_commit_is_proven_and_voted_on(gid) -> None:
    transports, peers, clock = await _dealt_table(gid, {"reveal"})
    if gid == "ten":
        pytest.skip("Ten has no simultaneous step to commit in")
    await _commit_step(peers, gid)
    ls = peers[CHEAT].lockstep
    action = list(ls.legal_actions(CHEAT))[0]
    step = ls.step
    peers[CHEAT].decide(action)  # its commit goes out; its reveal is held by its transport
    plain, salt = ls.steps.opening(ls.steps.secret_name("commit", step, CHEAT))
    await until(lambda: all(CHEAT in peers[s].lockstep.commits for s in HONEST), 20)
    ctx = ls.ctx
    lie = forge(ctx.me, ctx.gid, "reveal", {"action": plain, "salt": bytes(32)}, seat=CHEAT, step=step,
                state_hash=peers[0].lockstep.hash, prev_hash=peers[0].lockstep.chain, nonce=ctx.nonce())
    peers[0]._run([Publish("log", lie)])
    await until(lambda: all(peers[s].lockstep.proofs.proven.get(CHEAT, ("",))[0] == "reveal"
                            for s in HONEST), 20)
    await _vote(peers, cause="proof")
    await _agreed_end(peers)
    await _stop(peers)


@pytest.mark.parametrize("gid", GAMES)
async def test_a_deliberately_wrong_hash_is_proven_and_voted_on(gid) -> None:
    transports, peers, clock = await _dealt_table(gid)
    await _cheater_to_move(peers)
    ctx = peers[CHEAT].lockstep.ctx
    mode = peers[0].lockstep.step_mode()
    real, ctx.hash = ctx.hash, b"\x07" * 32
    liar = ctx.sign(mode if mode == "commit" else "act",
                    {"commit": bytes(32)} if mode == "commit" else {"action": None}, seat=CHEAT)
    ctx.hash = real
    peers[0]._run([Publish("log", liar.raw)])
    await until(lambda: all(peers[s].lockstep.proofs.proven.get(CHEAT, ("",))[0] == "hash"
                            for s in HONEST), 20)
    await _vote(peers, cause="proof")
    await _agreed_end(peers)
    await _stop(peers)


def _confused(plain):
    """`plain` (an action's plain form) with the first whole number of its innermost record
    made a string (or, with none, its first string made a number): right type, wrong fields."""
    if isinstance(plain, dict) and plain.get("$t") == "net.Shown":
        return {**plain, "action": _confused(plain["action"])}
    if not isinstance(plain, dict):
        return {"$t": "no.such.Action"}
    out = dict(plain)
    for kinds, bad in (((int,), "x"), ((str,), 12345), ((list,), "x")):
        for key, value in plain.items():
            if key != "$t" and type(value) in kinds:
                out[key] = bad
                return out
    return {**out, "extra": 1}


@pytest.mark.parametrize("gid", GAMES)
async def test_a_type_confused_action_is_a_provable_fault_not_a_wedge(gid) -> None:
    """A correctly signed (and committed) action whose fields are of the wrong type: the rules
    never see it; every peer proves it from the seat's own message and the table votes."""
    transports, peers, clock = await _dealt_table(gid)
    await _cheater_to_move(peers)
    ls = peers[CHEAT].lockstep
    ctx, steps = ls.ctx, ls.steps
    action = list(ls.legal_actions(CHEAT))[0]
    sent = _confused(to_plain(steps.dealing.shown_action(steps.state, CHEAT, action)))
    if ls.step_mode() == "commit":
        salt = os.urandom(32)
        name = steps.secret_name("commit", ctx.step, CHEAT)
        ctx.secrets[name] = canonical((sent, salt))  # its own peer reveals it when the time comes
        commit = ctx.sign("commit", {"commit": crypto.action_commit(ctx.gid, ctx.step, CHEAT, sent, salt)},
                          seat=CHEAT)
        peers[CHEAT]._run([Publish("log", commit.raw)] + ls.receive(commit))
        cause = "reveal"
    else:
        act = ctx.sign("act", {"action": sent}, seat=CHEAT)
        peers[CHEAT]._run([Publish("log", act.raw)])
        cause = "action"
    await until(lambda: all(peers[s].lockstep.proofs.proven.get(CHEAT, ("",))[0] == cause
                            for s in HONEST), 20)
    await _vote(peers, cause="proof")
    await _agreed_end(peers)
    await _stop(peers)


@pytest.mark.parametrize("gid", GAMES)
async def test_another_version_of_a_move_fed_through_sync_is_proven(gid) -> None:
    """Seat 1 plays one move to the table and answers the cut-off peer 2's sync with another:
    peer 2 holds it as unconfirmed until the table's version comes; the two are the proof."""
    transports, peers, clock = await _dealt_table(gid)
    await _cheater_to_move(peers)
    mode = peers[0].lockstep.step_mode()
    first, second = await _two_versions(peers, mode)
    ls2 = peers[2].lockstep
    lie = peers[CHEAT].lockstep.ctx.sign("sync", {"for": ls2.me.public, "msgs": [second]}, seat=CHEAT)
    peers[2]._run(ls2.receive(decode_envelope(lie.raw)))  # peer 2 alone hears the lie first
    peers[CHEAT]._run([Publish("log", first)])  # then the table's version, live
    await until(lambda: all(peers[s].lockstep.proofs.proven.get(CHEAT, ("",))[0] == "equivocation"
                            for s in HONEST), 20)
    await _vote(peers, cause="proof")
    await _agreed_end(peers)
    await _stop(peers)


# ---- a sample on real brokers -------------------------------------------------------------
REAL = ["amqtt", pytest.param("mosquitto", marks=pytest.mark.skipif(not HAVE_MOSQUITTO, reason="mosquitto not on PATH"))]


@pytest.mark.parametrize("kind", REAL)
async def test_on_a_real_broker_a_stalled_money_game_ends_scored_alike(kind) -> None:
    async with contextlib.AsyncExitStack() as stack:
        transports, peers, clock = await _dealt_table("money", {"act", "commit", "reveal"}, kind, stack)
        _play(peers, (CHEAT,))
        await _cheater_to_move(peers)
        clock.offset += 10_000
        await _vote(peers, cause="late")
        await _agreed_end(peers)
        await _stop(peers)
        for t in transports:
            await t.stop()


@pytest.mark.parametrize("kind", REAL)
async def test_on_a_real_broker_a_double_move_in_sheriff_ends_alike(kind) -> None:
    async with contextlib.AsyncExitStack() as stack:
        transports, peers, clock = await _dealt_table("sheriff", kind=kind, stack=stack)
        await _cheater_to_move(peers)
        first, second = await _two_versions(peers, peers[0].lockstep.step_mode())
        for seat, order in ((0, (first, second)), (2, (second, first))):
            for raw in order:
                peers[seat]._run(peers[seat].lockstep.receive(decode_envelope(raw)))
        await until(lambda: all(CHEAT in peers[s].lockstep.proofs.proven for s in HONEST), 20)
        await _vote(peers, cause="proof")
        await _agreed_end(peers)
        await _stop(peers)
        for t in transports:
            await t.stop()


# ---- the same end after a crash, in another process ---------------------------------------
REPLAY = """
import json, sys
from pathlib import Path
from engine.core import to_plain
from engine.registry import get_game
from net.codec import decode_envelope
from net.identity import Identity
from net.lockstep import Lockstep
from net.store import read_log
log, gid, game, host = sys.argv[1:5]
ls = Lockstep(get_game(game), gid, Identity.generate(), host_key=bytes.fromhex(host))
ls.replaying = True
for raw in read_log(Path(log)):
    ls.receive(decode_envelope(raw))
print(json.dumps({"phase": ls.phase, "hash": ls.hash.hex(), "result": repr(to_plain(ls.result()))}))
"""


@pytest.mark.parametrize("gid", ["money", "sheriff"])
async def test_an_end_by_vote_survives_a_crash_and_replays_alike_in_another_process(gid, tmp_path, monkeypatch):
    """Seat 2 crashes after it made its show of scoring cards and got seat 0's, before sending
    its own; restarted from its disk it is over at once and still sends its show, and every
    honest peer ends alike. Each one's disk log, replayed in a new process (another
    PYTHONHASHSEED), gives the same result and state hash."""
    import subprocess
    import sys

    from net.identity import Identity
    from net.session import join_game

    monkeypatch.setenv("GAMENIGHT_HOME", str(tmp_path))
    ids = [Identity.generate() for _ in range(3)]
    transports, peers, clock = await _dealt_table(gid, {"act", "commit", "reveal"}, persist=True, identities=ids)
    _withhold(transports[2], {"deck_score"})  # it makes and keeps its show, then dies
    _play(peers, (CHEAT,))
    await _cheater_to_move(peers)
    clock.offset += 10_000
    await _vote(peers, cause="late")
    ls2 = peers[2].lockstep
    await until(lambda: ls2.phase == "over", 20)  # both shows are in its log
    broker = transports[0].broker
    transports[2].kill()
    await peers[2].stop(clean=False)
    again = MemoryTransport(broker)
    await again.start()
    peers[2] = await join_game(again, ids[2], peers[0].lockstep.gid, name="P2", game=get_game(gid), persist=True)
    peers[2].lockstep.ctx.clock = clock
    await _agreed_end(peers)
    for s in HONEST:
        ls = peers[s].lockstep
        await peers[s].flush()
        log = peers[s].store.path / "log.bin"
        env = {**os.environ, "PYTHONHASHSEED": str(77 + s)}
        out = subprocess.run([sys.executable, "-c", REPLAY, str(log), ls.gid, gid, ls.host_key.hex()],
                             capture_output=True, text=True, env=env, timeout=120, cwd=ROOT)
        assert out.returncode == 0, out.stderr
        import json
        replayed = json.loads(out.stdout)
        assert replayed == {"phase": "over", "hash": ls.hash.hex(), "result": repr(to_plain(ls.result()))}
    await _stop(peers)



async def test_the_last_seat_to_send_its_key_sees_the_card_first_and_withholding_costs_it_the_vote():
    """A public card opens with every seat's key. The seat whose key comes last holds all the
    others' keys before it sends its own: it sees the card before the table does (as the last
    player at a physical table to look at a card turned over). Withholding its key then only
    stalls the table: past the deadline the others vote, and the staller is ranked last."""
    held: list[bytes] = []
    broker, transports = await memory_transports(3)
    publish = transports[CHEAT].publish_now

    def hold_opens(topic, payload, qos=1, retain=False):
        if _kind(payload) == "deck_open":
            held.append(payload)
            return True
        return publish(topic, payload, qos, retain)

    transports[CHEAT].publish_now = hold_opens  # type: ignore[method-assign]
    peers = await table_of(3, transports, game=get_game("ten"))
    clock = FakeClock()
    for p in peers:
        p.lockstep.ctx.clock = clock
    _play(peers)
    honest = [peers[s].lockstep for s in HONEST]
    await until(lambda: held and all(ls.steps.dealing.reveal is not None and ls.awaited() == {CHEAT}
                                     for ls in honest), 60)
    opened = honest[0].steps.dealing.reveal.public
    cheater = peers[CHEAT].lockstep.steps.dealing
    assert all(t in cheater.shown for t in opened), "the last revealer knows the card already"
    assert not any(t in ls.steps.dealing.shown for ls in honest for t in opened), "the table does not"
    clock.offset += 10_000
    await _vote(peers, cause="late")
    await _agreed_end(peers)
    await _stop(peers)


async def test_the_end_screen_says_who_showed_their_cards_and_offers_the_audits_vote() -> None:
    """The stalled Money! game ended by vote: the end screen (on the real NetTable) says who
    showed their scoring cards; and an end screen whose table offers a vote after the audit
    (Ctrl+E) sends it and shows the result the vote made."""
    from textual.app import App
    from textual.widgets import Static

    from tui.net_table import NetTable
    from tui.screens.end import EndScreen
    from tui.screens.vote import VoteDialog
    from tui.table import TableSupports

    transports, peers, clock = await _dealt_table("money", {"act", "commit", "reveal"})
    _play(peers, (CHEAT,))
    await _cheater_to_move(peers)
    clock.offset += 10_000
    await _vote(peers, cause="late")
    await _agreed_end(peers)
    table = NetTable(peers[0])
    app = App()
    async with app.run_test(size=(120, 40)) as pilot:
        await app.push_screen(EndScreen("Money!", table.names, table.result(), table))
        await pilot.pause()
        winners = str(app.screen.query_one("#end-winners", Static).render())
        assert "Ended early: P1 did not play in time" in winners and "cards shown by P0, P2" in winners
        assert "P1 showed none" in winners
        assert "left before revealing" in str(app.screen.query_one("#end-deal", Static).render())

    class AfterAudit:  # a table whose audit proved seat 1 cheated after the game's own end
        supports = TableSupports(vote=True)
        names = ["P0", "P1", "P2"]
        deal_line = "Deal: P1 cheated (deck main: position 0 of its shuffle is not a card)"

        def __init__(self) -> None:
            self.votes: list[str] = []
            self.before = peers[0].lockstep.game.result_now(peers[0].lockstep.state)

        def vote_options(self):
            return None if self.votes else {"seats": (1,), "cause": "proof", "names": ["P1"], "voted": None}

        def vote(self, choice: str) -> None:
            self.votes.append(choice)

        def subscribe(self, listener) -> None:  # its events never change what the end screen shows here
            pass

        def result(self):
            return peers[0].lockstep.result() if self.votes else self.before

    fake = AfterAudit()
    app = App()
    async with app.run_test(size=(120, 40)) as pilot:
        await app.push_screen(EndScreen("Money!", fake.names, fake.result(), fake))
        await pilot.pause()
        await pilot.press("ctrl+e")
        await pilot.pause()
        assert isinstance(app.screen, VoteDialog)
        await pilot.press("e")
        await pilot.pause(0.8)
        assert fake.votes == ["end"]
        assert "Ended early" in str(app.screen.query_one("#end-winners", Static).render())
    await _stop(peers)


async def test_a_peer_resumed_during_the_seed_agreement_is_not_taken_for_an_equivocator(tmp_path, monkeypatch, caplog):
    """Restarted from its files before its seed reveal went out, a peer signs its stored share
    again (a new nonce, the same share): the others see nothing new and blame nobody."""
    from net.identity import Identity
    from net.session import join_game

    monkeypatch.setenv("GAMENIGHT_HOME", str(tmp_path))
    ids = [Identity.generate() for _ in range(3)]
    broker, transports = await memory_transports(3)
    _withhold(transports[2], {"seed_reveal"})
    peers = await table_of(3, transports, game=get_game("ten"), persist=True, identities=ids)
    await until(lambda: peers[0].lockstep.awaited() == {2}, 10)
    transports[2].kill()
    await peers[2].stop(clean=False)
    again = MemoryTransport(broker)
    await again.start()
    peers[2] = await join_game(again, ids[2], peers[0].lockstep.gid, name="P2", game=get_game("ten"), persist=True)
    _play(peers)
    await until(lambda: all(p.lockstep.phase == "play" for p in peers), 20)
    assert not [r for r in caplog.records if "different" in r.getMessage() or "equivocation" in r.getMessage()]
    assert not any(p.lockstep.proofs.proven for p in peers)
    await _stop(peers)


async def test_a_peer_resumed_after_its_reveal_went_out_is_not_taken_for_an_equivocator(tmp_path, monkeypatch, caplog):
    """A reveal is kept in a peer's log once its step is applied: restarted from its files
    after its reveal went out but before the others', a peer signs the same reveal again (a
    new nonce, the same move). Nobody is blamed and the step is played (a relay's bot parked
    and resumed mid-step did this, and the table voted on an honest bot)."""
    from net.identity import Identity
    from net.session import join_game

    monkeypatch.setenv("GAMENIGHT_HOME", str(tmp_path))
    ids = [Identity.generate() for _ in range(3)]
    broker, transports = await memory_transports(3)
    publish = transports[CHEAT].publish_now
    _withhold(transports[CHEAT], {"reveal"})
    peers = await table_of(3, transports, game=get_game("money"), persist=True, identities=ids)
    _play(peers)
    await until(lambda: peers[0].lockstep.phase == "play" and 2 in peers[0].lockstep.steps.round.reveals, 30)
    step = peers[0].lockstep.step
    transports[2].kill()
    await peers[2].stop(clean=False)
    again = MemoryTransport(broker)
    await again.start()
    peers[2] = await join_game(again, ids[2], peers[0].lockstep.gid, name="P2", game=get_game("money"),
                               persist=True, bot="random")
    await until(lambda: 2 in peers[2].lockstep.steps.round.reveals, 10)
    transports[CHEAT].publish_now = publish  # seat 1's reveal goes out at last
    peers[CHEAT]._run(peers[CHEAT].resume_outputs())
    await until(lambda: all(p.lockstep.step > step for p in peers), 20)
    assert {p.lockstep.hash for p in peers} == {peers[0].lockstep.hash}
    assert not [r for r in caplog.records if "equivocation" in r.getMessage() or "two versions" in r.getMessage()]
    assert not any(p.lockstep.proofs.proven or p.lockstep.proofs.contested for p in peers)
    await _stop(peers)
