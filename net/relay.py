"""The relay: a headless broker host that archives every game and lends bots to hosts that ask.

- broker: embedded amqtt (or an external one such as mosquitto, see configs/mosquitto.conf);
- archive: for every announced game a watching peer that verifies the whole log like any
  player, appends it to <archive>/<gid>/log.bin, and answers `sync` requests, so a game can
  resume even if every player's machine crashed;
- bots: when an announcement asks for `relay_bots`, that many bot peers (each with its own key
  and connection) join it, up to the relay's capacity.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from pathlib import Path

from engine.registry import get_game

from .codec import decode_envelope
from .errors import Refused, WireError
from .identity import load_or_create
from .launch import BrokerSettings, connect, start_bot, start_broker
from .lockstep import Lockstep
from .paths import data_dir
from .peer import Peer
from .store import GameStore
from .topics import lobby_filter

log = logging.getLogger("gamenight.net")


class Relay:
    def __init__(self, settings: BrokerSettings, *, max_bots: int = 0, archive: Path | None = None) -> None:
        self.settings = settings
        self.max_bots = max_bots
        self.archive = archive or data_dir() / "archive"
        self.url = ""
        self.watchers: dict[str, Peer] = {}
        self.bots: dict[str, list[Peer]] = {}
        self._closers: list[Callable[[], Awaitable[None]]] = []
        self._pending: set[asyncio.Task] = set()
        self._stopped = asyncio.Event()
        self._lock = asyncio.Lock()  # one announcement at a time: no double watchers or bots
        self.identity = load_or_create(data_dir() / "relay.key")

    @property
    def bots_running(self) -> int:
        return sum(1 for peers in self.bots.values() for p in peers if not p.done.is_set())

    async def start(self) -> None:
        self.archive.mkdir(parents=True, exist_ok=True)
        self.url, broker = await start_broker(self.settings)
        if broker is not None:
            self._closers.append(broker.stop)
        self.transport = await connect(self.url, self.settings)
        self._closers.append(self.transport.stop)
        await self.transport.subscribe(lobby_filter(self.settings.prefix), self._on_lobby)

    async def wait(self) -> None:
        await self._stopped.wait()

    async def stop(self) -> None:
        for task in list(self._pending):
            task.cancel()
        for peers in self.bots.values():
            for peer in peers:
                await peer.stop()
        for peer in self.watchers.values():
            await peer.stop(clean=False)
        for closer in reversed(self._closers):
            try:
                await closer()
            except Exception:
                log.exception("relay shutdown step failed")
        self._stopped.set()

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
        task = asyncio.get_running_loop().create_task(self._handle(env))
        self._pending.add(task)
        task.add_done_callback(self._pending.discard)

    async def _handle(self, env) -> None:
        gid = env.gid
        async with self._lock:
            try:
                if gid not in self.watchers:
                    await self._watch(env)
                await self._lend_bots(env)
            except Exception:
                log.exception("relay: handling %s failed", gid)

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
        store.save_meta({"gid": env.gid, "game": game.id, "role": "archive", "broker": self.url})
        self.watchers[env.gid] = peer
        await peer.start(outputs + lockstep.sync_request())

    async def _lend_bots(self, env) -> None:
        wanted = env.body["relay_bots"]
        if not wanted or not env.body["open"]:
            return
        lent = self.bots.setdefault(env.gid, [])
        free = sum(1 for name in env.body["names"] if not name)
        count = min(wanted - len(lent), free, self.max_bots - self.bots_running)
        for _ in range(max(0, count)):
            index = len(lent) + 1
            try:
                peer, stop = await start_bot(self.url, env.gid, self.settings, index=index, kind="best",
                                             identity=load_or_create(self.archive / env.gid / f"relay-bot{index}.key"))
            except Refused as exc:
                log.info("relay: bot for %s refused: %s", env.gid, exc)
                return
            lent.append(peer)
            self._closers.append(stop)
