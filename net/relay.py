"""The relay: a headless broker host that archives every game and lends bots to hosts that ask.

- broker: embedded amqtt (or an external one such as mosquitto, see configs/mosquitto.conf);
- archive: for every announced game a watching peer that verifies the whole log like any
  player, appends it to <archive>/<gid>/log.bin, and answers `sync` requests, so a game can
  resume even if every player's machine crashed;
- bots: when an announcement asks for `relay_bots`, bot peers (each with its own key and
  connection) play that many seats once the table has started, up to the relay's capacity
  (net/relay_lending.py: what a fake table can take of them).

A table that has not begun to play costs a watcher without files (its log stays in memory
until then). A finished game is forgotten: its watcher, bots, connections and open log are
released, and a later `sync_req` for it is answered from the log on disk (a few recent ones
stay loaded), so memory and open files stay flat however many games the relay has archived.
What one announcing key can take is capped: games watched at once, bots at once, and games
kept in the archive (its oldest finished game is deleted past the cap); unstarted tables are
capped in all, the oldest going first.
"""

from __future__ import annotations

import asyncio
import json
import logging
import shutil
from collections import OrderedDict, deque
from collections.abc import Awaitable, Callable
from hashlib import sha256
from pathlib import Path

from engine.registry import get_game

from .codec import decode_envelope
from .errors import WireError
from .identity import load_or_create, peer_id
from .launch import BrokerSettings, connect, start_broker
from .lockstep import Lockstep, Note, Output, Publish
from .paths import atomic_write, data_dir
from .peer import Peer
from .relay_lending import BotLending, store_when_playing
from .relay_limits import RelayLimits
from .store import GameStore, PendingStore, read_log
from .topics import Topics, lobby_filter
from .transport import Transport

log = logging.getLogger("gamenight.net")

TICK = 0.25  # seconds between two looks of the relay's clock at the tables it lends bots to


Closer = Callable[[], Awaitable[None]]


