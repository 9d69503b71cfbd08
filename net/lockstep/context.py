"""The facts every phase of one peer's game reads, and the few services they all use.

One `Context` per Lockstep: who we are, the seats as far as they are known, where the game
stands (step, state hash, chain head), the accepted log, and signing, dropping and freezing.
The clock (for nonces only) and the entropy come in from outside: nothing here reads the time
or the system's randomness by itself.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from engine.core import Game

from ..codec import NO_SEAT, PROTOCOL_VERSION, ZERO32, Envelope, decode_envelope, remember
from ..identity import Identity, peer_id
from .admission import TablePin
from .outputs import Note, Output, TableInfo

log = logging.getLogger("gamenight.net")


def restates(old: Envelope | bytes, env: Envelope) -> bool:
    """`env` says what `old` says: the same bytes, or the same body signed anew.

    A peer that resumes before its move was in its log (a reveal is kept once the step is
    applied) signs the same move again with a fresh message nonce: that is no second version,
    and a proof of it would be refused ("both messages say the same", proofs.py)."""
    if isinstance(old, bytes):
        if old == env.raw:
            return True
        old = decode_envelope(old)
    return old.raw == env.raw or (old.kind == env.kind and old.body == env.body)


Clock = Callable[[], float]  # wall-clock seconds since the epoch (nonces are microseconds)
Entropy = Callable[[int], bytes]  # n unpredictable bytes (seed shares, salts)


class Context:
    """Shared by the lobby, seed, steps, sync and chat machines of one Lockstep."""

    def __init__(self, game: Game, gid: str, identity: Identity | None, *, name: str,
                 secrets: dict[str, bytes], clock: Clock, entropy: Entropy) -> None:
        self.game = game
        self.gid = gid
        self.me = identity
        self.name = name
        self.secrets = secrets
        self.clock = clock
        self.entropy = entropy
        self.replaying = False
        self.phase = "lobby"  # lobby -> seed -> play -> over; "frozen" on any hash mismatch
        self.frozen: str | None = None
        self.table: TableInfo | None = None
        self.host_key: bytes | None = None
        # the invite's pin (a joiner's, or the host's own): whom to trust, what to prove
        self.pin: TablePin | None = None
        self.invite_only = False  # the host's rule, announced: seats and watching need the pin
        self.kicked: set[bytes] = set()  # keys the host removed in the lobby (at most a few)
        self.admitted: set[bytes] = set()  # unseated keys that proved the table secret (watchers)
        # seats while the lobby fills (the host's `seat` messages), then fixed by `start`
        self.seat_keys: dict[int, bytes] = {}
        self.seat_names: dict[int, str] = {}
        self.keys: list[bytes] = []
        self.names: list[str] = []
        self.options: dict[str, Any] = {}  # the game's options as the start fixed them
        self.settings: dict[str, Any] = {}  # the table's deadlines and clock (deadlines.py)
        self.signers: dict[int, bytes] = {}  # seat -> the key that plays it after a handover
        self.via: bytes | None = None  # the key whose sync answer is being unpacked, if any
        # who reports a provable fault (proofs.py sets these; None: drop as before)
        self.on_equivocation: Callable[[Envelope, bytes], list[Output]] | None = None
        self.on_mismatch: Callable[[Envelope], list[Output]] | None = None
        # where the game stands; every message we sign carries these
        self.step = 0
        self.hash = ZERO32
        self.chain = ZERO32
        self.accepted: list[tuple[int, bytes]] = []  # (step, raw), setup messages at step -1
        self.history: dict[tuple[str, int, int], bytes] = {}
        self.last_awaited: frozenset[int] | None = None
        # whom the table waits for now, whatever the phase (the router sets it)
        self.awaited: Callable[[], frozenset[int]] = frozenset
        self._last_nonce = 0

    # ---- facts -------------------------------------------------------------------------
    @property
    def my_seat(self) -> int | None:
        if self.me is None:
            return None
        public = self.me.public
        if self.keys:
            return self.keys.index(public) if public in self.keys else None
        for seat, key in self.seat_keys.items():
            if key == public:
                return seat
        return None

    @property
    def is_host(self) -> bool:
        return self.me is not None and self.host_key == self.me.public

    @property
    def n_players(self) -> int:
        return len(self.keys) if self.keys else (self.table.players if self.table else 0)

    def lobby_seats(self) -> list[str]:
        return [self.seat_names.get(s, "") for s in range(self.n_players)]

    def display_names(self) -> list[str]:
        return self.names or self.lobby_seats()

    @property
    def secret(self) -> bytes | None:
        return self.pin.secret if self.pin else None

    def seat_of(self, key: bytes) -> int | None:
        """The seat `key` holds (after the start, or as assigned in the lobby so far)."""
        if self.keys:
            return self.keys.index(key) if key in self.keys else None
        for seat, held in self.seat_keys.items():
            if held == key:
                return seat
        return None

    # ---- services ----------------------------------------------------------------------
    def nonce(self) -> int:
        self._last_nonce = max(int(self.clock() * 1_000_000), self._last_nonce + 1)
        return self._last_nonce

    def signed_at(self) -> float:
        """When (our clock) we last signed a message for the table, 0 before the first."""
        return self._last_nonce / 1_000_000

    def sign(self, kind: str, body: dict[str, Any], seat: int | None = None) -> Envelope:
        assert self.me is not None, "a spectator sends nothing that needs a seat"
        if seat is None:
            seat = self.my_seat
        fields = {
            "v": PROTOCOL_VERSION, "g": self.gid, "k": kind, "p": self.me.public,
            "s": NO_SEAT if seat is None else seat,
            "n": self.step, "q": self.nonce(), "b": body, "h": self.hash, "c": self.chain,
        }
        raw = self.me.sign(fields)
        env = Envelope(
            version=PROTOCOL_VERSION, gid=self.gid, kind=kind, sender=self.me.public,
            seat=fields["s"], step=self.step, nonce=fields["q"], body=body, state_hash=self.hash,
            prev_hash=self.chain, signature=raw[-64:], raw=raw,
        )
        remember(env)
        return env

    def accept(self, step: int, env: Envelope) -> None:
        self.accepted.append((step, env.raw))
        self.history[env.key] = env.raw

    def drop(self, env: Envelope, reason: str, loud: bool = False) -> list[Output]:
        log.warning("drop %s from %s (seat %s, step %s): %s", env.kind, peer_id(env.sender), env.seat, env.step, reason)
        out: list[Output] = [Note("dropped", reason, {"kind": env.kind, "seat": env.seat})]
        if loud and not self.replaying:
            out.append(Note("error", reason, {"seat": env.seat}))
        return out

    def waiting(self) -> list[Output]:
        """A `waiting` note when the set of awaited seats changed."""
        awaited = self.awaited()
        if awaited == self.last_awaited:
            return []
        self.last_awaited = awaited
        names = self.display_names()
        who = ", ".join(names[s] if s < len(names) and names[s] else f"seat {s}" for s in sorted(awaited))
        text = f"waiting for {who}" if awaited else ""
        return [Note("waiting", text, {"seats": sorted(awaited)})]

    def freeze(self, report: str, data: dict[str, Any] | None = None) -> list[Output]:
        log.error("frozen: %s", report)
        self.frozen = report
        self.phase = "frozen"
        return [Note("desync", report, data or {"step": self.step})]

    def desync(self, env: Envelope) -> list[Output]:
        if self.on_mismatch is not None:  # a proof and a vote instead of a freeze (proofs.py)
            return self.on_mismatch(env)
        return self.freeze_desync(env)

    def freeze_desync(self, env: Envelope) -> list[Output]:
        report = (
            f"desync at step {self.step}: seat {env.seat} has state {env.state_hash.hex()[:16]} "
            f"chain {env.prev_hash.hex()[:16]}, this peer has state {self.hash.hex()[:16]} "
            f"chain {self.chain.hex()[:16]}"
        )
        return self.freeze(report, {"step": self.step, "seat": env.seat,
                                    "theirs": env.state_hash.hex(), "ours": self.hash.hex(),
                                    "their_chain": env.prev_hash.hex(), "our_chain": self.chain.hex()})

    def stale(self, env: Envelope) -> list[Output]:
        """A message for a step (or setup) already in the log: a duplicate or equivocation."""
        old = self.history.get(env.key)
        if old == env.raw:
            if self.me is not None and env.sender == self.me.public:
                return []  # our own message coming back from the broker
            log.info("duplicate %s seat %s step %s ignored", *env.key)
            return [Note("dropped", f"duplicate {env.kind} of seat {env.seat} for step {env.step} (replayed or redelivered)")]
        if old is not None and restates(old, env):
            return []  # its stored message signed again after a resume: the same message
        if old is not None:
            out = self.drop(env, f"seat {env.seat} sent a different {env.kind} for past step {env.step} (equivocation)", loud=True)
            return out + (self.on_equivocation(env, old) if self.on_equivocation else [])
        return self.drop(env, f"stale {env.kind} for step {env.step} (now at step {self.step})")
