"""Who may sit or watch: the table's pin (the host's key fingerprint and a table secret).

The invite code carries the pin. A joiner trusts only the host whose key matches the
fingerprint, and proves it holds the secret with an HMAC over its own key, so the secret
itself never goes on the wire. The host derives the secret from its signing key and the game
id (Ed25519 signatures are deterministic), so it needs no storage and survives a restart.
"""

from __future__ import annotations

import hashlib
import hmac
from dataclasses import dataclass

from ..identity import Identity

FINGERPRINT_BYTES = 10  # 80 bits: finding another key with the same fingerprint costs ~2^80
SECRET_BYTES = 10  # 80 bits: never sent, only proven; guessing it online is hopeless
TABLE_SECRET_DOMAIN = b"gamenight/v1/table-secret\x00"
ADMIT_DOMAIN = b"gamenight/v1/admit\x00"


@dataclass(frozen=True)
class TablePin:
    """What an invite code adds to the game id: whom to trust and what to prove."""

    fingerprint: bytes
    secret: bytes

    def trusts(self, key: bytes) -> bool:
        return hmac.compare_digest(fingerprint(key), self.fingerprint)


def fingerprint(key: bytes) -> bytes:
    return hashlib.sha256(key).digest()[:FINGERPRINT_BYTES]


def host_pin(identity: Identity, gid: str) -> TablePin:
    """The pin of the table `gid` hosted by `identity` (the same every time it is asked)."""
    signature = identity.signing_key.sign(TABLE_SECRET_DOMAIN + gid.encode()).signature
    secret = hashlib.sha256(TABLE_SECRET_DOMAIN + signature).digest()[:SECRET_BYTES]
    return TablePin(fingerprint(identity.public), secret)


def admission_proof(secret: bytes, gid: str, key: bytes) -> bytes:
    """HMAC-SHA-256(secret, domain || gid || 0 || key): `key` was given this table's invite."""
    return hmac.new(secret, ADMIT_DOMAIN + gid.encode() + b"\x00" + key, hashlib.sha256).digest()


def proof_ok(secret: bytes | None, gid: str, key: bytes, proof: bytes) -> bool:
    if secret is None or len(proof) != 32:
        return False
    return hmac.compare_digest(admission_proof(secret, gid, key), proof)
