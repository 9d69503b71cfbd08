"""Sealed steps: a choice that stays closed until the rules open it (Sheriff's bags).

"seal": each active seat commits and publishes only its action's public part, applied once
every seal is in. "open": the game names a seat; its peer sends the opening by itself, and
every peer checks it against the commitment and the public part recorded at the seal.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine.core import DecodeError, GameError, from_plain, to_plain

from .. import crypto
from ..codec import Envelope
from .outputs import Keep, Note, Output, Publish, SealedChoice

if TYPE_CHECKING:
    from .steps import Steps


class Sealing:
    """The "seal" and "open" modes of `Steps`."""

    def __init__(self, steps: Steps) -> None:
        self.steps = steps
        self.ctx = steps.ctx

    def original(self, seat: int) -> tuple[Any, bytes] | None:
        """Our own sealed action of `seat` and its salt (from the persisted secret)."""
        choice = self.steps.sealed.get(seat)
        if choice is None:
            return None
        opening = self.steps.opening(self.steps.secret_name("sealed", choice.step, seat))
        if opening is None:
            return None
        return from_plain(opening[0]), opening[1]

    def on_seal(self, env: Envelope, mine: bool) -> list[Output]:
        """A seat's commitment and public part in a sealed step; applied once all are in."""
        steps, ctx, r = self.steps, self.ctx, self.steps.round
        who = f"seat {env.seat} ({ctx.names[env.seat]})"
        try:
            public = from_plain(env.body["public"])
            ctx.game.validate(steps.state, env.seat, public)
        except (GameError, DecodeError) as exc:
            return ctx.drop(env, f"{who}: illegal sealed action at step {ctx.step}: {exc}", loud=True)
        r.commits[env.seat] = env
        r.publics[env.seat] = public
        steps.keep(env, mine)
        out: list[Output] = [Keep(env.raw)]
        active = steps.active()
        if any(s not in r.commits for s in active):
            return out + ctx.waiting()
        for s in sorted(active):
            steps.sealed[s] = SealedChoice(ctx.step, r.commits[s].body["commit"], r.publics[s], steps.state)
        return out + steps.apply(dict(r.publics), "seal")

    def on_open(self, env: Envelope, mine: bool) -> list[Output]:
        """The opening of a sealed action: checked against its commitment, then applied."""
        steps, ctx = self.steps, self.ctx
        problem = self._check(env.seat, env)
        if isinstance(problem, str):
            choice = steps.sealed.get(env.seat)
            seal = ctx.history.get(("seal", env.seat, choice.step)) if choice else None
            return ctx.drop(env, problem, loud=True) + steps.proofs.bad_opening(env.seat, seal, env)
        choice = steps.sealed.pop(env.seat)
        steps.round.acts[env.seat] = env
        steps.keep(env, mine)
        if env.seat in steps.own_seats():
            ctx.secrets.pop(steps.secret_name("sealed", choice.step, env.seat), None)
        return [Keep(env.raw)] + steps.apply({env.seat: problem[0]}, "open")

    def _check(self, seat: int, env: Envelope) -> str | tuple[Any]:
        steps, ctx = self.steps, self.ctx
        who = f"seat {seat} ({ctx.names[seat]})"
        choice = steps.sealed.get(seat)
        if choice is None or ctx.game.opening(steps.state) != seat:
            return f"{who}: has no sealed action to open at step {ctx.step}"
        try:
            original = from_plain(env.body["action"])
            expected = crypto.action_commit(ctx.gid, choice.step, seat, original, env.body["salt"])
        except (DecodeError, TypeError) as exc:
            return f"{who}: open holds no valid action ({exc})"
        if expected != choice.commit:
            return f"{who}: open does not match its commit of step {choice.step}"
        try:
            ctx.game.validate(choice.state, seat, original)
            if ctx.game.seal(choice.state, seat, original) != choice.public:
                return f"{who}: opened action does not match its public part of step {choice.step}"
            action = ctx.game.open_action(steps.state, seat, original)
            ctx.game.validate(steps.state, seat, action)
        except GameError as exc:
            return f"{who}: illegal action opened at step {ctx.step}: {exc}"
        return (action,)

    def auto_open(self) -> list[Output]:
        """In an open step naming our seat, publish the opening of our sealed action."""
        steps, ctx = self.steps, self.ctx
        seat = ctx.game.opening(steps.state) if ctx.phase == "play" and steps.step_mode() == "open" else None
        ours = seat in steps.own_seats() or seat == ctx.my_seat  # a bag sealed before a handover
        if ctx.replaying or seat is None or not ours or seat in steps.round.acts:
            return []
        opening = self.original(seat)
        if opening is None and seat != ctx.my_seat:
            return []  # sealed before it was handed to us: only the leaver can open it
        if opening is None:
            return [Note("error", f"seat {seat} must open its sealed choice but this peer lost it")]
        original, salt = opening
        env = ctx.sign("open", {"action": to_plain(original), "salt": salt}, seat=seat)
        return [Publish("log", env.raw)] + steps.on_message(env, mine=True)
