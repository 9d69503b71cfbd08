"""Opening a networked game: host, join, watch, resume — the same for every registered game.

These tie a Lockstep, a Peer, a transport and the disk store together. The game comes from the
engine registry by the id in the host's announcement, so nothing here knows any game.
"""

from __future__ import annotations

import asyncio
import logging
import secrets as pysecrets
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engine.core import Game
from engine.registry import get_game

from .codec import Envelope, decode_envelope
from .errors import Refused, WireError
from .identity import Identity
from .invite import pin_text
from .lockstep import Lockstep, TableInfo
from .lockstep.admission import TablePin
from .lockstep.deadlines import table_settings
from .peer import Peer
from .store import GameStore
from .topics import ASK_BYTES, DEFAULT_PREFIX, Topics, lobby_filter
from .transport import Transport

log = logging.getLogger("gamenight.net")


def new_gid(game_id: str) -> str:
    return f"{game_id}-{pysecrets.token_hex(4)}"


@dataclass(frozen=True)
class OpenGame:
    """An announcement seen on the broker: what Join lists."""

    gid: str
    game: str
    players: int
    names: tuple[str, ...]
    open: bool
    options: dict[str, Any]
    host_key: bytes
    versions: dict[str, str]
    invite: bool = False  # seats and watching need the host's invite code

    @property
    def free(self) -> int:
        return sum(1 for n in self.names if not n)

    @property
    def host_name(self) -> str:
        return self.names[0] if self.names else "?"


def open_game_from(env: Envelope) -> OpenGame:
    b = env.body
    return OpenGame(env.gid, b["game"], b["players"], tuple(b["names"]), b["open"], b["options"], env.sender,
                    b["versions"], b["invite"])


MAX_LISTED = 500  # announcements kept while listing: anyone can announce, memory stays bounded


async def list_open_games(transport: Transport, prefix: str = DEFAULT_PREFIX, wait: float = 0.6) -> list[OpenGame]:
    """Games announced (retained) on the broker, with free seats first (at most MAX_LISTED:
    a friend's game is joined by its invite code, never by finding it among fakes)."""
    found: dict[str, OpenGame] = {}

    def on_lobby(topic: str, payload: bytes, retained: bool) -> None:
        gid = topic.rsplit("/", 1)[-1]
        if not payload:
            found.pop(gid, None)
            return
        env = _announcement(payload, gid)
        if env is not None and (gid in found or len(found) < MAX_LISTED):
            try:
                found[gid] = open_game_from(env)
            except (KeyError, TypeError):
                pass  # a signed announcement without the fields of one: not a game

    await transport.subscribe(lobby_filter(prefix), on_lobby)
    await asyncio.sleep(wait)
    transport.unsubscribe_handler(on_lobby)
    return sorted(found.values(), key=lambda g: (not g.open, -g.free, g.gid))


async def fetch_announce(transport: Transport, gid: str, prefix: str = DEFAULT_PREFIX, timeout: float = 5.0,
                         pin: TablePin | None = None) -> Envelope:
    """The host's retained announcement of `gid` (signed by the key `pin` names, if given);
    Refused if none arrives in time."""
    got: asyncio.Future[Envelope] = asyncio.get_running_loop().create_future()

    def on_lobby(topic: str, payload: bytes, retained: bool) -> None:
        if got.done() or not payload:
            return
        env = _announcement(payload, gid)
        if env is not None and (pin is None or pin.trusts(env.sender)):
            got.set_result(env)

    topics = Topics(gid, prefix)
    await transport.subscribe(topics.lobby, on_lobby)
    asking = asyncio.create_task(_ask_until(transport, topics, got))
    try:
        return await asyncio.wait_for(got, timeout)
    except TimeoutError:
        raise Refused(f"no open game {gid} on this broker (is the invite code right, and the host still there?)") from None
    finally:
        asking.cancel()
        transport.unsubscribe_handler(on_lobby)


