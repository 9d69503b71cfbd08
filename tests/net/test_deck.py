"""The deck protocol core (net/deck): whole deals, secrecy of the order, every cheat named.

Run as a script with --write to regenerate tests/vectors/deck.json (only when the protocol
changes on purpose: the vectors are what another implementation checks against).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Sequence
from hashlib import sha256
from pathlib import Path

import msgpack
import pytest
from nacl import bindings as na
from nacl.signing import SigningKey

from net.deck import (
    Cheat,
    DeckError,
    DeckSeat,
    DeckSpec,
    DeckTable,
    NotNow,
    UnknownCard,
    audit,
    box_secret,
    deal,
    group,
)

ROOT = Path(__file__).resolve().parents[2]
VECTORS = ROOT / "tests" / "vectors" / "deck.json"
CARDS = ("copper", "copper", "silver", "gold", 7, "joker", "ace", "king")


class Peers:
    """n seats of one deck in one process, each with an Ed25519 identity for sealed boxes."""

    def __init__(self, n: int, cards: Sequence[object] = CARDS, entropy: dict | None = None,
                 gid: str = "deck-test", spec: DeckSpec | None = None) -> None:
        entropy = entropy or {}
        self.spec = spec or DeckSpec(gid, "main", tuple(cards), n)
        self.seats = [
            DeckSeat.create(self.spec, s, entropy.get(s, bytes([s + 1]) * 32)) for s in range(n)
        ]
        self.seeds = [bytes([100 + s]) * 32 for s in range(n)]
        self.publics = [bytes(SigningKey(seed).verify_key) for seed in self.seeds]
        self.secrets = [box_secret(seed) for seed in self.seeds]
        self.table = DeckTable.new(self.spec)

    def deal(self) -> DeckTable:
        self.table = deal(self.table, self.seats)
        return self.table

    def give(self, positions: Sequence[int], to: int) -> list[int | None]:
        """Private reveal to seat `to`: every other seat seals its keys; `to` opens the cards."""
        for seat in self.seats:
            if seat.seat != to:
                body = seat.send_keys(positions, to, self.publics[to])
                got = self.seats[to].receive_keys(self.table, seat.seat, body, self.secrets[to])
                assert got == tuple(positions)
        return [self.seats[to].card_at(self.table, pos) for pos in positions]

    def show(self, pos: int) -> int:
        """Public reveal: every seat publishes its key, anyone checks each and opens."""
        keys = []
        for seat in self.seats:
            got_pos, key = self.table.accept_public(seat.seat, seat.public_key(pos))
            assert got_pos == pos
            keys.append(key)
        return self.table.unmask(pos, keys)

    def audits(self) -> dict[int, dict]:
        return {seat.seat: seat.audit() for seat in self.seats}


def other_scalar(k: bytes) -> bytes:
    """A valid key that is not k."""
    return na.crypto_core_ed25519_scalar_add(k, group.ONE)


# -- encoding -----------------------------------------------------------------------------


def test_every_card_is_a_distinct_valid_point_even_two_copies_of_one_card():
    points = group.encode_deck("g", "main", CARDS)
    assert len(set(points)) == len(CARDS)
    assert all(na.crypto_core_ed25519_is_valid_point(p) for p in points)
    assert group.encode_deck("other-game", "main", CARDS)[0] != points[0]
    assert group.encode_deck("g", "age2", CARDS)[0] != points[0]


# -- a whole honest deal ------------------------------------------------------------------


@pytest.mark.parametrize("n", [3, 5, 7])
def test_whole_deal_reveals_every_card_once_and_the_audit_verifies(n):
    cards = tuple(range(2 * n + 3))
    peers = Peers(n, cards)
    table = peers.deal()
    assert table.phase == "ready" and table.turn is None
    hands = {}
    for seat in range(n):  # two cards each, sent as one hand
        positions = [seat, n + seat]
        hands.update(zip(positions, peers.give(positions, seat), strict=True))
    shown = {pos: peers.show(pos) for pos in range(2 * n, len(cards))}
    for pos, slot in hands.items():
        # the owner proves its card to everyone; they open the same card it saw
        assert table.check_proof(pos % n, peers.seats[pos % n].prove(pos)) == (pos, slot)
    result = audit(table, peers.audits())
    assert result.verified and str(result) == "verified"
    assert result.order == tuple(hands[p] if p in hands else shown[p] for p in range(len(cards)))
    assert sorted(result.order) == list(range(len(cards)))


def test_a_private_reveal_opens_only_for_its_receiver_and_only_its_position():
    peers = Peers(4)
    peers.deal()
    assert None not in peers.give([0, 3], 2)
    assert peers.seats[2].card_at(peers.table, 1) is None  # keys of pos 0 do not open pos 1
    for seat in (0, 1, 3):
        assert peers.seats[seat].card_at(peers.table, 0) is None
    body = peers.seats[0].send_keys([5], 2, peers.publics[2])
    with pytest.raises(NotNow):  # addressed to seat 2: seat 1 does not take it
        peers.seats[1].receive_keys(peers.table, 0, body, peers.secrets[1])


def test_opening_with_collected_keys_checks_each_and_needs_all():
    peers = Peers(3)
    peers.deal()
    keys = {seat.seat: seat.secrets.keys[5] for seat in peers.seats}
    assert peers.table.open(5, keys) == peers.show(5)
    with pytest.raises(DeckError) as caught:
        peers.table.open(5, {0: keys[0], 2: keys[2]})
    assert caught.value.code == "missing_keys"
    with pytest.raises(Cheat) as caught:
        peers.table.open(5, {**keys, 1: peers.seats[1].secrets.keys[4]})
    assert caught.value.seat == 1


def test_no_seat_alone_fixes_the_order():
    def order(entropy):
        peers = Peers(4, entropy=entropy)
        peers.deal()
        return audit(peers.table, peers.audits()).order

    base = order({})
    assert order({}) == base  # the same entropy deals the same order
    for seat in range(4):
        # any three seats keep their secrets: the fourth one's entropy alone moves the order
        assert order({seat: b"another seat's coin" * 2}) != base


def test_secrets_survive_a_restart():
    peers = Peers(3)
    table = peers.table.accept_shuffle(0, peers.seats[0].shuffle(peers.table))  # then a restart
    stored = msgpack.packb(peers.seats[1].to_plain(), use_bin_type=True)
    back = DeckSeat.from_plain(peers.spec, msgpack.unpackb(stored, raw=False))
    assert back.shuffle(table) == peers.seats[1].shuffle(table)
    peers.deal()
    [slot] = peers.give([0], 1)
    stored = msgpack.packb(peers.seats[1].to_plain(), use_bin_type=True)
    back = DeckSeat.from_plain(peers.spec, msgpack.unpackb(stored, raw=False))
    assert back.card_at(peers.table, 0) == slot
    assert back.prove(0) == peers.seats[1].prove(0)


def test_messages_out_of_turn_or_for_another_deck_accuse_nobody():
    peers = Peers(3)
    with pytest.raises(NotNow):  # seat 1 shuffles after seat 0
        peers.seats[1].shuffle(peers.table)
    first = peers.seats[0].shuffle(peers.table)
    with pytest.raises(NotNow):
        peers.table.accept_shuffle(1, first)
    with pytest.raises(NotNow):
        peers.table.accept_shuffle(0, {**first, "deck": "age2"})
    table = peers.table.accept_shuffle(0, first)
    with pytest.raises(NotNow):  # a redelivered message
        table.accept_shuffle(0, first)


# -- cheats caught at once ----------------------------------------------------------------


def test_a_shuffle_that_repeats_a_card_is_refused_at_once_naming_the_seat():
    peers = Peers(3)
    table = peers.table.accept_shuffle(0, peers.seats[0].shuffle(peers.table))
    body = peers.seats[1].shuffle(table)
    body["cards"][3] = body["cards"][5]
    with pytest.raises(Cheat) as caught:
        table.accept_shuffle(1, body)
    assert caught.value.seat == 1 and caught.value.code == "repeated_point"


SMALL_ORDER = bytes([0xEC]) + b"\xff" * 30 + b"\x7f"  # the point (0, -1), of order 2


def not_in_group(p: bytes, how: str) -> bytes:
    if how == "not a point":
        return b"\x01" * 31 + b"\x80"
    # an element outside the prime-order group would leak the next seat's key mod 8
    return na.crypto_core_ed25519_add(p, SMALL_ORDER)


def test_a_deck_of_the_wrong_size_is_refused_at_once():
    peers = Peers(3)
    body = peers.seats[0].shuffle(peers.table)
    with pytest.raises(Cheat) as caught:
        peers.table.accept_shuffle(0, {**body, "cards": body["cards"][:-1]})
    assert (caught.value.seat, caught.value.code) == (0, "wrong_count")


@pytest.mark.parametrize("how", ["not a point", "small order"])
@pytest.mark.parametrize("phase", ["shuffle", "lock"])
def test_a_point_outside_the_group_is_named_by_the_next_seat_and_the_audit(how, phase):
    peers = Peers(3)
    table = peers.table
    for seat in peers.seats:
        body = seat.shuffle(table)
        if phase == "shuffle" and seat.seat == 1:
            body["cards"][0] = not_in_group(body["cards"][0], how)
        table = table.accept_shuffle(seat.seat, body)  # only its shape is checked here...
        if phase == "shuffle" and seat.seat == 1:
            with pytest.raises(Cheat) as caught:  # ...the seat that multiplies it refuses it
                peers.seats[2].shuffle(table)
            assert (caught.value.seat, caught.value.code) == (1, "bad_point")
            return
    for seat in peers.seats:
        body = seat.lock(table)
        if seat.seat == 2:  # the last lock pass: the receivers and the audit catch it
            body["cards"][0] = not_in_group(body["cards"][0], how)
        table = table.accept_lock(seat.seat, body)
    peers.table = table
    with pytest.raises(Cheat) as caught:
        peers.give([0], 1)
    assert (caught.value.seat, caught.value.code) == (2, "bad_point")
    assert audit(table, peers.audits()).seats == (2,)


def test_a_wrong_key_in_a_private_reveal_names_its_sender_at_once():
    peers = Peers(4)
    peers.deal()
    keys = peers.seats[3].secrets.keys
    wrong = keys[1] + other_scalar(keys[2])  # the right key for 1, a wrong one for 2
    body = {"deck": "main", "pos": [1, 2], "to": 1, "box": group.seal_keys(wrong, peers.publics[1])}
    with pytest.raises(Cheat) as caught:
        peers.seats[1].receive_keys(peers.table, 3, body, peers.secrets[1])
    assert (caught.value.seat, caught.value.code) == (3, "key_commitment")
    assert "position 2" in str(caught.value)
    # a box sealed to someone else does not even open
    body = peers.seats[0].send_keys([2], 2, peers.publics[2])
    with pytest.raises(Cheat) as caught:
        peers.seats[1].receive_keys(peers.table, 0, {**body, "to": 1}, peers.secrets[1])
    assert (caught.value.seat, caught.value.code) == (0, "bad_box")
    # positions that are no list of distinct positions
    for positions in ([], [2, 2], ["2"], [[2]]):
        with pytest.raises(Cheat) as caught:
            peers.seats[1].receive_keys(peers.table, 0, {**body, "to": 1, "pos": positions},
                                        peers.secrets[1])
        assert (caught.value.seat, caught.value.code) == (0, "malformed")
    # nothing of a bad box is kept, not even its good key
    assert peers.seats[1].received == {}


def test_a_public_key_that_fails_its_commitment_names_the_seat_at_once():
    peers = Peers(3)
    peers.deal()
    body = peers.seats[2].public_key(4)
    with pytest.raises(Cheat) as caught:
        peers.table.accept_public(2, {**body, "key": other_scalar(body["key"])})
    assert (caught.value.seat, caught.value.code) == (2, "key_commitment")
    # another seat's genuine key is not seat 1's key either
    with pytest.raises(Cheat) as caught:
        peers.table.accept_public(1, body)
    assert caught.value.seat == 1


def test_a_proof_with_a_forged_key_names_the_owner():
    peers = Peers(3)
    peers.deal()
    peers.give([0], 1)
    proof = peers.seats[1].prove(0)
    proof["keys"][2] = other_scalar(proof["keys"][2])
    with pytest.raises(Cheat) as caught:
        peers.table.check_proof(1, proof)
    assert (caught.value.seat, caught.value.code) == (1, "key_commitment")


# -- cheats caught by the audit -----------------------------------------------------------


def cheat_in_shuffle(peers: Peers, cheater: int, tamper) -> None:
    """Deal with `cheater`'s pass-1 deck changed by tamper(cards, seat) before it is published."""
    table = peers.table
    for seat in peers.seats:
        body = seat.shuffle(table)
        if seat.seat == cheater:
            tamper(body["cards"], seat)
        table = table.accept_shuffle(seat.seat, body)
    for seat in peers.seats:
        table = table.accept_lock(seat.seat, seat.lock(table))
    peers.table = table


