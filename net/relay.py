"""The relay: a headless broker host that archives every game and lends bots to hosts that ask.

- broker: embedded amqtt (or an external one such as mosquitto, see configs/mosquitto.conf);
- archive: for every announced game a watching peer that verifies the whole log like any
  player, appends it to <archive>/<gid>/log.bin, and answers `sync` requests, so a game can
  resume even if every player's machine crashed;
- bots: when an announcement asks for `relay_bots`, that many bot peers (each with its own key
  and connection) join it, up to the relay's capacity.

A finished game is forgotten: its watcher, bots, connections and open log are released, and
a later `sync_req` for it is answered from the log on disk (a few recent ones stay loaded), so
memory and open files stay flat however many games the relay has archived. What one
announcing key can take is capped: games watched at once, bots at once, and games kept in the
archive (its oldest finished game is deleted past the cap).
"""

from __future__ import annotations

import asyncio
import json
import logging
import shutil
from collections import OrderedDict, deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path

from engine.registry import get_game

from .codec import decode_envelope
from .errors import Refused, WireError
from .identity import load_or_create
from .launch import BrokerSettings, connect, start_bot, start_broker
from .lockstep import Lockstep, Publish
from .paths import atomic_write, data_dir
from .peer import Peer
from .store import GameStore, read_log
from .topics import Topics, lobby_filter

log = logging.getLogger("gamenight.net")


@dataclass(frozen=True)
class RelayLimits:
    """What one announcing key (a host) may take of a relay, and what the relay keeps loaded."""

    live_per_key: int = 4  # unfinished games watched (and archived) at once
    bots_per_key: int = 4  # relay bots lent at once
    archived_per_key: int = 200  # finished games kept on disk; the oldest goes first
    loaded_archives: int = 4  # finished games kept in memory to answer sync requests
    loads_per_minute: int = 30  # finished games read back from disk (replaying costs CPU)
    lobby_seconds: float = 600.0  # a table not started by then (fake, abandoned) gets its bots back


Closer = Callable[[], Awaitable[None]]


