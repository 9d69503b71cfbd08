"""The lockstep peer as a state machine: signed envelopes in, decisions out. No I/O, no asyncio.

One `Lockstep` follows one game for one peer (a seated player, a bot, or a spectator). It is
fed decoded envelopes (`receive`) and local choices (`decide`, `chat`), and returns `Output`s
for the shell to carry out in order: persist a secret, append to the disk log, publish, tell
the screen. Every rule of the protocol lives here, so it is tested without a network.

Phases: lobby (seats filling, the host assigns them) -> seed (commit-reveal of one secret per
seat) -> play (lockstep steps) -> over; any hash mismatch moves to "frozen" for good.

A step is played in one of four modes (`step_mode`): "act" (one active seat), "commit"
(simultaneous: commit, then reveal), "seal" (a sealed simultaneous step: each seat commits and
publishes only its action's public part, which is applied at once) and "open" (the game names
a seat that must open its sealed action: its peer sends the opening by itself).
"""

from __future__ import annotations

import hashlib
import logging
import os
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from engine.core import (
    DecodeError,
    Game,
    GameError,
    GameLog,
    IllegalAction,
    InvalidOption,
    canonical,
    from_plain,
    new_log,
    state_hash,
    to_plain,
)

from . import crypto
from .codec import (
    MAX_NAME,
    MAX_SIZE,
    NO_SEAT,
    PROTOCOL_VERSION,
    ZERO32,
    Envelope,
    decode_envelope,
    remember,
)
from .errors import WireError
from .identity import Identity, peer_id
from .versions import local_versions, version_mismatch

log = logging.getLogger("gamenight.net")

SETUP_KINDS = frozenset({"seat", "start", "seed_commit", "seed_reveal"})
STEP_KINDS = frozenset({"act", "commit", "reveal", "seal", "open"})
SYNCABLE = SETUP_KINDS | STEP_KINDS
MAX_AHEAD = 1000
MAX_BUFFERED = 20_000
SYNC_CHUNK = MAX_SIZE - 2048


@dataclass(frozen=True)
class Publish:
    """Send `payload` on a channel: "log", "sync", "chat", "lobby" (retained) or "presence"."""

    channel: str
    payload: bytes
    retain: bool = False


@dataclass(frozen=True)
class Keep:
    """Append this accepted envelope to the disk log (before anything is published)."""

    raw: bytes


@dataclass(frozen=True)
class Secret:
    """Persist a secret of this peer (a seed share or a commitment's opening) before sending."""

    name: str
    data: bytes


@dataclass(frozen=True)
class Note:
    """Something for the screen: changed, waiting, your_turn, lobby, started, chat, presence,
    error, refused, desync, over, dropped."""

    kind: str
    text: str = ""
    data: dict[str, Any] = field(default_factory=dict)


Output = Publish | Keep | Secret | Note


@dataclass(frozen=True)
class SealedChoice:
    """A seat's sealed action as every peer holds it until the seat opens it."""

    step: int  # the sealed step (its number is part of the commitment)
    commit: bytes
    public: Any  # the public part every peer applied
    state: Any  # the state of the sealed step, to check the opened action against


@dataclass
class TableInfo:
    """What the host announced: game, player count, options (plain), versions."""

    game: str
    players: int
    options: dict[str, Any]
    versions: dict[str, str]
    relay_bots: int = 0


