"""Fraud proofs: a seat is blamed only with its own signed messages, which every peer re-checks.

Three faults can be proven, each by the offending envelopes themselves (the `evidence`):
- "equivocation": two different messages of one kind, seat and step, both signed by the seat;
- "reveal": a `commit` and its `reveal` that does not match it, or opens no valid action;
- "hash": a step message whose state hash or chain differs from the one every honest peer
  computed for that step (each verifier compares with its own).
A peer that detects one publishes a `proof` on the log; every peer checks it before acting on it
(a proof that does not hold is dropped, and nothing is blamed). A proven seat lets the others
vote (vote.py). The guard for `sync` lives here too: a step message delivered inside a sync
answer by its own author stays unconfirmed until another peer (or the live log) delivers it,
so a seat cannot feed one lagging peer a different version of its move (see `guard`).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from typing import TYPE_CHECKING

from engine.core import DecodeError, from_plain

from .. import crypto
from ..codec import Envelope, decode_envelope
from ..errors import WireError
from .context import Context, restates
from .outputs import STEP_KINDS, Keep, Note, Output, Publish

if TYPE_CHECKING:
    from .steps import Steps

WHAT = {"equivocation": "signed two different messages for one step",
        "reveal": "revealed a choice that does not match its commitment, or an illegal one",
        "action": "played an action the rules refuse",
        "hash": "sent a state hash that differs from the table's",
        "deck": "broke the deck protocol",
        "audit": "cheated the deal (the end audit replays every shuffle)"}
LATER = "later"  # a proof about a step this peer has not reached yet: checked when it does
MAX_PENDING = 64
MAX_HELD = 256


def digest(body: dict) -> bytes:
    """What a vote names a proof by: the hash of its evidence (the same for every reporter
    that holds the same messages in the same order)."""
    h = hashlib.sha256(b"gamenight/v1/proof\x00")
    for raw in body["evidence"]:
        h.update(len(raw).to_bytes(4, "big") + raw)
    return h.digest()


class Proofs:
    """Reports, checks and remembers proven faults of one peer's game."""

    def __init__(self, ctx: Context, steps: Steps) -> None:
        self.ctx = ctx
        self.steps = steps
        self.proven: dict[int, tuple[str, bytes]] = {}  # seat -> (what, proof digest)
        # every verified proof's digest per seat: a vote may name any of them (two peers may
        # each have reported the same fault first, with its evidence in their own order)
        self.digests: dict[int, set[bytes]] = {}
        # (seat, step) of a move the seat signed twice: no version of it counts any more. A
        # peer that applied one version goes back to that step, so the table votes (and ends)
        # at the same step everywhere, whichever version each peer saw first
        self.contested: set[tuple[int, int]] = set()
        self.reported: set[tuple[int, str, int]] = set()
        self.pending: list[Envelope] = []  # proofs about a step not reached yet
        # step messages only their author delivered (inside its own sync answer): raw by key
        self.unconfirmed: dict[tuple[str, int, int], bytes] = {}
        self.suspect: set[tuple[str, int, int]] = set()  # unconfirmed, and the table disagrees
        self.ask_again: Callable[[], list[Output]] = list  # a sync_req (the router sets it)
        self.offline: set[int] = set()  # seats offline now (social.py's set, the router shares it)
        self.mismatch: dict[int, dict[int, tuple[bytes, bytes]]] = {}  # step -> seat -> (h, c)
        ctx.on_equivocation = self.equivocation
        ctx.on_mismatch = self.on_mismatch

    # ---- reporting ---------------------------------------------------------------------
    def report(self, seat: int, what: str, step: int, evidence: list[bytes]) -> list[Output]:
        """Publish a proof, once, if it holds here (a peer never blames without proof)."""
        ctx = self.ctx
        body = {"seat": seat, "what": what, "step": step, "evidence": evidence}
        if seat in self.steps.own_seats():
            return []  # a peer does not report the seat it plays
        if ctx.me is None or ctx.my_seat is None or (seat, what, step) in self.reported:
            return self._record(seat, what, body) if self.check(body) is None else []
        if self.check(body) is not None:
            return []
        self.reported.add((seat, what, step))
        env = ctx.sign("proof", body)
        return [Publish("log", env.raw)] + self.on_proof(env)

    def equivocation(self, env: Envelope, old: bytes) -> list[Output]:
        # in byte order, whichever came first here: every reporter names the same proof
        return self.report(env.seat, "equivocation", env.step, sorted([old, env.raw]))

    def bad_opening(self, seat: int, commitment: Envelope | bytes | None, opening: Envelope) -> list[Output]:
        """A reveal (or open) was refused: prove it if it fails its commitment."""
        if commitment is None:
            return []
        raw = commitment if isinstance(commitment, bytes) else commitment.raw
        return self.report(seat, "reveal", opening.step, [raw, opening.raw])

    def on_mismatch(self, env: Envelope) -> list[Output]:
        """A seat's message carries another state hash than ours for this step.

        When two or more other seats agree with each other against us, we are the odd one
        out: freeze with the classic report. Otherwise the seat is reported with a proof that
        every other peer checks against its own hash; nobody freezes.
        """
        ctx = self.ctx
        doubtful = [key for key in self.unconfirmed if key[2] < env.step]
        if doubtful:  # our state rests on a move only its author vouched for: it may be a lie
            back = min(key[2] for key in doubtful)
            self.suspect.update(doubtful)
            for key in doubtful:
                ctx.history.pop(key, None)
            self.steps.rewind(back)
            out = ctx.drop(env, f"seat {env.seat} disagrees with a move only its author sent this peer "
                                f"(step {back}): asking the table again")
            return out + self.ask_again()
        seen = self.mismatch.setdefault(env.step, {})
        seen[env.seat] = (env.state_hash, env.prev_hash)
        if len(seen) >= 2 and len(set(seen.values())) == 1:
            return ctx.freeze_desync(env)
        out = ctx.drop(env, f"seat {env.seat} has another state at step {env.step} "
                            f"({env.state_hash.hex()[:16]}, this peer {ctx.hash.hex()[:16]})", loud=True)
        return out + self.report(env.seat, "hash", env.step, [env.raw])

    # ---- receiving ---------------------------------------------------------------------
    def on_proof(self, env: Envelope) -> list[Output]:
        """A `proof` from a seated key: checked here before anything acts on it."""
        ctx, body = self.ctx, env.body
        problem = self.check(body)
        if problem == LATER:
            if len(self.pending) < MAX_PENDING:
                self.pending.append(env)
            return []
        if problem is not None:
            return ctx.drop(env, f"proof against seat {body['seat']} does not hold: {problem}")
        ctx.accept(ctx.step, env)
        return [Keep(env.raw)] + self._record(body["seat"], body["what"], body)

    def _record(self, seat: int, what: str, body: dict) -> list[Output]:
        proof = digest(body)
        known = self.digests.setdefault(seat, set())
        if len(known) < MAX_PENDING:
            known.add(proof)
        if what == "equivocation":
            self._contest(seat, body["step"])
        if seat in self.proven:
            return []
        self.proven[seat] = (what, proof)
        names = self.ctx.display_names()
        name = names[seat] if seat < len(names) else f"seat {seat}"
        text = f"{name} {WHAT[what]} (proven): the table may vote to end the game"
        return [Note("proof", text, {"seat": seat, "what": what, "step": body["step"]})]

    def _contest(self, seat: int, step: int) -> None:
        if (seat, step) in self.contested:
            return
        self.contested.add((seat, step))
        if step < self.ctx.step and self.ctx.phase == "play":
            self.steps.rewind(step)

    def convict(self, seat: int, what: str, proof: bytes, step: int) -> list[Output]:
        """A fault every peer sees in the same signed message (a deck pass or key that fails
        its check): no proof to send, each peer convicts on the message itself."""
        return self._record(seat, what, {"step": step, "evidence": [proof]})

    def recheck(self) -> list[Output]:
        """Proofs that waited for this step: check them now."""
        waiting, self.pending = self.pending, []
        out: list[Output] = []
        for env in waiting:
            out += self.on_proof(env)
        return out

    def check(self, body: dict) -> str | None:
        """None when the proof holds for this peer, LATER, or why it does not hold."""
        ctx = self.ctx
        seat, what = body["seat"], body["what"]
        if not 0 <= seat < len(ctx.keys) or what not in WHAT:
            return f"no seat {seat} or no fault {what!r}"
        try:
            envs = [decode_envelope(raw) for raw in body["evidence"]]
        except WireError as exc:
            return f"evidence does not decode ({exc})"
        signers = {ctx.keys[seat], ctx.signers.get(seat, ctx.keys[seat])}
        for e in envs:
            if e.gid != ctx.gid or e.seat != seat or e.sender not in signers or e.step != body["step"] and what != "reveal":
                return "the evidence is not that seat's messages for that step"
        return getattr(self, f"_check_{what}")(seat, envs)

    def _check_equivocation(self, seat: int, envs: list[Envelope]) -> str | None:
        if len(envs) != 2 or envs[0].key != envs[1].key or envs[0].kind not in STEP_KINDS:
            return "two messages of one kind and step are needed"
        if envs[0].body == envs[1].body:
            return "both messages say the same"
        return None

    def _check_reveal(self, seat: int, envs: list[Envelope]) -> str | None:
        if len(envs) != 2:
            return "a commitment and its opening are needed"
        commit, opening = envs
        if (commit.kind, opening.kind) != ("commit", "reveal"):
            return "a commitment and its opening are needed"
        if commit.step != opening.step:
            return "the opening is not for that commitment's step"
        try:
            action = from_plain(opening.body["action"])
            expected = crypto.action_commit(self.ctx.gid, commit.step, seat, action, opening.body["salt"])
        except (DecodeError, TypeError, ValueError):
            return None  # an opening that holds no action at all fails its commitment
        if expected != commit.body["commit"]:
            return None
        if commit.kind != "commit":
            return "the opening matches its commitment"
        return self._refused(seat, commit.step, opening.body["action"])  # committed, but illegal?

    def _check_action(self, seat: int, envs: list[Envelope]) -> str | None:
        if len(envs) != 1 or envs[0].kind != "act":
            return "one act is needed"
        return self._refused(seat, envs[0].step, envs[0].body["action"])

    def _refused(self, seat: int, step: int, sent: object) -> str | None:
        """None when the rules refuse `sent` at `step` as this peer holds it: judged where the
        table stands (a step not reached yet waits; a step the table has left is settled)."""
        ctx = self.ctx
        if step > ctx.step or step == ctx.step and (ctx.phase != "play" or self.steps.dealing.busy()):
            return LATER if ctx.phase in ("seed", "play") else "the game is not at that step"
        if step < ctx.step:
            return "the table went on past that step"
        if self.steps.refusal(seat, sent) is None:
            return "the action is legal"
        return None

    def _check_deck(self, seat: int, envs: list[Envelope]) -> str | None:
        return "a deck fault is judged by every peer from the message itself, never reported"

    def _check_audit(self, seat: int, envs: list[Envelope]) -> str | None:
        return "the audit is replayed by every peer from the seats' secrets, never reported"

    def _check_hash(self, seat: int, envs: list[Envelope]) -> str | None:
        if len(envs) != 1 or envs[0].kind not in STEP_KINDS:
            return "one step message is needed"
        env = envs[0]
        heads = self.steps.heads
        if env.step >= len(heads):
            return LATER
        if (env.state_hash, env.prev_hash) == heads[env.step]:
            return "its state hash is the one this peer has"
        return None

    # ---- sync guard --------------------------------------------------------------------
    def first_unconfirmed(self) -> int | None:
        return min((step for _, _, step in self.unconfirmed), default=None) if self.awaits_confirmation() else None

    def awaits_confirmation(self) -> bool:
        """True while the state rests on a move only its author delivered and another present
        seat could confirm it: this peer does not act on it yet (a move on a lie would carry a
        hash the table does not share, and get an honest seat blamed). It asks on `sync`; the
        next answer comes from another seat (answers go round the seats)."""
        if not self.unconfirmed:
            return False
        ctx = self.ctx
        authors = {seat for _, seat, _ in self.unconfirmed}
        others = set(range(len(ctx.keys))) - authors - self.offline - {ctx.my_seat}
        return bool(others)

    def guard(self, env: Envelope) -> tuple[list[Output], bool]:
        """(outputs, go on?) for a step message, checked against what the others hold.

        A message that only its author delivered (inside its own `sync` answer, at a table of
        three or more) is applied but remembered as unconfirmed. Another version of it from
        anyone else proves equivocation, and the other version wins: the peer goes back to that
        step and applies it. Once a seat's later message disagrees with a state built on an
        unconfirmed message, that message is suspect (see `on_mismatch`): it is held, not
        applied, when its author delivers it again.
        """
        ctx = self.ctx
        key = env.key
        prev = self.unconfirmed.get(key)
        alone = ctx.via is not None and ctx.via == env.sender and len(ctx.keys) >= 3 and not ctx.replaying
        held = ctx.history.get(key)
        if alone and prev is None and held is not None and restates(held, env):
            return [], True  # a copy of what we hold from elsewhere already: nothing to confirm
        if alone:
            if prev is not None and not restates(prev, env):
                return self.equivocation(env, prev), False  # the author's second version: not used
            if key in self.suspect:
                return [Note("dropped", f"{env.kind} of seat {env.seat} for step {env.step}: the table "
                                        "disagrees with it; waiting for another peer's copy")], False
            if prev is None and len(self.unconfirmed) < MAX_HELD:
                self.unconfirmed[key] = env.raw
            return [], True
        if prev is None:
            return [], True
        del self.unconfirmed[key]
        self.suspect.discard(key)
        if restates(prev, env):  # confirmed by another peer or the live
            # log (the same message, maybe signed again by its resumed author): we may act again
            return ([Note("your_turn", "", {"step": ctx.step})] if self.steps.my_turn() else []), True
        out = self.equivocation(env, prev)
        if env.step < ctx.step:  # we built on the author's other version: go back and use this one
            self.steps.rewind(env.step)
        ctx.history.pop(key, None)
        self.steps.round.table(env.kind).pop(env.seat, None)
        return out, True
