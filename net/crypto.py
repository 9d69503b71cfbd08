"""The protocol's hash formulas: seed agreement, action commitments and the log's hash chain.

All are SHA-256 over a domain string, the game id and fixed-width big-endian integers, so
another implementation can reproduce them byte for byte (test vectors in docs/protocol.md).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from hashlib import sha256
from typing import Any

from engine.core import canonical

SEED_COMMIT_DOMAIN = b"gamenight/v1/seed-commit\x00"
SEED_DOMAIN = b"gamenight/v1/seed\x00"
COMMIT_DOMAIN = b"gamenight/v1/commit\x00"
GENESIS_DOMAIN = b"gamenight/v1/genesis\x00"
ENTRY_DOMAIN = b"gamenight/v1/entry\x00"


def _u64(n: int) -> bytes:
    return n.to_bytes(8, "big")


def _gid(gid: str) -> bytes:
    return gid.encode() + b"\x00"


def seed_commit(gid: str, seat: int, secret: bytes) -> bytes:
    """What seat publishes first: SHA-256(domain || gid || 0 || seat || secret)."""
    return sha256(SEED_COMMIT_DOMAIN + _gid(gid) + _u64(seat) + secret).digest()


def game_seed(gid: str, secrets: Sequence[bytes]) -> bytes:
    """SHA-256(domain || gid || 0 || r_0 || ... || r_{n-1}), secrets in seat order."""
    return sha256(SEED_DOMAIN + _gid(gid) + b"".join(secrets)).digest()


def action_commit(gid: str, step: int, seat: int, action: Any, salt: bytes) -> bytes:
    """SHA-256(domain || gid || 0 || step || seat || canonical(action) || salt)."""
    return sha256(
        COMMIT_DOMAIN + _gid(gid) + _u64(step) + _u64(seat) + canonical(action) + salt
    ).digest()


def genesis_hash(gid: str, seed: bytes, state_hash0: bytes) -> bytes:
    """Head of the hash chain before step 0."""
    return sha256(GENESIS_DOMAIN + _gid(gid) + seed + state_hash0).digest()


def entry_hash(prev: bytes, actions: Mapping[int, Any], state_hash_after: bytes) -> bytes:
    """Hash of log entry k: the previous head, the step's (seat, action) pairs, the new state."""
    step = tuple((seat, actions[seat]) for seat in sorted(actions))
    return sha256(ENTRY_DOMAIN + prev + canonical(step) + state_hash_after).digest()