class Relay:
    def __init__(self, settings: BrokerSettings, *, max_bots: int = 0, archive: Path | None = None,
                 limits: RelayLimits | None = None, transport: Transport | None = None,
                 bot_level: str = "normal") -> None:
        """`transport`: a started connection the relay (and its bots) use and close, instead of
        one to a broker started or named by `settings` (a memory broker in tests). `bot_level`:
        the kind its bots play (easy, normal or hard; every game has these, docs/bots.md)."""
        self.settings = settings
        self._given = transport
        self.max_bots = max_bots
        self.bot_level = bot_level
        self.limits = limits or RelayLimits()
        self.archive = archive or data_dir() / "archive"
        self.url = ""
        self.watchers: dict[str, Peer] = {}
        self.hosts: dict[str, str] = {}  # live gid -> the announcing key (hex)
        self.lending = BotLending(self)
        self._wake = asyncio.Event()
        self._loaded: OrderedDict[str, Lockstep] = OrderedDict()  # finished games, most recent last
        self._load_times: deque[float] = deque()
        self._closers: list[Closer] = []
        self._pending: set[asyncio.Task] = set()
        self._forgetting: dict[str, asyncio.Task] = {}  # gid -> the task that lets its game go
        self._subscribing: set[str] = set()  # watchers not yet subscribed
        self._let_go: OrderedDict[str, bytes] = OrderedDict()  # gid -> digest of an announcement not watched again
        self._stopped = asyncio.Event()
        self._lock = asyncio.Lock()  # one announcement at a time: no double watchers or bots
        self.identity = load_or_create(data_dir() / "relay.key")
        self.forgotten = 0

    @property
    def bots(self) -> dict[str, list[Peer]]:
        """The bot peers running now, by game."""
        return {gid: t.peers for gid, t in self.lending.tables.items() if t.peers}

    @property
    def bots_running(self) -> int:
        return self.lending.running()

    async def start(self) -> None:
        self.archive.mkdir(parents=True, exist_ok=True)
        if self._given is not None:
            self.url, self.broker, self.transport = self.settings.broker, None, self._given
        else:
            self.url, self.broker = await start_broker(self.settings)
            if self.broker is not None:
                self._closers.append(self.broker.stop)
            self.transport = await connect(self.url, self.settings)
        self._closers.append(self.transport.stop)
        await self.transport.subscribe(lobby_filter(self.settings.prefix), self._on_lobby)
        await self.transport.subscribe(f"{self.settings.prefix}/game/+/sync", self._on_sync)
        self.spawn(self._clock())

    async def wait(self) -> None:
        await self._stopped.wait()

    async def stop(self) -> None:
        for task in list(self._pending) + list(self._forgetting.values()):
            task.cancel()
        for gid in list(self.watchers) + [g for g in self.lending.tables if g not in self.watchers]:
            await self._release(gid)
        for closer in reversed(self._closers):
            try:
                await closer()
            except Exception:
                log.exception("relay shutdown step failed")
        self._stopped.set()

    # ---- announcements ------------------------------------------------------------------
    def _on_lobby(self, topic: str, payload: bytes, retained: bool) -> None:
        if not payload:
            return
        try:
            env = decode_envelope(payload)
        except WireError as exc:
            log.info("relay: drop on %s: %s", topic, exc)
            return
        if env.kind != "announce" or topic.rsplit("/", 1)[-1] != env.gid:
            return
        self.spawn(self._handle(env))

    def spawn(self, coro) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self._pending.add(task)
        task.add_done_callback(self._done)

    def _done(self, task: asyncio.Task) -> None:
        self._pending.discard(task)
        if not task.cancelled() and task.exception() is not None:  # e.g. a publish as the relay stops
            log.info("relay: %s failed: %s", task.get_coro().__qualname__, task.exception())

    def publish(self, topic: str, payload: bytes, retain: bool = False) -> None:
        self.spawn(self.transport.publish(topic, payload, retain=retain))

    def wake(self) -> None:
        """Something changed for the bots: the relay's clock looks now, not at its next tick."""
        self._wake.set()

    async def _clock(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            try:
                await asyncio.wait_for(self._wake.wait(), TICK)
            except TimeoutError:
                pass
            self._wake.clear()
            async with self._lock:
                try:
                    await self.lending.tick(loop.time())
                except Exception:
                    log.exception("relay: lending bots failed")

    async def _handle(self, env) -> None:
        """Watch a new table, then let the bots follow the announcement.

        The lock is not held while the watcher subscribes, so one slow subscription does not
        hold up every other table; the bots ask for seats only once the watcher hears the log.
        """
        gid = env.gid
        try:
            watcher = None
            async with self._lock:
                if gid not in self.watchers:
                    if self._let_go.get(gid) == sha256(env.raw).digest() or self._finished_here(gid) or not self._may_watch(env):
                        return
                    await self._make_room()
                    watcher = self._watch(env)
            if watcher is not None:
                await self._start_watching(gid, *watcher)
            if gid in self.watchers and gid not in self._subscribing:
                self.lending.on_announce(env, self.watchers[gid])
        except Exception:
            log.exception("relay: handling %s failed", gid)

    async def _make_room(self) -> None:
        """At most `lobby_tables` unstarted tables from all keys: the oldest one goes."""
        unstarted = [g for g, p in self.watchers.items() if p.lockstep.phase == "lobby"]
        for gid in unstarted[: max(0, len(unstarted) - self.limits.lobby_tables + 1)]:
            log.info("relay: %s let go unstarted: too many tables wait to start", gid)
            await self._release(gid, let_go=True)

    def _finished_here(self, gid: str) -> bool:
        """A game archived and forgotten is never watched again (a stale announcement)."""
        return gid in self._loaded or bool(_read_json(self.archive / gid / "meta.json").get("finished"))

    def _may_watch(self, env) -> bool:
        host = env.sender.hex()
        live = sum(1 for g, h in self.hosts.items() if h == host and not self.watchers[g].done.is_set())
        if live >= self.limits.live_per_key:
            log.info("relay: not archiving %s: its host already has %d games here", env.gid, live)
            return False
        return True

    def _watch(self, env) -> tuple[Peer, list[Output]] | None:
        """A watcher for a new table, registered (its subscriptions are still to be made)."""
        try:
            game = get_game(env.body["game"])
        except Exception as exc:
            log.info("relay: cannot archive %s: %s", env.gid, exc)
            return None
        lockstep = Lockstep(game, env.gid, self.identity, name="relay")
        peer = Peer(lockstep, self.transport, prefix=self.settings.prefix, stall_after=0)
        meta = {"gid": env.gid, "game": game.id, "role": "archive", "broker": self.url, "host": env.sender.hex()}
        if (self.archive / env.gid / "log.bin").exists():  # watched before this relay restarted
            peer.store = GameStore(self.archive / env.gid)
            peer.restore(peer.store.read_log())
            peer.store.save_meta(meta)
        else:
            peer.store = PendingStore(meta)  # on disk once it plays (store_when_playing)
        peer.listeners.append(lambda note: self._on_watched(peer, note))
        outputs = lockstep.receive(env)
        self.watchers[env.gid] = peer
        self.hosts[env.gid] = env.sender.hex()
        self._subscribing.add(env.gid)
        return peer, outputs + lockstep.sync_request()

    async def _start_watching(self, gid: str, peer: Peer, outputs: list[Output]) -> None:
        try:
            await peer.start(outputs)
        finally:
            self._subscribing.discard(gid)
        if self.watchers.get(gid) is not peer:  # let go while it subscribed
            await peer.stop(clean=False)
            return
        self._forgetting[gid] = asyncio.get_running_loop().create_task(self._forget_when_done(gid, peer))

    def _on_watched(self, peer: Peer, note: Note) -> None:
        store_when_playing(peer, self.archive / peer.lockstep.gid)
        if note.kind in ("started", "waiting", "changed", "vote"):
            self.wake()

    # ---- forgetting -------------------------------------------------------------------
    async def _forget_when_done(self, gid: str, peer: Peer) -> None:
        try:
            await self._forget_at_end(gid, peer)
        finally:
            if self._forgetting.get(gid) is asyncio.current_task():
                del self._forgetting[gid]

    async def _forget_at_end(self, gid: str, peer: Peer) -> None:
        if not await self._ends(peer):
            log.info("relay: %s has not started, or not moved, for %.0f s: its watcher and bots are released",
                     gid, self.limits.lobby_seconds)
            async with self._lock:
                if self.watchers.get(gid) is peer:
                    await self._release(gid, let_go=True)
            return
        peer.lockstep.answers_as_archive = True  # from now on the archive answers for the game
        await asyncio.sleep(1.0)  # the last messages still reach slower peers through the bots
        async with self._lock:
            finished = peer.lockstep.phase == "over"
            await self._release(gid)
            if finished:
                self._clear_presences(gid, peer.lockstep)
                self._remember(gid, peer.lockstep)
                self._cap_archive(peer.store.load_meta().get("host", "") if peer.store else "", gid)
            self.forgotten += 1

    async def _ends(self, peer: Peer) -> bool:
        """Waits for the game's end: False if it has not started, or not moved, for `lobby_seconds`."""
        ls = peer.lockstep
        while True:
            mark = (ls.phase, ls.step, len(ls.accepted))
            try:
                await asyncio.wait_for(peer.done.wait(), self.limits.lobby_seconds)
                return True
            except TimeoutError:
                if ls.phase == "lobby" or mark == (ls.phase, ls.step, len(ls.accepted)):
                    return False

    async def _release(self, gid: str, let_go: bool = False) -> None:
        """Stop the watcher and the bots of `gid`, closing their connections and files.

        `let_go`: the table is dropped unfinished; its announcement, delivered again as
        retained (each new subscription to a lobby topic brings it back), is not watched again.
        """
        watcher = self.watchers.get(gid)
        if let_go and watcher is not None and watcher.lockstep.announce_raw is not None:
            self._let_go[gid] = sha256(watcher.lockstep.announce_raw).digest()
            while len(self._let_go) > self.limits.lobby_tables:
                self._let_go.popitem(last=False)
        await self.lending.release(gid)
        forgetting = self._forgetting.pop(gid, None)
        if forgetting is not None and forgetting is not asyncio.current_task():
            forgetting.cancel()
        peer = self.watchers.pop(gid, None)
        self.hosts.pop(gid, None)
        if peer is not None:
            await peer.stop(clean=False)

    def _clear_presences(self, gid: str, lockstep: Lockstep) -> None:
        """Clear the retained presence of every seat of a finished game, and the watcher's.

        A broker keeps a retained message until someone clears it, and a player's client may
        quit without clearing its own: the relay's broker would keep one per seat of every game
        it ever archived (and send them all to a new subscriber of a presence filter)."""
        keys = {*lockstep.keys, *lockstep.seat_keys.values(), self.identity.public}
        topics = Topics(gid, self.settings.prefix)
        for key in sorted(keys):
            self.publish(topics.presence(peer_id(key)), b"", retain=True)

    def _remember(self, gid: str, lockstep: Lockstep) -> None:
        self._loaded[gid] = lockstep
        while len(self._loaded) > self.limits.loaded_archives:
            self._loaded.popitem(last=False)

    def _cap_archive(self, host: str, gid: str) -> None:
        """Keep the newest `archived_per_key` finished games of this host; delete older ones."""
        if not host:
            return
        index_file = self.archive / "_hosts" / f"{host}.json"
        index_file.parent.mkdir(parents=True, exist_ok=True)
        gids = [g for g in _read_json(index_file).get("games", []) if g != gid] + [gid]
        while len(gids) > self.limits.archived_per_key:
            old = gids.pop(0)
            self._loaded.pop(old, None)
            shutil.rmtree(self.archive / old, ignore_errors=True)
        atomic_write(index_file, json.dumps({"games": gids}).encode())

    # ---- answering for finished games --------------------------------------------------
    def _on_sync(self, topic: str, payload: bytes, retained: bool) -> None:
        gid = topic.split("/")[-2]
        if not payload or gid in self.watchers:
            return  # a live game's watcher answers itself
        try:
            env = decode_envelope(payload)
        except WireError:
            return
        if env.kind != "sync_req" or env.gid != gid:
            return
        lockstep = self._loaded.get(gid)
        if lockstep is None:
            if not self._may_load():
                log.info("relay: sync_req for archived %s ignored: too many archive loads", gid)
                return
            lockstep = self._load(gid)
        if lockstep is None:
            return
        self._loaded.move_to_end(gid)
        topics = Topics(gid, self.settings.prefix)
        for out in lockstep.receive(env):
            if isinstance(out, Publish) and out.channel == "sync":
                self.publish(topics.sync, out.payload)

    def _may_load(self) -> bool:
        """At most `loads_per_minute` archive reloads a minute: anyone can ask for old games."""
        now = asyncio.get_running_loop().time()
        while self._load_times and now - self._load_times[0] > 60:
            self._load_times.popleft()
        if len(self._load_times) >= self.limits.loads_per_minute:
            return False
        self._load_times.append(now)
        return True

    def _load(self, gid: str) -> Lockstep | None:
        """A finished game back from its log on disk (verified again), or None."""
        meta = _read_json(self.archive / gid / "meta.json")
        if not meta.get("finished") or meta.get("role") != "archive":
            return None
        try:
            lockstep = Lockstep(get_game(meta["game"]), gid, self.identity, name="relay")
            lockstep.answers_as_archive = True  # no seat waits for its turn to answer: they all left
            lockstep.replaying = True
            for raw in read_log(self.archive / gid / "log.bin"):
                lockstep.receive(decode_envelope(raw))
            lockstep.replaying = False
        except Exception as exc:
            log.info("relay: cannot load archived %s: %s", gid, exc)
            return None
        self._remember(gid, lockstep)
        return lockstep


def _read_json(path: Path) -> dict:
    try:
        return json.loads(path.read_text())
    except (OSError, ValueError):
        return {}
