"""Hidden cards over the network: games dealt by the deck protocol (net/lockstep/dealing.py).

Whole bot games of every game that deals hidden cards, on the memory broker: every peer ends
with one state hash and a verified deal; a curious peer (and a watcher) never learns a face
before the rules show it to its seat; the agreed seed no longer tells the deal; cheaters are
named (at once, or by the audit) and honest seats never are.
"""

from __future__ import annotations

import asyncio
import time

import msgpack
import pytest

from engine.core import final_state, replay, to_plain
from engine.core.hidden import is_token
from engine.core.plain import strings_in
from engine.registry import game_ids, get_game
from net.deck import DeckSeat, DeckSecrets, group
from net.identity import Identity
from net.lockstep import dealing as dealing_module
from net.session import join_game
from net.transport import MemoryBroker, MemoryTransport

from .helpers import finish, memory_table, table_of, until, withholding_transports

pytestmark = pytest.mark.net

DEALT = [gid for gid in game_ids() if get_game(gid).decks(get_game(gid).min_players or 2,
                                                          get_game(gid).check_options({}))]


def _players(gid: str) -> int:
    game = get_game(gid)
    return max(game.min_players, 3)


async def _dealt_game(gid: str, n: int, watch: bool = False):
    game = get_game(gid)
    broker, transports, peers = await memory_table(n, game=game)
    watcher = None
    if watch:
        t = MemoryTransport(broker)
        await t.start()
        watcher = await join_game(t, Identity.generate(), peers[0].lockstep.gid, game=game,
                                  persist=False, watch=True)
    await finish(peers, "random", timeout=120)
    everyone = peers + ([watcher] if watcher else [])
    await until(lambda: all(p.lockstep.steps.dealing.verdict for p in everyone), timeout=20)
    return peers, watcher


@pytest.mark.parametrize("gid", DEALT)
async def test_a_dealt_game_ends_verified_with_one_state_and_a_log_that_replays(gid) -> None:
    game = get_game(gid)
    peers, _ = await _dealt_game(gid, _players(gid))
    first = peers[0].lockstep
    assert first.phase == "over"
    assert {p.lockstep.hash for p in peers} == {first.hash}
    assert {p.lockstep.steps.dealing.verdict for p in peers} == {"verified"}
    # nothing is left waiting for a step: moves that came while cards were opened were used
    assert not any(p.lockstep.steps.buffer.slots for p in peers)
    # once the audit verified the deal, the log replays with the plain engine
    replayed = final_state(game, first.game_log)
    assert game.result(replayed) == game.result(first.state)
    assert to_plain(game.view(replayed, None)) == to_plain(game.view(first.state, None))
    for p in peers:
        await p.stop(clean=False)


@pytest.mark.parametrize("gid", DEALT)
async def test_the_shell_gets_only_outputs_while_the_steps_ask_the_deck_protocol(gid, monkeypatch) -> None:
    """The deck protocol answers the steps with events among its outputs (deck_events.py);
    the steps act on every one of them, so a peer (and a watcher) is handed outputs only, all
    game long, in every real game dealt over the network."""
    from net.lockstep import Keep, Note, Publish, Secret
    from net.peer import Peer

    handed: list[object] = []
    run = Peer._run

    def checked_run(peer, outputs):
        handed.extend(o for o in outputs if not isinstance(o, Publish | Keep | Secret | Note))
        return run(peer, outputs)

    monkeypatch.setattr(Peer, "_run", checked_run)
    peers, watcher = await _dealt_game(gid, _players(gid), watch=True)
    assert {p.lockstep.deal_verdict for p in peers + [watcher]} == {"verified"}
    assert not handed
    for p in peers + [watcher]:
        await p.stop(clean=False)


@pytest.mark.parametrize("gid", DEALT)
async def test_the_agreed_seed_no_longer_tells_the_deal(gid) -> None:
    """The old attack: rebuild the deal from the seed reveals on the log. It now gets it wrong."""
    game = get_game(gid)
    n = _players(gid)
    peers, _ = await _dealt_game(gid, n)
    first = peers[0].lockstep
    from_seed = game.setup(n, first.seed, first.options)
    dealt = final_state(game, first.game_log.__class__(
        first.game_log.game, n, first.seed, first.game_log.options, ()))
    assert to_plain(from_seed) != to_plain(dealt)
    for p in peers:
        await p.stop(clean=False)


