"""Simultaneous steps by commit-reveal: every active seat commits, and reveals only once it
holds every commit, so nobody can see or change a choice after seeing another."""

from __future__ import annotations

from typing import Any

from engine.core import DecodeError, GameError, from_plain

from .. import crypto
from ..codec import Envelope
from .outputs import Keep, Output, Publish


class CommitReveal:
    """The "commit" mode of `Steps` (methods it inherits; they read and write its round):
    commits, then reveals checked against them."""

    def on_commit_or_reveal(self, env: Envelope, mine: bool) -> list[Output]:
        """A `commit` or `reveal` of an active seat for the step in progress."""
        r = self.round
        # A reveal may come before a commit it followed (brokers order messages per publisher
        # only: a bridge, a cluster, a peer catching up): it is held, one per seat, unopened and
        # unchecked until every commit is in, and a second, different one is equivocation.
        r.table(env.kind)[env.seat] = env
        r.bad_reveals.discard(env.seat)
        if mine:
            r.mine.append(env.raw)
        out: list[Output] = []
        if env.kind == "commit":
            self.ctx.accept(self.ctx.step, env)
            out.append(Keep(env.raw))
        return out + self._commit_progress()

    def _commit_progress(self) -> list[Output]:
        ctx, r = self.ctx, self.round
        active = self.active()
        out: list[Output] = []
        if any(s not in r.commits for s in active):
            return out + ctx.waiting()  # reveals that came early are held, unused and unseen
        out += self.reveal_mine()
        actions: dict[int, Any] = {}
        for s in sorted(active):
            env = r.reveals.get(s)
            if env is None or s in r.bad_reveals:
                continue
            if s not in r.verified:
                problem = self._check_reveal(s, env)
                if isinstance(problem, str):
                    r.bad_reveals.add(s)
                    out += ctx.drop(env, problem, loud=True)
                    out += self.proofs.bad_opening(s, r.commits.get(s), env)
                    continue
                r.verified[s] = problem[0]
            actions[s] = r.verified[s]
        if len(actions) < len(active):
            return out + ctx.waiting()
        for s in sorted(active):
            ctx.accept(ctx.step, r.reveals[s])
            out.append(Keep(r.reveals[s].raw))
        return out + self.apply(actions, "commit")

    def reveal_mine(self) -> list[Output]:
        """Every commit is in: publish our reveal (once). Not while replaying our disk log: the
        reveal we sent is on it if the step was complete (a second signing would be another
        message than the one the table holds); if not, `Steps.own_current` sends it after."""
        ctx, r = self.ctx, self.round
        out: list[Output] = []
        if ctx.replaying or any(s not in r.commits for s in self.active()):
            return out
        seats = self.own_seats() + [ctx.my_seat]  # ours (even handed over), any handed to us
        for seat in sorted({s for s in seats if s is not None}):
            if seat not in self.active() or seat in r.reveals:
                continue
            opening = self.opening(self.secret_name("commit", ctx.step, seat))
            if opening is None:
                continue
            action_plain, salt = opening
            env = ctx.sign("reveal", {"action": action_plain, "salt": salt}, seat=seat)
            r.reveals[seat] = env
            r.mine.append(env.raw)
            out.append(Publish("log", env.raw))
        return out

    def _check_reveal(self, seat: int, env: Envelope) -> str | tuple[Any]:
        ctx = self.ctx
        who = f"seat {seat} ({ctx.names[seat]})"
        try:
            action = from_plain(env.body["action"])
            expected = crypto.action_commit(ctx.gid, ctx.step, seat, action, env.body["salt"])
        except (DecodeError, TypeError, ValueError) as exc:
            return f"{who}: reveal holds no valid action ({exc})"
        if expected != self.round.commits[seat].body["commit"]:
            return f"{who}: reveal does not match its commit at step {ctx.step}"
        try:
            action = self.checked_action(seat, env.body["action"])
        except GameError as exc:
            return f"{who}: illegal action revealed at step {ctx.step}: {exc}"
        return (action,)