@pytest.mark.parametrize("cheater", [0, 2, 3])
def test_a_shuffle_that_substitutes_a_card_is_named_by_the_audit(cheater):
    peers = Peers(4)
    stranger = group.card_point("deck-test", "main", 99, "ace of spades")

    def substitute(cards, seat):
        cards[6] = group.mul(stranger, seat.secrets.deck_key)

    cheat_in_shuffle(peers, cheater, substitute)
    result = audit(peers.table, peers.audits())
    assert result.seats == (cheater,) and result.accused[0].code == "substituted"
    assert result.order is None
    with pytest.raises(UnknownCard):  # whoever is dealt that position sees a card of no deck
        for pos in range(len(CARDS)):
            peers.show(pos)


def test_a_shuffle_that_copies_a_card_under_another_mask_is_named_by_the_audit():
    peers = Peers(3)

    def duplicate(cards, seat):
        cards[1] = group.mul(cards[0], other_scalar(group.ONE))  # card 0 again, masked twice

    cheat_in_shuffle(peers, 0, duplicate)
    result = audit(peers.table, peers.audits())
    assert result.seats == (0,)


def test_a_lock_pass_that_duplicates_a_position_is_named_by_the_audit():
    peers = Peers(5)
    table = peers.table
    for seat in peers.seats:
        table = table.accept_shuffle(seat.seat, seat.shuffle(table))
    for seat in peers.seats:
        body = seat.lock(table)
        # Only the first lock pass can copy a card cleanly: later ones would carry the wrong
        # position keys of the seats before and open to no card (the next test).
        if seat.seat == 0:  # position 4 gets position 0's card under position 4's key
            x_inv = group.invert(seat.secrets.deck_key)
            factor = na.crypto_core_ed25519_scalar_mul(x_inv, seat.secrets.keys[4])
            body["cards"][4] = group.mul(table.current[0], factor)
        table = table.accept_lock(seat.seat, body)
    peers.table = table
    shown = [peers.show(pos) for pos in range(len(CARDS))]
    assert shown[0] == shown[4]  # the players see a card twice...
    result = audit(table, peers.audits())
    assert result.seats == (0,) and result.accused[0].code == "lock_mismatch"  # ...and who did it


