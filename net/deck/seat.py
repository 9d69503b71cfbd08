"""One seat's side of a deck: its secret keys and permutation, and the keys it was sent.

`DeckSeat` never does I/O: each method returns the body to publish (a map of bytes, ints and
lists, ready for msgpack) or records what it received. Its randomness comes in as `entropy`
(32 random bytes or more from the caller), so a run is reproducible when the entropy is.
`to_plain`/`from_plain` store it with the peer's other secrets for a resume.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from hashlib import sha256, sha512
from typing import Any

from nacl import bindings as na
from nacl.public import PrivateKey

from engine.core import Rng

from . import group
from .errors import Cheat, DeckError, NotNow
from .table import DeckSpec, DeckTable

SECRET_DOMAIN = b"gamenight/v1/deck-secret\x00"
MIN_ENTROPY = 32


@dataclass(frozen=True, slots=True)
class DeckSecrets:
    """A seat's deck key x, its pass-1 permutation, and its key k_pos for every position;
    with a pool, also its pool key y and its permutation of the pool.

    Pass 0 publishes y·in[i] for the deck's own cards and y·in[c + pool_perm[j]] for the
    pool's (c own cards); pass 1 publishes out[i] = x·in[perm[i]]; pass 2 publishes
    out[pos] = (k_pos/(x·y))·in[pos] (y = 1 without a pool).
    """

    deck_key: bytes
    perm: tuple[int, ...]
    keys: tuple[bytes, ...]
    pool_key: bytes | None = None
    pool_perm: tuple[int, ...] = ()

    @staticmethod
    def derive(spec: DeckSpec, seat: int, entropy: bytes) -> DeckSecrets:
        """The reference derivation from entropy (another client may draw its secrets any way)."""
        if len(entropy) < MIN_ENTROPY:
            raise ValueError(f"deck entropy must be at least {MIN_ENTROPY} bytes")
        base = (
            SECRET_DOMAIN + group.text0(spec.gid) + group.text0(spec.label) + group.u64(seat)
            + group.u64(len(entropy)) + entropy
        )
        n = spec.size
        perm, _ = Rng(sha256(base + b"perm").digest()).shuffle(range(n))
        keys = tuple(_scalar(base + b"pos" + group.u64(pos)) for pos in range(n))
        if spec.owner is not None and spec.owner != seat:  # it only locks: no deck key, no order
            return DeckSecrets(group.ONE, tuple(range(n)), keys)
        if not spec.pool:
            return DeckSecrets(_scalar(base + b"deck"), perm, keys)
        pool_perm, _ = Rng(sha256(base + b"pool-perm").digest()).shuffle(range(len(spec.pool)))
        return DeckSecrets(_scalar(base + b"deck"), perm, keys, _scalar(base + b"pool"), pool_perm)

    @property
    def unkey(self) -> bytes:
        """1/(x·y): what the lock pass removes besides adding the position keys."""
        keys = (self.deck_key,) if self.pool_key is None else (self.deck_key, self.pool_key)
        return group.invert(group.product(keys))

    def to_plain(self) -> dict[str, Any]:
        out = {"deck_key": self.deck_key, "perm": list(self.perm), "keys": list(self.keys)}
        if self.pool_key is not None:
            out.update(pool_key=self.pool_key, pool_perm=list(self.pool_perm))
        return out

    @staticmethod
    def from_plain(data: Mapping[str, Any]) -> DeckSecrets:
        return DeckSecrets(data["deck_key"], tuple(data["perm"]), tuple(data["keys"]),
                           data.get("pool_key"), tuple(data.get("pool_perm", ())))


def _scalar(prefix: bytes) -> bytes:
    """A non-zero scalar from SHA-512(prefix ‖ counter); zero (chance 2^-252) tries the next."""
    counter = 0
    while True:
        k = group.scalar_from_hash(sha512(prefix + group.u64(counter)).digest())
        if group.is_scalar(k):
            return k
        counter += 1


@contextmanager
def _blame(table: DeckTable) -> Iterator[None]:
    """A point of the deck received that is no group element is its publisher's fault."""
    try:
        yield
    except group.NotInGroup:
        seat = table.publisher
        if seat is None:  # the card encoding is checked when the table is made
            raise
        raise Cheat(seat, "bad_point", "its deck holds a point outside the group") from None


