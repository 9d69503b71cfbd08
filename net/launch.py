"""Putting a networked game together: broker, connections, the local peer and local bot peers.

Used alike by the CLI, the Host/Join screens, networked self-play and the relay, so all of
them start, connect and stop things the same way. Each bot is its own peer with its own key
and its own broker connection, exactly like a remote player.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import socket
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine.core import Game
from engine.registry import get_game

from .broker import EmbeddedBroker, cert_fingerprint, self_signed
from .identity import Identity, load_or_create
from .invite import make_invite
from .lockstep import presence_payload
from .lockstep.admission import TablePin, host_pin
from .mqtt import MqttTransport, normal_pin, parse_broker
from .paths import data_dir
from .peer import Peer
from .session import host_game, join_game, new_gid
from .topics import DEFAULT_PREFIX, Topics
from .transport import Will

log = logging.getLogger("gamenight.net")

EMBEDDED = "embedded"


@dataclass
class BrokerSettings:
    """Where to play: "embedded" (start amqtt here) or a broker URL, plus login and prefix."""

    broker: str = EMBEDDED
    bind: str = "127.0.0.1"
    port: int = 1883
    username: str = ""
    password: str = ""
    prefix: str = DEFAULT_PREFIX
    ca_file: str = ""  # mqtts: the CA that signed the broker's certificate ("" = the system's)
    fingerprint: str = ""  # mqtts: trust exactly the certificate with this SHA-256 (a pin)
    tls: bool = False  # embedded: speak only TLS, with cert_file/key_file or a self-signed pair
    cert_file: str = ""
    key_file: str = ""
    insecure: bool = False  # embedded: allow a listener off loopback with neither login nor TLS


@dataclass
class Session:
    """What one terminal runs for one game; `close()` stops it all, newest first."""

    peer: Peer
    invite: str
    broker_url: str
    closers: list[Callable[[], Awaitable[None]]] = field(default_factory=list)
    bots: list[Peer] = field(default_factory=list)
    fingerprint: str = ""  # the pin of the broker's certificate we trust (the invite carries it)
    broker: EmbeddedBroker | None = None  # the broker this terminal runs for the game, if it does
    settings: BrokerSettings | None = None  # how this terminal reached the broker
    pin: TablePin | None = None  # the table's pin, as the invite code carries it

    def hand_broker_over(self, to: Session) -> None:
        """A rematch: the broker this session runs keeps running for session `to`, which
        stops it when it closes (this one no longer does)."""
        broker, self.broker = self.broker, None
        if broker is None:
            return
        self.closers = [c for c in self.closers if c != broker.stop]
        to.closers.insert(0, broker.stop)  # closers run newest first: the broker stops last
        to.broker = broker

    async def close(self) -> None:
        for bot in self.bots:
            try:
                await bot.stop()
            except Exception:
                log.exception("stopping a bot failed")
        try:
            await self.peer.stop()
        except Exception:
            log.exception("stopping the peer failed")
        for closer in reversed(self.closers):
            try:
                await closer()
            except Exception:
                log.exception("closing failed")


async def offer_rematch(old: Session, new: Session) -> None:
    """The host's rematch: `new`, hosted on `old`'s broker, takes that broker over and is
    offered to `old`'s players (its table secret sealed to each seated key)."""
    if new.pin is None:
        raise ValueError("the new table has no pin to offer")
    old.hand_broker_over(new)
    await old.peer.offer_rematch(new.peer.lockstep.gid, new.pin.secret)


def lan_address() -> str:
    """This machine's address on the local network (for an invite when binding 0.0.0.0).

    Read from the host name's addresses, so finding it sends nothing anywhere; 127.0.0.1 when
    the machine has no other IPv4 address.
    """
    try:
        infos = socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)
    except OSError:
        return "127.0.0.1"
    addresses = sorted({info[4][0] for info in infos})
    outside = [a for a in addresses if not a.startswith("127.")]
    return outside[0] if outside else "127.0.0.1"


def is_loopback(bind: str) -> bool:
    return bind in ("localhost", "::1") or bind.startswith("127.")


def check_exposure(settings: BrokerSettings) -> None:
    """Off loopback an embedded broker needs a login or TLS, unless `insecure` says otherwise.

    ValueError with the one line a player sees.
    """
    if settings.broker != EMBEDDED or is_loopback(settings.bind) or settings.insecure:
        return
    if not (settings.username or settings.tls or settings.cert_file):
        raise ValueError(f"refusing to listen on {settings.bind or '0.0.0.0'} with neither a login nor TLS: "
                         "set [broker] username and password, or use --tls, or pass --insecure")