def test_an_audit_with_a_wrong_permutation_names_the_seat():
    peers = Peers(4)
    peers.deal()
    bodies = peers.audits()
    perm = list(bodies[1]["perm"])
    perm[0], perm[1] = perm[1], perm[0]
    bodies[1] = {**bodies[1], "perm": perm}
    result = audit(peers.table, bodies)
    assert result.seats == (1,) and result.accused[0].code == "wrong_permutation"
    bodies[1] = {**bodies[1], "perm": [0] * len(CARDS)}
    result = audit(peers.table, bodies)
    assert result.seats == (1,) and result.accused[0].code == "bad_permutation"


def test_an_audit_with_a_key_off_its_commitment_or_none_names_the_seat():
    peers = Peers(3)
    peers.deal()
    bodies = peers.audits()
    keys = list(bodies[0]["keys"])
    keys[5] = other_scalar(keys[5])
    bodies[0] = {**bodies[0], "keys": keys}
    del bodies[2]
    result = audit(peers.table, bodies)
    assert [(a.seat, a.code) for a in result.accused] == [(0, "key_commitment"), (2, "no_audit")]
    assert "seat 0:" in str(result) and "seat 2:" in str(result)


@pytest.mark.parametrize("cheater", [0, 1, 2])
def test_a_lock_pass_off_its_commitments_opens_to_no_card_then_the_audit_names_it(cheater):
    peers = Peers(3)
    table = peers.table
    for seat in peers.seats:
        table = table.accept_shuffle(seat.seat, seat.shuffle(table))
    for seat in peers.seats:
        body = seat.lock(table)
        if seat.seat == cheater:
            body["cards"][2] = group.mul(body["cards"][2], other_scalar(group.ONE))
        table = table.accept_lock(seat.seat, body)
    peers.table = table
    with pytest.raises(UnknownCard):
        peers.give([2], 0)
    result = audit(table, peers.audits())
    assert result.seats == (cheater,) and result.accused[0].code == "lock_mismatch"


