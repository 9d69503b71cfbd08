"""Relay bots go to tables that really start: before that a table costs the relay a watcher only.

- Seats: the relay asks for its bots' seats only when they are the last free ones, with a
  signed `hello` from each bot's key over the relay's own connection (no bot peer, no file:
  the keys are derived from the relay's key), so the host's `start` follows at once. A table
  still waiting for its players gets no hello.
- Setup: a bot peer runs (on the relay's connection, caught up from the relay's own watcher)
  only once the table has started and waits for nobody but the relay's seats: its players'
  peers have sent their part, such as their seed commitment. A table that starts and then
  stalls gets none. `setup_tables` tables set up at once. Setting up (the seed agreement and
  a dealt game's first deal) needs no player to think, so a table that waits on its players
  for `setup_wait` seconds there is stalled: its slot goes to the next table (its idle bots
  stay, and go on if its players do), and it loses its bots for good once its players are
  late by the table's deadline or all offline, or when more than `setup_tables` tables are
  stalled (the longest stalled first). (Set up again from files, a bot would sign its seed
  share anew.)
- Play: from the first step, the bots of at most `max_bots` seats play at once. A table
  waiting only on its players whose log has not moved for `idle_seconds` parks its bots
  (peers stopped, their files kept) when another table needs them, and parks them anyway
  once its players are late by the table's own deadline (or after `lobby_seconds`), or
  all offline.
- Queue: tables that wait for their bots are served oldest first, one entry per table, and
  nobody jumps the oldest of its kind (setup or play) except past a host that already has
  `bots_per_key` bots. A parked table is queued again once its players have moved and it
  waits for its bots, which resume from their files.

Every bound is per table the relay watches, and net/relay.py bounds those per announcing key
and in all (a flood of unstarted tables evicts the oldest of them).
"""

from __future__ import annotations

import asyncio
import logging
import shutil
from dataclasses import dataclass, field
from hashlib import sha256
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from .codec import Envelope, decode_envelope
from .errors import Refused
from .identity import Identity
from .lockstep import Lockstep, Publish
from .peer import Peer
from .relay_limits import RelayLimits
from .session import join_game
from .store import WRITER, PendingStore, games_dir, read_log
from .topics import Topics

if TYPE_CHECKING:
    from collections.abc import Coroutine

    from .launch import BrokerSettings
    from .transport import Transport

log = logging.getLogger("gamenight.net")

BOT_KEYS = b"gamenight/v1 relay bot key\0"
ASK_AGAIN = 3.0  # seconds before a bot's hello (or a failed start) is tried again


def store_when_playing(peer: Peer, path: Path, now: bool = False) -> None:
    """A table's log goes to disk once its game has begun (a fake table, one that never starts
    or stalls while setting up, costs the relay no file), or `now`."""
    if isinstance(peer.store, PendingStore) and (now or peer.lockstep.phase in ("play", "over")):
        peer.store = peer.store.to_disk(path)


@dataclass
class BotSeats:
    """The relay's seats at one table and the bot peers playing them."""

    gid: str
    host: str  # the announcing key (hex)
    wanted: int
    numbers: dict[bytes, int] = field(default_factory=dict)  # bot key -> its number, once asked
    asked: dict[int, float] = field(default_factory=dict)  # bot number -> when its hello went
    seats: dict[int, int] = field(default_factory=dict)  # seat -> bot number, from the start
    peers: list[Peer] = field(default_factory=list)
    state: str = "waiting"  # waiting -> starting -> running -> (parking -> waiting)
    queued: float | None = None  # since when it waits for its bots (the queue's order)
    phase: str = "lobby"  # the watcher's
    awaited: frozenset[int] = frozenset()
    mark: tuple = ()
    moved: float = 0.0  # when its log last moved
    retry: float = 0.0  # bots that could not start are tried again from then on
    released: bool = False

    @property
    def setting_up(self) -> bool:
        return self.phase == "seed"

    def holds(self) -> int:
        """Bots of the relay's capacity this table holds (running, or being started)."""
        return len(self.seats) if self.state in ("starting", "running") else 0

    def stalled(self, now: float, wait: float) -> bool:
        """Setting up, and waiting on its players alone for `wait` seconds or more."""
        return self.setting_up and self.state == "running" and self.on_players(now) >= wait

    def on_players(self, now: float) -> float:
        """Seconds it has waited on its players alone without a move (0: it has not)."""
        if not self.awaited or self.awaited & self.seats.keys():
            return 0.0  # it waits on our bots, or on nobody (the end audit runs)
        return now - self.moved