ASK_EVERY = 1.0  # seconds between two questions of one joiner (the answerers allow one a second)


async def _ask_until(transport: Transport, topics: Topics, got: asyncio.Future[Envelope]) -> None:
    """Ask "who hosts this table?" until an announcement arrives.

    A broker that keeps retained messages per node (a RabbitMQ cluster) or only for exact
    subscriptions gives a joiner on another node no retained announcement: the host (or a peer
    or relay that holds the announcement) answers the question live. The question is the gid
    only; nobody trusts or uses its content, and the answer is the signed announcement itself.
    """
    await asyncio.sleep(0.3)  # a broker that keeps the announcement delivers it first: no question
    while not got.done():
        try:
            await transport.publish(topics.ask, topics.gid.encode()[:ASK_BYTES], qos=0)
        except Exception as exc:  # not connected now: the next round asks again
            log.info("asking for %s failed: %s", topics.gid, exc)
        await asyncio.sleep(ASK_EVERY)


def _announcement(payload: bytes, gid: str) -> Envelope | None:
    """The host's announcement of `gid` in a lobby message; None for anything else (dropped)."""
    try:
        env = decode_envelope(payload)
    except WireError:
        return None
    return env if env.kind == "announce" and env.gid == gid else None


def _store(gid: str, identity: Identity, persist: bool) -> GameStore | None:
    return GameStore.for_peer(gid, identity.peer_id) if persist else None


async def host_game(
    game: Game,
    transport: Transport,
    identity: Identity,
    *,
    players: int,
    options: Mapping[str, Any] | None = None,
    name: str = "host",
    gid: str | None = None,
    prefix: str = DEFAULT_PREFIX,
    persist: bool = True,
    bot: str | None = None,
    relay_bots: int = 0,
    broker_url: str = "",
    invite: bool = False,
    table: Mapping[str, Any] | None = None,
) -> Peer:
    """Announce a new table (or reopen ours after a crash) and take seat 0.

    `invite`: only keys given the invite code (with its pin) sit or watch. Every command and
    screen hosts so; an open table is for tables inside one process (tests, selfplay, benches).
    `table`: the table's settings (deadlines, clock; net/lockstep/deadlines.py), fixed by the start.
    """
    gid = gid or new_gid(game.id)
    store = _store(gid, identity, persist)
    lockstep = Lockstep(game, gid, identity, host_key=identity.public, name=name,
                        secrets=store.load_secrets() if store else None)
    checked = game.check_options(options or {})
    game.check_players(players, checked)
    lockstep.table = TableInfo(game.id, players, {}, {}, relay_bots)
    lockstep.settings = table_settings(table)
    peer = Peer(lockstep, transport, prefix=prefix, store=store, bot=bot)
    raws = store.read_log() if store else []
    if raws:
        peer.restore(raws)
    outputs = lockstep.host(players, checked, relay_bots=relay_bots, invite=invite)
    if store is not None:
        store.save_meta({"gid": gid, "game": game.id, "role": "host", "players": players,
                         "broker": broker_url, "prefix": prefix, "name": name,
                         "options": {k: v for k, v in lockstep.table.options.items()},
                         "relay_bots": relay_bots})
    if raws:
        outputs += peer.resume_outputs()
    await peer.start(outputs)
    return peer


