"""Catching up: a peer that missed messages asks on `sync`; peers answer with the originals.

The requester checks every inner envelope exactly like a live one, so an answer can only
deliver what the seats really signed.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from ..codec import Envelope, decode_envelope
from ..errors import WireError
from ..identity import peer_id
from .context import Context
from .outputs import SYNC_CHUNK, SYNCABLE, Note, Output, Publish

log = logging.getLogger("gamenight.net")


class Sync:
    """Answers `sync_req` from the accepted log, and feeds a `sync` answer back in."""

    def __init__(self, ctx: Context, pending: Callable[[], list[bytes]],
                 receive: Callable[[Envelope], list[Output]]) -> None:
        self.ctx = ctx
        self.pending = pending  # messages of the setup or step in progress, not yet in the log
        self.receive = receive  # an inner message goes through every check of a live one

    def request(self) -> list[Output]:
        """Ask the others for everything from our current step (or from scratch)."""
        ctx = self.ctx
        start = ctx.step if ctx.phase in ("play", "over") else 0
        if ctx.me is None:
            return []
        return [Publish("sync", ctx.sign("sync_req", {"from": start}).raw)]

    def on_request(self, env: Envelope) -> list[Output]:
        ctx = self.ctx
        if ctx.me is None or env.sender == ctx.me.public:
            return []
        start = env.body["from"]
        raws = [raw for step, raw in ctx.accepted if step == -1 and start == 0 or step >= start]
        raws += [raw for raw in self.pending() if raw not in raws]
        if not raws:
            return []
        out: list[Output] = []
        chunk: list[bytes] = []
        size = 0
        for raw in raws:
            if chunk and size + len(raw) + 8 > SYNC_CHUNK:
                out.append(self._answer(env.sender, chunk))
                chunk, size = [], 0
            chunk.append(raw)
            size += len(raw) + 8
        out.append(self._answer(env.sender, chunk))
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
            out += self.receive(inner)
        return out
