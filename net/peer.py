"""The async shell around a Lockstep: transport in, outputs carried out in order.

Inbound: every payload is size-checked, decoded, type-checked and signature-checked
(`decode_envelope`) before the Lockstep sees it; a WireError is logged with its reason and
dropped. Outbound: one queue per peer, so its messages leave in the order they were made.
A bot peer answers its own turns; a human peer waits for `decide` from the screen.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import deque
from collections.abc import Callable
from typing import Any

from engine.bots import make_bot
from engine.core import Stream, pick_uniform

from .bot_time import DEFAULT_BOT_TIME, give_time, searches
from .codec import decode_envelope
from .errors import WireError
from .identity import peer_id
from .lockstep import Keep, Lockstep, Note, Output, Publish, Secret
from .store import GameStore
from .topics import ASK_BYTES, Topics
from .transport import Transport, Will

log = logging.getLogger("gamenight.net")

# Seconds of silence after which a peer says "still here" with its presence, where retained
# presence and wills do not reach every peer (a cluster keeps them per node): anything it
# signs counts as well, so a peer at play repeats nothing. Not shorter: with 10 s, 2,000 games
# at once on an overloaded broker (steps slower than that) delivered twice the messages a game.
# 0 = never. A seat the table waits on and not heard for PRESENCE_MISSED periods counts offline
# (docs/protocol.md, section 1).
PRESENCE_EVERY = 30.0
PRESENCE_MISSED = 3
ANSWER_EVERY = 1.0  # at most one answer to "who hosts this table?" a second, however many ask

EventListener = Callable[[Note], None]


class StepTimes:
    """Timing figures of one peer's game, for benchmarks and the selfplay report.

    Kept here, not in the protocol: they come from the `changed` notes the Lockstep emits
    (each names the step's mode and the seats that acted) and from this machine's clocks.
    """

    def __init__(self, clock: Callable[[], float] = time.perf_counter) -> None:
        self.clock = clock
        self.step_kinds: list[tuple[str, float]] = []  # (mode, seconds) per step applied
        self.choices: dict[int, tuple[float, float]] = {}  # step -> (our choice, step applied)
        self.messages_in = 0
        self._step_started = clock()
        self._chose_at = 0.0

    def chose(self) -> None:
        self._chose_at = self.clock()

    def on_note(self, note: Note, my_seat: int | None) -> None:
        if note.kind != "changed":
            return
        now = self.clock()
        mode = note.data.get("mode")
        if mode is not None:  # a step was applied (the first "changed" is the game's start)
            self.step_kinds.append((mode, now - self._step_started))
            if my_seat in note.data.get("seats", ()) and self._chose_at:
                self.choices[note.data["step"] - 1] = (self._chose_at, now)
                self._chose_at = 0.0
        self._step_started = now


class Peer:
    """One participant (player, bot or watcher) of one game over one transport."""

    def __init__(
        self,
        lockstep: Lockstep,
        transport: Transport,
        *,
        prefix: str = "gamenight/v1",
        store: GameStore | None = None,
        bot: str | None = None,
        bot_delay: float = 0.0,
        seed_for_bot: bytes | None = None,
        stall_after: float = 2.0,
    ) -> None:
        self.lockstep = lockstep
        self.transport = transport
        self.topics = Topics(lockstep.gid, prefix)
        self.store = store
        self.bot_kind = bot
        self.bot_time = DEFAULT_BOT_TIME
        """A hard bot's seconds per decision (net/bot_time.py)."""
        self.bot_delay = bot_delay
        self._bot: Any = None
        self._proxies: dict[int, Any] = {}  # seat handed to us -> the bot playing it
        self._bot_seed = seed_for_bot or (lockstep.me.bot_secret if lockstep.me else b"watcher")
        self.listeners: list[EventListener] = []
        self.outbox: asyncio.Queue[Publish] = asyncio.Queue()
        self.done = asyncio.Event()
        self.seated = asyncio.Event()
        self.notes: list[Note] = []
        self.keep_notes = False
        self.restored: list[Note] = []
        """The steps `restore` replayed from disk ("changed" notes): a screen's log of them."""
        self.sent = 0
        self.dropped: deque[str] = deque(maxlen=200)  # the latest reasons (a flood stays small)
        self._sender: asyncio.Task[None] | None = None
        self._bot_task: asyncio.Task[None] | None = None
        self._watch_task: asyncio.Task[None] | None = None
        self._inflight: set[asyncio.Task[None]] = set()
        self._holding = False  # the sender took a message and waits for the disk before sending it
        self._channels = {
            "log": (self.topics.log, 1), "sync": (self.topics.sync, 1),
            "chat": (self.topics.chat, 0), "lobby": (self.topics.lobby, 1),
        }
        self.stall_after = stall_after
        self.presence_every = PRESENCE_EVERY  # 0: no periodic presence and no timeout
        self._status = "online"  # what our periodic presence says (set_away changes it)
        self._presence_task: asyncio.Task[None] | None = None
        self._answer_due = False  # an answer to a question is scheduled
        self._last_answer = float("-inf")
        self._reannounce_due = False  # a put-back of our overwritten announcement is scheduled
        self._last_reannounce = float("-inf")
        self.metrics = StepTimes()
        self._started = False
        self._stopped = False

    # ---- lifecycle ---------------------------------------------------------------------
    def will(self) -> Will | None:
        payload = self.lockstep.presence("offline", will=True)
        if payload is None:
            return None
        return Will(self.topics.presence(self._pid), payload, qos=1, retain=True)

    @property
    def _pid(self) -> str:
        return peer_id(self.lockstep.me.public) if self.lockstep.me else "watcher"

    async def start(self, outputs: list[Output] | None = None) -> None:
        """Subscribe, then carry out `outputs` (e.g. from host() or hello())."""
        self._sender = asyncio.create_task(self._send_loop())
        await self.transport.subscribe(self.topics.game_all, self._on_message)
        await self.transport.subscribe(self.topics.lobby, self._on_message)
        self.transport.on_connect(self._on_connect)
        self._started = True
        self._run(outputs or [])
        self._publish_presence("online")
        self._bot_if_my_turn()  # a resumed bot may already be the one everybody waits for
        self._proxy_turns()  # and a seat handed to us, after a resume
        if self.stall_after:
            self._watch_task = asyncio.create_task(self._watchdog())
        self._presence_task = asyncio.create_task(self._presence_loop())

    def restore(self, raws: list[bytes]) -> None:
        """Replay our disk log through the Lockstep (checking it all), publishing nothing."""
        ls = self.lockstep
        ls.replaying = True
        for raw in raws:
            try:
                env = decode_envelope(raw)
            except WireError as exc:
                log.warning("drop from disk log: %s", exc)
                continue
            for out in ls.receive(env):
                if isinstance(out, Note) and out.kind in ("desync", "refused"):
                    self._emit(out)
                elif isinstance(out, Note) and out.kind == "changed":
                    self.restored.append(out)
        ls.replaying = False

    def resume_outputs(self) -> list[Output]:
        return self.lockstep.own_current() + self.lockstep.sync_request()

    async def stop(self, clean: bool = True) -> None:
        """Say goodbye (unless `clean` is False), stop our tasks; a second call does nothing."""
        if self._stopped:
            return
        self._stopped = True
        if clean and self.transport.connected.is_set():
            if self.lockstep.phase == "over":  # nothing left to wait for: clear our retained presence
                self.outbox.put_nowait(Publish("presence", b"", retain=True))
            else:
                self._publish_presence("offline")
            await self.flush()
        for task in (self._sender, self._bot_task, self._watch_task, self._presence_task):
            if task is not None:
                task.cancel()
        self.transport.unsubscribe_handler(self._on_message)
        self.transport.remove_on_connect(self._on_connect)
        if self.store is not None:
            self.store.close()

    async def flush(self, timeout: float = 2.0) -> None:
        """Wait until everything queued has been handed to the transport."""
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while (not self.outbox.empty() or self._inflight or self._holding) and loop.time() < end:
            await asyncio.sleep(0.01)

    def _on_connect(self) -> None:
        if self._started:
            self._run(self.resume_outputs())
            self._publish_presence("online")

    async def _watchdog(self) -> None:
        """A step that makes no progress for a while asks the others again.

        Covers a message lost on a broken connection and a reveal dropped for coming early.
        The wait doubles after each try (up to 30 s) so a player thinking for minutes costs
        little traffic, and a peer that is itself the one awaited does not ask at all.
        """
        loop = asyncio.get_running_loop()
        last: tuple | None = None
        since = loop.time()
        wait = self.stall_after
        while True:
            await asyncio.sleep(min(0.5, self.stall_after / 2))
            ls = self.lockstep
            if ls.phase == "over" and ls.dealt and not ls.deal_verdict:
                self._run(ls.audit_overdue())  # a seat that never sends its audit is named for it
            if not self.transport.connected.is_set() or ls.refused:
                continue
            unseated = ls.phase == "lobby" and ls.hello_sent and ls.my_seat is None
            if ls.phase not in ("seed", "play") and not unseated:
                continue
            mark = (ls.phase, ls.step, len(ls.accepted), len(ls.seat_keys))
            now = loop.time()
            if mark != last:
                last, since, wait = mark, now, self.stall_after
            elif now - since >= wait:
                if ls.awaited() - {ls.my_seat} or unseated or ls.awaits_confirmation():
                    log.info("no progress at step %s for %.1fs: asking for sync", ls.step, now - since)
                    self._run(self.resume_outputs())
                self._bot_if_my_turn()
                since, wait = now, min(wait * 2, 30.0)

    async def _presence_loop(self) -> None:
        """Say we are here every `presence_every` seconds, and count a seat not heard for
        PRESENCE_MISSED periods offline: where retained presence and wills do not reach every
        peer (a cluster keeps them per node; a node that dies takes its clients' wills along),
        live presence still tells the table who is there."""
        while True:
            await asyncio.sleep(min(0.5, (self.presence_every or 1.0) / 2))
            if not self.presence_every:
                continue
            if self.lockstep.silent_for() >= self.presence_every and self.transport.connected.is_set():
                self._publish_presence(self._status)
            self._run(self.lockstep.expire_presence(self.presence_every * PRESENCE_MISSED))

    def _publish_presence(self, status: str) -> None:
        self._status = status
        payload = self.lockstep.presence(status)
        if payload is not None:
            self.outbox.put_nowait(Publish("presence", payload, retain=True))

    async def _send_loop(self) -> None:
        """Hand messages to the transport in order, without waiting for each PUBACK.

        While connected a message goes to the connection at once (`publish_now`); otherwise, or
        while an earlier one still waits, each publish runs as its own task. A task runs up to
        the client's synchronous enqueue before it first yields, and tasks start in creation
        order, so the order is kept either way.
        """
        while True:
            item = await self.outbox.get()
            if self.store is not None and (written := self.store.unwritten()) is not None:
                # what we send is on disk first (the writes run off the loop); flush() waits for
                # a message held here too, or a peer stopped meanwhile loses it
                self._holding = True
                try:
                    await written
                finally:
                    self._holding = False
            topic, qos = self._destination(item)
            if not self._inflight and self.transport.publish_now(topic, item.payload, qos, item.retain):
                self.sent += 1
                continue
            task = asyncio.create_task(self._publish_one(topic, qos, item))
            self._inflight.add(task)
            task.add_done_callback(self._inflight.discard)

    def _destination(self, item: Publish) -> tuple[str, int]:
        if item.channel == "presence":
            return self.topics.presence(self._pid), 1
        return self._channels[item.channel]

    async def _publish_one(self, topic: str, qos: int, item: Publish) -> None:
        try:
            await self.transport.publish(topic, item.payload, qos=qos, retain=item.retain)
            self.sent += 1
        except Exception as exc:  # a broken connection: the reconnect resends our part
            log.info("publish on %s failed: %s", topic, exc)

    # ---- inbound -----------------------------------------------------------------------
    def _on_message(self, topic: str, payload: bytes, retained: bool) -> None:
        if topic == self.topics.ask:
            self._on_question(payload)
            return
        if topic == self.topics.lobby:
            self._guard_announcement(payload)
        if not payload:
            if topic == self.topics.lobby and self.lockstep.phase == "lobby":
                self._emit(Note("lobby_closed", "the host closed the table"))
            return
        try:
            env = decode_envelope(payload)
        except WireError as exc:
            reason = f"{exc.code}: {exc}"
            log.warning("drop on %s: %s", topic, reason)
            self.dropped.append(reason)
            self._emit(Note("dropped", reason))
            return
        self.metrics.messages_in += 1
        self._run(self.lockstep.receive(env))

    def _guard_announcement(self, payload: bytes) -> None:
        """Anyone on the broker may overwrite (or clear) a retained lobby message: the host puts
        its own announcement back, at most once a second, so invited joiners still find it."""
        ls = self.lockstep
        own = ls.announce_raw
        if not ls.is_host or own is None or payload == own or ls.phase == "over" or self._reannounce_due:
            return
        loop = asyncio.get_running_loop()
        self._reannounce_due = True
        loop.call_later(max(0.0, self._last_reannounce + 1.0 - loop.time()), self._reannounce)

    def _reannounce(self) -> None:
        self._reannounce_due = False
        self._last_reannounce = asyncio.get_running_loop().time()
        ls = self.lockstep
        if ls.phase != "over" and ls.announce_raw is not None and not self._stopped:
            self.outbox.put_nowait(Publish("lobby", ls.announce_raw, retain=True))

    def _on_question(self, payload: bytes) -> None:
        """"Who hosts this table?": the host answers with its announcement, live (not retained).

        Bounded work whoever asks: the question's content is never read beyond its length, and
        one answer a second at most goes out, however many questions come. Only the host
        answers: another peer's copy may be older than the host's, and an old announcement
        going round again (one saying the table is open) misleads a relay that lends bots.
        """
        ls = self.lockstep
        if (len(payload) > ASK_BYTES or not ls.is_host or ls.announce_raw is None or ls.phase == "over"
                or self._answer_due):
            return
        loop = asyncio.get_running_loop()
        self._answer_due = True
        loop.call_later(max(0.0, self._last_answer + ANSWER_EVERY - loop.time()), self._answer)

    def _answer(self) -> None:
        self._answer_due = False
        ls = self.lockstep
        if self._stopped or ls.phase == "over" or ls.announce_raw is None:
            return
        self._last_answer = asyncio.get_running_loop().time()
        self.outbox.put_nowait(Publish("lobby", ls.announce_raw, retain=False))

    # ---- acting ------------------------------------------------------------------------
    def decide(self, action: Any) -> None:
        """Our seat's choice (raises IllegalAction with a readable reason)."""
        self.metrics.chose()
        self._run(self.lockstep.decide(action))

    def chat(self, text: str) -> None:
        self._run(self.lockstep.chat(text))

    async def offer_rematch(self, gid: str, secret: bytes) -> None:
        """As the host of a game that is over, offer the new table `gid` to the players (its
        secret sealed to each seated key) and wait until the offer is out; ValueError says
        why not."""
        self._run(self.lockstep.offer_rematch(gid, secret))
        await self.flush()

    def kick(self, seat: int) -> None:
        """As the host, free `seat` before the start (ValueError says why not)."""
        self._run(self.lockstep.kick(seat))

    def set_away(self, away: bool) -> None:
        """Say to the table that our player is away (its clock ran out twice in a row) or back:
        the others then count our seat offline, as they would a leaver (the grace, then the vote)."""
        self._publish_presence("offline" if away else "online")

    def vote(self, choice: str) -> None:
        """Our seat's vote about a late, gone or proven seat (ValueError if there is none)."""
        self._run(self.lockstep.vote(choice))

    def handover(self, bot: str = "best") -> None:
        """We leave: another peer's bot plays our seat from now (ValueError if nobody can)."""
        self._run(self.lockstep.handover(bot))

    def _run(self, outputs: list[Output]) -> None:
        for out in outputs:
            if isinstance(out, Secret):
                if self.store is not None:
                    self.store.save_secrets(self.lockstep.secrets)
            elif isinstance(out, Keep):
                if self.store is not None:
                    self.store.append(out.raw)
            elif isinstance(out, Publish):
                self.outbox.put_nowait(out)
            else:
                self._emit(out)

    def _emit(self, note: Note) -> None:
        self.metrics.on_note(note, self.lockstep.my_seat)
        if note.kind == "dropped":
            self.dropped.append(note.text)
        if note.kind in ("over", "desync", "refused"):
            # a dealt game is done once its end audit is in (its log replays from then on)
            if note.kind != "over" or not self.lockstep.dealt or self.lockstep.deal_verdict:
                self.done.set()
            if self.store is not None and not self.lockstep.replaying:
                self.store.save_meta({**self.store.load_meta(), "finished": note.kind})
        if note.kind == "audit":
            self.done.set()
        if note.kind == "seated":
            self.seated.set()
        if self.keep_notes:
            self.notes.append(note)
        if note.kind == "your_turn" and self.bot_kind is not None:
            self._schedule_bot()
        if note.kind in ("changed", "handover", "waiting") and not self.lockstep.replaying:
            self._proxy_turns()
        if note.kind == "vote" and self.bot_kind is not None:  # a bot seat follows the players
            asyncio.get_running_loop().call_soon(lambda: self._run(self.lockstep.follow_vote(note)))
        for listener in list(self.listeners):
            try:
                listener(note)
            except Exception:
                log.exception("listener failed on %s", note.kind)

    # ---- bots --------------------------------------------------------------------------
    def _proxy_turns(self) -> None:
        """Seats handed to us by their leaving players: our bot plays them (soon, not inline)."""
        ls = self.lockstep
        if any(ls.my_turn(s) for s in ls.own_seats() if s != ls.my_seat):
            asyncio.get_running_loop().call_soon(self._play_proxies)

    def _play_proxies(self) -> None:
        ls = self.lockstep
        for seat in ls.own_seats():
            if seat == ls.my_seat or not ls.my_turn(seat):
                continue
            bot = self._proxies.get(seat)
            if bot is None:  # randomness from this peer's own entropy: nobody else can predict it
                kind = ls.votes.handed[seat][1]
                bot = self._proxies[seat] = give_time(
                    make_bot(ls.game, seat, kind, Stream(ls.entropy(32))), self.bot_time)
            action = bot.choose(ls.view(seat), ls.legal_actions(seat))
            self._run(ls.play_for(seat, action))

    def _bot_if_my_turn(self) -> None:
        if self.bot_kind is not None and self.lockstep.my_turn():
            self._schedule_bot()

    def _schedule_bot(self) -> None:
        if self._bot_task is not None and not self._bot_task.done():
            return
        self._bot_task = asyncio.get_running_loop().create_task(self._bot_turn())

    async def _bot_turn(self) -> None:
        ls = self.lockstep
        while True:  # our own move may make it our turn again at once
            await asyncio.sleep(self.bot_delay)
            seat = ls.my_seat
            if seat is None or not ls.my_turn():
                return
            if self._bot is None:
                self._bot = give_time(make_bot(ls.game, seat, self.bot_kind or "best",
                                               Stream(self._bot_seed).fork(ls.gid)), self.bot_time)
            view, legal = ls.view(seat), ls.legal_actions(seat)
            if searches(self._bot):  # a hard bot thinks for up to its budget: off the event loop
                action = await asyncio.to_thread(self._decision, view, legal)
                if ls.my_seat != seat or not ls.my_turn():
                    return
            else:
                action = self._decision(view, legal)
            self.decide(action)

    def _decision(self, view: Any, legal: Any) -> Any:
        """The bot's move; should the bot itself fail, a legal move drawn from its stream and
        the failure logged: the table goes on (a task's lost exception left it waiting)."""
        try:
            return self._bot.choose(view, legal)
        except Exception:
            log.exception("the %s bot failed to decide at %s; it plays a legal move at random",
                          self.bot_kind, self.lockstep.gid)
            return pick_uniform(legal, self._bot.rng)
