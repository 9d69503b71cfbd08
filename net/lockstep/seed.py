"""Seed agreement: every seat commits to 32 random bytes, then reveals them; the game seed is
derived from all shares in seat order, so no peer chooses the shuffle."""

from __future__ import annotations

from collections.abc import Callable

from .. import crypto
from ..codec import Envelope
from .context import Context
from .outputs import Keep, Output, Publish, Secret


class SeedAgreement:
    """Commits, then reveals, of one seed share per seat; calls `on_seed` once all check out."""

    def __init__(self, ctx: Context, on_seed: Callable[[bytes], list[Output]]) -> None:
        self.ctx = ctx
        self.on_seed = on_seed  # the game begins with this seed
        self.commits: dict[int, Envelope] = {}
        self.reveals: dict[int, Envelope] = {}
        self.seed: bytes | None = None
        # False for a seated peer rejoining without its files: its seed share is in the others'
        # logs; drawing a new one would fork the game
        self.may_draw = True

    def begin(self) -> list[Output]:
        """The start is in: commit to our share (drawn now, or the one stored before a crash)."""
        ctx = self.ctx
        out: list[Output] = []
        seat = ctx.my_seat
        if seat is not None and ("seed" in ctx.secrets or self.may_draw):
            secret = ctx.secrets.get("seed")
            if secret is None:
                secret = ctx.entropy(32)
                ctx.secrets["seed"] = secret
                out.append(Secret("seed", secret))
            commit = ctx.sign("seed_commit", {"commit": crypto.seed_commit(ctx.gid, seat, secret)})
            out.append(Publish("log", commit.raw))
            out += self.on_message(commit)
        return out + ctx.waiting()

    def awaited(self) -> frozenset[int]:
        seats = range(len(self.ctx.keys))
        if len(self.commits) < len(self.ctx.keys):
            return frozenset(s for s in seats if s not in self.commits)
        return frozenset(s for s in seats if s not in self.reveals)

    def on_message(self, env: Envelope) -> list[Output]:
        """A `seed_commit` or `seed_reveal` from a seat bound to its key."""
        seat = env.seat
        table = self.commits if env.kind == "seed_commit" else self.reveals
        old = table.get(seat)
        if old is not None:
            if old.body == env.body:  # the same share signed again (a peer resumed from its
                return []  # files signs its stored share anew): nothing new, nothing wrong
            return self.ctx.drop(env, f"seat {seat} sent a second, different {env.kind}", loud=True)
        table[seat] = env
        out: list[Output] = []
        if env.kind == "seed_commit":
            self.ctx.accept(-1, env)
            out.append(Keep(env.raw))
        return out + self._progress()

    def _progress(self) -> list[Output]:
        ctx = self.ctx
        n = len(ctx.keys)
        out: list[Output] = []
        if len(self.commits) < n:
            return out + ctx.waiting()
        seat = ctx.my_seat
        if seat is not None and seat not in self.reveals and "seed" in ctx.secrets:
            reveal = ctx.sign("seed_reveal", {"secret": ctx.secrets["seed"]})
            self.reveals[seat] = reveal
            out.append(Publish("log", reveal.raw))
        good: dict[int, bytes] = {}
        for s, env in sorted(self.reveals.items()):
            secret = env.body["secret"]
            if crypto.seed_commit(ctx.gid, s, secret) != self.commits[s].body["commit"]:
                del self.reveals[s]
                out += ctx.drop(env, f"seat {s} ({ctx.names[s]}): seed reveal does not match its commit", loud=True)
                continue
            good[s] = secret
        if len(good) < n:
            return out + ctx.waiting()
        for s in range(n):
            ctx.accept(-1, self.reveals[s])
            out.append(Keep(self.reveals[s].raw))
        self.seed = crypto.game_seed(ctx.gid, [good[s] for s in range(n)])
        return out + self.on_seed(self.seed)

    def pending_raws(self) -> list[bytes]:
        """Seed messages not yet in the log, for a peer that missed them."""
        raws = [e.raw for e in self.commits.values()]
        if len(self.commits) == len(self.ctx.keys):
            raws += [e.raw for e in self.reveals.values()]
        return raws

    def own_current(self) -> list[Output]:
        seat = self.ctx.my_seat
        if seat is None:
            return []
        return [Publish("log", table[seat].raw) for table in (self.commits, self.reveals) if seat in table]