@pytest.mark.parametrize("gid", DEALT)
async def test_a_curious_peer_and_a_watcher_learn_no_face_before_the_rules_show_it(gid) -> None:
    """Every face each peer (and a watcher) learnt, at the step it learnt it, is in its seat's
    view of the plain game dealt as the audit showed (the face lies where that seat sees it;
    a Sheriff view names a card by its good, `Game.face_names`)."""
    game = get_game(gid)
    n = _players(gid)
    peers, watcher = await _dealt_game(gid, n, watch=True)
    first = peers[0].lockstep
    states = list(replay(game, first.game_log))  # the plain game, every face known
    learnt_any = 0
    for p in peers + [watcher]:
        dealing = p.lockstep.steps.dealing
        seat = p.lockstep.my_seat
        known = dict(dealing.shown) | dict(dealing.mine)
        for step, t in dealing.learnt:
            face = game.face_names.get(known[t], known[t])  # as a view names it (a good)
            nearby = states[step:step + 2]
            assert any(face in strings_in(to_plain(game.view(s, seat))) for s in nearby), (
                f"{'the watcher' if seat is None else f'seat {seat}'} learnt {face!r} ({t}) at step {step}, "
                "which its view does not show")
            learnt_any += 1
        # every face it holds was learnt at a step the check above saw (a hand passed on in 7
        # Wonders is known to two seats: the one that held it, the one that holds it)
        assert set(known) <= {t for _, t in dealing.learnt}
    assert learnt_any
    for p in peers + [watcher]:
        await p.stop(clean=False)


class _Cheating(DeckSeat):
    """Seat 1's deck secrets, with a cheat in its pool or shuffle pass or its public keys."""

    how = ""

    def shuffle(self, table):
        body = super().shuffle(table)
        cards = list(body["cards"])
        if self.how == "duplicate":
            cards[1] = cards[0]
        elif self.how == "substitute":  # a card of no deck of this game, masked like the others
            stranger = group.card_point(table.spec.gid, "stranger", 0, "joker")
            cards[0] = group.mul(stranger, self.secrets.deck_key)
        return {**body, "cards": cards}

    def own(self, table, faces):
        body = super().own(table, faces)
        cards = list(body["cards"])
        if self.how == "own_repeat" and len(cards) > 1:  # one card of its hand twice
            cards[1] = cards[0]
        return {**body, "cards": cards}

    def mask(self, table):
        body = super().mask(table)
        cards = list(body["cards"])
        if self.how == "pool_swap":  # a guild left out trades places with an own card
            cards[0], cards[-1] = cards[-1], cards[0]
        return {**body, "cards": cards}

    def public_key(self, pos):
        body = super().public_key(pos)
        if self.how == "wrong_key":
            body["key"] = group.product([body["key"], body["key"]])
        return body


def _seat_1_deals_as(monkeypatch, cheating: type[DeckSeat], seats=(1,), **attributes) -> None:
    """Seat 1's deck secrets (or `seats`') are made as `cheating` (a DeckSeat subclass); the
    others honest."""
    create = DeckSeat.create

    class Factory:
        @staticmethod
        def create(spec, seat, entropy):
            if seat not in seats:
                return create(spec, seat, entropy)
            cheat = cheating(spec, seat, DeckSecrets.derive(spec, seat, entropy))
            for name, value in attributes.items():
                setattr(cheat, name, value)
            return cheat

    monkeypatch.setattr(dealing_module, "DeckSeat", Factory)


async def _table_with_cheater(monkeypatch, how: str, gid: str = "ten", n: int = 3):
    """A table whose seat 1 cheats as `how` says (its peer's deck secrets are _Cheating)."""
    _seat_1_deals_as(monkeypatch, _Cheating, how=how)
    broker = MemoryBroker()
    transports = [MemoryTransport(broker) for _ in range(n)]
    for t in transports:
        await t.start()
    return await table_of(n, transports, game=get_game(gid))


async def _stop(peers) -> None:
    for p in peers:
        await p.stop(clean=False)