# -- test vectors -------------------------------------------------------------------------


# -- a deck that draws cards of a pool face down (7 Wonders' guilds) --------------------------
POOL = tuple(f"guild{i}" for i in range(10))


def pool_peers(n: int, entropy: dict | None = None) -> Peers:
    """A deck of 2n own cards that takes n + 2 of the ten pool cards face down."""
    return Peers(n, entropy=entropy, spec=DeckSpec("deck-test", "age3", tuple(range(2 * n)), n, POOL, n + 2))


@pytest.mark.parametrize("n", [3, 7])
def test_a_pool_deck_opens_straight_to_the_drawn_pool_cards(n):
    peers = pool_peers(n)
    assert peers.table.phase == "mask" and peers.table.turn == 0
    table = peers.deal()
    assert table.phase == "ready" and table.size == 3 * n + 2
    faces = [table.card(peers.show(pos)) for pos in range(table.size)]
    own, guilds = [f for f in faces if f not in POOL], [f for f in faces if f in POOL]
    assert sorted(own) == list(range(2 * n)) and len(set(guilds)) == n + 2
    result = audit(table, peers.audits())
    assert result.verified and [table.card(s) for s in result.order] == faces
    # the pool's first n + 2 positions after the pool pass are the guilds drawn, in any order
    assert {POOL[i] for i in result.pool_order[: n + 2]} == set(guilds)
    assert sorted(result.pool_order) == list(range(10))


