"""The envelope codec: strict decoding, signatures, and the protocol's hash formulas."""

from __future__ import annotations

import msgpack
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.core import canonical
from net import crypto
from net.codec import MAX_SIZE, PROTOCOL_VERSION, ZERO32, canonical_bytes, decode_envelope
from net.errors import (
    BadField,
    BadSignature,
    Malformed,
    Oversize,
    UnknownKind,
    WireError,
    WrongVersion,
)
from net.identity import Identity, load_or_create

ALICE = Identity.from_seed(bytes(range(32)))
BOB = Identity.from_seed(bytes(range(1, 33)))


def fields(**over):
    base = {
        "v": PROTOCOL_VERSION, "g": "money-0001", "k": "chat", "p": ALICE.public, "s": 0, "n": 3,
        "q": 7, "b": {"text": "hello"}, "h": ZERO32, "c": ZERO32,
    }
    base.update(over)
    return base


def test_a_signed_envelope_round_trips() -> None:
    raw = ALICE.sign(fields())
    env = decode_envelope(raw)
    assert (env.kind, env.gid, env.seat, env.step, env.body) == ("chat", "money-0001", 0, 3, {"text": "hello"})
    assert env.sender == ALICE.public and env.raw == raw


def _resign(data: dict, who: Identity = ALICE) -> bytes:
    return who.sign({k: v for k, v in data.items() if k != "z"})


def test_malformed_bytes_are_refused() -> None:
    with pytest.raises(Malformed):
        decode_envelope(b"\xc1\xff\x00garbage")
    with pytest.raises(Malformed):
        decode_envelope(msgpack.packb([1, 2, 3]))


def test_oversize_is_refused_before_decoding() -> None:
    with pytest.raises(Oversize):
        decode_envelope(b"\x00" * (MAX_SIZE + 1))


@pytest.mark.parametrize(
    "change",
    [
        {"s": "0"},  # seat as text
        {"n": -1},  # negative step
        {"p": b"short"},  # key of the wrong size
        {"h": "00" * 32},  # hash as text
        {"b": {"text": 5}},  # body field of the wrong type
        {"b": {"text": "x", "more": 1}},  # unknown body field
        {"b": {}},  # missing body field
        {"g": "has space"},  # bad game id
    ],
)
def test_wrong_field_types_are_refused(change) -> None:
    data = msgpack.unpackb(ALICE.sign(fields()), raw=False)
    data.update(change)
    with pytest.raises(BadField):
        decode_envelope(canonical_bytes(data))


def test_missing_and_unknown_fields_are_refused() -> None:
    data = msgpack.unpackb(ALICE.sign(fields()), raw=False)
    del data["q"]
    with pytest.raises(BadField, match="missing field q"):
        decode_envelope(canonical_bytes(data))
    data = msgpack.unpackb(ALICE.sign(fields()), raw=False)
    data["x"] = 1
    with pytest.raises(BadField, match="unknown field x"):
        decode_envelope(canonical_bytes(data))


def test_unknown_kind_and_version_are_refused() -> None:
    data = msgpack.unpackb(ALICE.sign(fields()), raw=False)
    data["k"] = "teleport"
    with pytest.raises(UnknownKind):
        decode_envelope(canonical_bytes(data))
    data = msgpack.unpackb(ALICE.sign(fields()), raw=False)
    data["v"] = 99
    with pytest.raises(WrongVersion):
        decode_envelope(canonical_bytes(data))


def test_floats_are_refused() -> None:
    raw = canonical_bytes({**fields(k="act", b={"action": 1.5}), "z": bytes(64)})
    with pytest.raises(BadField, match="float"):
        decode_envelope(raw)


def test_a_tampered_message_fails_its_signature() -> None:
    data = msgpack.unpackb(ALICE.sign(fields()), raw=False)
    data["b"]["text"] = "goodbye"
    with pytest.raises(BadSignature):
        decode_envelope(canonical_bytes(data))
    data = msgpack.unpackb(ALICE.sign(fields()), raw=False)
    data["p"] = BOB.public  # claims to be Bob, signed by Alice
    with pytest.raises(BadSignature):
        decode_envelope(canonical_bytes(data))


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=600))
def test_fuzz_random_bytes_only_raise_wire_errors(data: bytes) -> None:
    try:
        decode_envelope(data)
    except WireError:
        pass


_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**63), 2**64 - 1) | st.text(max_size=8)
    | st.binary(max_size=40) | st.floats(allow_nan=False),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=3), inner, max_size=4),
    max_leaves=12,
)