@pytest.mark.parametrize("how", ["duplicate", "wrong_key"])
async def test_a_seat_whose_signed_message_breaks_the_deal_is_named_at_once(monkeypatch, how) -> None:
    """A repeated card in a shuffle pass, a public key that fails its commitment: the signed
    message itself is the proof; every honest peer names that seat, and only that seat."""
    peers = await _table_with_cheater(monkeypatch, how)
    if how == "wrong_key":
        for p in peers:
            p.bot_kind = "random"
            p._bot_if_my_turn()
    honest = [peers[0], peers[2]]
    await until(lambda: all(1 in p.lockstep.proofs.proven for p in honest), timeout=20)
    # the table waits for a valid message from seat 1 only (the others' come in their time)
    await until(lambda: all(p.lockstep.awaited() == frozenset({1}) for p in honest), timeout=20)
    for p in honest:
        assert set(p.lockstep.proofs.proven) == {1}
        assert p.lockstep.proofs.proven[1][0] == "deck"
        assert p.lockstep.vote_options() is not None or p.lockstep.deadline_left() is not None
    await _stop(peers)


async def test_an_owner_whose_own_deal_repeats_a_card_is_named_at_once(monkeypatch) -> None:
    """Sheriff: a hand dealt anew whose masked cards repeat one (a card twice): the signed
    `deck_own` is the proof; every peer names its owner at once, and nobody else."""
    _seat_1_deals_as(monkeypatch, _Cheating, seats=(0, 1, 2), how="own_repeat")
    broker, transports, peers = await memory_table(3, game=get_game("sheriff"))
    for p in peers:
        p.bot_kind = "random"
        p._bot_if_my_turn()

    def owners(p) -> set[int]:
        return {t.spec.owner for t in p.lockstep.steps.dealing.tables.values() if t.spec.owner is not None}

    def every_owner_named() -> bool:  # by every peer, once each has begun that deal
        first = owners(peers[0])
        return bool(first) and all(owners(p) == first and set(p.lockstep.proofs.proven) == first for p in peers)

    await until(every_owner_named, timeout=60)
    for p in peers:
        assert all(why[0] == "deck" for why in p.lockstep.proofs.proven.values())
    await _stop(peers)


@pytest.mark.parametrize(("how", "gid"), [("substitute", "ten"), ("pool_swap", "seven_wonders")])
async def test_a_seat_that_substitutes_a_card_is_named_by_the_audit(monkeypatch, how, gid) -> None:
    """A card of no deck, masked like the others, or a guild that should stay in the box
    swapped into the Age III deck: nothing shows at once; when its position opens (or at the
    end) the audit replays every pass and names the seat."""
    peers = await _table_with_cheater(monkeypatch, how, gid)
    await until(lambda: all(p.lockstep.phase == "play" for p in peers), timeout=20)
    for p in peers:
        p.bot_kind = "random"
        p._bot_if_my_turn()
    await until(lambda: all(p.lockstep.steps.dealing.verdict for p in peers), timeout=60)
    for p in peers:
        dealing = p.lockstep.steps.dealing
        assert dealing.accused == (1,), dealing.verdict
        assert "cheated" in dealing.verdict
    await _stop(peers)


async def test_a_seat_that_will_not_reveal_is_awaited_and_late_after_its_deadline(monkeypatch) -> None:
    """A seat that sends no keys stalls the table like any seat that does not play: the others
    wait for it, and once its deadline passes they may vote (nobody is named a cheat)."""
    offset = [0.0]
    transports = await withholding_transports(3, 1, b"deck_show", b"deck_open")  # seat 1's keys
    peers = await table_of(3, transports, game=get_game("ten"))
    for p in peers:
        p.lockstep.ctx.clock = lambda: time.time() + offset[0]
        p.bot_kind = "random"
        p._bot_if_my_turn()
    honest = [peers[0], peers[2]]
    await until(lambda: all(p.lockstep.phase == "play" and p.lockstep.steps.dealing.busy()
                            and p.lockstep.awaited() == frozenset({1}) for p in honest), timeout=20)
    step = peers[0].lockstep.step
    await asyncio.sleep(0.05)
    assert peers[0].lockstep.step == step  # nothing moves without seat 1's keys
    offset[0] += 10_000
    for p in honest:
        options = p.lockstep.vote_options()
        assert options is not None and options["seats"] == (1,) and options["cause"] == "late"
        assert not p.lockstep.proofs.proven
    await _stop(peers)


