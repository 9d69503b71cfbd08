"""Chat and presence: signed, bound to the seat they claim, never part of the game log."""

from __future__ import annotations

import hashlib
import time
from collections import OrderedDict

from ..codec import MAX_NAME, NO_SEAT, PROTOCOL_VERSION, ZERO32, Envelope
from ..identity import Identity
from .context import Clock, Context
from .outputs import Note, Output, Publish

CHAT_MEMORY = 1024  # digests of recent chat lines, to show a redelivered line once


class Social:
    """Chat lines in and out, and who is online."""

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx
        self.chat_seen: OrderedDict[bytes, None] = OrderedDict()  # the last CHAT_MEMORY lines
        self.offline: set[int] = set()
        self.heard: dict[int, float] = {}  # seat -> when (our clock) its latest presence came
        self.stamps: dict[int, int] = {}  # seat -> the newest stamp ("q") of its "online" presences
        self.latest: dict[int, int] = {}  # seat -> the newest stamp of anything live it signed
        self.said_at = 0.0  # when (our clock) we last made our presence

    def chat(self, text: str) -> list[Output]:
        ctx = self.ctx
        if ctx.me is None:
            return []
        text = text.strip()[:500]
        if not text:
            return []
        return [Publish("chat", ctx.sign("chat", {"text": text}).raw)]

    def _who(self, env: Envelope) -> str | None:
        ctx = self.ctx
        names = ctx.display_names()
        keys = ctx.keys or [ctx.seat_keys.get(s) for s in range(len(names))]
        if env.seat == NO_SEAT:
            if env.sender in keys:
                return None
            mine = ctx.me is not None and env.sender == ctx.me.public
            if ctx.invite_only and env.sender not in ctx.admitted and not mine:
                return ""  # at an invite-only table only an admitted watcher chats
            return "watcher"
        if not 0 <= env.seat < len(keys) or keys[env.seat] != env.sender:
            return None
        return names[env.seat] or f"seat {env.seat}"

    def on_chat(self, env: Envelope) -> list[Output]:
        digest = hashlib.sha256(env.raw).digest()
        if digest in self.chat_seen:
            return []
        who = self._who(env)
        if who is None:
            return self.ctx.drop(env, f"chat claims seat {env.seat} but is signed by another key")
        if not who:
            return self.ctx.drop(env, "chat from a key with no seat that was not invited")
        self.chat_seen[digest] = None
        if len(self.chat_seen) > CHAT_MEMORY:
            self.chat_seen.popitem(last=False)
        return [Note("chat", f"{who}: {env.body['text']}", {"seat": env.seat, "name": who, "text": env.body["text"]})]

    def presence(self, status: str, *, will: bool = False) -> bytes | None:
        """Our signed presence; a `will` is only published by the broker once we are gone."""
        ctx = self.ctx
        if ctx.me is None:
            return None
        if not will:
            self.said_at = ctx.clock()
        return presence_payload(ctx.me, ctx.gid, status, ctx.name, clock=ctx.clock)

    def silent_for(self) -> float:
        """Seconds since we last told the table we are here: a presence, or any message we
        signed (a fresh one, which the others `hear`; a resent one was signed earlier)."""
        return self.ctx.clock() - max(self.said_at, self.ctx.signed_at())

    def on_presence(self, env: Envelope) -> list[Output]:
        ctx = self.ctx
        keys = ctx.keys or [ctx.seat_keys.get(s) for s in sorted(ctx.seat_keys)]
        if env.sender not in keys:
            return []
        seat = keys.index(env.sender)
        offline = env.body["status"] == "offline"
        if not offline:
            # only a newer "online" says the seat is here (the stamp is the sender's own count,
            # compared only with its own): a replayed old one keeps nobody online. An "offline"
            # counts whatever its stamp, since the will was signed when its connection began.
            if env.nonce <= self.stamps.get(seat, -1):
                return []
            self.stamps[seat] = env.nonce
        self.heard[seat] = ctx.clock()
        return self._mark(seat, offline)

    def hear(self, env: Envelope) -> None:
        """A live message signed for its seat, newer than any before it from that seat, says
        the seat is here as a presence would: a peer that is publishing need not also repeat
        its presence. A replayed one (an older stamp) or one inside a sync proves nothing."""
        ctx = self.ctx
        keys = ctx.keys
        if not keys or not 0 <= env.seat < len(keys) or env.nonce <= self.latest.get(env.seat, -1):
            return
        if env.sender in (keys[env.seat], ctx.signers.get(env.seat)):
            self.latest[env.seat] = env.nonce
            self.heard[env.seat] = ctx.clock()

    def expire(self, after: float) -> list[Output]:
        """Count offline a seat the table waits on that we have not heard for `after` seconds
        since the start (or since we first looked): its will may never reach us (kept by a
        node that died). Only an awaited seat: a relay's parked bot is silent, not gone."""
        ctx = self.ctx
        if ctx.me is None or not ctx.keys or ctx.phase in ("over", "frozen"):
            return []  # a watcher (a relay's archive) goes by the table's own word only
        now = ctx.clock()
        awaited = ctx.awaited()
        out: list[Output] = []
        for seat, key in enumerate(ctx.keys):
            if key is None or key == ctx.me.public or seat in self.offline:
                continue
            if now - self.heard.setdefault(seat, now) >= after and seat in awaited:
                out += self._mark(seat, True)
        return out

    def _mark(self, seat: int, offline: bool) -> list[Output]:
        ctx = self.ctx
        if offline == (seat in self.offline):
            return []
        (self.offline.add if offline else self.offline.discard)(seat)
        name = ctx.display_names()[seat] if seat < ctx.n_players else f"seat {seat}"
        if ctx.phase in ("over", "frozen"):
            text = f"{name} left" if offline else f"{name} is online"
        else:
            text = f"{name} is offline: the table waits for them" if offline else f"{name} is back online"
        return [Note("presence", text, {"seat": seat, "online": not offline})]


def presence_payload(identity: Identity, gid: str, status: str, name: str, *, clock: Clock = time.time) -> bytes:
    """A signed presence message; "offline" is what the broker publishes as our last will."""
    return identity.sign({
        "v": PROTOCOL_VERSION, "g": gid, "k": "presence", "p": identity.public, "s": NO_SEAT,
        "n": 0, "q": int(clock() * 1_000_000), "b": {"status": status, "name": name[:MAX_NAME] or "player"},
        "h": ZERO32, "c": ZERO32,
    })
