"""Messages that came early: seed messages before the start, step messages before their step."""

from __future__ import annotations

from ..codec import Envelope
from .context import Context
from .outputs import MAX_AHEAD, MAX_BUFFERED, SETUP_KINDS, Output

SETUP_SLOT = -1


class Buffer:
    """Early messages by the step they wait for (seed messages under SETUP_SLOT)."""

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx
        self.slots: dict[int, list[Envelope]] = {}
        self.count = 0

    def hold(self, env: Envelope) -> list[Output]:
        ctx = self.ctx
        if env.step > ctx.step + MAX_AHEAD or self.count >= MAX_BUFFERED:
            return ctx.drop(env, f"step {env.step} is too far ahead of {ctx.step}")
        slot = SETUP_SLOT if env.kind in SETUP_KINDS else env.step
        bucket = self.slots.setdefault(slot, [])
        if any(e.raw == env.raw for e in bucket):
            return []
        bucket.append(env)
        self.count += 1
        return []

    def release(self, slot: int) -> list[Envelope]:
        """Take out everything waiting for `slot` (to be routed again now)."""
        pending = self.slots.pop(slot, [])
        self.count -= len(pending)
        return pending