class Relay:
    def __init__(self, settings: BrokerSettings, *, max_bots: int = 0, archive: Path | None = None,
                 limits: RelayLimits | None = None) -> None:
        self.settings = settings
        self.max_bots = max_bots
        self.limits = limits or RelayLimits()
        self.archive = archive or data_dir() / "archive"
        self.url = ""
        self.watchers: dict[str, Peer] = {}
        self.bots: dict[str, list[Peer]] = {}
        self.hosts: dict[str, str] = {}  # live gid -> the announcing key (hex)
        self._bot_stops: dict[str, list[Closer]] = {}
        self._loaded: OrderedDict[str, Lockstep] = OrderedDict()  # finished games, most recent last
        self._load_times: deque[float] = deque()
        self._closers: list[Closer] = []
        self._pending: set[asyncio.Task] = set()
        self._stopped = asyncio.Event()
        self._lock = asyncio.Lock()  # one announcement at a time: no double watchers or bots
        self.identity = load_or_create(data_dir() / "relay.key")
        self.forgotten = 0

    @property
    def bots_running(self) -> int:
        return sum(1 for peers in self.bots.values() for p in peers if not p.done.is_set())

    async def start(self) -> None:
        self.archive.mkdir(parents=True, exist_ok=True)
        self.url, broker = await start_broker(self.settings)
        self.broker = broker
        if broker is not None:
            self._closers.append(broker.stop)
        self.transport = await connect(self.url, self.settings)
        self._closers.append(self.transport.stop)
        await self.transport.subscribe(lobby_filter(self.settings.prefix), self._on_lobby)
        await self.transport.subscribe(f"{self.settings.prefix}/game/+/sync", self._on_sync)

    async def wait(self) -> None:
        await self._stopped.wait()

    async def stop(self) -> None:
        for task in list(self._pending):
            task.cancel()
        for gid in list(self.watchers) + [g for g in self.bots if g not in self.watchers]:
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
        self._spawn(self._handle(env))

    def _spawn(self, coro) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self._pending.add(task)
        task.add_done_callback(self._pending.discard)

    async def _handle(self, env) -> None:
        gid = env.gid
        async with self._lock:
            try:
                if gid not in self.watchers:
                    if self._finished_here(gid) or not self._may_watch(env):
                        return
                    await self._watch(env)
                if gid in self.watchers:
                    await self._lend_bots(env)
            except Exception:
                log.exception("relay: handling %s failed", gid)

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

    async def _watch(self, env) -> None:
        try:
            game = get_game(env.body["game"])
        except Exception as exc:
            log.info("relay: cannot archive %s: %s", env.gid, exc)
            return
        store = GameStore(self.archive / env.gid)
        lockstep = Lockstep(game, env.gid, self.identity, name="relay")
        peer = Peer(lockstep, self.transport, prefix=self.settings.prefix, store=store, stall_after=0)
        peer.restore(store.read_log())
        outputs = lockstep.receive(env)
        store.save_meta({"gid": env.gid, "game": game.id, "role": "archive", "broker": self.url,
                         "host": env.sender.hex()})
        self.watchers[env.gid] = peer
        self.hosts[env.gid] = env.sender.hex()
        await peer.start(outputs + lockstep.sync_request())
        self._spawn(self._forget_when_done(env.gid, peer))

    async def _lend_bots(self, env) -> None:
        wanted = env.body["relay_bots"]
        if not wanted or not env.body["open"]:
            return
        lent = self.bots.setdefault(env.gid, [])
        host = self.hosts.get(env.gid, env.sender.hex())
        host_bots = sum(1 for g, h in self.hosts.items() if h == host
                        for bot in self.bots.get(g, ()) if not bot.done.is_set())
        free = sum(1 for name in env.body["names"] if not name)
        count = min(wanted - len(lent), free, self.max_bots - self.bots_running,
                    self.limits.bots_per_key - host_bots)
        for _ in range(max(0, count)):
            index = len(lent) + 1
            try:
                peer, stop = await start_bot(self.url, env.gid, self.settings, index=index, kind="best",
                                             identity=load_or_create(self.archive / env.gid / f"relay-bot{index}.key"))
            except Refused as exc:
                log.info("relay: bot for %s refused: %s", env.gid, exc)
                return
            lent.append(peer)
            self._bot_stops.setdefault(env.gid, []).append(stop)

    # ---- forgetting -------------------------------------------------------------------
    async def _forget_when_done(self, gid: str, peer: Peer) -> None:
        try:
            await asyncio.wait_for(peer.done.wait(), self.limits.lobby_seconds)
        except TimeoutError:
            if peer.lockstep.phase == "lobby":  # never started: keep nothing lent to it
                log.info("relay: %s did not start within %.0f s: its watcher and bots are released",
                         gid, self.limits.lobby_seconds)
                async with self._lock:
                    await self._release(gid)
                return
            await peer.done.wait()
        peer.lockstep.catchup.archive = True  # from now on the archive answers for the game
        await asyncio.sleep(1.0)  # the last messages still reach slower peers through the bots
        async with self._lock:
            finished = peer.lockstep.phase == "over"
            await self._release(gid)
            if finished:
                self._remember(gid, peer.lockstep)
                self._cap_archive(peer.store.load_meta().get("host", "") if peer.store else "", gid)
            self.forgotten += 1

    async def _release(self, gid: str) -> None:
        """Stop the watcher and the bots of `gid`, closing their connections and files."""
        for bot in self.bots.pop(gid, []):
            await bot.stop()
            if bot.lockstep.phase == "over" and bot.store is not None:
                await asyncio.to_thread(bot.store.sync)  # its last writes land first
                shutil.rmtree(bot.store.path, ignore_errors=True)  # the archive holds the game
        for stop in self._bot_stops.pop(gid, []):
            try:
                await stop()
            except Exception:
                log.exception("relay: stopping a bot connection failed")
        peer = self.watchers.pop(gid, None)
        self.hosts.pop(gid, None)
        if peer is not None:
            await peer.stop(clean=False)

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
                self._spawn(self.transport.publish(topics.sync, out.payload))

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
            lockstep.catchup.archive = True  # no seat waits for its turn to answer: they all left
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
