"""The Lockstep: one peer's view of one networked game, routing each message to its phase.

Phases: lobby (seats filling, the host assigns them) -> seed (commit-reveal of one secret per
seat) -> play (lockstep steps) -> over; any hash mismatch moves to "frozen" for good. Each
phase is its own small machine (`lobby`, `seed`, `steps` with `simultaneous` and `sealed`,
`sync`, `social`); they share one `Context`. The router owns none of the rules: it checks a
message is for this game and from the key its seat is bound to, and hands it on.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Mapping
from typing import Any

from engine.core import Game

from ..codec import Envelope
from ..identity import Identity, peer_id
from ..versions import local_versions
from .admission import TablePin
from .buffer import SETUP_SLOT, Buffer
from .context import Clock, Context, Entropy
from .deadlines import Deadlines
from .lobby import Lobby
from .outputs import DECK_KINDS, STEP_KINDS, TABLE_KINDS, Note, Output, TableInfo
from .proofs import Proofs
from .rematch import Rematch
from .seed import SeedAgreement
from .social import Social
from .steps import Steps
from .sync import Sync
from .vote import Votes


def _shared(part: str, name: str, writable: bool = False) -> Any:
    """A read (and maybe write) view of `self.<part>.<name>`: the attributes callers used."""

    def get(self: Lockstep) -> Any:
        return getattr(getattr(self, part), name)

    def put(self: Lockstep, value: Any) -> None:
        setattr(getattr(self, part), name, value)

    return property(get, put if writable else None)


class Lockstep:
    """Signed envelopes in, outputs (publish, keep, secret, note) out. No I/O, no asyncio.

    `clock` (wall-clock seconds, used for nonces) and `entropy` (seed shares and salts) are
    the only things taken from the outside world; tests pass their own.
    """

    def __init__(
        self,
        game: Game,
        gid: str,
        identity: Identity | None,
        *,
        host_key: bytes | None = None,
        table: TableInfo | None = None,
        name: str = "",
        secrets: Mapping[str, bytes] | None = None,
        pin: TablePin | None = None,
        clock: Clock = time.time,
        entropy: Entropy = os.urandom,
    ) -> None:
        ctx = self.ctx = Context(game, gid, identity, name=name or "player", secrets=dict(secrets or {}),
                                 clock=clock, entropy=entropy)
        ctx.host_key = host_key
        ctx.pin = pin
        ctx.table = table
        ctx.awaited = self.awaited
        self.versions = local_versions(game)
        self.buffer = Buffer(ctx)
        self.lobby = Lobby(ctx, self.versions, self._started)
        self.seeding = SeedAgreement(ctx, self._seeded)
        self.steps = Steps(ctx, self.buffer, self._route)
        self.social = Social(ctx)
        self.rematch = Rematch(ctx)
        self.catchup = Sync(ctx, self._pending_raws, self.receive, lambda: self.social.offline)
        self._handlers = self._handlers_by_kind()
        # a table that must not wait forever: proofs of faults, deadlines, the vote
        self.proofs = self.steps.proofs = Proofs(ctx, self.steps)
        self.proofs.ask_again = self.catchup.request
        self.proofs.offline = self.social.offline
        self.catchup.confirm_from = self.proofs.first_unconfirmed
        self.deadlines = Deadlines(ctx, self.steps, self.proofs, self.social.offline)
        self.votes = Votes(ctx, self.steps, self.proofs, self.buffer)
        self.votes.offline = self.social.offline
        self.votes.on_wait.append(self.deadlines.restart)

    game = _shared("ctx", "game")
    gid = _shared("ctx", "gid")
    me = _shared("ctx", "me")
    name = _shared("ctx", "name")
    secrets = _shared("ctx", "secrets")
    phase = _shared("ctx", "phase")
    frozen = _shared("ctx", "frozen")
    replaying = _shared("ctx", "replaying", writable=True)
    pin = _shared("ctx", "pin")
    host_key = _shared("ctx", "host_key")
    table = _shared("ctx", "table", writable=True)
    seat_keys = _shared("ctx", "seat_keys")
    kicked = _shared("ctx", "kicked")  # keys the host removed from a seat before the start
    seat_names = _shared("ctx", "seat_names")
    keys = _shared("ctx", "keys")
    names = _shared("ctx", "names")
    options = _shared("ctx", "options")
    step = _shared("ctx", "step")
    hash = _shared("ctx", "hash")
    chain = _shared("ctx", "chain")
    accepted = _shared("ctx", "accepted")
    my_seat = _shared("ctx", "my_seat")
    is_host = _shared("ctx", "is_host")
    n_players = _shared("ctx", "n_players")
    hello_sent = _shared("lobby", "hello_sent")
    refused = _shared("lobby", "refused")
    seed = _shared("seeding", "seed")

    state = _shared("steps", "state")
    game_log = _shared("steps", "game_log")
    offline = _shared("social", "offline")
    settings = _shared("ctx", "settings", writable=True)  # the table's deadlines and clock
    name = _shared("ctx", "name")  # this peer's name at the table
    announce_raw = _shared("lobby", "announce_raw")  # the host's announcement as it came
    answers_as_archive = _shared("catchup", "archive", writable=True)  # no seat left to wait for

    @property
    def public_states(self) -> tuple[Any, ...]:
        """A dealt table's public state at each step so far (cards never shown are tokens)."""
        return tuple(self.steps.states)

    def dealing_busy(self) -> bool:
        """True while the table deals, shows or opens cards: nobody chooses meanwhile."""
        return self.steps.dealing.busy()

    def awaits_confirmation(self) -> bool:
        """The state rests on a move only its author vouched for (proofs.py)."""
        return self.proofs.awaits_confirmation()

    def entropy(self, n: int) -> bytes:
        """n bytes from this peer's entropy (a bot's draws, say)."""
        return self.ctx.entropy(n)

    @property
    def may_draw_seed(self) -> bool:
        return self.seeding.may_draw

    @may_draw_seed.setter
    def may_draw_seed(self, value: bool) -> None:
        """False: a seated peer without its files draws no new seed share nor deck keys."""
        self.seeding.may_draw = self.steps.dealing.may_draw = value

    @property
    def acts(self) -> dict[int, Envelope]:
        return self.steps.round.acts

    @property
    def commits(self) -> dict[int, Envelope]:
        return self.steps.round.commits

    @property
    def reveals(self) -> dict[int, Envelope]:
        return self.steps.round.reveals

    # ---- facts -------------------------------------------------------------------------
    def active(self) -> frozenset[int]:
        return self.steps.active()

    def step_mode(self) -> str:
        """How the current step is played: "act" or "commit" (see steps.py)."""
        return self.steps.step_mode()

    def simultaneous(self) -> bool:
        return self.step_mode() == "commit"

    def awaited(self) -> frozenset[int]:
        """Seats whose message the table is waiting for now (shown on screen)."""
        if self.ctx.phase == "seed":
            return self.seeding.awaited() | self.steps.dealing.awaited()
        if self.ctx.phase == "ending":
            return self.votes.ending.awaited()
        if self.ctx.phase != "play":
            return frozenset()
        return self.steps.awaited()

    def my_turn(self, seat: int | None = None) -> bool:
        return self.steps.my_turn(seat)

    def view(self, seat: int | None) -> Any:
        return self.steps.view(seat)

    def legal_actions(self, seat: int) -> Any:
        """What `seat` may do now, from what it knows (a dealt table: its own cards)."""
        return self.game.legal_actions(self.steps.known(seat), seat)

    def lobby_seats(self) -> list[str]:
        return self.ctx.lobby_seats()

    def _unique_name(self, name: str) -> str:
        return self.lobby.unique_name(name)

    # ---- local choices -----------------------------------------------------------------
    def host(self, players: int, options: Mapping[str, Any], relay_bots: int = 0,
             invite: bool = False) -> list[Output]:
        """Open the table as its host, taking seat 0 (invite: only invited keys sit or watch)."""
        return self.lobby.host(players, options, relay_bots, invite)

    def kick(self, seat: int) -> list[Output]:
        """The host removes a guest before the start (ValueError with the reason otherwise)."""
        return self.lobby.kick(seat)

    def hello(self) -> list[Output]:
        """Ask the host for a seat (checked against the announcement first)."""
        return self.lobby.hello()

    def decide(self, action: Any) -> list[Output]:
        """This peer's seat chooses `action` for the current step; raises IllegalAction."""
        out = self.steps.decide(action)
        self.deadlines.follow()
        return out

    def chat(self, text: str) -> list[Output]:
        return self.social.chat(text)

    def offer_rematch(self, gid: str, secret: bytes) -> list[Output]:
        """As the host of a game that is over: offer the new table `gid` to its players."""
        return self.rematch.make_offer(gid, secret)

    @property
    def rematch_offer(self) -> tuple[str, bytes] | None:
        """(game id, table secret) of the rematch the host offered us, if it did."""
        return self.rematch.offer

    def presence(self, status: str, *, will: bool = False) -> bytes | None:
        return self.social.presence(status, will=will)

    def silent_for(self) -> float:
        """Seconds since this peer last published anything (its presence is due after a while)."""
        return self.social.silent_for()

    def expire_presence(self, after: float) -> list[Output]:
        """Seats not heard for `after` seconds count offline."""
        return self.social.expire(after)

    def sync_request(self) -> list[Output]:
        """Ask the others for everything from our current step (or from scratch)."""
        return self.catchup.request()

    def own_current(self) -> list[Output]:
        """What to send again after a reconnect: our part of the step (or setup) in progress."""
        if self.ctx.me is None:
            return []
        out = self.lobby.own_current()
        if self.ctx.phase == "seed":
            out += self.seeding.own_current()
        if self.ctx.phase == "play":
            out += self.steps.own_current()
        if self.ctx.phase == "ending":
            out += self.votes.ending.own_current()
        if self.ctx.phase == "over":
            out += self.votes.ending.shown_again()
        return out + self.steps.deck_resend()

    # ---- the table's vote (vote.py, deadlines.py, proofs.py) ---------------------------
    def vote_options(self) -> dict[str, Any] | None:
        """What this peer may vote about now, or None: {"seats", "cause", "names", "voted"}."""
        seat = self.ctx.my_seat
        if seat is None or seat in self.ctx.signers or not self.votes.may_vote():
            return None
        outcome = self.votes.outcome  # while the seats show their cards: about one that does not
        away = frozenset(outcome.seats) if outcome is not None else frozenset()
        reason = self.deadlines.reason(frozenset(self.steps.own_seats()) | away)
        if reason is None or seat not in self.votes.electorate(reason[0]):
            return None
        seats, cause = reason
        names = self.ctx.display_names()
        return {"seats": seats, "cause": cause, "names": [names[s] for s in seats],
                "voted": self.votes.voted(seats, cause)}

    def vote(self, choice: str) -> list[Output]:
        """Our seat votes "end", "abandon" or "wait" about what `vote_options` names."""
        options = self.vote_options()
        if options is None:
            raise ValueError("there is nothing to vote about now")
        return self.votes.cast(choice, options["seats"], options["cause"])

    def follow_vote(self, note: Note) -> list[Output]:
        """A bot's seat votes as the first player who voted in this round (`note`: that vote)."""
        return self.votes.follow(note)

    def handover(self, bot: str = "best") -> list[Output]:
        """We leave: another peer plays our seat with a `bot` from now on."""
        out = self.votes.handover(bot)
        seat = self.ctx.my_seat
        if seat is not None and seat in self.votes.handed:  # a dealt game: our deck keys go too
            out += self.steps.deck_hand_over(seat, self.votes.handed[seat][0])
        return out

    def deadline_left(self) -> float | None:
        """Seconds before the seats awaited now are late (None when nobody is awaited)."""
        return self.deadlines.left()

    def result(self) -> Any:
        """The final Result: the game's own, or scored as it stood when the table ended it."""
        return self.votes.result()

    @property
    def drawable(self) -> bool:
        """True once a screen may draw the game: it began and its first cards reached us."""
        return self.state is not None and self.steps.shown_state() is not None

    @property
    def dealt(self) -> bool:
        """True when the deck protocol deals this game (it has hidden cards)."""
        return self.steps.dealing.on

    def my_faces(self) -> dict[str, Any]:
        """Faces of the cards shown to this peer's seat alone so far (token -> face)."""
        return dict(self.steps.dealing.mine)

    def dealt_cards(self) -> int:
        """Cards in every deck the protocol dealt in this game."""
        return sum(table.size for table in self.steps.dealing.tables.values())

    @property
    def deal_verdict(self) -> str | None:
        """"verified", who cheated, or None (not dealt, or the audit is not complete)."""
        return self.steps.dealing.verdict

    def audit_overdue(self) -> list[Output]:
        """Past the `reveal` deadline the end audit judges without the audits still missing."""
        return self.steps.deck_audit_overdue(self.deadlines.seconds("reveal"))

    def accused(self) -> tuple[int, ...]:
        """Seats named by the end audit or convicted at once by a deck message they signed."""
        deck = {s for s, (what, _) in self.proofs.proven.items() if what == "deck"}
        return tuple(sorted(deck | set(self.steps.dealing.accused)))

    def replays(self) -> bool:
        """The log replays with the plain engine to this peer's state (a dealt game: once its
        deal is verified, to the same public view, since cards never shown stay tokens)."""
        from engine.core import GameError, final_state, state_hash, to_plain

        if self.game_log is None:
            return False
        try:
            replayed = final_state(self.game, self.game_log)
        except GameError:
            return False
        if not self.dealt:
            return state_hash(replayed) == self.hash.hex()
        return to_plain(self.game.view(replayed, None)) == to_plain(self.game.view(self.state, None))

    @property
    def outcome(self) -> Any:
        return self.votes.outcome

    def own_seats(self) -> list[int]:
        return self.steps.own_seats()

    def play_for(self, seat: int, action: Any) -> list[Output]:
        """A seat handed to this peer chooses `action` (its bot decided)."""
        return self.steps.decide(action, seat)

    # ---- receiving ---------------------------------------------------------------------
    def receive(self, env: Envelope) -> list[Output]:
        """Act on one decoded, signature-checked envelope."""
        before = (self.ctx.step, len(self.proofs.proven), self.steps.dealing.busy())
        out = self._route(env)
        now = (self.ctx.step, len(self.proofs.proven), self.steps.dealing.busy())
        if self.ctx.phase in ("play", "over") and now != before:
            out += self.proofs.recheck() + self.votes.recheck()  # what waited for this
        self.deadlines.follow()  # a new wait starts its deadline now, not when first asked
        return out

    def _route(self, env: Envelope) -> list[Output]:
        ctx = self.ctx
        if env.gid != ctx.gid:
            return ctx.drop(env, f"message for game {env.gid!r}, this is {ctx.gid!r}")
        if ctx.via is None:
            self.social.hear(env)
        if ctx.frozen and env.kind not in ("chat", "presence", "sync_req", "deck_audit"):
            return []
        handler = self._handlers.get(env.kind)
        if handler is not None:
            return handler(env)
        problem = self._seat_problem(env)
        if problem:
            return ctx.drop(env, problem)
        if env.kind in ("seed_commit", "seed_reveal"):
            if ctx.phase == "lobby":
                return self.buffer.hold(env)
            if ctx.phase != "seed":
                return ctx.stale(env) if ctx.phase in ("play", "ending", "over") else []
            return self.seeding.on_message(env)
        if env.kind == "deck_score":
            return self.votes.ending.on_score(env)
        if env.kind in DECK_KINDS:
            return self.steps.deck_message(env)
        if env.kind in TABLE_KINDS:
            handler = {"vote": self.votes.on_vote, "proof": self.proofs.on_proof,
                       "handover": self.votes.on_handover}[env.kind]
            return handler(env)
        if env.kind in STEP_KINDS:
            if ctx.phase in ("over", "ending"):
                return ctx.stale(env)
            out, go_on = self.proofs.guard(env)  # from sync, by its author alone: held
            return out + self.steps.on_message(env) if go_on else out
        return ctx.drop(env, f"unexpected {env.kind}")

    def _handlers_by_kind(self) -> dict[str, Callable[[Envelope], list[Output]]]:
        """Kinds that do not come from a seat: the lobby's, catch-up, chat and presence."""
        return {
            "announce": self.lobby.on_announce, "hello": self.lobby.on_hello,
            "seat": self.lobby.on_host_msg, "kick": self.lobby.on_host_msg, "refuse": self.lobby.on_host_msg, "start": self.lobby.on_host_msg,
            "sync_req": self.catchup.on_request, "sync": self.catchup.on_answer,
            "chat": self.social.on_chat, "presence": self.social.on_presence,
            "rematch": self.rematch.on_offer,
        }

    def _seat_problem(self, env: Envelope) -> str | None:
        keys = self.ctx.keys
        if not keys:
            return None if self.ctx.phase == "lobby" else "no seats are known yet"
        if not 0 <= env.seat < len(keys):
            return f"seat {env.seat} does not exist at this table"
        signer = self.ctx.signers.get(env.seat, keys[env.seat])  # a seat handed to a bot
        # after a handover the leaver's key still votes, and still reveals what it committed before
        kept = env.kind in TABLE_KINDS or env.kind in ("reveal", "deck_handover")
        if signer != env.sender and not (kept and keys[env.seat] == env.sender):
            return f"seat {env.seat} is bound to another key (sender {peer_id(env.sender)})"
        return None

    # ---- between phases ----------------------------------------------------------------
    def _started(self) -> list[Output]:
        """The host's start is in: agree on the seed, then use what came before the start."""
        out = self.seeding.begin()
        for env in self.buffer.release(SETUP_SLOT):
            out += self._route(env)
        return out

    def _seeded(self, seed: bytes) -> list[Output]:
        return self.steps.begin(seed)

    def _pending_raws(self) -> list[bytes]:
        """Messages of the step in progress (and the setup), for a peer that missed them."""
        raws = self.steps.pending_raws()
        if self.ctx.phase == "seed":
            raws += self.seeding.pending_raws()
        return raws
