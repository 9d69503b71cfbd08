"""The end-of-game audit: every seat's secrets published, every pass replayed by every peer.

Each pass is judged against the deck its seat received (the previous seat's published deck),
so one seat's cheat never makes a later honest seat look guilty. The result is the same for
every peer that holds the same table and the same audit bodies.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from nacl import bindings as na

from . import group
from .table import Deck, DeckTable


@dataclass(frozen=True, slots=True)
class Accusation:
    seat: int
    code: str
    reason: str

    def __str__(self) -> str:
        return f"seat {self.seat}: {self.reason}"


@dataclass(frozen=True, slots=True)
class AuditResult:
    """Verified (no one accused, and the whole deck order known) or the seats at fault."""

    accused: tuple[Accusation, ...]
    order: tuple[int, ...] | None  # the slot at every final position, when verified
    # a deck with a pool: the pool card (its index in the pool) at each pool position after
    # pass 0, when verified; the first `drawn` went into the deck, the others stayed out
    pool_order: tuple[int, ...] | None = None

    @property
    def verified(self) -> bool:
        return not self.accused

    @property
    def seats(self) -> tuple[int, ...]:
        return tuple(a.seat for a in self.accused)

    def __str__(self) -> str:
        return "verified" if self.verified else "; ".join(map(str, self.accused))


@dataclass(frozen=True, slots=True)
class _Published:
    deck_key: bytes
    perm: tuple[int, ...]
    keys: tuple[bytes, ...]
    pool_key: bytes = group.ONE
    pool_perm: tuple[int, ...] = ()


def audit(table: DeckTable, bodies: Mapping[int, Mapping[str, Any]],
          held: Sequence[Any] | None = None) -> AuditResult:
    """Replay every pass of every seat from its audit body (seat -> body). An owned deck is
    checked against `held`: the faces of the cards its owner held, in the order the table
    names them (known once the decks they came from are audited)."""
    if table.phase != "ready":
        raise ValueError("only a dealt deck can be audited")
    if table.spec.owner is not None and (held is None or len(held) != table.size):
        raise ValueError("an owned deck is audited against the cards its owner held")
    accused = []
    for seat in range(table.spec.seats):
        fault = _judge(table, seat, bodies.get(seat), held)
        if fault is not None:
            accused.append(Accusation(seat, *fault))
    if accused:
        return AuditResult(tuple(accused), None)
    return AuditResult((), _order(table, bodies), _pool_order(table, bodies))


def _judge(table: DeckTable, seat: int, body: Mapping[str, Any] | None,
           held: Sequence[Any] | None = None) -> tuple[str, str] | None:
    """(code, reason) of the first fault of this seat, None if its passes replay exactly."""
    if body is None:
        return "no_audit", "published no audit"
    published = _parse(table, body)
    if isinstance(published, tuple):
        return published
    fault = _check_commitments(table, seat, published.keys)
    if fault is None and table.spec.pool:
        fault = _replay_mask(table, seat, published)
    if fault is None and table.spec.owner is not None:
        fault = _replay_own(table, seat, published, held or ())
    elif fault is None:
        fault = _replay_shuffle(table, seat, published)
    if fault is None:
        fault = _replay_lock(table, seat, published)
    return fault


def _parse(table: DeckTable, body: Mapping[str, Any]) -> _Published | tuple[str, str]:
    n = table.size
    key, perm, keys = body.get("deck_key"), body.get("perm"), body.get("keys")
    if body.get("deck") != table.spec.label:
        return "malformed", f"its audit is not for deck {table.spec.label!r}"
    if not group.is_scalar(key):
        return "malformed", "its deck key is not a scalar"
    fault = _check_permutation(perm, n, "")
    if fault is not None:
        return fault
    if not isinstance(keys, (list, tuple)) or len(keys) != n:
        return "malformed", f"its audit must carry {n} position keys"
    for pos, k in enumerate(keys):
        if not group.is_scalar(k):
            return "malformed", f"its key for position {pos} is not a scalar"
    if not table.spec.pool:
        return _Published(key, tuple(perm), tuple(keys))  # type: ignore[arg-type]
    pool_key, pool_perm = body.get("pool_key"), body.get("pool_perm")
    if not group.is_scalar(pool_key):
        return "malformed", "its pool key is not a scalar"
    fault = _check_permutation(pool_perm, len(table.spec.pool), "pool ")
    if fault is not None:
        return fault
    return _Published(key, tuple(perm), tuple(keys), pool_key, tuple(pool_perm))  # type: ignore[arg-type]


def _check_permutation(perm: object, n: int, what: str) -> tuple[str, str] | None:
    if not isinstance(perm, (list, tuple)) or not all(
        isinstance(i, int) and not isinstance(i, bool) for i in perm
    ):
        return "malformed", f"its {what}permutation is not a list of positions"
    if sorted(perm) != list(range(n)):
        return "bad_permutation", f"its {what}permutation is not one of the {n} positions"
    return None


def _check_commitments(table: DeckTable, seat: int, keys: Sequence[bytes]) -> tuple[str, str] | None:
    for pos, (k, c) in enumerate(zip(keys, table.commits[seat], strict=True)):
        if group.commit(k) != c:
            return "key_commitment", f"its key for position {pos} fails its commitment"
    return None


def _replay_mask(table: DeckTable, seat: int, pub: _Published) -> tuple[str, str] | None:
    received = table.masked[seat - 1] if seat else table.points
    own = len(table.spec.cards)
    order = list(range(own)) + [own + j for j in pub.pool_perm]
    return _replay_pass(received, table.masked[seat], order, pub.pool_key, "pool pass")


def _replay_own(table: DeckTable, seat: int, pub: _Published, held: Sequence[Any]) -> tuple[str, str] | None:
    """The owner's pass: the cards it held, masked with its key, in its order. Any other seat
    only locks: its deck key must be 1 (it masked nothing)."""
    if seat != table.spec.owner:
        if pub.deck_key != group.ONE:
            return "lock_mismatch", "it locked a deck it does not own with a deck key"
        return None
    try:
        received = tuple(table.points[table.index(face)] for face in held)
    except ValueError:
        return "substituted", "the cards it held are not cards of its deck"
    return _replay_pass(received, table.masked[0], pub.perm, pub.deck_key, "deal of its own cards")


def _replay_shuffle(table: DeckTable, seat: int, pub: _Published) -> tuple[str, str] | None:
    received = table.shuffled[seat - 1] if seat else table.start
    return _replay_pass(received, table.shuffled[seat], pub.perm, pub.deck_key, "shuffle")


def _replay_pass(received: Deck, sent: Deck, order: Sequence[int], key: bytes,
                 what: str) -> tuple[str, str] | None:
    try:
        expected = [group.mul(received[i], key) for i in order]
    except group.NotInGroup:
        return None  # its input is no deck: the seat before it fails its own replay
    return None if tuple(expected) == sent else _diagnose(received, sent, key, what)


def _diagnose(received: Deck, sent: Deck, key: bytes, what: str) -> tuple[str, str]:
    """Why a pass does not replay: a point that is no card it received under its key (a
    substituted card, or a received one masked otherwise), or only the order is wrong.

    (A card twice under one key is two equal points, refused when the deck was published.)
    """
    x_inv = group.invert(key)
    have = set(received)
    for pos, p in enumerate(sent):
        try:
            p = group.mul(p, x_inv)
        except group.NotInGroup:
            return "bad_point", f"position {pos} of its {what} is not a point of the group"
        if p not in have:
            return "substituted", (
                f"position {pos} of its {what} is not a card it received, masked with its key"
            )
    return "wrong_permutation", f"its {what} is not its published permutation"


def _replay_lock(table: DeckTable, seat: int, pub: _Published) -> tuple[str, str] | None:
    received = table.locked[seat - 1] if seat else table.before_lock
    x_inv = group.invert(group.product((pub.deck_key, pub.pool_key)))
    for pos, (p, k, out) in enumerate(zip(received, pub.keys, table.locked[seat], strict=True)):
        try:
            expected = group.mul(p, na.crypto_core_ed25519_scalar_mul(x_inv, k))
        except group.NotInGroup:
            return None  # as in the shuffle: its input's publisher is at fault
        if expected != out:
            return "lock_mismatch", f"its lock pass at position {pos} does not match its keys"
    return None


def _pool_order(table: DeckTable, bodies: Mapping[int, Mapping[str, Any]]) -> tuple[int, ...] | None:
    """The pool card at each pool position after pass 0: seat s put at j what it received
    at pool_perm_s[j], so follow the seats back from the last."""
    if not table.spec.pool:
        return None
    perms = [bodies[s]["pool_perm"] for s in range(table.spec.seats)]
    out = []
    for j in range(len(table.spec.pool)):
        for perm in reversed(perms):
            j = perm[j]
        out.append(j)
    return tuple(out)


def _order(table: DeckTable, bodies: Mapping[int, Mapping[str, Any]]) -> tuple[int, ...]:
    """Every position's slot: after a clean replay each position opens to a distinct card."""
    seats = range(table.spec.seats)
    return tuple(
        table.unmask(pos, [bodies[s]["keys"][pos] for s in seats]) for pos in range(table.size)
    )