class Lockstep:
    """One peer's view of one networked game. See the module docstring."""

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
    ) -> None:
        self.game = game
        self.gid = gid
        self.me = identity
        self.name = name or "player"
        self.host_key = host_key
        self.table = table
        self.secrets: dict[str, bytes] = dict(secrets or {})
        self.phase = "lobby"
        self.versions = local_versions(game)
        self.replaying = False
        # lobby
        self.seat_keys: dict[int, bytes] = {}
        self.seat_names: dict[int, str] = {}
        self.seat_raws: dict[int, bytes] = {}
        self.announce_raw: bytes | None = None
        self.hello_sent = False
        self.refused: str | None = None
        # after start
        self.keys: list[bytes] = []
        self.names: list[str] = []
        self.start_raw: bytes | None = None
        self.options: dict[str, Any] = {}
        self.seed_commits: dict[int, Envelope] = {}
        self.seed_reveals: dict[int, Envelope] = {}
        self.seed: bytes | None = None
        # play
        self.state: Any = None
        self.step = 0
        self.hash = ZERO32
        self.chain = ZERO32
        self.game_log: GameLog | None = None
        self.acts: dict[int, Envelope] = {}
        self.commits: dict[int, Envelope] = {}
        self.reveals: dict[int, Envelope] = {}
        self.bad_reveals: set[int] = set()
        self.my_step_msgs: list[bytes] = []
        self.buffer: dict[int, list[Envelope]] = {}
        self.buffered = 0
        self.history: dict[tuple[str, int, int], bytes] = {}
        self.accepted: list[tuple[int, bytes]] = []  # (step, raw), setup messages at step -1
        self.offline: set[int] = set()
        self.chat_seen: set[bytes] = set()
        self.frozen: str | None = None
        self.messages_in = 0
        self.step_started = time.monotonic()
        self.step_kinds: list[tuple[str, float]] = []  # ("act"|"commit", seconds) per step
        self.choices: dict[int, tuple[float, float]] = {}  # step -> (our choice, step applied)
        self._chose_at = 0.0
        self.last_awaited: frozenset[int] | None = None
        self._last_nonce = 0
        self._active_for: Any = None
        self._active: frozenset[int] = frozenset()
        self.verified: dict[int, Any] = {}  # seat -> action of a reveal already checked
        self.publics: dict[int, Any] = {}  # sealed step in progress: seat -> public part
        self.sealed: dict[int, SealedChoice] = {}  # seat -> its sealed action, until opened
        self._mode = "act"
        # False for a seated peer rejoining without its files: its seed share is in the others'
        # logs; drawing a new one would fork the game
        self.may_draw_seed = True

    # ---- facts -------------------------------------------------------------------------
    @property
    def my_seat(self) -> int | None:
        if self.me is None:
            return None
        public = self.me.public
        if self.keys:
            return self.keys.index(public) if public in self.keys else None
        for seat, key in self.seat_keys.items():
            if key == public:
                return seat
        return None

    @property
    def is_host(self) -> bool:
        return self.me is not None and self.host_key == self.me.public

    @property
    def n_players(self) -> int:
        return len(self.keys) if self.keys else (self.table.players if self.table else 0)

    def active(self) -> frozenset[int]:
        if self.phase != "play":
            return frozenset()
        if self._active_for is not self.state:  # computed once per state: asked on every message
            state, game = self.state, self.game
            active = game.active(state)
            if not active:
                mode = "act"
            elif game.sealed(state):
                mode = "seal"
            elif game.opening(state) is not None:
                mode = "open"
            else:
                mode = "commit" if len(active) > 1 else "act"
            self._active_for, self._active, self._mode = state, active, mode
        return self._active

    def step_mode(self) -> str:
        """How the current step is played: "act", "commit", "seal" or "open" (module doc)."""
        self.active()
        return self._mode

    def simultaneous(self) -> bool:
        return self.step_mode() in ("commit", "seal")

    def awaited(self) -> frozenset[int]:
        """Seats whose message the table is waiting for now (shown on screen)."""
        if self.phase == "seed":
            seats = range(len(self.keys))
            if len(self.seed_commits) < len(self.keys):
                return frozenset(s for s in seats if s not in self.seed_commits)
            return frozenset(s for s in seats if s not in self.seed_reveals)
        if self.phase != "play":
            return frozenset()
        active = self.active()
        mode = self.step_mode()
        if mode in ("act", "open"):
            return frozenset(s for s in active if s not in self.acts)
        if mode == "seal" or any(s not in self.commits for s in active):
            return frozenset(s for s in active if s not in self.commits)
        return frozenset(s for s in active if s not in self.reveals or s in self.bad_reveals)

    def my_turn(self) -> bool:
        seat = self.my_seat
        if seat is None or self.phase != "play" or seat not in self.active():
            return False
        if self.step_mode() == "open":
            return False  # nobody chooses here: the peer opens its sealed action by itself
        return seat not in self.acts and seat not in self.commits

    def view(self, seat: int | None) -> Any:
        state = self.state
        if seat is not None and seat == self.my_seat and seat in self.sealed:
            original = self._sealed_original(seat)
            if original is not None:  # our own sealed choice, known only here
                state = self.game.unseal(state, seat, original[0])
        return self.game.view(state, seat)

    def _sealed_original(self, seat: int) -> tuple[Any, bytes] | None:
        """Our own sealed action of `seat` and its salt (from the persisted secret)."""
        choice = self.sealed.get(seat)
        secret = None if choice is None else self.secrets.get(f"sealed:{choice.step}")
        if secret is None:
            return None
        action_plain, salt = _unpack(secret)
        return from_plain(action_plain), bytes(salt)

    # ---- building messages -------------------------------------------------------------
    def _nonce(self) -> int:
        self._last_nonce = max(time.time_ns() // 1000, self._last_nonce + 1)
        return self._last_nonce

    def _seal(self, kind: str, body: dict[str, Any], seat: int | None = None) -> Envelope:
        assert self.me is not None, "a spectator sends nothing that needs a seat"
        if seat is None:
            seat = self.my_seat
        fields = {
            "v": PROTOCOL_VERSION, "g": self.gid, "k": kind, "p": self.me.public,
            "s": NO_SEAT if seat is None else seat,
            "n": self.step, "q": self._nonce(), "b": body, "h": self.hash, "c": self.chain,
        }
        raw = self.me.sign(fields)
        env = Envelope(
            version=PROTOCOL_VERSION, gid=self.gid, kind=kind, sender=self.me.public,
            seat=fields["s"], step=self.step, nonce=fields["q"], body=body, state_hash=self.hash,
            prev_hash=self.chain, signature=raw[-64:], raw=raw,
        )
        remember(env)
        return env

    # ---- hosting and joining -----------------------------------------------------------
    def host(self, players: int, options: Mapping[str, Any], relay_bots: int = 0) -> list[Output]:
        """Open the table as its host, taking seat 0."""
        assert self.me is not None
        checked = self.game.check_options(options)
        self.game._check_players(players, checked)
        self.host_key = self.me.public
        self.table = TableInfo(
            self.game.id, players, {k: to_plain(v) for k, v in checked.items()},
            dict(self.versions), relay_bots,
        )
        out: list[Output] = []
        if 0 not in self.seat_keys:
            out += self._assign(0, self.me.public, self.name)
        return out + self._announce()

    def _announce(self) -> list[Output]:
        assert self.table is not None
        names = [self.seat_names.get(s, "") for s in range(self.table.players)]
        body = {
            "game": self.table.game, "players": self.table.players, "options": self.table.options,
            "versions": self.table.versions, "names": names, "open": self.phase == "lobby",
            "relay_bots": self.table.relay_bots,
        }
        env = self._seal("announce", body, seat=0)
        self.announce_raw = env.raw
        return [Publish("lobby", env.raw, retain=True)]

    def hello(self) -> list[Output]:
        """Ask the host for a seat (checked against the announcement first)."""
        assert self.me is not None
        if self.table is None:
            return [Note("error", "no announcement of this game seen yet")]
        problem = version_mismatch(self.versions, self.table.versions, "this client", "the host")
        if problem is None:
            problem = self._options_problem(self.table.options)
        if problem is not None:
            self.refused = problem
            return [Note("refused", f"cannot join: {problem}")]
        self.hello_sent = True
        body = {"name": self.name, "game": self.game.id, "versions": self.versions, "options": self.table.options}
        return [Publish("log", self._seal("hello", body, seat=NO_SEAT).raw)]

    def _options_problem(self, options: Mapping[str, Any]) -> str | None:
        try:
            self.game.check_options({k: from_plain(v) for k, v in options.items()})
        except (InvalidOption, DecodeError) as exc:
            return f"the game's options are not valid here: {exc}"
        return None

    def _assign(self, seat: int, key: bytes, name: str) -> list[Output]:
        env = self._seal("seat", {"seat": seat, "key": key, "name": name}, seat=0)
        return [Publish("log", env.raw)] + self._accept_seat(env)

    def _accept_seat(self, env: Envelope) -> list[Output]:
        seat = env.body["seat"]
        self.seat_keys[seat] = env.body["key"]
        self.seat_names[seat] = env.body["name"]
        self.seat_raws[seat] = env.raw
        self._accept(-1, env)
        out: list[Output] = [Keep(env.raw)]
        out.append(Note("lobby", f"{env.body['name']} took seat {seat}", {"seats": self.lobby_seats()}))
        if self.me is not None and env.body["key"] == self.me.public:
            out.append(Note("seated", f"you are seat {seat}", {"seat": seat}))
        return out

    def _unique_name(self, name: str) -> str:
        """The joiner's name, or "Name 2", "Name 3"... when a seat already has it: a table of
        two "Player"s cannot say whose turn it is."""
        taken = set(self.seat_names.values())
        candidate, number = name, 1
        while candidate in taken:
            number += 1
            suffix = f" {number}"
            candidate = name[:MAX_NAME - len(suffix)] + suffix
        return candidate

    def lobby_seats(self) -> list[str]:
        players = self.n_players
        return [self.seat_names.get(s, "") for s in range(players)]

    def _on_hello(self, env: Envelope) -> list[Output]:
        if not self.is_host or self.table is None:
            return []
        for seat, key in self.seat_keys.items():
            if key == env.sender:  # a rejoin: say again which seat it has
                return [Publish("log", self.seat_raws[seat])]
        body = env.body
        problem = version_mismatch(self.versions, body["versions"], "the host", "you")
        if problem is None and body["game"] != self.table.game:
            problem = f"this table plays {self.table.game}, not {body['game']}"
        if problem is None and body["options"] != self.table.options:
            problem = "your game options differ from the host's"
        if problem is None and (self.phase != "lobby" or len(self.seat_keys) >= self.table.players):
            problem = "the game is full"
        if problem is not None:
            log.info("refusing %s: %s", peer_id(env.sender), problem)
            refuse = self._seal("refuse", {"key": env.sender, "reason": problem}, seat=0)
            return [Publish("log", refuse.raw), Note("lobby", f"refused {body['name']}: {problem}")]
        seat = min(s for s in range(self.table.players) if s not in self.seat_keys)
        out = self._assign(seat, env.sender, self._unique_name(body["name"]))
        if len(self.seat_keys) == self.table.players:
            out += self._start()
        else:
            out += self._announce()
        return out

    def _start(self) -> list[Output]:
        assert self.table is not None
        players = self.table.players
        body = {
            "game": self.table.game, "players": players, "options": self.table.options,
            "versions": self.table.versions,
            "keys": [self.seat_keys[s] for s in range(players)],
            "names": [self.seat_names[s] for s in range(players)],
        }
        env = self._seal("start", body, seat=0)
        return [Publish("log", env.raw)] + self._accept_start(env)

    def _accept_start(self, env: Envelope) -> list[Output]:
        body = env.body
        if body["game"] != self.game.id:
            return [Note("error", f"the host started {body['game']}, not {self.game.id}")]
        if len(body["keys"]) != body["players"] or len(body["names"]) != body["players"]:
            return self._drop(env, "start lists the wrong number of seats")
        problem = self._options_problem(body["options"])
        if problem is not None:
            return [Note("refused", f"cannot play: {problem}")]
        self.start_raw = env.raw
        self.keys = list(body["keys"])
        self.names = list(body["names"])
        self.options = {k: from_plain(v) for k, v in body["options"].items()}
        if self.table is None:
            self.table = TableInfo(body["game"], body["players"], body["options"], body["versions"])
        self.phase = "seed"
        self._accept(-1, env)
        out: list[Output] = [Keep(env.raw)]
        if self.is_host:
            out += self._announce()
        out.append(Note("started", "all seats are taken: agreeing on the seed", {"names": self.names}))
        seat = self.my_seat
        if seat is not None and ("seed" in self.secrets or self.may_draw_seed):
            secret = self.secrets.get("seed")
            if secret is None:
                secret = os.urandom(32)
                self.secrets["seed"] = secret
                out.append(Secret("seed", secret))
            commit = self._seal("seed_commit", {"commit": crypto.seed_commit(self.gid, seat, secret)})
            out.append(Publish("log", commit.raw))
            out += self._on_seed(commit)
        out += self._waiting()
        return out

    # ---- seed agreement ----------------------------------------------------------------
    def _on_seed(self, env: Envelope) -> list[Output]:
        seat = env.seat
        table = self.seed_commits if env.kind == "seed_commit" else self.seed_reveals
        old = table.get(seat)
        if old is not None:
            if old.raw == env.raw:
                return []
            return self._drop(env, f"seat {seat} sent a second, different {env.kind}", loud=True)
        table[seat] = env
        out: list[Output] = []
        if env.kind == "seed_commit":
            self._accept(-1, env)
            out.append(Keep(env.raw))
        out += self._seed_progress()
        return out

    def _seed_progress(self) -> list[Output]:
        n = len(self.keys)
        out: list[Output] = []
        if len(self.seed_commits) < n:
            return out + self._waiting()
        seat = self.my_seat
        if seat is not None and seat not in self.seed_reveals and "seed" in self.secrets:
            reveal = self._seal("seed_reveal", {"secret": self.secrets["seed"]})
            self.seed_reveals[seat] = reveal
            out.append(Publish("log", reveal.raw))
        good: dict[int, bytes] = {}
        for s, env in sorted(self.seed_reveals.items()):
            secret = env.body["secret"]
            if crypto.seed_commit(self.gid, s, secret) != self.seed_commits[s].body["commit"]:
                del self.seed_reveals[s]
                out += self._drop(env, f"seat {s} ({self.names[s]}): seed reveal does not match its commit", loud=True)
                continue
            good[s] = secret
        if len(good) < n:
            return out + self._waiting()
        for s in range(n):
            self._accept(-1, self.seed_reveals[s])
            out.append(Keep(self.seed_reveals[s].raw))
        self.seed = crypto.game_seed(self.gid, [good[s] for s in range(n)])
        try:
            self.state = self.game.setup(n, self.seed, self.options)
        except GameError as exc:
            return out + self._freeze(f"setup failed: {exc}")
        self.game_log = new_log(self.game, n, self.seed, self.game.check_options(self.options))
        self.hash = bytes.fromhex(state_hash(self.state))
        self.chain = crypto.genesis_hash(self.gid, self.seed, self.hash)
        self.phase = "play"
        self.step = 0
        self.step_started = time.monotonic()
        out.append(Note("changed", f"the game begins (seed {self.seed.hex()[:12]})", {"step": 0}))
        return out + self._after_step()

    # ---- play --------------------------------------------------------------------------
    def decide(self, action: Any) -> list[Output]:
        """This peer's seat chooses `action` for the current step; raises IllegalAction."""
        seat = self.my_seat
        if self.frozen:
            raise IllegalAction(f"the game is frozen: {self.frozen}")
        if seat is None or self.phase != "play":
            raise IllegalAction("you have no seat in a running game")
        if not self.my_turn():
            raise IllegalAction("it is not your turn (or you already chose)")
        self.game.validate(self.state, seat, action)
        self._chose_at = time.perf_counter()
        mode = self.step_mode()
        if mode == "act":
            env = self._seal("act", {"action": to_plain(action)})
            return [Publish("log", env.raw)] + self._on_step_msg(env, mine=True)
        public = None
        if mode == "seal":
            public = self.game.seal(self.state, seat, action)
            self.game.validate(self.state, seat, public)
        salt = os.urandom(32)
        # a sealed action's opening is kept until the game asks to open it (maybe after a resume)
        name = f"{'sealed' if mode == 'seal' else 'commit'}:{self.step}"
        secret = canonical((to_plain(action), salt))
        self.secrets[name] = secret
        commit = crypto.action_commit(self.gid, self.step, seat, action, salt)
        if mode == "seal":
            env = self._seal("seal", {"commit": commit, "public": to_plain(public)})
        else:
            env = self._seal("commit", {"commit": commit})
        return [Secret(name, secret), Publish("log", env.raw)] + self._on_step_msg(env, mine=True)

    def _auto_open(self) -> list[Output]:
        """In an open step naming our seat, publish the opening of our sealed action."""
        seat = self.my_seat
        if (self.replaying or seat is None or self.phase != "play" or self.step_mode() != "open"
                or self.game.opening(self.state) != seat or seat in self.acts):
            return []
        opening = self._sealed_original(seat)
        if opening is None:
            return [Note("error", f"seat {seat} must open its sealed choice but this peer lost it")]
        original, salt = opening
        env = self._seal("open", {"action": to_plain(original), "salt": salt})
        return [Publish("log", env.raw)] + self._on_step_msg(env, mine=True)

    def _my_opening(self) -> tuple[Any, bytes] | None:
        secret = self.secrets.get(f"commit:{self.step}")
        if secret is None:
            return None
        action_plain, salt = _unpack(secret)
        return action_plain, bytes(salt)

    def _on_step_msg(self, env: Envelope, mine: bool = False) -> list[Output]:
        if self.phase != "play":
            if self.phase in ("lobby", "seed"):
                return self._buffer(env)
            return self._drop(env, f"{env.kind} while the game is {self.phase}")
        if env.step < self.step:
            return self._stale(env)
        if env.step > self.step:
            return self._buffer(env)
        if env.state_hash != self.hash or env.prev_hash != self.chain:
            return self._desync(env)
        active = self.active()
        if env.seat not in active:
            return self._drop(env, f"seat {env.seat} is not to act at step {env.step}")
        mode = self.step_mode()
        if env.kind not in _KINDS_OF_MODE[mode]:
            if mode == "commit" and env.kind == "act":
                return self._drop(env, f"step {env.step} is simultaneous: an act must be a commit")
            if mode == "act" and env.kind in ("commit", "reveal"):
                return self._drop(env, f"step {env.step} is sequential: no {env.kind} expected")
            return self._drop(env, f"step {env.step} is played with {'/'.join(_KINDS_OF_MODE[mode])}: no {env.kind} expected")
        table = {"act": self.acts, "commit": self.commits, "reveal": self.reveals,
                 "seal": self.commits, "open": self.acts}[env.kind]
        old = table.get(env.seat)
        if old is not None:
            if old.raw == env.raw:
                return []
            if not (env.kind == "reveal" and env.seat in self.bad_reveals):
                return self._drop(env, f"seat {env.seat} sent two different {env.kind}s for step {env.step} (equivocation)", loud=True)
        if env.kind == "act":
            try:
                action = from_plain(env.body["action"])
                self.game.validate(self.state, env.seat, action)
            except GameError as exc:
                return self._drop(env, f"illegal action from seat {env.seat}: {exc}", loud=True)
            self.acts[env.seat] = env
            if mine:
                self.my_step_msgs.append(env.raw)
            self._accept(self.step, env)
            return [Keep(env.raw)] + self._apply({env.seat: action}, "act")
        if env.kind == "seal":
            return self._on_seal(env, mine)
        if env.kind == "open":
            return self._on_open(env, mine)
        if env.kind == "reveal" and not mine and any(s not in self.commits for s in active):
            # An honest peer reveals only after it holds every commit; one that arrives earlier
            # is not kept, so nothing can depend on it (a stalled step asks for it again).
            return self._drop(env, f"reveal from seat {env.seat} before all commits of step {env.step} are in: not used")
        table[env.seat] = env
        self.bad_reveals.discard(env.seat)
        if mine:
            self.my_step_msgs.append(env.raw)
        out: list[Output] = []
        if env.kind == "commit":
            self._accept(self.step, env)
            out.append(Keep(env.raw))
        return out + self._reveal_progress()

    def _reveal_progress(self) -> list[Output]:
        active = self.active()
        out: list[Output] = []
        if any(s not in self.commits for s in active):
            return out + self._waiting()  # reveals that came early are held, unused and unseen
        seat = self.my_seat
        if seat in active and seat not in self.reveals:
            opening = self._my_opening()
            if opening is not None:
                action_plain, salt = opening
                env = self._seal("reveal", {"action": action_plain, "salt": salt})
                self.reveals[seat] = env
                self.my_step_msgs.append(env.raw)
                out.append(Publish("log", env.raw))
        actions: dict[int, Any] = {}
        for s in sorted(active):
            env = self.reveals.get(s)
            if env is None or s in self.bad_reveals:
                continue
            if s not in self.verified:
                problem = self._check_reveal(s, env)
                if isinstance(problem, str):
                    self.bad_reveals.add(s)
                    out += self._drop(env, problem, loud=True)
                    continue
                self.verified[s] = problem[0]
            actions[s] = self.verified[s]
        if len(actions) < len(active):
            return out + self._waiting()
        for s in sorted(active):
            self._accept(self.step, self.reveals[s])
            out.append(Keep(self.reveals[s].raw))
        return out + self._apply(actions, "commit")

    # ---- sealed steps ------------------------------------------------------------------
    def _on_seal(self, env: Envelope, mine: bool) -> list[Output]:
        """A seat's commitment and public part in a sealed step; applied once all are in."""
        who = f"seat {env.seat} ({self.names[env.seat]})"
        try:
            public = from_plain(env.body["public"])
            self.game.validate(self.state, env.seat, public)
        except (GameError, DecodeError) as exc:
            return self._drop(env, f"{who}: illegal sealed action at step {self.step}: {exc}", loud=True)
        self.commits[env.seat] = env
        self.publics[env.seat] = public
        if mine:
            self.my_step_msgs.append(env.raw)
        self._accept(self.step, env)
        out: list[Output] = [Keep(env.raw)]
        active = self.active()
        if any(s not in self.commits for s in active):
            return out + self._waiting()
        for s in sorted(active):
            self.sealed[s] = SealedChoice(self.step, self.commits[s].body["commit"], self.publics[s], self.state)
        return out + self._apply(dict(self.publics), "seal")

    def _on_open(self, env: Envelope, mine: bool) -> list[Output]:
        """The opening of a sealed action: checked against its commitment, then applied."""
        problem = self._check_open(env.seat, env)
        if isinstance(problem, str):
            return self._drop(env, problem, loud=True)
        choice = self.sealed.pop(env.seat)
        self.acts[env.seat] = env
        if mine:
            self.my_step_msgs.append(env.raw)
        self._accept(self.step, env)
        if env.seat == self.my_seat:
            self.secrets.pop(f"sealed:{choice.step}", None)
        return [Keep(env.raw)] + self._apply({env.seat: problem[0]}, "open")

    def _check_open(self, seat: int, env: Envelope) -> str | tuple[Any]:
        who = f"seat {seat} ({self.names[seat]})"
        choice = self.sealed.get(seat)
        if choice is None or self.game.opening(self.state) != seat:
            return f"{who}: has no sealed action to open at step {self.step}"
        try:
            original = from_plain(env.body["action"])
            expected = crypto.action_commit(self.gid, choice.step, seat, original, env.body["salt"])
        except (DecodeError, TypeError) as exc:
            return f"{who}: open holds no valid action ({exc})"
        if expected != choice.commit:
            return f"{who}: open does not match its commit of step {choice.step}"
        try:
            self.game.validate(choice.state, seat, original)
            if self.game.seal(choice.state, seat, original) != choice.public:
                return f"{who}: opened action does not match its public part of step {choice.step}"
            action = self.game.open_action(self.state, seat, original)
            self.game.validate(self.state, seat, action)
        except GameError as exc:
            return f"{who}: illegal action opened at step {self.step}: {exc}"
        return (action,)

    def _check_reveal(self, seat: int, env: Envelope) -> str | tuple[Any]:
        who = f"seat {seat} ({self.names[seat]})"
        try:
            action = from_plain(env.body["action"])
        except DecodeError as exc:
            return f"{who}: reveal holds no valid action ({exc})"
        try:
            expected = crypto.action_commit(self.gid, self.step, seat, action, env.body["salt"])
        except TypeError as exc:
            return f"{who}: reveal holds no valid action ({exc})"
        if expected != self.commits[seat].body["commit"]:
            return f"{who}: reveal does not match its commit at step {self.step}"
        try:
            self.game.validate(self.state, seat, action)
        except GameError as exc:
            return f"{who}: illegal action revealed at step {self.step}: {exc}"
        return (action,)

    def _apply(self, actions: dict[int, Any], kind: str) -> list[Output]:
        try:
            # Every guard of Game.apply holds here (game running, exactly the active seats,
            # each action already validated on arrival), so the hook runs without repeating them.
            state = self.game._apply(self.state, actions)
        except GameError as exc:
            return self._freeze(f"step {self.step} cannot be applied: {exc}")
        self.state = state
        new_hash = bytes.fromhex(state_hash(state))
        self.chain = crypto.entry_hash(self.chain, actions, new_hash)
        self.hash = new_hash
        assert self.game_log is not None
        self.game_log = self.game_log.append(actions)
        lines = "; ".join(f"{self.names[s]}: {self.game.describe(a)}" for s, a in sorted(actions.items()))
        now = time.monotonic()
        if not self.replaying:
            self.step_kinds.append((kind, now - self.step_started))
            if self.my_seat in actions and self._chose_at:
                self.choices[self.step] = (self._chose_at, time.perf_counter())
        self.step_started = now
        self.step += 1
        self.acts, self.commits, self.reveals = {}, {}, {}
        self.bad_reveals = set()
        self.verified = {}
        self.publics = {}
        self.my_step_msgs = []
        self.secrets.pop(f"commit:{self.step - 1}", None)
        out: list[Output] = [Note("changed", lines, {"step": self.step})]
        return out + self._after_step()

    def _after_step(self) -> list[Output]:
        out: list[Output] = []
        if self.game.is_over(self.state):
            self.phase = "over"
            result = self.game.result(self.state)
            out.append(Note("over", "the game is over", {"scores": list(result.scores)}))
            if self.is_host:
                out.append(Publish("lobby", b"", retain=True))
            return out
        out += self._waiting()
        if self.my_turn():
            out.append(Note("your_turn", "", {"step": self.step}))
        pending = self.buffer.pop(self.step, [])
        self.buffered -= len(pending)
        for env in pending:
            if self.phase != "play":
                break
            out += self._route(env)
        # after the buffer: an opening of ours that came back through sync is used as it is
        return out + self._auto_open()

    def _waiting(self) -> list[Output]:
        awaited = self.awaited()
        if awaited == self.last_awaited:
            return []
        self.last_awaited = awaited
        names = self.names or self.lobby_seats()
        who = ", ".join(names[s] if s < len(names) and names[s] else f"seat {s}" for s in sorted(awaited))
        text = f"waiting for {who}" if awaited else ""
        return [Note("waiting", text, {"seats": sorted(awaited)})]

    # ---- receiving ---------------------------------------------------------------------
    def receive(self, env: Envelope) -> list[Output]:
        """Act on one decoded, signature-checked envelope."""
        self.messages_in += 1
        return self._route(env)

    def _route(self, env: Envelope) -> list[Output]:
        if env.gid != self.gid:
            return self._drop(env, f"message for game {env.gid!r}, this is {self.gid!r}")
        if self.frozen and env.kind not in ("chat", "presence", "sync_req"):
            return []
        kind = env.kind
        if kind == "announce":
            return self._on_announce(env)
        if kind == "hello":
            return self._on_hello(env)
        if kind in ("seat", "refuse", "start"):
            return self._on_host_msg(env)
        if kind == "sync_req":
            return self._on_sync_req(env)
        if kind == "sync":
            return self._on_sync(env)
        if kind == "chat":
            return self._on_chat(env)
        if kind == "presence":
            return self._on_presence(env)
        problem = self._seat_problem(env)
        if problem:
            return self._drop(env, problem)
        if kind in ("seed_commit", "seed_reveal"):
            if self.phase == "lobby":
                return self._buffer(env)
            if self.phase != "seed":
                return self._stale(env) if self.phase in ("play", "over") else []
            return self._on_seed(env)
        if kind in STEP_KINDS:
            if self.phase == "over":
                return self._stale(env)
            return self._on_step_msg(env)
        return self._drop(env, f"unexpected {kind}")

    def _seat_problem(self, env: Envelope) -> str | None:
        if not self.keys:
            return None if self.phase == "lobby" else "no seats are known yet"
        if not 0 <= env.seat < len(self.keys):
            return f"seat {env.seat} does not exist at this table"
        if self.keys[env.seat] != env.sender:
            return f"seat {env.seat} is bound to another key (sender {peer_id(env.sender)})"
        return None

    def _on_announce(self, env: Envelope) -> list[Output]:
        if self.host_key is None:
            self.host_key = env.sender  # trust on first use; the invite code names the game
        if self.is_host:
            return []
        if env.sender != self.host_key:
            return self._drop(env, "announcement not signed by this game's host")
        body = env.body
        if self.phase == "lobby":
            self.table = TableInfo(body["game"], body["players"], body["options"], body["versions"], body["relay_bots"])
        self.announce_raw = env.raw
        return [Note("lobby", "", {"seats": list(body["names"]), "open": body["open"]})]

    def _on_host_msg(self, env: Envelope) -> list[Output]:
        if self.host_key is None and env.kind == "start":
            self.host_key = env.sender
        if env.sender != self.host_key:
            return self._drop(env, f"{env.kind} not signed by this game's host")
        if env.kind == "refuse":
            if self.me is not None and env.body["key"] == self.me.public:
                self.refused = env.body["reason"]
                return [Note("refused", f"the host refused the join: {env.body['reason']}")]
            return []
        if env.kind == "seat":
            seat = env.body["seat"]
            if self.seat_raws.get(seat) == env.raw or self.keys:
                return []
            if seat in self.seat_keys and self.seat_keys[seat] != env.body["key"]:
                return self._drop(env, f"seat {seat} assigned twice")
            return self._accept_seat(env)
        if self.start_raw is not None:
            return [] if env.raw == self.start_raw else self._drop(env, "a second, different start")
        out = self._accept_start(env)
        if self.phase == "seed":
            out += self._drain_buffer_setup()
        return out

    def _drain_buffer_setup(self) -> list[Output]:
        out: list[Output] = []
        pending = self.buffer.pop(-1, [])
        self.buffered -= len(pending)
        for env in pending:
            out += self._route(env)
        return out

    def _buffer(self, env: Envelope) -> list[Output]:
        if env.step > self.step + MAX_AHEAD or self.buffered >= MAX_BUFFERED:
            return self._drop(env, f"step {env.step} is too far ahead of {self.step}")
        # seed messages wait for the start; step messages for their step
        slot = -1 if env.kind in SETUP_KINDS else env.step
        bucket = self.buffer.setdefault(slot, [])
        if any(e.raw == env.raw for e in bucket):
            return []
        bucket.append(env)
        self.buffered += 1
        return []

    def _accept(self, step: int, env: Envelope) -> None:
        self.accepted.append((step, env.raw))
        self.history[env.key] = env.raw

    def _stale(self, env: Envelope) -> list[Output]:
        old = self.history.get(env.key)
        if old == env.raw:
            if self.me is not None and env.sender == self.me.public:
                return []  # our own message coming back from the broker
            log.info("duplicate %s seat %s step %s ignored", *env.key)
            return [Note("dropped", f"duplicate {env.kind} of seat {env.seat} for step {env.step} (replayed or redelivered)")]
        if old is not None:
            return self._drop(env, f"seat {env.seat} sent a different {env.kind} for past step {env.step} (equivocation)", loud=True)
        return self._drop(env, f"stale {env.kind} for step {env.step} (now at step {self.step})")

    def _on_sync_req(self, env: Envelope) -> list[Output]:
        if self.me is None or env.sender == self.me.public:
            return []
        start = env.body["from"]
        raws = [raw for step, raw in self.accepted if step == -1 and start == 0 or step >= start]
        raws += [raw for raw in self._pending_raws() if raw not in raws]
        if not raws:
            return []
        out: list[Output] = []
        chunk: list[bytes] = []
        size = 0
        for raw in raws:
            if chunk and size + len(raw) + 8 > SYNC_CHUNK:
                out.append(Publish("sync", self._seal("sync", {"for": env.sender, "msgs": chunk}).raw))
                chunk, size = [], 0
            chunk.append(raw)
            size += len(raw) + 8
        out.append(Publish("sync", self._seal("sync", {"for": env.sender, "msgs": chunk}).raw))
        return out

    def _pending_raws(self) -> list[bytes]:
        """Messages of the step in progress (and the lobby), for a peer that missed them."""
        raws = [e.raw for table in (self.acts, self.commits) for e in table.values()]
        if len(self.commits) == len(self.active()) and self.phase == "play":
            raws += [e.raw for s, e in self.reveals.items() if s not in self.bad_reveals]
        if self.phase == "seed":
            raws += [e.raw for e in self.seed_commits.values()]
            if len(self.seed_commits) == len(self.keys):
                raws += [e.raw for e in self.seed_reveals.values()]
        return raws

    def _on_sync(self, env: Envelope) -> list[Output]:
        if self.me is None or env.body["for"] != self.me.public:
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
                out += self._drop(inner, f"{inner.kind} is not allowed inside a sync")
                continue
            out += self.receive(inner)
        return out

    def sync_request(self) -> list[Output]:
        """Ask the others for everything from our current step (or from scratch)."""
        start = self.step if self.phase in ("play", "over") else 0
        if self.me is None:
            return []
        env = self._seal("sync_req", {"from": start})
        return [Publish("sync", env.raw)]

    def own_current(self) -> list[Output]:
        """What to send again after a reconnect: our part of the step (or setup) in progress."""
        out: list[Output] = []
        if self.me is None:
            return out
        if self.phase == "lobby" and self.my_seat is None and self.hello_sent:
            body = {"name": self.name, "game": self.game.id, "versions": self.versions, "options": self.table.options if self.table else {}}
            out.append(Publish("log", self._seal("hello", body, seat=NO_SEAT).raw))
        if self.is_host:
            if self.phase == "lobby" or self.phase == "seed":
                out += [Publish("log", raw) for raw in self.seat_raws.values()]
            if self.start_raw:
                out.append(Publish("log", self.start_raw))
            if self.phase in ("lobby", "seed", "play") and self.table is not None:
                out += self._announce()
        seat = self.my_seat
        if self.phase == "seed" and seat is not None:
            for table in (self.seed_commits, self.seed_reveals):
                if seat in table:
                    out.append(Publish("log", table[seat].raw))
        if self.phase == "play":
            out += [Publish("log", raw) for raw in self.my_step_msgs]
            out += self._auto_open()  # e.g. resumed in the open step of our sealed action
        return out

    # ---- chat and presence -------------------------------------------------------------
    def chat(self, text: str) -> list[Output]:
        if self.me is None:
            return []
        text = text.strip()[:500]
        if not text:
            return []
        env = self._seal("chat", {"text": text})
        return [Publish("chat", env.raw)]

    def _who(self, env: Envelope) -> str | None:
        names = self.names or self.lobby_seats()
        keys = self.keys or [self.seat_keys.get(s) for s in range(len(names))]
        if env.seat == NO_SEAT:
            return None if env.sender in keys else "watcher"
        if not 0 <= env.seat < len(keys) or keys[env.seat] != env.sender:
            return None
        return names[env.seat] or f"seat {env.seat}"

    def _on_chat(self, env: Envelope) -> list[Output]:
        digest = hashlib.sha256(env.raw).digest()
        if digest in self.chat_seen:
            return []
        who = self._who(env)
        if who is None:
            return self._drop(env, f"chat claims seat {env.seat} but is signed by another key")
        self.chat_seen.add(digest)
        return [Note("chat", f"{who}: {env.body['text']}", {"seat": env.seat, "name": who, "text": env.body["text"]})]

    def presence(self, status: str) -> bytes | None:
        if self.me is None:
            return None
        return presence_payload(self.me, self.gid, status, self.name)

    def _on_presence(self, env: Envelope) -> list[Output]:
        keys = self.keys or [self.seat_keys.get(s) for s in sorted(self.seat_keys)]
        if env.sender not in keys:
            return []
        seat = keys.index(env.sender)
        offline = env.body["status"] == "offline"
        if offline == (seat in self.offline):
            return []
        (self.offline.add if offline else self.offline.discard)(seat)
        name = (self.names or self.lobby_seats())[seat] if seat < self.n_players else f"seat {seat}"
        if self.phase in ("over", "frozen"):
            text = f"{name} left" if offline else f"{name} is online"
        else:
            text = f"{name} is offline: the table waits for them" if offline else f"{name} is back online"
        return [Note("presence", text, {"seat": seat, "online": not offline})]

    # ---- failures ----------------------------------------------------------------------
    def _drop(self, env: Envelope, reason: str, loud: bool = False) -> list[Output]:
        log.warning("drop %s from %s (seat %s, step %s): %s", env.kind, peer_id(env.sender), env.seat, env.step, reason)
        out: list[Output] = [Note("dropped", reason, {"kind": env.kind, "seat": env.seat})]
        if loud and not self.replaying:
            out.append(Note("error", reason, {"seat": env.seat}))
        return out

    def _desync(self, env: Envelope) -> list[Output]:
        report = (
            f"desync at step {self.step}: seat {env.seat} has state {env.state_hash.hex()[:16]} "
            f"chain {env.prev_hash.hex()[:16]}, this peer has state {self.hash.hex()[:16]} "
            f"chain {self.chain.hex()[:16]}"
        )
        return self._freeze(report, {"step": self.step, "seat": env.seat,
                                     "theirs": env.state_hash.hex(), "ours": self.hash.hex(),
                                     "their_chain": env.prev_hash.hex(), "our_chain": self.chain.hex()})

    def _freeze(self, report: str, data: dict[str, Any] | None = None) -> list[Output]:
        log.error("frozen: %s", report)
        self.frozen = report
        self.phase = "frozen"
        return [Note("desync", report, data or {"step": self.step})]


_KINDS_OF_MODE = {
    "act": ("act",), "commit": ("commit", "reveal"), "seal": ("seal",), "open": ("open",),
}


def presence_payload(identity: Identity, gid: str, status: str, name: str) -> bytes:
    """A signed presence message; "offline" is what the broker publishes as our last will."""
    return identity.sign({
        "v": PROTOCOL_VERSION, "g": gid, "k": "presence", "p": identity.public, "s": NO_SEAT,
        "n": 0, "q": time.time_ns() // 1000, "b": {"status": status, "name": name[:MAX_NAME] or "player"},
        "h": ZERO32, "c": ZERO32,
    })


def _unpack(data: bytes) -> Any:
    import msgpack

    return msgpack.unpackb(data, raw=False)