@settings(max_examples=300, deadline=None)
@given(st.dictionaries(st.sampled_from(list("vgkpsnqbhczx")), _values, max_size=12))
def test_fuzz_structured_maps_only_raise_wire_errors(data: dict) -> None:
    try:
        decode_envelope(msgpack.packb(data, use_bin_type=True))
    except WireError:
        pass


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 200), st.integers(0, 2000))
def test_fuzz_flipping_one_byte_never_passes_silently(position: int, flip: int) -> None:
    raw = bytearray(ALICE.sign(fields()))
    position %= len(raw)
    raw[position] ^= (flip % 255) + 1
    try:
        env = decode_envelope(bytes(raw))
    except WireError:
        return
    # a flip msgpack tolerates (none should) must still be the same signed content
    assert env.body == {"text": "hello"} and env.sender == ALICE.public


def test_identity_is_created_once_and_kept(tmp_path) -> None:
    first = load_or_create(tmp_path / "id.key")
    again = load_or_create(tmp_path / "id.key")
    assert first.public == again.public
    assert (tmp_path / "id.key").stat().st_mode & 0o777 == 0o600


# ---- the formulas of docs/protocol.md, with its test vectors ----------------------------
GID = "money-0001"
R = [bytes([i]) * 32 for i in range(3)]


VECTORS = {
    "seed_commit": "da4c6ad2665ec81c85fde7ae046ba1c060f0a3e848d4d867dd17f68ae3b834dc",
    "seed": "abb4e7289b82f1ef3701ac24c47963050c70a0e2b8b5b06a458bde956d00ce7e",
    "canonical": "92a362696403",
    "commit": "f97d8a99761825f70dc67fcdd44bcd6fc06d6e0229e439a17a1122bed2ba75af",
    "genesis": "408a61c59fca2245e31df70a612d86b413276e48991d123228fdb626448a6ff9",
    "entry": "9acccbaea02118b8f789f32dba907b689a5fc905d88923194d06173be8791e2c",
}


def test_hash_formulas_match_the_protocol_document_vectors() -> None:
    seed = crypto.game_seed(GID, R)
    assert crypto.seed_commit(GID, 0, R[0]).hex() == VECTORS["seed_commit"]
    assert seed.hex() == VECTORS["seed"]
    assert canonical(("bid", 3)).hex() == VECTORS["canonical"]
    assert crypto.action_commit(GID, 4, 1, ("bid", 3), bytes(32)).hex() == VECTORS["commit"]
    genesis = crypto.genesis_hash(GID, seed, bytes(32))
    assert genesis.hex() == VECTORS["genesis"]
    step = {1: ("bid", 3), 0: ("bid", 1)}
    assert crypto.entry_hash(genesis, step, b"\x11" * 32).hex() == VECTORS["entry"]


def test_the_seed_depends_on_every_share_in_seat_order() -> None:
    seed = crypto.game_seed(GID, R)
    assert seed != crypto.game_seed(GID, [R[1], R[0], R[2]])
    assert seed != crypto.game_seed(GID, [R[0], R[1], bytes(32)])


def test_commit_binds_step_seat_action_and_salt() -> None:
    salt = bytes(32)
    base = crypto.action_commit(GID, 4, 1, ("bid", 3), salt)
    assert base != crypto.action_commit(GID, 5, 1, ("bid", 3), salt)
    assert base != crypto.action_commit(GID, 4, 2, ("bid", 3), salt)
    assert base != crypto.action_commit(GID, 4, 1, ("bid", 2), salt)
    assert base != crypto.action_commit(GID, 4, 1, ("bid", 3), b"\x01" * 32)
    assert base != crypto.action_commit("money-0002", 4, 1, ("bid", 3), salt)
    assert canonical(("bid", 3)) not in base


def test_the_wire_form_is_canonical_and_a_non_canonical_encoder_still_verifies() -> None:
    raw = ALICE.sign(fields())
    data = msgpack.unpackb(raw, raw=False)
    assert raw == canonical_bytes(data), "the sealed bytes must be the canonical encoding"
    shuffled = msgpack.packb(dict(reversed(list(data.items()))), use_bin_type=True)  # keys unsorted
    assert shuffled != raw
    assert decode_envelope(shuffled).body == {"text": "hello"}


def test_a_signature_is_checked_against_the_parsed_fields_not_just_the_bytes() -> None:
    data = msgpack.unpackb(ALICE.sign(fields()), raw=False)
    data["n"] = 4  # same layout, one field changed: the fast path and the re-encoding both fail
    with pytest.raises(BadSignature):
        decode_envelope(canonical_bytes(data))