async def test_a_dealt_money_game_removes_the_currencies_its_seed_draws() -> None:
    """§4.2 step 1 happens before the deal: drawn from the agreed seed as setup draws it."""
    game = get_game("money")
    peers, _ = await _dealt_game("money", 3)
    first = peers[0].lockstep
    plain = game.setup(3, first.seed, {})
    assert first.state.setup.removed == plain.setup.removed
    assert dict(first.game_log.options)["removed_currencies"] == list(plain.setup.removed)
    await _stop(peers)


@pytest.mark.parametrize(("gid", "kind"), [("ten", b"deck_shuffle"), ("ten", b"deck_lock"),
                                           ("money", b"deck_show"), ("ten", b"deck_open"),
                                           ("seven_wonders", b"deck_mask"), ("sheriff", b"deck_own")])
async def test_a_peer_killed_in_the_middle_of_the_deal_resumes_from_its_disk(tmp_path, monkeypatch, gid, kind):
    """A joiner dies right after it made its pass (or its keys), which never left its
    machine (the first joiner to make one: a Sheriff hand is dealt anew by whoever took a card
    from a discard pile); restarted from its data folder, it sends them again and the game
    ends verified."""
    monkeypatch.setenv("GAMENIGHT_HOME", str(tmp_path))
    game = get_game(gid)
    broker = MemoryBroker()
    transports = [MemoryTransport(broker) for _ in range(3)]
    for t in transports:
        await t.start()
    swallowed: list[bytes] = []
    dead: list[int] = []

    def dying(seat: int, publish):
        def publish_or_die(topic, payload, qos=1, retain=False):
            if dead == [seat] or not dead and kind in payload:  # made and kept, then it dies
                dead[:] = [seat]
                swallowed.append(payload)
                return True
            return publish(topic, payload, qos, retain)
        return publish_or_die

    for seat in (1, 2):
        transports[seat].publish_now = dying(seat, transports[seat].publish_now)  # type: ignore[method-assign]
    ids = [Identity.generate() for _ in range(3)]
    peers = await table_of(3, transports, game=game, persist=True, identities=ids, bot="random")
    await until(lambda: swallowed, timeout=30)
    (seat,) = dead
    transports[seat].kill()
    await peers[seat].stop(clean=False)
    again = MemoryTransport(broker)
    await again.start()
    peers[seat] = await join_game(again, ids[seat], peers[0].lockstep.gid, name=f"P{seat}", game=game,
                                  persist=True, bot="random")
    await asyncio.wait_for(asyncio.gather(*(p.done.wait() for p in peers)), 60)
    await until(lambda: all(p.lockstep.deal_verdict for p in peers), timeout=20)
    assert {p.lockstep.hash for p in peers} == {peers[0].lockstep.hash}
    assert {p.lockstep.deal_verdict for p in peers} == {"verified"}
    await _stop(peers)


async def test_deck_messages_from_a_key_without_a_seat_cost_nothing_and_change_nothing() -> None:
    """A stranger on the broker sends passes and keys for the deal: dropped with a reason
    before anything acts on them; the game ends verified all the same."""
    from net.topics import Topics

    from .helpers import forge

    game = get_game("ten")
    broker, transports, peers = await memory_table(3, game=game)
    stranger = Identity.generate()
    t = MemoryTransport(broker)
    await t.start()
    ls = peers[0].lockstep
    topic = Topics(ls.gid).log
    fake = group.card_point(ls.gid, "deck", 0, "x")
    bodies = {"deck_shuffle": {"decks": ["deck"], "cards": [[fake]]},
              "deck_own": {"decks": ["redeal0s1"], "cards": [[fake]]},
              "deck_mask": {"decks": ["deck"], "cards": [[fake]]},
              "deck_show": {"open": [["deck", 0, bytes(32)]], "boxes": []},
              "deck_open": {"open": [["deck", 0, bytes(32)]]},
              "deck_audit": {"decks": [], "secrets": []}}
    for seat in (0, 1, 5):
        for kind, body in bodies.items():
            t.publish_now(topic, forge(stranger, ls.gid, kind, body, seat=seat, step=ls.step,
                                       state_hash=ls.hash, prev_hash=ls.chain))
    await finish(peers, "random", timeout=60)
    await until(lambda: all(p.lockstep.deal_verdict for p in peers), timeout=20)
    assert {p.lockstep.deal_verdict for p in peers} == {"verified"}
    assert not any(p.lockstep.proofs.proven for p in peers)  # nobody blamed for a stranger
    assert any("bound to another key" in d or "does not exist" in d for d in peers[0].dropped)
    await _stop(peers)


