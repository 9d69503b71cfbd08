"""The edwards25519 operations the deck needs, each a thin call into libsodium (PyNaCl).

Points are 32-byte encodings of elements of the prime-order subgroup; scalars are 32-byte
little-endian integers below the group order L, never zero. Nothing here is a new primitive:
card encoding is `crypto_core_ed25519_from_uniform` of a SHA-256, masking is
`crypto_scalarmult_ed25519_noclamp`, a key's commitment is `k·B` with
`crypto_scalarmult_ed25519_base_noclamp`, and a key travels to one seat in a sealed box to
that seat's Ed25519 key converted to Curve25519.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from hashlib import sha256

from nacl import bindings as na
from nacl.exceptions import CryptoError
from nacl.exceptions import RuntimeError as NaclRuntimeError
from nacl.public import PrivateKey, PublicKey, SealedBox

from engine.core import canonical

POINT_BYTES = 32
SCALAR_BYTES = 32
CARD_DOMAIN = b"gamenight/v1/deck-card\x00"
_ZERO = bytes(SCALAR_BYTES)
# The scalar 1, so a product of no keys is the identity on points.
ONE = (1).to_bytes(SCALAR_BYTES, "little")


def u64(n: int) -> bytes:
    return n.to_bytes(8, "big")


def text0(s: str) -> bytes:
    """A string as UTF-8 with a terminating zero byte, so fields cannot run into each other."""
    return s.encode() + b"\x00"


def card_point(gid: str, label: str, slot: int, card: object) -> bytes:
    """The point of card `slot` (its index in the setup list) of deck `label` of game `gid`.

    The slot is hashed with the card id so two copies of one card id are two distinct points.
    """
    digest = sha256(
        CARD_DOMAIN + text0(gid) + text0(label) + u64(slot) + canonical(card)
    ).digest()
    return na.crypto_core_ed25519_from_uniform(digest)


def encode_deck(gid: str, label: str, cards: Sequence[object]) -> tuple[bytes, ...]:
    """Every card's point, in setup order; checked valid and distinct (a collision is a bug)."""
    points = tuple(card_point(gid, label, slot, card) for slot, card in enumerate(cards))
    if len(set(points)) != len(points) or not all(map(is_point, points)):
        raise ValueError(f"deck {label!r} of {gid!r} does not encode to distinct points")
    return points


class NotInGroup(ValueError):
    """A 32-byte string that is not a point of the prime-order group (libsodium refused it)."""


def is_encoding(p: object) -> bool:
    """32 bytes: the shape of a point, checked when a deck arrives (validity costs more)."""
    return isinstance(p, bytes) and len(p) == POINT_BYTES


def is_point(p: object) -> bool:
    """A canonical encoding of a point of the prime-order subgroup (not the identity)."""
    return (
        isinstance(p, bytes)
        and len(p) == POINT_BYTES
        and bool(na.crypto_core_ed25519_is_valid_point(p))
    )


def is_scalar(k: object) -> bool:
    """A canonical, non-zero scalar: the only keys a seat may use or send."""
    return (
        isinstance(k, bytes)
        and len(k) == SCALAR_BYTES
        and k != _ZERO
        and na.crypto_core_ed25519_scalar_reduce(k + _ZERO) == k
    )


def scalar_from_hash(digest64: bytes) -> bytes:
    """A scalar from 64 uniform bytes (reduction mod L; the bias is below 2^-250)."""
    return na.crypto_core_ed25519_scalar_reduce(digest64)


def mul(point: bytes, scalar: bytes) -> bytes:
    """scalar·point. libsodium refuses a point outside the prime-order subgroup (or of small
    order) here, so whoever multiplies a published point has checked it: no separate check."""
    try:
        return na.crypto_scalarmult_ed25519_noclamp(scalar, point)
    except NaclRuntimeError:
        raise NotInGroup(f"{point.hex()} is not a point of the group") from None


def commit(scalar: bytes) -> bytes:
    """The public commitment to a key: k·B."""
    return na.crypto_scalarmult_ed25519_base_noclamp(scalar)


def invert(scalar: bytes) -> bytes:
    return na.crypto_core_ed25519_scalar_invert(scalar)


def product(scalars: Iterable[bytes]) -> bytes:
    out = ONE
    for k in scalars:
        out = na.crypto_core_ed25519_scalar_mul(out, k)
    return out


def unmask(point: bytes, keys: Iterable[bytes]) -> bytes:
    """The point with every key in `keys` removed: (prod keys)^-1 · point."""
    return mul(point, invert(product(keys)))


def seal_keys(keys: bytes, to_ed25519: bytes) -> bytes:
    """Keys encrypted to one peer: a sealed box to its Ed25519 public key, as Curve25519."""
    curve = na.crypto_sign_ed25519_pk_to_curve25519(to_ed25519)
    return SealedBox(PublicKey(curve)).encrypt(keys)


def box_secret(seed: bytes) -> PrivateKey:
    """The Curve25519 key that opens boxes sealed to the Ed25519 key of this 32-byte seed."""
    _, secret = na.crypto_sign_seed_keypair(seed)
    return PrivateKey(na.crypto_sign_ed25519_sk_to_curve25519(secret))


def open_keys(box: bytes, secret: PrivateKey) -> bytes | None:
    """The content of a sealed box to `secret`; None if it does not open."""
    try:
        return SealedBox(secret).decrypt(box)
    except (CryptoError, TypeError, ValueError):
        return None