def test_no_seat_alone_chooses_the_pool_cards_drawn():
    def drawn(entropy):
        peers = pool_peers(4, entropy)
        peers.deal()
        return frozenset(audit(peers.table, peers.audits()).pool_order[:6])

    base = drawn({})
    assert drawn({}) == base
    for seat in range(4):
        assert any(drawn({seat: bytes([50 + k]) * 32}) != base for k in range(4))


def test_pool_secrets_survive_a_restart_and_a_private_reveal_works():
    peers = pool_peers(3)
    peers.deal()
    peers.seats = [DeckSeat.from_plain(peers.spec, msgpack.unpackb(msgpack.packb(s.to_plain())))
                   for s in peers.seats]
    got = peers.give([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 1)
    assert sorted(peers.table.card(s) for s in got if s < 6) == list(range(6))


def test_a_pool_pass_that_swaps_in_a_card_is_named_by_the_audit():
    peers = pool_peers(3)
    table = peers.table
    for seat in peers.seats:
        body = seat.mask(table)
        if seat.seat == 1:  # own card 0 replaced by a pool card it masked twice
            body["cards"][0] = group.mul(body["cards"][7], other_scalar(group.ONE))
        table = table.accept_mask(seat.seat, body)
    peers.table = table
    for seat in peers.seats:
        table = table.accept_shuffle(seat.seat, seat.shuffle(table))
    for seat in peers.seats:
        table = table.accept_lock(seat.seat, seat.lock(table))
    result = audit(table, peers.audits())
    assert result.seats == (1,) and result.accused[0].code == "substituted"
    assert "pool pass" in result.accused[0].reason


def test_a_pool_audit_without_its_pool_secrets_is_malformed():
    peers = pool_peers(3)
    table = peers.deal()
    bodies = peers.audits()
    del bodies[2]["pool_key"]
    result = audit(table, bodies)
    assert result.seats == (2,) and result.accused[0].code == "malformed"



# -- an owned deck: one seat's own cards dealt anew (Sheriff: a hand the table saw cards enter) --
FACES = tuple(f"card{i}" for i in range(12))


def owned_peers(held: Sequence[str], owner: int = 1, n: int = 3) -> Peers:
    return Peers(n, spec=DeckSpec("deck-test", "redeal1s1", FACES, n, drawn=len(held), owner=owner))


def deal_owned(peers: Peers, held: Sequence[str], claimed: Sequence[str] | None = None) -> DeckTable:
    """The owner's pass (of `claimed` faces, the truth unless it cheats), then every lock."""
    table = peers.table
    owner = peers.spec.owner
    assert table.phase == "own" and table.turn == owner
    table = table.accept_own(owner, peers.seats[owner].own(table, list(claimed or held)))
    for seat in peers.seats:
        table = table.accept_lock(seat.seat, seat.lock(table))
    peers.table = table
    return table


def test_an_owned_deck_opens_to_the_owners_cards_in_an_order_only_it_knows():
    held = ("card3", "card7", "card0", "card9")
    peers = owned_peers(held)
    table = deal_owned(peers, held)
    assert table.phase == "ready" and table.size == 4
    mine = [table.card(s) for s in peers.give([0, 1, 2, 3], 1)]
    assert sorted(mine) == sorted(held)
    perm = peers.seats[1].secrets.perm
    assert mine == [held[i] for i in perm]  # the owner's order
    assert peers.seats[0].secrets.deck_key == group.ONE  # the others only lock
    result = audit(table, peers.audits(), held)
    assert result.verified and [table.card(s) for s in result.order] == mine
    with pytest.raises(NotNow):  # nobody else deals an owned deck
        owned_peers(held).table.accept_own(0, {"deck": "redeal1s1", "cards": []})


def test_an_owner_that_deals_a_card_it_did_not_hold_is_named_by_the_audit():
    held = ("card3", "card7", "card0")
    peers = owned_peers(held)
    table = deal_owned(peers, held, claimed=("card3", "card11", "card0"))  # a better card
    assert sorted(table.card(peers.show(p)) for p in range(3)) == ["card0", "card11", "card3"]
    result = audit(table, peers.audits(), held)
    assert result.seats == (1,) and result.accused[0].code == "substituted"


def test_a_seat_that_locks_an_owned_deck_with_a_deck_key_is_named():
    held = ("card1", "card2")
    peers = owned_peers(held)
    table = deal_owned(peers, held)
    bodies = peers.audits()
    bodies[2]["deck_key"] = peers.seats[1].secrets.deck_key
    result = audit(table, bodies, held)
    assert result.seats == (2,)


def _h(points: Sequence[bytes]) -> str:
    return sha256(b"".join(points)).hexdigest()


def vector_run() -> dict:
    """A fixed-entropy 3-seat run: every intermediate deck's SHA-256 and every reveal."""
    cards = ["copper", "copper", "silver", "gold", 7, "joker"]
    peers = Peers(3, cards, gid="deck-0001")
    table = peers.deal()
    private = {pos: peers.give([pos], pos % 3)[0] for pos in range(3)}
    public = {pos: peers.show(pos) for pos in range(3, 6)}
    result = audit(table, peers.audits())
    return {
        "description": (
            "gamenight deck protocol vectors (docs/protocol.md, Deck protocol). gid "
            "'deck-0001', deck 'main', seat s draws its secrets from entropy = 32 bytes of "
            "value s+1 with the reference derivation. Decks are SHA-256 of their points "
            "concatenated in position order; slots index the cards list."
        ),
        "gid": "deck-0001",
        "label": "main",
        "cards": cards,
        "points": [p.hex() for p in table.points],
        "secrets": [_secrets_vector(s.secrets) for s in peers.seats],
        "shuffled_sha256": [_h(d) for d in table.shuffled],
        "locked_sha256": [_h(d) for d in table.locked],
        "commits_sha256": [_h(c) for c in table.commits],
        "final": [p.hex() for p in table.current],
        "private": [{"pos": pos, "to": pos % 3, "slot": slot, "card": cards[slot]}
                    for pos, slot in private.items()],
        "public": [{"pos": pos, "slot": slot, "card": cards[slot]} for pos, slot in public.items()],
        "audit": str(result),
        "order": list(result.order or ()),
        "pool": pool_vector_run(),
        "owned": owned_vector_run(),
    }


def _secrets_vector(secrets) -> dict:
    out = {"deck_key": secrets.deck_key.hex(), "perm": list(secrets.perm), "keys_sha256": _h(secrets.keys)}
    if secrets.pool_key is not None:
        out.update(pool_key=secrets.pool_key.hex(), pool_perm=list(secrets.pool_perm))
    return out


def owned_vector_run() -> dict:
    """Seat 1 of 3 is shown positions 0 and 1 of a deck of five distinct cards, then deals
    those two cards anew alone (an owned deck over the deck's faces, with their points)."""
    cards = ["a", "b", "c", "d", "e"]
    main = Peers(3, spec=DeckSpec("deck-0001", "main5", tuple(cards), 3))
    table = main.deal()
    held = [table.card(slot) for slot in main.give([0, 1], 1)]
    spec = DeckSpec("deck-0001", "redeal0s1", tuple(cards), 3, drawn=2, owner=1)
    owned = Peers(3, spec=spec)
    owned.table = DeckTable.new(spec, table.points)
    mine = owned.table
    mine = mine.accept_own(1, owned.seats[1].own(mine, held))
    for seat in owned.seats:
        mine = mine.accept_lock(seat.seat, seat.lock(mine))
    owned.table = mine
    result = audit(mine, owned.audits(), held)
    return {
        "deck": {"label": "main5", "cards": cards, "final": [p.hex() for p in table.current]},
        "label": "redeal0s1", "owner": 1, "held_positions": [0, 1], "held": held,
        "secrets": [_secrets_vector(s.secrets) for s in owned.seats],
        "own_sha256": _h(mine.masked[0]),
        "locked_sha256": [_h(d) for d in mine.locked],
        "final": [p.hex() for p in mine.current],
        "audit": str(result),
        "order": [mine.card(slot) for slot in result.order or ()],
    }


def pool_vector_run() -> dict:
    """A 3-seat deck of three cards that draws two of a pool of five face down."""
    cards, pool = ["a", "b", "c"], ["g0", "g1", "g2", "g3", "g4"]
    peers = Peers(3, spec=DeckSpec("deck-0001", "age3", tuple(cards), 3, tuple(pool), 2))
    table = peers.deal()
    result = audit(table, peers.audits())
    candidates = cards + pool
    return {
        "label": "age3", "cards": cards, "pool": pool, "drawn": 2,
        "points": [p.hex() for p in table.points],
        "secrets": [_secrets_vector(s.secrets) for s in peers.seats],
        "masked_sha256": [_h(d) for d in table.masked],
        "shuffled_sha256": [_h(d) for d in table.shuffled],
        "locked_sha256": [_h(d) for d in table.locked],
        "final": [p.hex() for p in table.current],
        "audit": str(result),
        "order": [candidates[slot] for slot in result.order or ()],
        "pool_order": [pool[i] for i in result.pool_order or ()],
    }


def test_vectors_match_the_committed_file():
    assert vector_run() == json.loads(VECTORS.read_text())


def test_vectors_are_the_same_in_another_process_with_another_hash_seed():
    code = "import json, sys; from tests.net.test_deck import vector_run; json.dump(vector_run(), sys.stdout)"
    env = {**os.environ, "PYTHONHASHSEED": "4242"}
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, check=True
    )
    assert json.loads(out.stdout) == json.loads(VECTORS.read_text())


if __name__ == "__main__" and sys.argv[1:] == ["--write"]:
    VECTORS.write_text(json.dumps(vector_run(), indent=1) + "\n")
    print(f"wrote {VECTORS}")