@pytest.mark.parametrize("answers", [True, False])
async def test_keys_that_do_not_open_are_asked_for_in_clear(monkeypatch, answers) -> None:
    """A box of keys for another seat's hand that does not open: only its receiver can tell,
    so nobody is named; it asks for those keys in clear (one seat's key alone shows nothing),
    every peer checks them against their commitments and the game goes on to a verified end.
    A sender that does not answer is late like any seat that does not play."""

    class BadBoxes(DeckSeat):
        def send_keys(self, positions, to, to_public):
            body = super().send_keys(positions, to, to_public)
            return {**body, "box": body["box"][:-1] + bytes([body["box"][-1] ^ 1])}

    _seat_1_deals_as(monkeypatch, BadBoxes)
    offset = [0.0]
    broker = MemoryBroker()
    transports = [MemoryTransport(broker) for _ in range(3)]
    for t in transports:
        await t.start()
    if not answers:
        publish = transports[1].publish_now
        transports[1].publish_now = (  # type: ignore[method-assign]
            lambda topic, payload, qos=1, retain=False: True if b"deck_give" in payload
            else publish(topic, payload, qos, retain))
    peers = await table_of(3, transports, game=get_game("money"), bot="random")
    for p in peers:
        p.lockstep.ctx.clock = lambda: time.time() + offset[0]
    honest = [peers[0], peers[2]]
    if answers:
        await asyncio.wait_for(asyncio.gather(*(p.done.wait() for p in peers)), 60)
        assert {p.lockstep.deal_verdict for p in peers} == {"verified"}
        assert not any(p.lockstep.proofs.proven for p in peers)  # a receiver's word names nobody
        assert any("asking for them in clear" in d for d in peers[0].dropped)
    else:
        await until(lambda: all(p.lockstep.awaited() == frozenset({1}) for p in honest)
                    and all(p.lockstep.steps.dealing.asks for p in honest), timeout=20)
        offset[0] += 10_000
        for p in honest:
            options = p.lockstep.vote_options()
            assert options is not None and options["seats"] == (1,) and options["cause"] == "late"
    await _stop(peers)


async def test_a_seat_that_sends_no_audit_is_named_for_it_after_the_deadline() -> None:
    """The end audit waits `reveal` seconds for every seat's secrets, then judges without the
    missing ones: that seat is named as having sent no audit (not as a cheat)."""
    offset = [0.0]
    transports = await withholding_transports(3, 1, b"deck_audit")
    peers = await table_of(3, transports, game=get_game("ten"), bot="random")
    for p in peers:
        p.lockstep.ctx.clock = lambda: time.time() + offset[0]
    await until(lambda: all(p.lockstep.phase == "over" for p in peers), timeout=60)
    honest = [peers[0], peers[2]]
    assert not any(p.lockstep.deal_verdict for p in honest)  # still waiting for seat 1
    offset[0] += 10_000
    await until(lambda: all(p.lockstep.deal_verdict for p in honest), timeout=10)
    for p in honest:
        assert p.lockstep.deal_verdict == "P1 published no audit: the deal is not verified"
        assert p.lockstep.accused() == (1,)
    await _stop(peers)


@pytest.mark.parametrize("gid", DEALT)
async def test_a_seat_handed_to_a_bot_takes_its_deck_keys_along(gid) -> None:
    """A player leaves a dealt game for good: its deck keys go sealed to the terminal that
    plays its seat, which shows cards for it and sees its hand; the game ends verified."""
    game = get_game(gid)
    broker, transports, peers = await memory_table(3, game=game)
    await until(lambda: all(not p.lockstep.steps.dealing.busy() for p in peers), timeout=20)
    peers[2].handover("random")
    await until(lambda: all(2 in p.lockstep.votes.handed for p in peers), timeout=10)
    await peers[2].stop()
    holder = peers[0].lockstep
    await until(lambda: 2 in holder.steps.dealing.proxied, timeout=10)
    assert holder.own_seats() == [0, 2]
    # the holder sees seat 2's cards as seat 2 did (and those dealt to it since), nobody else does
    assert peers[2].lockstep.steps.dealing.mine.items() <= holder.steps.dealing.faces_of(2).items()
    assert not set(peers[1].lockstep.steps.dealing.mine) & set(holder.steps.dealing.faces_of(2))
    await finish(peers[:2], "random", timeout=60)
    await until(lambda: all(p.lockstep.deal_verdict for p in peers[:2]), timeout=20)
    assert {p.lockstep.deal_verdict for p in peers[:2]} == {"verified"}
    assert peers[0].lockstep.hash == peers[1].lockstep.hash
    await _stop(peers)