async def join_game(
    transport: Transport,
    identity: Identity,
    gid: str,
    *,
    name: str = "player",
    prefix: str = DEFAULT_PREFIX,
    persist: bool = True,
    bot: str | None = None,
    bot_delay: float = 0.0,
    broker_url: str = "",
    timeout: float = 5.0,
    watch: bool = False,
    game: Game | None = None,
    pin: TablePin | None = None,
) -> Peer:
    """Take a seat in `gid` (or, with watch=True, follow it); resumes if we played it before.

    `pin` (from the invite code) names the host's key and proves we were invited; without one
    (a relay's bots) the first announcement of `gid` is trusted. Raises Refused with one clear
    line when the versions or options do not match.
    """
    store = _store(gid, identity, persist and not watch)
    raws = store.read_log() if store else []
    announce = await _announce_unless_known(transport, gid, prefix, timeout, pin, bool(raws), watch)
    game_id, game = _game_to_join(gid, announce, store, watch, game)
    lockstep = Lockstep(game, gid, identity, name=name, secrets=store.load_secrets() if store else None, pin=pin)
    if announce is not None:
        lockstep.receive(announce)
    peer = Peer(lockstep, transport, prefix=prefix, store=store, bot=bot, bot_delay=bot_delay)
    if raws:
        peer.restore(raws)
    if store is not None:
        store.save_meta({"gid": gid, "game": game_id, "role": "bot" if bot else "player",
                         "broker": broker_url, "prefix": prefix, "name": name,
                         "pin": pin_text(pin) if pin is not None else ""})
    return await _start_joined(peer, announce, bool(raws), watch, timeout)


async def _announce_unless_known(transport: Transport, gid: str, prefix: str, timeout: float,
                                 pin: TablePin | None, resuming: bool, watch: bool) -> Envelope | None:
    """The host's announcement of `gid`; None if none came but we need none: our own log
    (`resuming`, asked only briefly) or watching tells the game. Else Refused."""
    try:
        return await fetch_announce(transport, gid, prefix, timeout=timeout if not resuming else min(timeout, 1.5),
                                    pin=pin)
    except Refused:
        if not resuming and not watch:
            raise
    return None


def _game_to_join(gid: str, announce: Envelope | None, store: GameStore | None, watch: bool,
                  game: Game | None) -> tuple[str, Game]:
    """(game id, Game) of the table: from the announcement, else our saved meta, else (watching)
    the gid's prefix; `game` itself if it is that game. Refused if none or not one we can play."""
    game_id = announce.body["game"] if announce else (store.load_meta().get("game") if store else None)
    if game_id is None:
        if watch:
            game_id = gid.rsplit("-", 1)[0]
        else:
            raise Refused(f"no open game {gid} on this broker")
    if game is None or game.id != game_id:
        try:
            game = get_game(game_id)
        except Exception as exc:
            raise Refused(f"this client cannot play {game_id!r}: {exc}") from None
    return game_id, game


async def _start_joined(peer: Peer, announce: Envelope | None, resuming: bool, watch: bool,
                        timeout: float) -> Peer:
    """Start the peer with its first messages: a sync (watching), a resume (a seat or our own
    log), a rejoin (a started game we are not in yet), else a hello to take a seat."""
    lockstep = peer.lockstep
    if watch:
        lockstep.may_draw_seed = False  # watching, even with a seated key, never adds a seed share
        outputs = lockstep.sync_request()
    elif resuming or lockstep.my_seat is not None:
        outputs = peer.resume_outputs()
        if lockstep.my_seat is None and lockstep.phase == "lobby":
            outputs = lockstep.hello() + outputs
    elif announce is not None and not announce.body["open"]:
        return await _rejoin_started(peer, timeout)
    else:
        outputs = lockstep.hello()
        if lockstep.refused:
            raise Refused(lockstep.refused)
    await peer.start(outputs)
    return peer


async def _rejoin_started(peer: Peer, timeout: float) -> Peer:
    """Started without us, or with us on a machine that lost its files: the log says which."""
    lockstep = peer.lockstep
    lockstep.may_draw_seed = False  # our seed share, if we have a seat, is in the others' logs
    await peer.start(lockstep.sync_request())
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while not lockstep.keys and loop.time() < end:
        await asyncio.sleep(0.05)
    if lockstep.my_seat is None:
        await peer.stop(clean=False)
        raise Refused(f"game {lockstep.gid} has already started and you have no seat in it (use watch)")
    peer._run(peer.resume_outputs())
    return peer
