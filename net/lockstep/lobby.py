"""The lobby: the host announces a table and assigns seats; joiners say hello and are seated.

Ends with the host's `start` (every seat taken), which fixes the keys, names and options; the
router then moves on to the seed agreement.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from typing import Any

from engine.core import DecodeError, InvalidOption, from_plain, to_plain

from ..codec import MAX_NAME, NO_SEAT, Envelope
from ..identity import peer_id
from ..versions import version_mismatch
from .admission import admission_proof, host_pin, proof_ok
from .context import Context
from .outputs import Keep, Note, Output, Publish, TableInfo

log = logging.getLogger("gamenight.net")


class Lobby:
    """Seats filling up, as the host decides them and every other peer follows them."""

    def __init__(self, ctx: Context, versions: dict[str, str], on_start: Callable[[], list[Output]]) -> None:
        self.ctx = ctx
        self.versions = versions
        self.on_start = on_start  # the seed agreement begins (and what waited for it runs)
        self.seat_raws: dict[int, bytes] = {}
        self.announce_raw: bytes | None = None
        self.start_raw: bytes | None = None
        self.hello_sent = False
        self.refused: str | None = None
        self.unproven: set[int] = set()  # seats given without the table secret (relay bots)

    # ---- the host ----------------------------------------------------------------------
    def host(self, players: int, options: Mapping[str, Any], relay_bots: int = 0,
             invite: bool = False) -> list[Output]:
        """Open the table as its host, taking seat 0. With `invite`, only keys that prove the
        invite's table secret sit or watch (besides `relay_bots` seats lent by a relay)."""
        ctx = self.ctx
        assert ctx.me is not None
        ctx.invite_only = invite
        if invite:
            ctx.pin = host_pin(ctx.me, ctx.gid)
        checked = ctx.game.check_options(options)
        ctx.game.check_players(players, checked)
        ctx.host_key = ctx.me.public
        ctx.table = TableInfo(
            ctx.game.id, players, {k: to_plain(v) for k, v in checked.items()},
            dict(self.versions), relay_bots,
        )
        out: list[Output] = []
        if 0 not in ctx.seat_keys:
            out += self._assign(0, ctx.me.public, ctx.name)
        return out + self.announce()

    def announce(self) -> list[Output]:
        ctx = self.ctx
        assert ctx.table is not None
        table = ctx.table
        names = [ctx.seat_names.get(s, "") for s in range(table.players)]
        body = {
            "game": table.game, "players": table.players, "options": table.options,
            "versions": table.versions, "names": names, "open": ctx.phase == "lobby",
            "relay_bots": table.relay_bots, "invite": ctx.invite_only,
        }
        env = ctx.sign("announce", body, seat=0)
        self.announce_raw = env.raw
        return [Publish("lobby", env.raw, retain=True)]

    def on_hello(self, env: Envelope) -> list[Output]:
        ctx = self.ctx
        if not ctx.is_host or ctx.table is None:
            return []
        for seat, key in ctx.seat_keys.items():
            if key == env.sender:  # a rejoin: say again which seat it has
                return [Publish("log", self.seat_raws[seat])]
        uninvited = self._uninvited(env)
        if uninvited is not None:  # nothing is answered, so a stranger's hello costs nothing
            return ctx.drop(env, uninvited)
        proven = proof_ok(ctx.secret, ctx.gid, env.sender, env.body["proof"])
        problem = self._hello_problem(env.body)
        if problem is not None:
            log.info("refusing %s: %s", peer_id(env.sender), problem)
            refuse = ctx.sign("refuse", {"key": env.sender, "reason": problem}, seat=0)
            return [Publish("log", refuse.raw), Note("lobby", f"refused {env.body['name']}: {problem}")]
        seat = min(s for s in range(ctx.table.players) if s not in ctx.seat_keys)
        if not proven:
            self.unproven.add(seat)
        out = self._assign(seat, env.sender, self.unique_name(env.body["name"]))
        if len(ctx.seat_keys) == ctx.table.players:
            return out + self._start()
        return out + self.announce()

    def _uninvited(self, env: Envelope) -> str | None:
        """Why this hello gets no seat and no answer at all (None: it is considered)."""
        ctx = self.ctx
        assert ctx.table is not None
        if env.sender in ctx.kicked:
            return f"hello from {peer_id(env.sender)}, whom the host removed"
        if not ctx.invite_only or proof_ok(ctx.secret, ctx.gid, env.sender, env.body["proof"]):
            return None
        if not env.body["proof"] and len(self.unproven) < ctx.table.relay_bots:
            return None  # one of the seats the host asked a relay to fill with bots
        return f"hello from {peer_id(env.sender)} without proof of the table secret (not invited)"

    def kick(self, seat: int) -> list[Output]:
        """The host removes the guest in `seat` before the start; ValueError says why not."""
        ctx = self.ctx
        if not ctx.is_host:
            raise ValueError("only the host can remove a player")
        if ctx.phase != "lobby":
            raise ValueError("the game has started: the seats are fixed")
        if seat == 0 or seat not in ctx.seat_keys:
            raise ValueError(f"seat {seat} has no guest to remove")
        env = ctx.sign("kick", {"seat": seat, "key": ctx.seat_keys[seat]}, seat=0)
        return [Publish("log", env.raw)] + self._accept_kick(env) + self.announce()

    def _accept_kick(self, env: Envelope) -> list[Output]:
        ctx = self.ctx
        seat, key = env.body["seat"], env.body["key"]
        if ctx.seat_keys.get(seat) != key:
            return []  # already removed (our own kick coming back, or a redelivery)
        ctx.kicked.add(key)
        name = ctx.seat_names.pop(seat, "")
        del ctx.seat_keys[seat]
        self.seat_raws.pop(seat, None)
        self.unproven.discard(seat)
        ctx.accept(-1, env)
        out: list[Output] = [Keep(env.raw), Note("lobby", f"{name} was removed from seat {seat}",
                                                 {"seats": ctx.lobby_seats()})]
        if ctx.me is not None and key == ctx.me.public:
            self.refused = "the host removed you from the table"
            out.append(Note("refused", self.refused))
        return out

    def _hello_problem(self, body: dict[str, Any]) -> str | None:
        ctx = self.ctx
        assert ctx.table is not None
        problem = version_mismatch(self.versions, body["versions"], "the host", "you")
        if problem is None and body["game"] != ctx.table.game:
            problem = f"this table plays {ctx.table.game}, not {body['game']}"
        if problem is None and body["options"] != ctx.table.options:
            problem = "your game options differ from the host's"
        if problem is None and (ctx.phase != "lobby" or len(ctx.seat_keys) >= ctx.table.players):
            problem = "the game is full"
        return problem

    def _assign(self, seat: int, key: bytes, name: str) -> list[Output]:
        env = self.ctx.sign("seat", {"seat": seat, "key": key, "name": name}, seat=0)
        return [Publish("log", env.raw)] + self._accept_seat(env)

    def unique_name(self, name: str) -> str:
        """The joiner's name, or "Name 2", "Name 3"... when a seat already has it: a table of
        two "Player"s cannot say whose turn it is."""
        taken = set(self.ctx.seat_names.values())
        candidate, number = name, 1
        while candidate in taken:
            number += 1
            suffix = f" {number}"
            candidate = name[:MAX_NAME - len(suffix)] + suffix
        return candidate

    def _start(self) -> list[Output]:
        ctx = self.ctx
        assert ctx.table is not None
        players = ctx.table.players
        body = {
            "game": ctx.table.game, "players": players, "options": ctx.table.options,
            "versions": ctx.table.versions,
            "keys": [ctx.seat_keys[s] for s in range(players)],
            "names": [ctx.seat_names[s] for s in range(players)],
            "table": dict(ctx.settings),
        }
        env = ctx.sign("start", body, seat=0)
        return [Publish("log", env.raw)] + self._accept_start(env)

    # ---- a joiner ----------------------------------------------------------------------
    def hello(self) -> list[Output]:
        """Ask the host for a seat (checked against the announcement first)."""
        ctx = self.ctx
        assert ctx.me is not None
        if ctx.table is None:
            return [Note("error", "no announcement of this game seen yet")]
        problem = version_mismatch(self.versions, ctx.table.versions, "this client", "the host")
        if problem is None:
            problem = self.options_problem(ctx.table.options)
        if problem is not None:
            self.refused = problem
            return [Note("refused", f"cannot join: {problem}")]
        self.hello_sent = True
        return [Publish("log", self._hello_env().raw)]

    def _hello_env(self) -> Envelope:
        ctx = self.ctx
        assert ctx.me is not None
        proof = admission_proof(ctx.secret, ctx.gid, ctx.me.public) if ctx.secret else b""
        body = {"name": ctx.name, "game": ctx.game.id, "versions": self.versions,
                "options": ctx.table.options if ctx.table else {}, "proof": proof}
        return ctx.sign("hello", body, seat=NO_SEAT)

    def options_problem(self, options: Mapping[str, Any]) -> str | None:
        try:
            self.ctx.game.check_options({k: from_plain(v) for k, v in options.items()})
        except (InvalidOption, DecodeError) as exc:
            return f"the game's options are not valid here: {exc}"
        return None

    def on_announce(self, env: Envelope) -> list[Output]:
        ctx = self.ctx
        if ctx.host_key is None:
            if ctx.pin is not None and not ctx.pin.trusts(env.sender):
                return ctx.drop(env, "announcement not signed by the host the invite names")
            ctx.host_key = env.sender  # pinned by the invite; without one (a relay) the first seen
        if ctx.is_host:
            return []
        if env.sender != ctx.host_key:
            return ctx.drop(env, "announcement not signed by this game's host")
        body = env.body
        if ctx.phase == "lobby":
            ctx.table = TableInfo(body["game"], body["players"], body["options"], body["versions"], body["relay_bots"])
            ctx.invite_only = body["invite"]
        self.announce_raw = env.raw
        return [Note("lobby", "", {"seats": list(body["names"]), "open": body["open"]})]

    def on_host_msg(self, env: Envelope) -> list[Output]:
        """`seat`, `kick`, `refuse` or `start`: only the host's count."""
        ctx = self.ctx
        if ctx.host_key is None and env.kind == "start":
            if ctx.pin is not None and not ctx.pin.trusts(env.sender):
                return ctx.drop(env, "start not signed by the host the invite names")
            ctx.host_key = env.sender
        if env.sender != ctx.host_key:
            return ctx.drop(env, f"{env.kind} not signed by this game's host")
        if env.kind == "refuse":
            if ctx.me is not None and env.body["key"] == ctx.me.public:
                self.refused = env.body["reason"]
                return [Note("refused", f"the host refused the join: {env.body['reason']}")]
            return []
        if env.kind == "kick":
            return [] if ctx.keys else self._accept_kick(env)
        if env.kind == "seat":
            seat = env.body["seat"]
            if self.seat_raws.get(seat) == env.raw or ctx.keys or env.body["key"] in ctx.kicked:
                return []
            if seat in ctx.seat_keys and ctx.seat_keys[seat] != env.body["key"]:
                return ctx.drop(env, f"seat {seat} assigned twice")
            return self._accept_seat(env)
        if self.start_raw is not None:
            return [] if env.raw == self.start_raw else ctx.drop(env, "a second, different start")
        return self._accept_start(env)

    def _accept_seat(self, env: Envelope) -> list[Output]:
        ctx = self.ctx
        seat = env.body["seat"]
        ctx.seat_keys[seat] = env.body["key"]
        ctx.seat_names[seat] = env.body["name"]
        self.seat_raws[seat] = env.raw
        ctx.accept(-1, env)
        out: list[Output] = [Keep(env.raw)]
        out.append(Note("lobby", f"{env.body['name']} took seat {seat}", {"seats": ctx.lobby_seats()}))
        if ctx.me is not None and env.body["key"] == ctx.me.public:
            out.append(Note("seated", f"you are seat {seat}", {"seat": seat}))
        return out

    def _accept_start(self, env: Envelope) -> list[Output]:
        ctx = self.ctx
        body = env.body
        if body["game"] != ctx.game.id:
            return [Note("error", f"the host started {body['game']}, not {ctx.game.id}")]
        if len(body["keys"]) != body["players"] or len(body["names"]) != body["players"]:
            return ctx.drop(env, "start lists the wrong number of seats")
        problem = self.options_problem(body["options"])
        if problem is not None:
            return [Note("refused", f"cannot play: {problem}")]
        self.start_raw = env.raw
        ctx.keys = list(body["keys"])
        ctx.names = list(body["names"])
        ctx.settings = dict(body["table"])
        ctx.options = {k: from_plain(v) for k, v in body["options"].items()}
        if ctx.table is None:
            ctx.table = TableInfo(body["game"], body["players"], body["options"], body["versions"])
        ctx.phase = "seed"
        ctx.accept(-1, env)
        out: list[Output] = [Keep(env.raw)]
        if ctx.is_host:
            out += self.announce()
        out.append(Note("started", "all seats are taken: agreeing on the seed", {"names": ctx.names}))
        return out + self.on_start()

    def own_current(self) -> list[Output]:
        """Our lobby messages to send again after a reconnect (the host's seats, start, table)."""
        ctx = self.ctx
        out: list[Output] = []
        if ctx.phase == "lobby" and ctx.my_seat is None and self.hello_sent:
            out.append(Publish("log", self._hello_env().raw))
        if ctx.is_host:
            if ctx.phase in ("lobby", "seed"):
                out += [Publish("log", raw) for raw in self.seat_raws.values()]
            if self.start_raw:
                out.append(Publish("log", self.start_raw))
            if ctx.phase in ("lobby", "seed", "play") and ctx.table is not None:
                out += self.announce()
        return out