class DeckSeat:
    """One seat's secrets for one deck, and the keys other seats sent it (by position)."""

    __slots__ = ("spec", "seat", "secrets", "received")

    def __init__(
        self,
        spec: DeckSpec,
        seat: int,
        secrets: DeckSecrets,
        received: Mapping[int, Mapping[int, bytes]] | None = None,
    ) -> None:
        if not 0 <= seat < spec.seats:
            raise ValueError(f"seat {seat} is not at a {spec.seats}-seat table")
        self.spec = spec
        self.seat = seat
        self.secrets = secrets
        self.received: dict[int, dict[int, bytes]] = {
            pos: dict(keys) for pos, keys in (received or {}).items()
        }

    @staticmethod
    def create(spec: DeckSpec, seat: int, entropy: bytes) -> DeckSeat:
        return DeckSeat(spec, seat, DeckSecrets.derive(spec, seat, entropy))

    # -- the passes ---------------------------------------------------------------------

    def mask(self, table: DeckTable) -> dict[str, Any]:
        """Pass 0 (a deck with a pool): mask every candidate with the pool key and permute
        only the pool, so that nobody knows which pool cards the first `drawn` slots hold."""
        self._turn(table, "mask")
        deck, y, own = table.current, self.secrets.pool_key, len(self.spec.cards)
        order = list(range(own)) + [own + j for j in self.secrets.pool_perm]
        with _blame(table):
            cards = [group.mul(deck[i], y) for i in order]
        return {"deck": self.spec.label, "cards": cards}

    def own(self, table: DeckTable, faces: Sequence[Any]) -> dict[str, Any]:
        """An owned deck's pass, by its owner: the faces of its cards (in the order the table
        names them) masked with its deck key, in its own order."""
        self._turn(table, "own")
        if len(faces) != self.spec.size:
            raise DeckError(f"seat {self.seat} deals {self.spec.size} cards, not {len(faces)}", "wrong_count")
        x, points = self.secrets.deck_key, table.points
        cards = [group.mul(points[table.index(faces[i])], x) for i in self.secrets.perm]
        return {"deck": self.spec.label, "cards": cards}

    def shuffle(self, table: DeckTable) -> dict[str, Any]:
        """Pass 1: mask every card with the deck key and permute the deck."""
        self._turn(table, "shuffle")
        deck, x, perm = table.current, self.secrets.deck_key, self.secrets.perm
        with _blame(table):
            cards = [group.mul(deck[i], x) for i in perm]
        return {"deck": self.spec.label, "cards": cards}

    def lock(self, table: DeckTable) -> dict[str, Any]:
        """Pass 2: swap the deck key (and pool key) for a key per position, committing to each."""
        self._turn(table, "lock")
        x_inv = self.secrets.unkey
        deck, keys = table.current, self.secrets.keys
        with _blame(table):
            cards = [
                group.mul(p, na.crypto_core_ed25519_scalar_mul(x_inv, k))
                for p, k in zip(deck, keys, strict=True)
            ]
        return {
            "deck": self.spec.label,
            "cards": cards,
            "commits": [group.commit(k) for k in keys],
        }

    def _turn(self, table: DeckTable, phase: str) -> None:
        if table.spec != self.spec:
            raise DeckError("that table is another deck", "other_deck")
        if table.phase != phase or table.turn != self.seat:
            raise NotNow(f"it is not seat {self.seat}'s {phase} pass", "out_of_turn")

    # -- reveals ------------------------------------------------------------------------

    def send_keys(self, positions: Sequence[int], to: int, to_public: bytes) -> dict[str, Any]:
        """Private reveal: this seat's keys for `positions`, in one box sealed to seat `to`.

        One box per receiver and batch (a whole hand) rather than per card: a box costs about
        what a scalar multiplication does, at both ends.
        """
        keys = b"".join(self.secrets.keys[pos] for pos in positions)
        box = group.seal_keys(keys, to_public)
        return {"deck": self.spec.label, "to": to, "pos": list(positions), "box": box}

    def receive_keys(
        self, table: DeckTable, sender: int, body: Mapping[str, Any], secret: PrivateKey
    ) -> tuple[int, ...]:
        """Open keys sent to this seat, each checked at once against the sender's commitment.

        Returns the positions; a box that does not open or any wrong key names the sender, and
        then nothing of that box is kept.
        """
        if body.get("deck") != self.spec.label or body.get("to") != self.seat:
            raise NotNow("keys for another deck or seat", "not_for_me")
        if not 0 <= sender < self.spec.seats or sender == self.seat:
            raise DeckError(f"seat {sender} cannot send seat {self.seat} keys", "bad_sender")
        positions, box = body.get("pos"), body.get("box")
        if (
            not isinstance(positions, (list, tuple))
            or not positions
            or not all(isinstance(p, int) and not isinstance(p, bool) for p in positions)
            or len(set(positions)) != len(positions)
        ):
            raise Cheat(sender, "malformed", "its positions are not a list of distinct positions")
        plain = group.open_keys(box, secret) if isinstance(box, bytes) else None
        if plain is None or len(plain) != group.SCALAR_BYTES * len(positions):
            raise Cheat(sender, "bad_box", f"its keys for positions {positions} do not open")
        size = group.SCALAR_BYTES
        keys = [plain[i * size:(i + 1) * size] for i in range(len(positions))]
        for pos, key in zip(positions, keys, strict=True):
            table.check_key(sender, pos, key)
        for pos, key in zip(positions, keys, strict=True):
            self.received.setdefault(pos, {})[sender] = key
        return tuple(positions)

    def keys_for(self, pos: int) -> list[bytes] | None:
        """Every seat's key for pos (own included) once all were received, else None."""
        got = self.received.get(pos, {})
        keys = [self.secrets.keys[pos] if s == self.seat else got.get(s) for s in range(self.spec.seats)]
        return None if None in keys else keys  # type: ignore[return-value]

    def card_at(self, table: DeckTable, pos: int) -> int | None:
        """The slot of the card at pos if this seat holds every key for it, else None."""
        keys = self.keys_for(pos)
        return None if keys is None else table.unmask(pos, keys)

    def public_key(self, pos: int) -> dict[str, Any]:
        """Public reveal: this seat's key for pos, for everyone."""
        return {"deck": self.spec.label, "pos": pos, "key": self.secrets.keys[pos]}

    def prove(self, pos: int) -> dict[str, Any]:
        """Proof by the owner: every key of a card it holds, so anyone can open that card."""
        keys = self.keys_for(pos)
        if keys is None:
            raise DeckError(f"seat {self.seat} does not hold position {pos}", "not_held")
        return {"deck": self.spec.label, "pos": pos, "keys": keys}

    def audit(self) -> dict[str, Any]:
        """End of game: the deck key, the permutation and every position key, for the replay."""
        return {"deck": self.spec.label, **self.secrets.to_plain()}

    # -- resume -------------------------------------------------------------------------

    def to_plain(self) -> dict[str, Any]:
        received = [[pos, sender, key] for pos, keys in sorted(self.received.items())
                    for sender, key in sorted(keys.items())]
        return {"seat": self.seat, "secrets": self.secrets.to_plain(), "received": received}

    @staticmethod
    def from_plain(spec: DeckSpec, data: Mapping[str, Any]) -> DeckSeat:
        received: dict[int, dict[int, bytes]] = {}
        for pos, sender, key in data["received"]:
            received.setdefault(pos, {})[sender] = key
        return DeckSeat(spec, data["seat"], DeckSecrets.from_plain(data["secrets"]), received)
