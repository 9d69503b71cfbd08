"""The table's vote: one mechanism for a seat that is late, gone, or proven to cheat.

A `vote` names the step it is about, a round (a vote to keep waiting starts the next one), the
seats it is about, the cause ("late", "offline", "proof" with the proof's digest) and a choice:
"end" (scored as it stands), "abandon" (no score) or "wait". Only the other seats vote (a seat
handed to a bot does not); a choice held by more than half of them decides. Every vote is a
signed entry of the log, so the outcome is the same on every peer and on every resume: it is
derived from the votes, never sent by one peer. An ended game stops at the start of the voted
step on every peer, even one that had already applied that step when the last vote came.

`handover`: a seat leaving on purpose names a bot kind and the seat whose peer plays it from
now; every peer then accepts that peer's signatures for the seat (and only those).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from engine.bots import bot_kinds
from engine.core import Result
from engine.core.early import ended_early

from ..codec import Envelope
from .buffer import Buffer
from .context import Context
from .ending import Ending
from .outputs import VOTING, Keep, Note, Output, Publish
from .proofs import Proofs

if TYPE_CHECKING:
    from .steps import Steps

CHOICES = ("end", "abandon", "wait")
CAUSES = ("late", "offline", "proof")
MAX_PENDING = 64
WHY = {"late": "did not play in time", "offline": "went offline", "proof": "was proven to cheat"}


@dataclass(frozen=True)
class Outcome:
    """How the table ended the game: `choice` ("end" or "abandon") at `step`, about `seats`."""

    choice: str
    step: int
    seats: tuple[int, ...]
    cause: str
    text: str


class Votes:
    """Votes in, an outcome out (and handovers, which change who signs for a seat)."""

    def __init__(self, ctx: Context, steps: Steps, proofs: Proofs, buffer: Buffer) -> None:
        self.ctx = ctx
        self.steps = steps
        self.proofs = proofs
        self.buffer = buffer
        self.tally: dict[tuple[int, int, tuple[int, ...], str], dict[int, str]] = {}
        self.rounds: dict[int, int] = {}  # step -> the round voting now
        self.pending: list[Envelope] = []  # votes about a proof not seen yet
        self.outcome: Outcome | None = None
        self.handed: dict[int, tuple[int, str]] = {}  # seat -> (seat whose peer plays it, bot)
        self.on_wait: list = []  # called when the table votes to keep waiting
        self.offline: set[int] = set()  # seats offline now (social.py's set, shared)
        # a dealt game the table ended: the present seats show their scoring cards first
        self.ending = Ending(ctx, steps, self._over)
        self.final: Result | None = None  # the table's result, once every card is in

    # ---- facts -------------------------------------------------------------------------
    def electorate(self, seats: tuple[int, ...]) -> list[int]:
        away = self.outcome.seats if self.outcome is not None else ()
        return [s for s in range(len(self.ctx.keys)) if s not in seats and s not in self.handed
                and s not in away]

    def may_vote(self) -> bool:
        """True while the table may vote: a game being agreed, played or scored, and a game
        over whose end audit proved a seat cheated (its result is the table's to decide)."""
        ctx = self.ctx
        if ctx.phase in VOTING:
            return True
        return ctx.phase == "over" and self.outcome is None and bool(self.audit_convicted())

    def audit_convicted(self) -> tuple[int, ...]:
        """Seats the end audit proved to cheat (every peer replays the same signed secrets)."""
        return tuple(s for s, (what, _) in sorted(self.proofs.proven.items()) if what == "audit")

    def _names(self, seats: tuple[int, ...]) -> str:
        names = self.ctx.display_names()
        return ", ".join(names[s] if s < len(names) else f"seat {s}" for s in seats)

    def voted(self, seats: tuple[int, ...], cause: str) -> str | None:
        """Our choice in the round in progress about `seats`, if we voted."""
        seat = self.ctx.my_seat
        key = (self.ctx.step, self.rounds.get(self.ctx.step, 0), seats, cause)
        return self.tally.get(key, {}).get(seat) if seat is not None else None

    def result(self) -> Result:
        """The final result: the game's own, or the one the table's vote made."""
        game, state = self.ctx.game, self.steps.state
        if self.outcome is None:
            return game.result(state)
        if self.final is not None:
            return self.final
        if state is None:  # abandoned before the deal: nothing to score
            state_result = Result.from_breakdown([[] for _ in self.ctx.keys])
            return ended_early(state_result, (), f"abandoned before the deal ({self.outcome.text.split(': ', 1)[-1]})")
        return self._scored(state)  # still showing: the cards shown so far

    def _scored(self, state: Any) -> Result:
        """The table's result of `state`: its scoring now (a card still face down scores
        nothing), the seats voted about for stalling or cheating and those that did not show
        their scoring cards ranked after the others."""
        outcome, ending = self.outcome, self.ending
        assert outcome is not None
        last = set(outcome.seats) if outcome.cause in ("late", "proof") else set()
        why = outcome.text.split(": ", 1)[-1]
        summary = ending.summary()
        if summary:
            why = f"{why}; {summary}"
        if outcome.choice == "abandon":
            why = f"abandoned, not scored ({why})"
        return ended_early(self.ctx.game.result_now(state), last | ending.unshown, why)

    # ---- our choices -------------------------------------------------------------------
    def cast(self, choice: str, seats: tuple[int, ...], cause: str) -> list[Output]:
        """Our seat votes `choice` about `seats` (ValueError with the reason if it may not)."""
        ctx = self.ctx
        if choice not in CHOICES or cause not in CAUSES:
            raise ValueError(f"no vote {choice!r} for {cause!r}")
        if not self.may_vote() or ctx.my_seat not in self.electorate(seats):
            raise ValueError("this seat has no vote here")
        if ctx.phase == "seed" and choice == "end":
            choice = "abandon"  # nothing is dealt yet: there is nothing to score
        proof = self.proofs.proven.get(seats[0], ("", b""))[1] if cause == "proof" else b""
        body = {"step": ctx.step, "round": self.rounds.get(ctx.step, 0), "seats": list(seats),
                "cause": cause, "choice": choice, "proof": proof}
        env = ctx.sign("vote", body)
        return [Publish("log", env.raw)] + self.on_vote(env)

    def follow(self, note: Note) -> list[Output]:
        """A bot's seat votes as the first player who voted in this round (bots never start
        a vote, and a table of bots and one player is not held hostage by the bots)."""
        ctx, data = self.ctx, note.data
        seat = ctx.my_seat
        if ctx.replaying or seat is None or data.get("seat") == seat or "seats" not in data:
            return []
        if seat not in self.electorate(data["seats"]) or self.voted(data["seats"], data["cause"]):
            return []
        try:
            return self.cast(data["choice"], data["seats"], data["cause"])
        except ValueError:
            return []

    def handover(self, bot: str) -> list[Output]:
        """Our seat leaves: the lowest other seat that is online (and plays itself) takes it."""
        ctx = self.ctx
        seat = ctx.my_seat
        if ctx.phase != "play" or seat is None or seat in self.handed:
            raise ValueError("there is no seat of ours in a running game to hand over")
        takers = [s for s in range(len(ctx.keys)) if s != seat and s not in self.handed and s not in self.offline]
        if not takers:
            raise ValueError("nobody else is at the table to take the seat")
        env = ctx.sign("handover", {"bot": bot, "to": takers[0]})
        return [Publish("log", env.raw)] + self.on_handover(env)

    # ---- arrivals ----------------------------------------------------------------------
    def on_vote(self, env: Envelope) -> list[Output]:
        """A `vote` from the seat bound to its key."""
        ctx, body = self.ctx, env.body
        about_audit = ctx.phase == "over" and self.outcome is None and body["cause"] == "proof"
        if not self.may_vote() and not about_audit:  # (the audit's proof may not be in here yet)
            return self.buffer.hold(env) if ctx.phase == "lobby" else []
        if env.step > ctx.step:
            return self.buffer.hold(env)
        seats = tuple(body["seats"])
        if ctx.phase == "seed" and body["choice"] == "end":
            return ctx.drop(env, "a vote to end before the deal: only abandon or wait")
        problem = self._problem(env, seats)
        if problem == "pending":
            if len(self.pending) < MAX_PENDING:
                self.pending.append(env)
            return []
        if problem is not None:
            return ctx.drop(env, problem)
        key = (body["step"], body["round"], seats, body["cause"])
        ballots = self.tally.setdefault(key, {})
        old = ballots.get(env.seat)
        if old is not None:
            return [] if old == body["choice"] else ctx.drop(env, f"seat {env.seat} voted twice in one round")
        ballots[env.seat] = body["choice"]
        ctx.accept(ctx.step, env)
        names = ctx.display_names()
        text = f"{names[env.seat]} votes to {body['choice']} ({self._names(seats)} {WHY[body['cause']]})"
        data = {"seat": env.seat, "choice": body["choice"], "seats": seats, "cause": body["cause"]}
        out: list[Output] = [Keep(env.raw), Note("vote", text, data)]
        return out + self._decide(key)

    def _problem(self, env: Envelope, seats: tuple[int, ...]) -> str | None:
        body = env.body
        if body["choice"] not in CHOICES or body["cause"] not in CAUSES or body["step"] != env.step:
            return f"vote {body['choice']!r} about {body['cause']!r} is not one the table knows"
        n = len(self.ctx.keys)
        if not seats or list(seats) != sorted(set(seats)) or not all(0 <= s < n for s in seats):
            return "a vote names the seats it is about, in order"
        if env.seat not in self.electorate(seats):
            return f"seat {env.seat} has no vote about {self._names(seats)}"
        if body["round"] < self.rounds.get(env.step, 0):
            return f"vote for round {body['round']}, which the table already decided"
        if body["cause"] == "proof":
            digests = self.proofs.digests
            if any(s not in self.proofs.proven for s in seats) or not any(
                    body["proof"] in digests.get(s, ()) for s in seats):
                return "pending"
        return None

    def recheck(self) -> list[Output]:
        """Votes that waited for a proof: try them again."""
        waiting, self.pending = self.pending, []
        out: list[Output] = []
        for env in waiting:
            out += self.on_vote(env)
        return out

    def _decide(self, key: tuple[int, int, tuple[int, ...], str]) -> list[Output]:
        step, round_no, seats, cause = key
        ballots = self.tally[key]
        electors = self.electorate(seats)
        for choice in CHOICES:
            if 2 * sum(1 for c in ballots.values() if c == choice) > len(electors):
                break
        else:
            return []
        if choice == "wait":
            self.rounds[step] = round_no + 1
            for hook in self.on_wait:
                hook()
            return [Note("vote", f"the table keeps waiting for {self._names(seats)}", {"choice": "wait"})]
        if self.ctx.phase == "ending":  # a seat that will not show its scoring cards
            if choice == "abandon":
                assert self.outcome is not None
                self.outcome = Outcome("abandon", self.outcome.step, self.outcome.seats, self.outcome.cause,
                                       self.outcome.text.replace("ended the game early", "abandoned the game (not scored)"))
                self.ending.on = False
                return self._over(self.ending.faces)
            return self.ending.give_up(seats)
        return self._end(step, seats, cause, choice)

    def _end(self, step: int, seats: tuple[int, ...], cause: str, choice: str) -> list[Output]:
        self.steps.rewind(step)
        why = f"{self._names(seats)} {WHY[cause]}"
        text = (f"the table ended the game early: {why}" if choice == "end"
                else f"the table abandoned the game (not scored): {why}")
        self.outcome = Outcome(choice, step, seats, cause, text)
        if choice == "end" and self.steps.dealing.on and self.steps.state is not None:
            return self.ending.begin(seats)  # the scoring cards face up first, then `_over`
        return self._over({})

    def _over(self, faces: dict[str, Any]) -> list[Output]:
        """Every card that will be shown is in: the table's result stands, the audit begins."""
        ctx, outcome = self.ctx, self.outcome
        assert outcome is not None
        state = self.steps.state
        if state is not None:
            if faces:  # the cards shown lie face up now: the public state every peer hashes
                state = self.steps.turned_over(faces)
            self.final = self._scored(state)
        ctx.phase = "over"
        result = self.result()
        why = outcome.text.split(": ", 1)[-1]
        text = outcome.text + (f" ({self.ending.summary()})" if self.ending.summary() else "")
        out: list[Output] = [Note("over", text, {"scores": list(result.scores), "outcome": outcome.choice,
                                                 "why": why, "seats": list(outcome.seats), "step": outcome.step})]
        if ctx.is_host:
            out.append(Publish("lobby", b"", retain=True))
        if state is not None:  # the deal's audit, as after any end (nothing dealt: nothing to audit)
            out += self.steps.deck_audit(away=outcome.seats)
        return out

    def on_handover(self, env: Envelope) -> list[Output]:
        """A seat leaves and names who plays it from now, with which bot."""
        ctx, body = self.ctx, env.body
        if ctx.phase != "play":
            return self.buffer.hold(env) if ctx.phase in ("lobby", "seed") else []
        to = body["to"]
        if body["bot"] not in bot_kinds(ctx.game.id) or not 0 <= to < len(ctx.keys) or to == env.seat or to in self.handed:
            return ctx.drop(env, f"handover of seat {env.seat} to seat {to} with bot {body['bot']!r} is not possible")
        if env.seat in self.handed:
            return []
        self.handed[env.seat] = (to, body["bot"])
        ctx.signers[env.seat] = ctx.keys[to]
        ctx.accept(ctx.step, env)
        names = ctx.display_names()
        text = f"{names[env.seat]} left: {names[to]}'s table plays their seat with a {body['bot']} bot"
        return [Keep(env.raw), Note("handover", text, {"seat": env.seat, "to": to, "bot": body["bot"]})]