@pytest.mark.parametrize("gid", DEALT)
async def test_no_face_is_on_the_wire_or_on_disk_before_the_whole_table_saw_it(gid, tmp_path, monkeypatch):
    """Everything the broker carried (every seat's messages, boxes sealed to others included)
    and everything in every peer's data folder, read as it is: a card's face shows there only
    if the whole table saw that card; a hand shown to its owner alone travels as tokens and
    sealed keys. (The end audit then publishes every key: the deal is public after the game.)"""
    from net.codec import decode_envelope

    monkeypatch.setenv("GAMENIGHT_HOME", str(tmp_path))
    game = get_game(gid)
    broker = MemoryBroker()
    wire: list[bytes] = []
    route = broker.route

    def tapped(sender, topic, payload, retain):
        wire.append(payload)
        route(sender, topic, payload, retain)

    broker.route = tapped  # type: ignore[method-assign]
    transports = [MemoryTransport(broker) for _ in range(3)]
    for t in transports:
        await t.start()
    peers = await table_of(3, transports, game=game, persist=True, bot="random")
    await asyncio.wait_for(asyncio.gather(*(p.done.wait() for p in peers)), 60)
    dealing = peers[0].lockstep.steps.dealing
    faces = {str(c) for table in dealing.tables.values() for c in table.spec.cards}
    public = {str(f) for f in dealing.shown.values()}
    on_wire: set[str] = set()
    for payload in wire:
        try:
            env = decode_envelope(payload)
        except Exception:  # noqa: BLE001 (presence and retained lobby clears are not envelopes)
            continue
        if env.kind != "sync":
            on_wire |= strings_in(to_plain(env.body)) & faces
    assert on_wire <= public, sorted(on_wire - public)[:5]
    # on disk, a face is a msgpack string (its length before it: "cheese#1" is not found
    # inside "gouda_cheese#1")
    never_shown = {face: msgpack.packb(face) for face in faces - public}
    for path in tmp_path.rglob("*"):
        if path.is_file() and path.suffix != ".log":  # gamenight.log: our own drop reasons
            data = path.read_bytes()
            leaked = [face for face, packed in never_shown.items() if packed in data]
            assert not leaked, (path.name, leaked[:3])
    await _stop(peers)


async def test_a_screen_draws_the_table_as_it_was_while_the_cards_of_a_change_travel() -> None:
    """After a 7 Wonders pick each hand passes on: until the new hand's keys are in, a screen
    draws the table before the pick (never a card of its own that has not reached it), and
    before the first hands arrive there is no game to draw yet."""
    from net.codec import decode_envelope

    game = get_game("seven_wonders")
    broker = MemoryBroker()
    transports = [MemoryTransport(broker) for _ in range(3)]
    for t in transports:
        await t.start()
    held: list[tuple] = []
    publish = transports[2].publish_now

    def slow(topic, payload, qos=1, retain=False):  # seat 2's keys for the cards of step 1
        if b"deck_show" in payload and decode_envelope(payload).step in (0, 1) and len(held) < 2:
            held.append((topic, payload, qos, retain))
            return True
        return publish(topic, payload, qos, retain)

    transports[2].publish_now = slow  # type: ignore[method-assign]
    peers = await table_of(3, transports, game=game, bot="random")
    first = peers[0].lockstep
    await until(lambda: held and first.state is not None, timeout=20)
    assert not first.drawable  # the game began, but nobody holds a hand yet
    publish(*held[0])
    await until(lambda: len(held) == 2 and first.step == 1, timeout=20)
    before = game.view(first.steps.dealing.known(first.steps.states[0], 0), 0)
    assert first.drawable and first.steps.dealing.showing()
    assert first.view(0) == before  # the hand that passed to seat 0 is not drawn yet
    assert not any(map(is_token, before.hand))
    publish(*held[1])
    await asyncio.wait_for(asyncio.gather(*(p.done.wait() for p in peers)), 60)
    await _stop(peers)