def embedded_host(settings: BrokerSettings) -> str:
    """The address an embedded broker's invite names (the LAN address when binding 0.0.0.0)."""
    return lan_address() if settings.bind in ("0.0.0.0", "") else settings.bind


def embedded_tls_files(settings: BrokerSettings) -> tuple[str | None, str | None]:
    """(certificate, key) an embedded broker serves TLS with: the configured pair, or with
    --tls a self-signed one made once and kept; (None, None) without TLS."""
    cert, key = settings.cert_file or None, settings.key_file or None
    if settings.tls and not cert:
        made = self_signed(data_dir() / "tls", embedded_host(settings))
        cert, key = str(made[0]), str(made[1])
    return cert, key


def embedded_fingerprint(settings: BrokerSettings) -> str:
    """The pin an embedded broker with these settings will have ("" without TLS, or when the
    players trust it through a CA file), known before it starts (for an invite printed early)."""
    cert, _ = embedded_tls_files(settings)
    return cert_fingerprint(cert) if cert and not settings.ca_file else ""


def trusting(settings: BrokerSettings, url: str, cert: str) -> BrokerSettings:
    """`settings` trusting exactly the certificate an invite code pins for `url`.

    The code wins over a configured `fingerprint`: it is what the host gave us for this very
    table, while the setting is for whatever broker we use otherwise. A copy; the settings
    passed in are left as they are. Without a pin, or on plain mqtt://, they are returned.
    """
    if not cert or not parse_broker(url).tls:
        return settings
    cert = normal_pin(cert)
    configured = settings.fingerprint.strip().lower().removeprefix("sha256:").replace(":", "")
    if configured and configured != cert:
        log.info("the invite code pins the certificate %s… of %s, not the configured %s…: the code's is used",
                 cert[:16], url, configured[:16])
    return dataclasses.replace(settings, fingerprint=cert)


def invite_fingerprint(url: str, settings: BrokerSettings) -> str:
    """The certificate pin an invite for `url` carries: the one we trust the broker by, on mqtts://."""
    return settings.fingerprint if settings.fingerprint and parse_broker(url).tls else ""


async def start_broker(settings: BrokerSettings) -> tuple[str, EmbeddedBroker | None]:
    """(url, broker): starts an embedded broker when asked; OSError with a clear line if busy.

    With TLS, `settings.fingerprint` is set to the broker's pin (unless a CA file is given),
    so every connection made with these settings trusts exactly this broker.
    """
    if settings.broker != EMBEDDED:
        return settings.broker, None
    check_exposure(settings)
    host = embedded_host(settings)
    cert, key = embedded_tls_files(settings)
    broker = EmbeddedBroker(settings.bind, settings.port, username=settings.username,
                            password=settings.password, certfile=cert, keyfile=key)
    await broker.start()
    if broker.tls and not settings.ca_file:
        settings.fingerprint = broker.fingerprint
    return f"{'mqtts' if broker.tls else 'mqtt'}://{host}:{broker.port}", broker


async def connect(url: str, settings: BrokerSettings | None = None, will: Will | None = None,
                  timeout: float = 5.0) -> MqttTransport:
    settings = settings or BrokerSettings()
    transport = MqttTransport(url, will=will, username=settings.username or None,
                              password=settings.password or None, ca_file=settings.ca_file or None,
                              fingerprint=settings.fingerprint or None)
    await transport.start(timeout=timeout)
    return transport


def presence_will(identity: Identity, gid: str, name: str, prefix: str) -> Will:
    return Will(Topics(gid, prefix).presence(identity.peer_id),
                presence_payload(identity, gid, "offline", name), qos=1, retain=True)


def bot_identity(gid: str, index: int, home: Path | None = None) -> Identity:
    """A bot's own key, kept with the game so a restarted host resumes its bots too."""
    base = home or data_dir() / "games" / gid / "bots"
    return load_or_create(base / f"bot{index}.key")


async def start_bot(
    url: str,
    gid: str,
    settings: BrokerSettings,
    *,
    index: int,
    kind: str = "best",
    delay: float = 0.0,
    identity: Identity | None = None,
    persist: bool = True,
    game: Game | None = None,
    pin: TablePin | None = None,
) -> tuple[Peer, Callable[[], Awaitable[None]]]:
    """One bot peer with its own key and connection, joining (or rejoining) `gid` (with the
    invite's `pin`; a relay's bots have none and take the seats the host lent to a relay)."""
    identity = identity or (bot_identity(gid, index) if persist else Identity.generate())
    name = f"Bot {index}"
    transport = await connect(url, settings, presence_will(identity, gid, name, settings.prefix))
    try:
        peer = await join_game(transport, identity, gid, name=name, prefix=settings.prefix,
                               persist=persist, bot=kind, bot_delay=delay, broker_url=url, game=game, pin=pin)
    except BaseException:
        await transport.stop()
        raise
    return peer, transport.stop


