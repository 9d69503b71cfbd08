"""Who a peer is: an Ed25519 key pair, created on first run and kept in the user data directory."""

from __future__ import annotations

from dataclasses import dataclass, field
from hashlib import sha256
from pathlib import Path
from typing import Any

from nacl.signing import SigningKey

from .codec import seal
from .paths import atomic_write, data_dir

KEY_FILE = "identity.key"
BOT_DOMAIN = b"gamenight/v1 bot randomness\0"


@dataclass
class Identity:
    """A signing key and the public key that names this peer on the wire."""

    signing_key: SigningKey
    _nonce: int = field(default=0, repr=False)

    @property
    def public(self) -> bytes:
        return bytes(self.signing_key.verify_key)

    @property
    def peer_id(self) -> str:
        """Short printable id (topic segment): first 16 hex digits of SHA-256(public key)."""
        return peer_id(self.public)

    @property
    def bot_secret(self) -> bytes:
        """32 bytes a bot playing under this key draws its randomness from.

        Derived from the private seed under its own domain, so it lives (and is backed up)
        with the key and never goes on the wire: nobody without the key file can predict the
        bot's choices. (It used to be the public key: 219 of 219 choices were predicted.)
        """
        return sha256(BOT_DOMAIN + bytes(self.signing_key)).digest()

    def next_nonce(self) -> int:
        self._nonce += 1
        return self._nonce

    def sign(self, fields: dict[str, Any]) -> bytes:
        return seal(self.signing_key, fields)

    @staticmethod
    def generate() -> Identity:
        return Identity(SigningKey.generate())

    @staticmethod
    def from_seed(seed: bytes) -> Identity:
        return Identity(SigningKey(seed))


def peer_id(public: bytes) -> str:
    return sha256(public).hexdigest()[:16]


def load_or_create(path: Path | None = None) -> Identity:
    """The identity stored at `path` (default: <data dir>/identity.key), created if absent."""
    path = path or data_dir() / KEY_FILE
    try:
        seed = path.read_bytes()
        if len(seed) == 32:
            return Identity.from_seed(seed)
    except FileNotFoundError:
        pass
    identity = Identity.generate()
    path.parent.mkdir(parents=True, exist_ok=True)
    atomic_write(path, bytes(identity.signing_key), mode=0o600)
    return identity