async def test_a_card_the_table_saw_taken_goes_into_a_bag_unseen_over_the_network() -> None:
    """Sheriff §6: a hand holding a card taken from a discard pile is dealt anew by its owner
    before the bags are loaded (`deck_own`, then every seat locks it): every bag the table
    agreed on holds tokens only, and the audit checks each such deck against what its owner
    held."""
    game = get_game("sheriff")
    peers, _ = await _dealt_game("sheriff", 3)
    first = peers[0].lockstep
    dealing = first.steps.dealing
    owned = [t for t in dealing.tables.values() if t.spec.owner is not None]
    assert owned, "no hand was dealt anew in a whole game"
    for state in first.steps.states:
        assert all(is_token(card) for bag in state.bags for card in bag)
    assert {p.lockstep.deal_verdict for p in peers} == {"verified"}
    # the completed log names the cards and replays with the plain engine
    replayed = final_state(game, first.game_log)
    assert to_plain(game.view(replayed, None)) == to_plain(game.view(first.state, None))
    await _stop(peers)


class _OwnAuditLies(DeckSeat):
    """A seat that deals its own cards honestly but publishes another order at the audit."""

    def audit(self):
        body = super().audit()
        if self.spec.owner == self.seat and len(body["perm"]) > 1:
            body["perm"] = [body["perm"][1], body["perm"][0], *body["perm"][2:]]
        return body


async def test_an_owner_whose_audit_does_not_replay_its_own_deal_is_named(monkeypatch) -> None:
    """The audit replays each hand dealt anew against the cards its owner held (known once the
    decks they came from are audited): a published order that is not the one used names it."""
    _seat_1_deals_as(monkeypatch, _OwnAuditLies, seats=(0, 1, 2))
    peers, _ = await _dealt_game("sheriff", 3)
    tables = peers[0].lockstep.steps.dealing.tables.values()
    owners = {t.spec.owner for t in tables if t.spec.owner is not None and t.size > 1}
    assert owners
    for p in peers:
        dealing = p.lockstep.steps.dealing
        assert set(dealing.accused) == owners and "cheated (deck redeal" in dealing.verdict
    await _stop(peers)


async def test_passes_of_a_deal_that_come_before_their_step_are_kept_for_it() -> None:
    """One peer receives messages out of order (each step message after the one that follows
    it): a seat's pass of a deck dealt during the game can reach it before the move that
    begins that deal. The pass waits for its step and is taken as soon as the deal begins
    there (the peer never stalls into asking the table again); the game ends verified."""
    game = get_game("sheriff")
    broker = MemoryBroker()
    transports = [MemoryTransport(broker) for _ in range(3)]
    for t in transports:
        await t.start()
    deliver = transports[2].deliver
    held: list[tuple] = []
    early: list[bytes] = []

    def flush() -> None:
        while held:
            deliver(*held.pop(0))

    def swapped(topic, payload, retained):
        if held:  # this one overtakes the message held before it
            if any(kind in payload for kind in (b"deck_own", b"deck_lock", b"deck_shuffle")):
                early.append(payload)
            deliver(topic, payload, retained)
            flush()
            return
        if b"\xa3act" in payload or b"\xa6reveal" in payload:
            held.append((topic, payload, retained))
            asyncio.get_running_loop().call_later(0.005, flush)
            return
        deliver(topic, payload, retained)

    transports[2].deliver = swapped  # type: ignore[method-assign]
    publish = transports[2].publish_now
    asked: list[bytes] = []

    def watched(topic, payload, qos=1, retain=False):
        if b"sync_req" in payload and peers and peers[2].lockstep.phase == "play":
            asked.append(payload)
        return publish(topic, payload, qos, retain)

    peers: list = []
    transports[2].publish_now = watched  # type: ignore[method-assign]
    peers += await table_of(3, transports, game=game, bot="random")
    for p in peers:  # a peer that missed a pass would only move on by asking: never here
        p.stall_after = 60.0
    await asyncio.wait_for(asyncio.gather(*(p.done.wait() for p in peers)), 120)
    await until(lambda: all(p.lockstep.deal_verdict for p in peers), timeout=30)
    assert {p.lockstep.deal_verdict for p in peers} == {"verified"}
    assert {p.lockstep.hash for p in peers} == {peers[0].lockstep.hash}
    assert early, "no pass of a deal overtook a move"
    assert not asked, "the peer stalled and had to ask the table for what it had already"
    await _stop(peers)