async def host_session(
    game_id: str,
    *,
    players: int,
    bots: int = 0,
    options: Mapping[str, Any] | None = None,
    settings: BrokerSettings | None = None,
    name: str = "Host",
    identity: Identity | None = None,
    host_bot: str | None = None,
    bot_kind: str = "best",
    bot_delay: float = 0.0,
    relay_bots: int = 0,
    persist: bool = True,
    gid: str | None = None,
    table: Mapping[str, Any] | None = None,
) -> Session:
    """Start (or reopen) a hosted game: broker if embedded, our peer in seat 0, local bots.

    `table`: deadlines and clock for every seat (see net/lockstep/deadlines.py).
    """
    settings = settings or BrokerSettings()
    game = get_game(game_id)
    if not 0 <= bots < players:
        raise ValueError(f"--bots must be from 0 to {players - 1} (the host takes a seat)")
    url, broker = await start_broker(settings)
    closers: list[Callable[[], Awaitable[None]]] = []
    if broker is not None:
        closers.append(broker.stop)
    try:
        identity = identity or load_or_create()
        gid = gid or new_gid(game.id)
        transport = await connect(url, settings, presence_will(identity, gid, name, settings.prefix))
        closers.append(transport.stop)
        peer = await host_game(game, transport, identity, players=players, options=options, name=name,
                               gid=gid, prefix=settings.prefix, persist=persist, bot=host_bot,
                               relay_bots=relay_bots, broker_url=url, invite=True,
                               table=table)
        if peer.store is not None:  # what `gamenight join` needs to reopen this table after a crash
            peer.store.save_meta({**peer.store.load_meta(), "bots": bots, "embedded": broker is not None,
                                  "bind": settings.bind, "port": broker.port if broker else settings.port})
        pin = host_pin(identity, gid)
        cert = invite_fingerprint(url, settings)
        session = Session(peer, make_invite(url, gid, pin, cert), url, closers, fingerprint=cert, broker=broker,
                          settings=settings, pin=pin)
        for index in range(1, bots + 1):
            bot, stop = await start_bot(url, gid, settings, index=index, kind=bot_kind, delay=bot_delay,
                                        persist=persist, pin=pin)
            session.bots.append(bot)
            session.closers.append(stop)
        return session
    except BaseException:
        for closer in reversed(closers):
            await closer()
        raise


async def join_session(
    url: str,
    gid: str,
    *,
    settings: BrokerSettings | None = None,
    name: str = "Player",
    identity: Identity | None = None,
    bot: str | None = None,
    bot_delay: float = 0.0,
    watch: bool = False,
    persist: bool = True,
    pin: TablePin | None = None,
    cert: str = "",
) -> Session:
    """Take (or retake) a seat in `gid` on the broker at `url`, or watch it (`pin`: the
    invite's, naming the host and proving we were invited; `cert`: the invite's pin of the
    broker's certificate, trusted for this connection over a configured one)."""
    settings = trusting(settings or BrokerSettings(broker=url), url, cert)
    identity = identity or load_or_create()
    transport = await connect(url, settings, None if watch else presence_will(identity, gid, name, settings.prefix))
    try:
        peer = await join_game(transport, identity, gid, name=name, prefix=settings.prefix, persist=persist,
                               bot=bot, bot_delay=bot_delay, broker_url=url, watch=watch, pin=pin)
    except BaseException:
        await transport.stop()
        raise
    cert = invite_fingerprint(url, settings)
    if peer.store is not None and cert:  # to rejoin without the code (`gamenight join`, Continue)
        peer.store.save_meta({**peer.store.load_meta(), "cert": cert})
    invite = make_invite(url, gid, pin, cert) if pin is not None else f"{url}/{gid}"
    return Session(peer, invite, url, [transport.stop], fingerprint=cert, settings=settings, pin=pin)


async def wait_started(peer: Peer, timeout: float | None = None) -> None:
    """Until the seed is agreed (the game state exists) or the peer is done."""
    async def started() -> None:
        while peer.lockstep.state is None and not peer.done.is_set():
            await asyncio.sleep(0.05)

    await asyncio.wait_for(started(), timeout)
