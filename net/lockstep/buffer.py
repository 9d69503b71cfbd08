"""Messages that came early: seed messages before the start, step messages before their step.

Held in bytes budgets: all keys without a seat share UNSEATED_BYTES (before the start anyone
can claim to be a seat, and the lobby cannot tell yet), each seat has SEAT_BYTES. A message
over its budget is dropped; an honest one comes back through sync when its step has come.
"""

from __future__ import annotations

from ..codec import Envelope
from .context import Context
from .outputs import MAX_AHEAD, MAX_BUFFERED, SETUP_KINDS, Output

SETUP_SLOT = -1
UNSEATED_BYTES = 256 * 1024
SEAT_BYTES = 8 * 1024 * 1024


class Buffer:
    """Early messages by the step they wait for (seed messages under SETUP_SLOT)."""

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx
        self.slots: dict[int, list[Envelope]] = {}
        self.count = 0
        self.held: dict[bytes | None, int] = {}  # bytes held per seated key; None: all unseated

    def hold(self, env: Envelope) -> list[Output]:
        ctx = self.ctx
        if env.step > ctx.step + MAX_AHEAD or self.count >= MAX_BUFFERED:
            return ctx.drop(env, f"step {env.step} is too far ahead of {ctx.step}")
        owner = env.sender if ctx.seat_of(env.sender) is not None else None
        budget = SEAT_BYTES if owner is not None else UNSEATED_BYTES
        if self.held.get(owner, 0) + len(env.raw) > budget:
            who = "this seat" if owner is not None else "keys without a seat"
            return ctx.drop(env, f"{env.kind} not kept: the {budget // 1024} KiB held for {who} are full")
        slot = SETUP_SLOT if env.kind in SETUP_KINDS else env.step
        bucket = self.slots.setdefault(slot, [])
        if any(e.raw == env.raw for e in bucket):
            return []
        bucket.append(env)
        self.count += 1
        self.held[owner] = self.held.get(owner, 0) + len(env.raw)
        return []

    def release(self, slot: int) -> list[Envelope]:
        """Take out everything waiting for `slot` (to be routed again now)."""
        pending = self.slots.pop(slot, [])
        self.count -= len(pending)
        if pending:  # recount: a sender may have been seated since it was held
            self.held = {}
            for bucket in self.slots.values():
                for env in bucket:
                    owner = env.sender if self.ctx.seat_of(env.sender) is not None else None
                    self.held[owner] = self.held.get(owner, 0) + len(env.raw)
        return pending

    def bytes_held(self, seated: bool | None = None) -> int:
        """Bytes held: all, or those of seated (True) or unseated (False) senders."""
        return sum(n for owner, n in self.held.items()
                   if seated is None or (owner is not None) == seated)
