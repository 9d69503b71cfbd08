"""Play: the game advances one step at a time, each step in one of two modes.

"act" (one active seat publishes its action) and "commit" (simultaneous: commit, then reveal;
`simultaneous.py`). This module holds what both share: checks on arrival, applying a step,
the chain.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from engine.core import (
    GameError,
    GameLog,
    IllegalAction,
    canonical,
    final_state,
    from_plain,
    new_log,
    state_hash,
    to_plain,
)
from engine.core.hidden import is_token, reveal, token

from .. import crypto
from ..codec import Envelope
from .buffer import Buffer
from .context import Context, restates
from .dealing import Dealing
from .deck_events import DeckAnswers
from .outputs import Keep, Note, Output, Publish, Secret, unpack
from .simultaneous import CommitReveal

log = logging.getLogger("gamenight.net")

KINDS_OF_MODE = {"act": ("act",), "commit": ("commit", "reveal")}


@dataclass
class Round:
    """What the peer holds of the step in progress (all of it is dropped when it is applied)."""

    acts: dict[int, Envelope] = field(default_factory=dict)
    commits: dict[int, Envelope] = field(default_factory=dict)
    reveals: dict[int, Envelope] = field(default_factory=dict)
    bad_reveals: set[int] = field(default_factory=set)
    verified: dict[int, Any] = field(default_factory=dict)  # seat -> action of a checked reveal
    faces: dict[str, Any] = field(default_factory=dict)  # dealt table: faces the actions proved
    mine: list[bytes] = field(default_factory=list)  # our messages, to send again on reconnect

    def table(self, kind: str) -> dict[int, Envelope]:
        return {"act": self.acts, "commit": self.commits, "reveal": self.reveals}[kind]


class Steps(CommitReveal, DeckAnswers):
    """The running game of one peer: state, log, and the step in progress."""

    def __init__(self, ctx: Context, buffer: Buffer, route: Callable[[Envelope], list[Output]]) -> None:
        self.ctx = ctx
        self.buffer = buffer
        self.route = route  # a buffered message whose step has come is routed like a new one
        self.state: Any = None
        self.game_log: GameLog | None = None
        self.round = Round()
        self._active_for: Any = None
        self._active: frozenset[int] = frozenset()
        self._mode = "act"
        self.heads: list[tuple[bytes, bytes]] = []  # (state hash, chain) at the start of each step
        self.proofs: Any = None  # the Proofs of this game (proofs.py), set by the router
        self.dealing = Dealing(ctx, buffer)  # hidden cards: the deck protocol (dealing.py)
        self.states: list[Any] = []  # a dealt table's public state at each step (for a rewind)
        self.seed: bytes | None = None
        self.options: dict[str, Any] | None = None  # a dealt game's, with what the seed decided
        self.held: tuple[dict[int, Any], str] | None = None  # a step waiting for its open

    # ---- facts -------------------------------------------------------------------------
    def begin(self, seed: bytes) -> list[Output]:
        """The seed is agreed: deal the decks (a game with hidden cards), or set up and play."""
        ctx = self.ctx
        n = len(ctx.keys)
        self.seed = seed
        try:  # a dealt game: what the seed decides before the deal is listed in the options
            options = ctx.game.deal_options(n, seed, ctx.game.check_options(ctx.options))
            decks = ctx.game.decks(n, options)
        except GameError as exc:
            return ctx.freeze(f"setup failed: {exc}")
        if decks:
            self.options = options
            return self.deck(self.dealing.begin(decks))
        try:
            self.state = ctx.game.setup(n, seed, ctx.options)
        except GameError as exc:
            return ctx.freeze(f"setup failed: {exc}")
        return self._started(seed)

    def dealt(self) -> list[Output]:
        """Every deck being dealt is ready: the game starts (or goes on, after a reshuffle)."""
        ctx = self.ctx
        if ctx.phase != "seed":
            return self.after_step()
        assert self.seed is not None
        try:
            self.state = ctx.game.setup_dealt(len(ctx.keys), self.seed, self.options)
        except GameError as exc:
            return ctx.freeze(f"setup failed: {exc}")
        return self._started(self.seed)

    def _started(self, seed: bytes) -> list[Output]:
        ctx = self.ctx
        n = len(ctx.keys)
        self.game_log = new_log(ctx.game, n, seed, ctx.game.check_options(self.options or ctx.options))
        ctx.hash = bytes.fromhex(state_hash(self.state))
        ctx.chain = crypto.genesis_hash(ctx.gid, seed, ctx.hash)
        ctx.phase = "play"
        ctx.step = 0
        self.heads = [(ctx.hash, ctx.chain)]
        self.states = [self.state] if self.dealing.on else []
        out: list[Output] = [Note("changed", f"the game begins (seed {seed.hex()[:12]})", {"step": 0})]
        return out + self.after_step()

    def active(self) -> frozenset[int]:
        if self.ctx.phase != "play":
            return frozenset()
        if self._active_for is not self.state:  # computed once per state: asked on every message
            state = self.state
            active = self.ctx.game.active(state)
            mode = "commit" if len(active) > 1 else "act"
            self._active_for, self._active, self._mode = state, active, mode
        return self._active

    def step_mode(self) -> str:
        self.active()
        return self._mode

    def awaited(self) -> frozenset[int]:
        if self.dealing.busy():
            return self.dealing.awaited()
        active = self.active()
        mode = self.step_mode()
        r = self.round
        if mode == "act":
            return frozenset(s for s in active if s not in r.acts)
        if any(s not in r.commits for s in active):
            return frozenset(s for s in active if s not in r.commits)
        return frozenset(s for s in active if s not in r.reveals or s in r.bad_reveals)

    def own_seats(self) -> list[int]:
        """Seats this peer plays: its own (unless handed over) and any handed to it."""
        ctx = self.ctx
        if ctx.me is None:
            return []
        seats = [ctx.my_seat] if ctx.my_seat is not None and ctx.my_seat not in ctx.signers else []
        return seats + sorted(s for s, key in ctx.signers.items() if key == ctx.me.public)

    def secret_name(self, kind: str, step: int, seat: int | None) -> str:
        """Where an opening of ours is kept ("commit:4"; a seat handed to us adds its number)."""
        return f"{kind}:{step}" if seat == self.ctx.my_seat else f"{kind}:{step}:{seat}"

    def my_turn(self, seat: int | None = None) -> bool:
        seat = self.ctx.my_seat if seat is None else seat
        if seat is None or seat not in self.own_seats() or self.ctx.phase != "play" or seat not in self.active():
            return False
        if self.dealing.on and seat != self.ctx.my_seat and seat not in self.dealing.proxied:
            return False  # a seat handed to us plays once its deck keys (its hand) are here
        if self.dealing.busy() or self.held is not None:
            return False  # nobody chooses while the table shows or opens cards
        if self.proofs is not None and self.proofs.awaits_confirmation():
            return False  # the state rests on a move only its author vouched for: not yet
        return seat not in self.round.acts and seat not in self.round.commits

    def known(self, seat: int | None, state: Any = None) -> Any:
        """The state (the current one by default) as `seat` knows it on this machine (a dealt
        table: its own faces in)."""
        state = self.state if state is None else state
        return self.dealing.known(state, seat) if self.dealing.on else state

    def shown_state(self) -> Any:
        """The public state a screen draws, None before the first one is. While the cards a
        change turned over are on their way (a show, or a deck the rules just shuffled), it
        is the state before that change: a screen never reads a card of its own seat that
        has not reached it (a 7 Wonders hand passed on, say)."""
        if not (self.dealing.on and self.dealing.showing()):
            return self.state
        return self.states[-2] if len(self.states) >= 2 else None

    def view(self, seat: int | None) -> Any:
        return self.ctx.game.view(self.known(seat, self.shown_state()), seat)

    # ---- our choice --------------------------------------------------------------------
    def decide(self, action: Any, seat: int | None = None) -> list[Output]:
        """This peer's seat (or a seat handed to it) chooses `action`; raises IllegalAction."""
        ctx = self.ctx
        seat = ctx.my_seat if seat is None else seat
        if ctx.frozen:
            raise IllegalAction(f"the game is frozen: {ctx.frozen}")
        if seat is None or ctx.phase != "play":
            raise IllegalAction("you have no seat in a running game")
        if not self.my_turn(seat):
            raise IllegalAction("it is not your turn (or you already chose)")
        ctx.game.validate(self.known(seat), seat, action)
        if self.dealing.on:  # the table's form: private faces as tokens, read ones proved
            action = self.dealing.shown_action(self.state, seat, action)
        mode = self.step_mode()
        if mode == "act":
            env = ctx.sign("act", {"action": to_plain(action)}, seat=seat)
            return [Publish("log", env.raw)] + self.on_message(env, mine=True)
        salt = ctx.entropy(32)
        name = self.secret_name("commit", ctx.step, seat)  # kept until our reveal is sent
        secret = canonical((to_plain(action), salt))
        ctx.secrets[name] = secret
        commit = crypto.action_commit(ctx.gid, ctx.step, seat, action, salt)
        env = ctx.sign("commit", {"commit": commit}, seat=seat)
        return [Secret(name, secret), Publish("log", env.raw)] + self.on_message(env, mine=True)

    def opening(self, name: str) -> tuple[Any, bytes] | None:
        """A stored `(action plain, salt)` of ours, by its secret's name."""
        secret = self.ctx.secrets.get(name)
        if secret is None:
            return None
        action_plain, salt = unpack(secret)
        return action_plain, bytes(salt)

    # ---- arrivals ----------------------------------------------------------------------
    def on_message(self, env: Envelope, mine: bool = False) -> list[Output]:
        """An `act`/`commit`/`reveal` from the seat bound to its key."""
        ctx = self.ctx
        if ctx.phase != "play":
            if ctx.phase in ("lobby", "seed"):
                return self.buffer.hold(env)
            return ctx.drop(env, f"{env.kind} while the game is {ctx.phase}")
        if env.step < ctx.step:
            return ctx.stale(env)
        if env.step > ctx.step or self.dealing.busy():
            # a dealt table shows or opens cards first: a move made after that (its hash is
            # the state with those faces in) waits here until this peer has them too
            return self.buffer.hold(env)
        if (env.seat, env.step) in self.proofs.contested:
            return ctx.drop(env, f"seat {env.seat} signed two versions of its move at step {env.step}: "
                                 "neither counts, the table votes")
        if env.state_hash != ctx.hash or env.prev_hash != ctx.chain:
            return ctx.desync(env)
        problem = self._mode_problem(env)
        if problem is not None:
            return ctx.drop(env, problem)
        old = self.round.table(env.kind).get(env.seat)
        if old is not None:
            if restates(old, env):
                return []  # a redelivery, or our move signed again after a resume
            if not (env.kind == "reveal" and env.seat in self.round.bad_reveals):
                out = ctx.drop(env, f"seat {env.seat} sent two different {env.kind}s for step {env.step} (equivocation)", loud=True)
                return out + self.proofs.equivocation(env, old.raw)
        if env.kind == "act":
            return self._on_act(env, mine)
        return self.on_commit_or_reveal(env, mine)

    def _mode_problem(self, env: Envelope) -> str | None:
        if env.seat not in self.active():
            return f"seat {env.seat} is not to act at step {env.step}"
        mode = self.step_mode()
        if env.kind in KINDS_OF_MODE[mode]:
            return None
        if mode == "commit" and env.kind == "act":
            return f"step {env.step} is simultaneous: an act must be a commit"
        if mode == "act" and env.kind in ("commit", "reveal"):
            return f"step {env.step} is sequential: no {env.kind} expected"
        return f"step {env.step} is played with {'/'.join(KINDS_OF_MODE[mode])}: no {env.kind} expected"

    def _on_act(self, env: Envelope, mine: bool) -> list[Output]:
        try:
            action = self.checked_action(env.seat, env.body["action"])
        except GameError as exc:  # signed by the seat for this step: a proof for the vote
            out = self.ctx.drop(env, f"illegal action from seat {env.seat}: {exc}", loud=True)
            return out + self.proofs.report(env.seat, "action", env.step, [env.raw])
        self.round.acts[env.seat] = env
        self.keep(env, mine)
        return [Keep(env.raw)] + self.apply({env.seat: action}, "act")

    def checked_action(self, seat: int, sent: Any) -> Any:
        """The action a seat sent (plain, as on the wire), decoded and validated (a dealt
        table: its proofs checked and its proven faces written in, kept with the step);
        raises GameError for anything the rules refuse or cannot read."""
        action, faces = self._checked(seat, sent)
        self.round.faces.update(faces)
        return action

    def refusal(self, seat: int, sent: Any) -> str | None:
        """Why the rules refuse `sent` from `seat` at the step in progress (None: legal).
        Changes nothing: a proof about an illegal action is checked with it."""
        try:
            self._checked(seat, sent)
        except GameError as exc:
            return str(exc)
        return None

    def _checked(self, seat: int, sent: Any) -> tuple[Any, dict[str, Any]]:
        game = self.ctx.game
        try:
            action = from_plain(sent)
            if not self.dealing.on:
                game.validate(self.state, seat, action)
                return action, {}
            opened = self.dealing.open_action(self.state, seat, action)
            if isinstance(opened, str):
                raise IllegalAction(opened)
            action, faces = opened
            game.validate(reveal(self.state, faces) if faces else self.state, seat, action)
            return action, faces
        except GameError:
            raise
        except Exception as exc:  # a check that could not read the action: it is not one
            log.warning("seat %s sent an action the rules cannot read: %r", seat, exc)
            raise IllegalAction(f"the rules cannot read it ({type(exc).__name__}: {exc})") from exc

    def keep(self, env: Envelope, mine: bool) -> None:
        """Record an accepted message of this step (and remember ours for a reconnect)."""
        if mine:
            self.round.mine.append(env.raw)
        self.ctx.accept(self.ctx.step, env)

    # ---- applying ----------------------------------------------------------------------
    def apply(self, actions: dict[int, Any], kind: str) -> list[Output]:
        if self.dealing.on:
            faces = self.round.faces
            if faces:  # what the actions proved is now public
                self.dealing.learn(faces)
                self.state = reveal(self.state, faces)
                actions = {s: reveal(a, faces) for s, a in actions.items()}
            needed = {t for t in self.ctx.game.needs(self.state, actions) if is_token(t)}
            if needed:  # faces the step reads that nobody proved: every seat's key first
                self.held = (actions, kind)
                return self.deck(self.dealing.before_apply(needed))
        return self._apply(actions, kind)

    def revealed(self, kind: str, faces: dict[str, Any]) -> list[Output]:
        """A show or an open is complete: write its faces in and go on."""
        ctx = self.ctx
        if kind == "deck_open" and self.held is not None:  # the step's own hash follows at once
            self.state = reveal(self.state, faces)
            (actions, mode), self.held = self.held, None
            # what came for this step while its cards were opened (our own move coming back,
            # a redelivery): the round holds those already; an equivocation is judged now
            out: list[Output] = []
            for env in self.buffer.release(ctx.step):
                out += self.route(env)
            return out + self._apply({s: reveal(a, faces) for s, a in actions.items()}, mode)
        self.turned_over(faces)
        return self.after_step()

    def turned_over(self, faces: dict[str, Any]) -> Any:
        """The state with `faces` written in, as the public state of the step in progress (a
        show after a change; the scoring cards the seats showed once the table ended a dealt
        game)."""
        ctx = self.ctx
        self.state = reveal(self.state, faces)
        ctx.hash = bytes.fromhex(state_hash(self.state))
        self.heads[-1] = (ctx.hash, ctx.chain)
        if self.states:
            self.states[-1] = self.state
        return self.state

    def _apply(self, actions: dict[int, Any], kind: str) -> list[Output]:
        ctx = self.ctx
        try:
            # each action was validated on arrival; `apply` checks them again with the step's
            # guards (a few microseconds), so the engine's one public entry decides every step
            state = ctx.game.apply(self.state, actions)
        except GameError as exc:
            return ctx.freeze(f"step {ctx.step} cannot be applied: {exc}")
        # the public events, from the public actions and states: the same on every peer
        events = ctx.game.events(self.state, actions, state)
        self.state = state
        new_hash = bytes.fromhex(state_hash(state))
        ctx.chain = crypto.entry_hash(ctx.chain, actions, new_hash)
        ctx.hash = new_hash
        assert self.game_log is not None
        self.game_log = self.game_log.append(actions)
        ctx.step += 1
        self.heads.append((ctx.hash, ctx.chain))
        if self.dealing.on:
            self.states.append(state)
        self.round = Round()
        ctx.secrets.pop(f"commit:{ctx.step - 1}", None)
        # the mode and the seats that acted are for the peer's timing figures
        # the log's lines are the events, worded by each screen with names: no text here
        out: list[Output] = [Note("changed", "", {"step": ctx.step, "mode": kind, "seats": sorted(actions),
                                                  "events": events})]
        return out + self.after_step()

    def after_step(self) -> list[Output]:
        ctx = self.ctx
        out: list[Output] = []
        if self.dealing.on:  # deal what the rules shuffled, show what the table now sees
            out += self.deck(self.dealing.after_change(self.state))
            if self.dealing.busy() or ctx.frozen:
                return out
        if ctx.game.is_over(self.state):
            ctx.phase = "over"
            result = ctx.game.result(self.state)
            out.append(Note("over", "the game is over", {"scores": list(result.scores)}))
            if ctx.is_host:
                out.append(Publish("lobby", b"", retain=True))
            return out + self.deck(self.dealing.begin_audit())
        out += ctx.waiting()
        if self.my_turn():
            out.append(Note("your_turn", "", {"step": ctx.step}))
        for env in self.buffer.release(ctx.step):
            if ctx.phase != "play":
                break
            out += self.route(env)
        return out

    def complete_log(self, orders: dict[str, tuple[Any, ...]]) -> None:
        """The audit verified the deal: the log gets the decks as dealt (top first), so it
        replays with the plain engine (the replay viewer, an export) like a local game's."""
        log = self.game_log
        if log is None:
            return
        stacked = self.ctx.game.dealt_options(log.n_players, orders)
        options = dict(log.options) | {k: to_plain(v) for k, v in stacked.items()}
        # cards that stayed face down are named in the steps too (a bag loaded, a card sold)
        faces = {token(label, pos): card for label, order in orders.items() for pos, card in enumerate(order)}
        steps = tuple(tuple((seat, reveal(action, faces)) for seat, action in step) for step in log.steps)
        self.game_log = GameLog(log.game, log.n_players, log.seed, tuple(sorted(options.items())), steps)

    def rewind(self, step: int) -> None:
        """Back to the start of `step` (the table ended the game there, by its vote)."""
        ctx = self.ctx
        if self.game_log is None or step >= ctx.step:
            return
        log = self.game_log
        self.game_log = GameLog(log.game, log.n_players, log.seed, log.options, log.steps[:step])
        if self.dealing.on:  # a dealt game cannot be replayed from its seed: its states are kept
            self.state = self.states[step]
            del self.states[step + 1:]
        else:
            self.state = final_state(ctx.game, self.game_log)
        ctx.hash, ctx.chain = self.heads[step]
        del self.heads[step + 1:]
        ctx.step = step
        self.round = Round()

    # ---- the deck protocol, asked as a service ---------------------------------------------
    def deck_message(self, env: Envelope) -> list[Output]:
        """A deck protocol message (deck_*) from the seat bound to its key."""
        return self.deck(self.dealing.on_message(env))

    def deck_audit(self, away: tuple[int, ...] = ()) -> list[Output]:
        """The game ended (`away`: seats it ended without): our deck secrets, for the audit."""
        return self.deck(self.dealing.begin_audit(away))

    def deck_audit_overdue(self, seconds: float) -> list[Output]:
        return self.deck(self.dealing.audit_overdue(seconds))

    def deck_hand_over(self, seat: int, to: int) -> list[Output]:
        """Our deck secrets for `seat`, sealed to seat `to`'s terminal, which plays it now."""
        return self.deck(self.dealing.hand_over(seat, to))

    def deck_resend(self) -> list[Output]:
        """After a restart: our pass, keys or audit for what the deal waits for now."""
        return self.deck(self.dealing.own_current())

    # ---- catching up -------------------------------------------------------------------
    def pending_raws(self) -> list[bytes]:
        """Messages of the step in progress, for a peer that missed them."""
        r = self.round
        raws = [e.raw for table in (r.acts, r.commits) for e in table.values()]
        if len(r.commits) == len(self.active()) and self.ctx.phase == "play":
            raws += [e.raw for s, e in r.reveals.items() if s not in r.bad_reveals]
        return raws

    def own_current(self) -> list[Output]:
        out: list[Output] = [Publish("log", raw) for raw in self.round.mine]
        if self.ctx.phase == "play" and self.step_mode() == "commit":  # resumed with every
            out += self.reveal_mine()  # commit in and our reveal not on disk
        return out