class LendingRelay(Protocol):
    """What the lending uses of its relay (net/relay.py), so neither module imports the other's."""

    settings: BrokerSettings
    limits: RelayLimits
    identity: Identity
    max_bots: int
    bot_level: str
    url: str
    transport: Transport
    watchers: dict[str, Peer]

    def spawn(self, coro: Coroutine) -> None: ...

    def publish(self, topic: str, payload: bytes, retain: bool = False) -> None: ...

    def wake(self) -> None: ...


class BotLending:
    """The relay's bots: which tables ask, which get them, which give them back."""

    def __init__(self, relay: LendingRelay) -> None:
        self.relay = relay
        self.tables: dict[str, BotSeats] = {}
        self.served = 0  # bot starts (a table's bots resumed after a park count again)
        self.parked = 0

    @property
    def limits(self) -> RelayLimits:
        return self.relay.limits

    def running(self) -> int:
        return sum(1 for t in self.tables.values() for p in t.peers if not p.done.is_set())

    def bot_identity(self, gid: str, number: int) -> Identity:
        """The key of the relay's bot `number` at `gid`: derived, so a fake table stores nothing."""
        secret = bytes(self.relay.identity.signing_key)
        return Identity.from_seed(sha256(BOT_KEYS + secret + f"{gid}\0{number}".encode()).digest())

    # ---- seats ---------------------------------------------------------------------------
    def on_announce(self, env: Envelope, watcher: Peer) -> None:
        """Ask for the bots' seats once they are the only free ones (the start follows)."""
        body = env.body
        wanted = min(body["relay_bots"], self.limits.bots_per_key, self.relay.max_bots)
        if wanted <= 0 or not body["open"] or env.sender != watcher.lockstep.host_key:
            return  # (anyone may overwrite a retained announcement: only the host's counts)
        table = self.tables.get(env.gid)
        if table is None:
            table = self.tables[env.gid] = BotSeats(env.gid, env.sender.hex(), wanted)
        ls = watcher.lockstep
        seated = set(ls.seat_keys.values())
        missing = wanted - sum(1 for key in table.numbers if key in seated)
        free = sum(1 for name in body["names"] if not name)
        if not 0 < free <= missing:
            return  # its players are not all in yet (or our seats are taken)
        now = asyncio.get_running_loop().time()
        for number in range(1, wanted + len(ls.kicked) + 1):
            if free == 0:
                break
            identity = self.bot_identity(env.gid, number)
            if identity.public in seated or identity.public in ls.kicked:
                continue
            free -= 1
            if now - table.asked.get(number, -ASK_AGAIN) >= ASK_AGAIN:
                self._hello(env, watcher.lockstep, identity, number, table, now)

    def _hello(self, env: Envelope, watcher: Lockstep, identity: Identity, number: int, table: BotSeats,
               now: float) -> None:
        asking = Lockstep(watcher.game, env.gid, identity, name=f"Bot {number}")
        asking.receive(env)
        raws = [out.payload for out in asking.hello() if isinstance(out, Publish)]
        if not raws:
            log.info("relay: no bot for %s: %s", env.gid, asking.refused)
            return
        table.numbers[identity.public] = number
        table.asked[number] = now
        self.relay.publish(Topics(env.gid, self.relay.settings.prefix).log, raws[0])

    # ---- the relay's clock ---------------------------------------------------------------
    async def tick(self, now: float) -> None:
        """Follow every table, give back what idles, then serve the queue (under the relay's lock)."""
        for gid, table in list(self.tables.items()):
            watcher = self.relay.watchers.get(gid)
            if watcher is None:
                await self.release(gid)
            elif watcher.lockstep.phase != "lobby":
                await self._follow(table, watcher.lockstep, now)
        stalled = sorted((t for t in self.tables.values() if t.stalled(now, self.limits.setup_wait)),
                         key=lambda t: t.moved)
        for table in stalled[: max(0, len(stalled) - self.limits.setup_tables)]:
            log.info("relay: %s stalled while setting up (%.0f s): it loses its bots", table.gid,
                     table.on_players(now))
            await self.release(table.gid)
        self._serve(now)

    async def _follow(self, table: BotSeats, ls: Lockstep, now: float) -> None:
        """Update what the table waits for, and take back bots it holds without a need."""
        why = self._give_back(table, ls, now)
        if why is None:
            return
        if table.setting_up:  # a setup resumed from files would sign its seed share anew
            log.info("relay: %s %s while setting up: it loses its bots", table.gid, why)
            await self.release(table.gid)
        else:
            log.info("relay: %s %s: its bots are parked", table.gid, why)
            await self._park(table)

    def _give_back(self, table: BotSeats, ls: Lockstep, now: float) -> str | None:
        """Update what the table waits for; why its running bots are to be taken back, if so."""
        if not table.seats:
            table.seats = {s: table.numbers[k] for s, k in enumerate(ls.keys) if k in table.numbers}
            if not table.seats:  # started without our bots
                del self.tables[table.gid]
                return None
            table.moved = now
        table.phase, table.awaited = ls.phase, ls.awaited()
        mark = (ls.phase, ls.step, len(ls.accepted), table.awaited)
        if mark != table.mark:
            table.mark, table.moved = mark, now
        if table.state == "waiting":
            ready = bool(table.awaited) and table.awaited <= table.seats.keys() and now >= table.retry
            table.queued = (table.queued or now) if ready else None  # the players did their part
            return None
        if table.state != "running":
            return None
        if not table.setting_up and self._playing() > self.relay.max_bots and not self._room(table, now):
            return "began to play while every bot was busy"  # idle tables made no room: it waits its turn
        if set(ls.offline) >= set(range(len(ls.keys))) - table.seats.keys():
            return "has no player online"  # they said goodbye (or their connections' wills did)
        left = ls.deadline_left()
        if table.on_players(now) and ((left is not None and left <= 0)
                                      or table.on_players(now) >= self.limits.lobby_seconds):
            return "waits on its players past its deadline"
        return None

    def _serve(self, now: float) -> None:
        queue = sorted((t for t in self.tables.values() if t.queued is not None and t.state == "waiting"),
                       key=lambda t: t.queued or 0.0)
        blocked: set[str] = set()  # nobody jumps the oldest of its kind
        for table in queue:
            kind = "setup" if table.setting_up else "play"
            if kind in blocked:
                continue
            same_host = [t for t in self.tables.values() if t.host == table.host and t is not table]
            if not self._make_room(table, same_host, self.limits.bots_per_key, now):
                continue  # its host has its share busy: the next table goes
            if not self._room(table, now):
                blocked.add(kind)
                continue
            log.info("relay: %d bots go to %s (%s; it waited %.1f s)", len(table.seats), table.gid, kind,
                     now - (table.queued or now))
            table.state, table.queued = "starting", None
            self.relay.spawn(self._run(table))

    def _room(self, table: BotSeats, now: float) -> bool:
        """Whether `table` may have (or keep) its bots now: `setup_tables` tables set up at once,
        and the bots of `max_bots` seats play at once."""
        alike = [t for t in self.tables.values() if t.setting_up == table.setting_up and t is not table]
        if table.setting_up:  # a stalled setup keeps its bots, not its slot
            busy = sum(1 for t in alike if t.holds() and not t.stalled(now, self.limits.setup_wait))
            return busy < self.limits.setup_tables
        return self._make_room(table, alike, self.relay.max_bots, now)

    def _make_room(self, table: BotSeats, others: list[BotSeats], capacity: int, now: float) -> bool:
        """Whether the bots of `table` fit in `capacity` beside those `others` hold, parking the
        bots of those playing and idle on their players (the longest idle first) if need be."""
        need, free = len(table.seats), capacity - sum(t.holds() for t in others)
        idle = [t for t in others if t.state == "running" and not t.setting_up
                and t.on_players(now) >= self.limits.idle_seconds]
        for other in sorted(idle, key=lambda t: t.moved):
            if free >= need:
                break
            log.info("relay: %s waits on its players (%.0f s): its bots go to %s", other.gid,
                     other.on_players(now), table.gid)
            free += other.holds()
            other.state = "parking"
            self.relay.spawn(self._park(other))
        return free >= need

    def _playing(self) -> int:
        return sum(t.holds() for t in self.tables.values() if not t.setting_up)

    # ---- bot peers -----------------------------------------------------------------------
    async def _run(self, table: BotSeats) -> None:
        relay = self.relay
        try:
            for _, number in sorted(table.seats.items()):
                watcher = relay.watchers.get(table.gid)
                if table.released or watcher is None:
                    break
                table.peers.append(await self._bot(table.gid, number, watcher))
        except Exception as exc:  # Refused, or a broken connection: try again a little later
            log.info("relay: the bots of %s could not start: %s", table.gid, exc,
                     exc_info=not isinstance(exc, Refused))
            await self._stop_peers(table)
            if table.setting_up:  # a setup resumed from files would sign its seed share anew
                await self.release(table.gid)
            table.state, table.retry = "waiting", asyncio.get_running_loop().time() + ASK_AGAIN
            return
        if table.released:
            await self._stop_peers(table)
            return
        table.state = "running"
        self.served += 1
        relay.wake()

    async def _bot(self, gid: str, number: int, watcher: Peer) -> Peer:
        """Bot `number` of `gid` on the relay's connection: resumed from its files after a park,
        or, the first time, caught up from the watcher's verified log (it needs nobody's answer)."""
        relay, identity, name = self.relay, self.bot_identity(gid, number), f"Bot {number}"
        path = games_dir() / gid / identity.peer_id
        if read_log(path / "log.bin"):
            return await join_game(relay.transport, identity, gid, name=name, prefix=relay.settings.prefix,
                                   bot=relay.bot_level, broker_url=relay.url, game=watcher.lockstep.game)
        seen = watcher.lockstep
        lockstep = Lockstep(seen.game, gid, identity, name=name)
        store = PendingStore({"gid": gid, "game": seen.game.id, "role": "bot", "broker": relay.url,
                              "prefix": relay.settings.prefix, "name": name, "pin": ""})
        peer = Peer(lockstep, relay.transport, prefix=relay.settings.prefix, store=store, bot=relay.bot_level)
        peer.listeners.append(lambda _: store_when_playing(peer, path))  # setting up, it never resumes
        raws = [seen.announce_raw or b""] + [raw for _, raw in list(seen.accepted)]  # the host's rules first
        outputs = [out for raw in raws if raw for out in lockstep.receive(decode_envelope(raw))]
        await peer.start(outputs + lockstep.sync_request())
        return peer

    async def _park(self, table: BotSeats) -> None:
        table.state = "parking"
        for peer in table.peers:  # a bot a step behind its table: its files must hold what it drew
            if peer.lockstep.me is not None:
                store_when_playing(peer, games_dir() / table.gid / peer.lockstep.me.peer_id, now=True)
        await self._stop_peers(table)
        table.state, table.queued = "waiting", None
        self.parked += 1
        self.relay.wake()

    @staticmethod
    async def _stop_peers(table: BotSeats) -> None:
        peers, table.peers = table.peers, []
        for peer in peers:
            await peer.stop()

    async def release(self, gid: str) -> None:
        """Stop the bots of `gid` for good and delete their files (the archive holds the game)."""
        table = self.tables.pop(gid, None)
        if table is None:
            return
        table.released = True
        await self._stop_peers(table)
        topics = Topics(gid, self.relay.settings.prefix)
        for number in table.numbers.values():  # nothing of a bot stays retained on the broker
            self.relay.publish(topics.presence(self.bot_identity(gid, number).peer_id), b"", retain=True)
        if table.numbers:  # off the relay's clock: the disk writer may have a queue
            self.relay.spawn(self._delete_files(table))

    async def _delete_files(self, table: BotSeats) -> None:
        await asyncio.to_thread(WRITER.drain)  # their last writes land before the files go
        gid, base = table.gid, games_dir() / table.gid
        for number in table.numbers.values():
            shutil.rmtree(base / self.bot_identity(gid, number).peer_id, ignore_errors=True)
        try:
            base.rmdir()
        except OSError:
            pass  # another peer of this machine keeps its files there
