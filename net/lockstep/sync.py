"""Catching up: a peer that missed messages asks on `sync`; peers answer with the originals.

The requester checks every inner envelope exactly like a live one, so an answer can only
deliver what the seats really signed. An answer is many times the size of a request, so only
seated or admitted keys are answered (an admitted watcher proved the table secret), by one
peer chosen in turn among the present seats, at most once a second per requester: a stranger's
`sync_req` costs the table nothing, and an answer lost with its peer comes from the next seat
when the requester asks again.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from ..codec import Envelope, decode_envelope
from ..errors import WireError
from ..identity import peer_id
from .admission import admission_proof, proof_ok
from .context import Context
from .outputs import SYNC_CHUNK, SYNCABLE, Note, Output, Publish

log = logging.getLogger("gamenight.net")

ANSWER_INTERVAL = 1.0  # seconds between two answers of this peer to one requester
MAX_WATCHERS = 32  # admitted unseated keys per table (each proved the table secret)
MAX_REQUESTERS = 256  # requesters remembered for turns and rate limits (open tables)


class Sync:
    """Answers `sync_req` from the accepted log, and feeds a `sync` answer back in."""

    def __init__(self, ctx: Context, pending: Callable[[], list[bytes]],
                 receive: Callable[[Envelope], list[Output]], offline: Callable[[], set[int]]) -> None:
        self.ctx = ctx
        self.offline = offline  # seats whose last will said they are gone
        self.asked: dict[bytes, int] = {}  # requester -> requests seen (whose turn it is)
        self.answered: dict[bytes, float] = {}  # requester -> when this peer last answered
        self.pending = pending  # messages of the setup or step in progress, not yet in the log
        self.receive = receive  # an inner message goes through every check of a live one
        self.archive = False  # an archive of a finished game answers alone: its players are gone
        # the first step of a move only its author delivered (proofs.py): asked from there, so
        # another seat's answer confirms it (None: nothing waits for confirmation)
        self.confirm_from: Callable[[], int | None] = lambda: None

    def request(self) -> list[Output]:
        """Ask the others for everything from our current step (or from scratch)."""
        ctx = self.ctx
        start = ctx.step if ctx.phase in ("play", "ending", "over") else 0
        doubtful = self.confirm_from()
        if doubtful is not None:
            start = min(start, doubtful)
        if ctx.me is None:
            return []
        proof = admission_proof(ctx.secret, ctx.gid, ctx.me.public) if ctx.secret else b""
        return [Publish("sync", ctx.sign("sync_req", {"from": start, "proof": proof}).raw)]

    def on_request(self, env: Envelope) -> list[Output]:
        ctx = self.ctx
        if ctx.me is None or env.sender == ctx.me.public:
            return []
        if not self._admitted(env):
            log.info("sync_req from %s ignored: no seat and no proof of the table secret", peer_id(env.sender))
            return []
        if len(self.asked) >= MAX_REQUESTERS:
            self.asked.clear()
            self.answered.clear()
        turn = self.asked[env.sender] = self.asked.get(env.sender, 0) + 1
        if not self._my_turn(env.sender, turn):
            return []
        now = ctx.clock()
        if now - self.answered.get(env.sender, now - ANSWER_INTERVAL) < ANSWER_INTERVAL:
            return []
        self.answered[env.sender] = now
        return self._answer_from(env.sender, env.body["from"])

    def _admitted(self, env: Envelope) -> bool:
        ctx = self.ctx
        if ctx.seat_of(env.sender) is not None or env.sender in ctx.admitted:
            return True
        if proof_ok(ctx.secret, ctx.gid, env.sender, env.body["proof"]):
            if len(ctx.admitted) < MAX_WATCHERS:
                ctx.admitted.add(env.sender)
            return True
        return not ctx.invite_only and ctx.host_key is not None

    def _my_turn(self, requester: bytes, turn: int) -> bool:
        """Whether this peer answers the `turn`-th request: the present seats take turns
        (lowest first); with no seat present, whoever holds the log answers."""
        ctx = self.ctx
        if self.archive:
            return True
        keys = ctx.keys or [ctx.seat_keys.get(s) for s in range(ctx.n_players)]
        offline = self.offline()
        present = [s for s, key in enumerate(keys) if key is not None and key != requester and s not in offline]
        if ctx.my_seat is not None and ctx.my_seat not in present and keys[ctx.my_seat] != requester:
            present = sorted([*present, ctx.my_seat])  # we are here, whatever a stale will said
        if not present:
            return True
        return present[(turn - 1) % len(present)] == ctx.my_seat

    def _answer_from(self, requester: bytes, start: int) -> list[Output]:
        ctx = self.ctx
        raws = [raw for step, raw in ctx.accepted if step == -1 and start == 0 or step >= start]
        raws += [raw for raw in self.pending() if raw not in raws]
        if not raws:
            return []
        out: list[Output] = []
        chunk: list[bytes] = []
        size = 0
        for raw in raws:
            if chunk and size + len(raw) + 8 > SYNC_CHUNK:
                out.append(self._answer(requester, chunk))
                chunk, size = [], 0
            chunk.append(raw)
            size += len(raw) + 8
        out.append(self._answer(requester, chunk))
        return out

    def _answer(self, requester: bytes, chunk: list[bytes]) -> Publish:
        return Publish("sync", self.ctx.sign("sync", {"for": requester, "msgs": chunk}).raw)

    def on_answer(self, env: Envelope) -> list[Output]:
        ctx = self.ctx
        if ctx.me is None or env.body["for"] != ctx.me.public:
            return []
        out: list[Output] = []
        for raw in env.body["msgs"]:
            try:
                inner = decode_envelope(raw)
            except WireError as exc:
                log.info("drop (in sync from %s): %s: %s", peer_id(env.sender), exc.code, exc)
                out.append(Note("dropped", f"{exc.code}: {exc}"))
                continue
            if inner.kind not in SYNCABLE:
                out += ctx.drop(inner, f"{inner.kind} is not allowed inside a sync")
                continue
            ctx.via = env.sender  # proofs.py holds a message only its own author delivered
            try:
                out += self.receive(inner)
            finally:
                ctx.via = None
        return out
