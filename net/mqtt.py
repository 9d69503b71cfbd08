"""The MQTT transport: the only module that chooses a broker client (net/paho_client.py's
paho on the loop, or aiomqtt's client).

MQTT 3.1.1 only (the embedded amqtt speaks nothing else), TCP_NODELAY on the client socket
(without it a QoS 1 round trip took ~88 ms here instead of ~0.9 ms: Nagle plus delayed ACKs),
and a reconnect loop with backoff because aiomqtt never reconnects by itself.
"""

from __future__ import annotations

import asyncio
import logging
import os
import socket
import ssl
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlparse

import aiomqtt

from .broker import der_fingerprint
from .paho_client import PahoClient
from .transport import Transport, Will

log = logging.getLogger("gamenight.net")
logging.getLogger("mqtt").setLevel(logging.WARNING)  # importing aiomqtt resets it

NODELAY = (socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)


class BrokerUnreachable(ConnectionError):
    """The broker could not be reached at all; the message names the address."""


@dataclass(frozen=True)
class BrokerAddress:
    host: str
    port: int
    tls: bool = False

    @property
    def url(self) -> str:
        return f"{'mqtts' if self.tls else 'mqtt'}://{self.host}:{self.port}"


def parse_broker(url: str) -> BrokerAddress:
    """mqtt://host:port, mqtts://host:port or host:port; ValueError with one clear line."""
    text = url.strip()
    if "://" not in text:
        text = "mqtt://" + text
    parsed = urlparse(text)
    if parsed.scheme not in ("mqtt", "mqtts", "tcp", "ssl") or not parsed.hostname:
        raise ValueError(f"not a broker address: {url!r} (expected mqtt://host:port)")
    tls = parsed.scheme in ("mqtts", "ssl")
    try:
        port = parsed.port or (8883 if tls else 1883)
    except ValueError:
        raise ValueError(f"bad port in broker address {url!r}") from None
    return BrokerAddress(parsed.hostname, port, tls)


def normal_pin(pin: str) -> str:
    """A certificate pin as 64 lowercase hex digits ("sha256:", colons and case allowed)."""
    text = pin.strip().lower().removeprefix("sha256:").replace(":", "")
    if len(text) != 64 or any(c not in "0123456789abcdef" for c in text):
        raise ValueError(f"not a certificate fingerprint: {pin!r} (64 hex digits of SHA-256)")
    return text


async def fetch_certificate(host: str, port: int, timeout: float = 5.0) -> bytes:
    """The DER certificate a TLS server presents, read without trusting it (to check a pin)."""
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE
    _, writer = await asyncio.wait_for(asyncio.open_connection(host, port, ssl=context), timeout)
    try:
        der = writer.get_extra_info("ssl_object").getpeercert(binary_form=True)
    finally:
        writer.close()
        try:
            await writer.wait_closed()
        except (OSError, ssl.SSLError):
            pass
    if not der:
        raise ssl.SSLError("the server presented no certificate")
    return der


def pinned_context(der: bytes) -> ssl.SSLContext:
    """A TLS context that accepts exactly this certificate (its own trust anchor), any name."""
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    context.check_hostname = False  # the pin, not a name, says who the broker is
    context.load_verify_locations(cadata=der)
    context.verify_flags |= ssl.VERIFY_X509_PARTIAL_CHAIN  # a CA-issued certificate pins too
    return context


def _refusal(exc: BaseException) -> str | None:
    """The one line for a broker that answered but would not let us in."""
    # 4/5: MQTT 3.1.1's bad login / not authorised, which paho reports as 134/135
    if isinstance(exc, aiomqtt.MqttCodeError) and getattr(exc.rc, "value", exc.rc) in (4, 5, 134, 135):
        return "refused the login (wrong or missing username or password)"
    return None


def _hopeless(reason: str) -> bool:
    """A first connection failure that retrying cannot mend: nobody listens, or TLS fails."""
    reason = reason.lower()
    return "refused" in reason or "certificate" in reason or "ssl" in reason


# ---- the two clients ----------------------------------------------------------------------
# Both through their libraries' public API only (tests/net/test_library_api.py checks it).
FAST_PATH = os.environ.get("GAMENIGHT_MQTT_FAST", "1") != "0"
"""True: paho driven on the loop directly (net/paho_client.py); False: aiomqtt's client, its
message iterator and awaited publishes (GAMENIGHT_MQTT_FAST=0 forces it, e.g. to compare)."""


class _PlainClient(aiomqtt.Client):
    """aiomqtt as documented: messages come through its iterator, publishes are awaited."""

    direct = False

    def __init__(self, *args: Any, on_message: Callable[[str, bytes, bool], None], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.pending_calls_threshold = 10_000  # a shared connection has many in flight

    async def serve(self, deliver: Callable[[aiomqtt.Message], None]) -> None:
        """Hand each message to `deliver` until the connection ends."""
        async for message in self.messages:
            deliver(message)

    def publish_nowait(self, topic: str, payload: bytes, qos: int, retain: bool) -> bool:
        return False


class MqttTransport(Transport):
    """One aiomqtt connection with automatic reconnection; publishes wait for a connection."""

    def __init__(
        self,
        address: BrokerAddress | str,
        *,
        will: Will | None = None,
        username: str | None = None,
        password: str | None = None,
        client_id: str | None = None,
        keepalive: int = 15,
        nodelay: bool = True,
        ca_file: str | None = None,
        fingerprint: str | None = None,
    ) -> None:
        super().__init__()
        self.address = parse_broker(address) if isinstance(address, str) else address
        self.will = will
        self.username = username or os.environ.get("GAMENIGHT_BROKER_USERNAME") or None
        self.password = password or os.environ.get("GAMENIGHT_BROKER_PASSWORD") or None
        self.client_id = client_id or f"gn-{os.urandom(6).hex()}"
        self.keepalive = keepalive
        self.nodelay = nodelay
        # mqtts: the broker's certificate is checked against this CA file (a LAN party's own
        # CA), or against the system's trusted CAs when there is none
        self.ca_file = ca_file
        # mqtts with a pin: only the broker presenting this very certificate is trusted (a
        # host's self-signed one, pinned through the invite), whatever CA or name it has
        self.fingerprint = normal_pin(fingerprint) if fingerprint else None
        self._tls_context: ssl.SSLContext | None = None
        self._client: PahoClient | _PlainClient | None = None
        self.fast = FAST_PATH
        self._task: asyncio.Task[None] | None = None
        self._stopping = False
        self._failure: BaseException | None = None
        self._refused = asyncio.Event()  # the very first attempt was refused: nobody listens
        self._ever_connected = False
        self.reconnects = 0

    async def start(self, timeout: float = 5.0) -> None:
        if self.address.tls and self.ca_file and not os.path.isfile(self.ca_file):
            raise BrokerUnreachable(f"cannot reach the broker at {self.address.url}: "
                                    f"CA file {self.ca_file} does not exist")
        if self.address.tls and self.fingerprint:
            self._tls_context = await self._pinned(timeout)
        self._stopping = False
        self._task = asyncio.create_task(self._run())
        waits = [asyncio.ensure_future(self.connected.wait()), asyncio.ensure_future(self._refused.wait())]
        try:
            await asyncio.wait(waits, timeout=timeout, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for waiter in waits:
                waiter.cancel()
        if not self.connected.is_set():
            await self.stop()
            refusal = _refusal(self._failure) if self._failure else None
            if refusal:
                raise BrokerUnreachable(f"the broker at {self.address.url} {refusal}") from None
            reason = f": {self._failure}" if self._failure else ""
            raise BrokerUnreachable(f"cannot reach the broker at {self.address.url}{reason}") from None

    async def _pinned(self, timeout: float) -> ssl.SSLContext:
        """Check the broker's certificate against the pin; a context trusting only it."""
        where = self.address.url
        try:
            der = await fetch_certificate(self.address.host, self.address.port, timeout)
        except (OSError, ssl.SSLError) as exc:  # TimeoutError is an OSError
            reason = getattr(exc, "strerror", None) or str(exc) or "timed out"
            raise BrokerUnreachable(f"cannot reach the broker at {where}: {reason}") from None
        found = der_fingerprint(der)
        if found != self.fingerprint:
            raise BrokerUnreachable(
                f"the broker at {where} presents certificate {found[:16]}…, not the pinned "
                f"{self.fingerprint[:16]}…: not the host's broker, refusing to connect")
        return pinned_context(der)

    async def stop(self) -> None:
        self._stopping = True
        if self._task is not None:
            self._task.cancel()
            try:
                await self._task
            except (asyncio.CancelledError, Exception):
                pass
        self._task = None
        self.connected.clear()

    def _make_client(self) -> PahoClient | _PlainClient:
        if self.fast:
            return PahoClient(self.address.host, self.address.port, on_message=self._dispatch,
                              identifier=self.client_id, keepalive=self.keepalive,
                              username=self.username, password=self.password, will=self.will,
                              tls_context=self._client_tls(),
                              socket_options=[NODELAY] if self.nodelay else [])
        will = None
        if self.will is not None:
            will = aiomqtt.Will(self.will.topic, self.will.payload, qos=self.will.qos, retain=self.will.retain)
        return _PlainClient(
            self.address.host,
            self.address.port,
            username=self.username,
            password=self.password,
            identifier=self.client_id,
            protocol=aiomqtt.ProtocolVersion.V311,
            will=will,
            clean_session=True,
            keepalive=self.keepalive,
            tls_context=self._client_tls(),
            socket_options=[NODELAY] if self.nodelay else [],
            max_queued_incoming_messages=0,
            on_message=self._dispatch,
        )

    def _client_tls(self) -> ssl.SSLContext | None:
        if not self.address.tls:
            return None
        return self._tls_context or ssl.create_default_context(cafile=self.ca_file)

    async def _run(self) -> None:
        backoff = 0.1
        while not self._stopping:
            try:
                client = self._make_client()
                async with client:
                    self._client = client
                    for topic_filter in dict.fromkeys(f for f, _ in self._handlers):
                        await client.subscribe(topic_filter, qos=1)
                    backoff = 0.1
                    self._ever_connected = True
                    if self.connected.is_set():
                        self.connected.clear()
                    self._connected_now()
                    await client.serve(self._deliver_message)  # until disconnected
            except aiomqtt.MqttError as exc:
                self._failure = exc
                if not self._ever_connected and (_hopeless(str(exc)) or _refusal(exc)):
                    self._refused.set()
                if self.connected.is_set():
                    log.info("broker connection to %s lost: %s", self.address.url, exc)
            finally:
                self._client = None
                self.connected.clear()
            if self._stopping:
                break
            self.reconnects += 1
            await asyncio.sleep(backoff)
            backoff = min(backoff * 2, 3.0)

    def _deliver_message(self, message: aiomqtt.Message) -> None:
        payload = message.payload if isinstance(message.payload, (bytes, bytearray)) else b""
        self._dispatch(str(message.topic), bytes(payload), bool(message.retain))

    async def publish(self, topic: str, payload: bytes, qos: int = 1, retain: bool = False) -> None:
        """Publish, waiting through reconnections (the protocol ignores duplicates)."""
        while not self._stopping:
            await self.connected.wait()
            client = self._client
            if client is None:
                await asyncio.sleep(0.05)
                continue
            try:
                await client.publish(topic, payload, qos=qos, retain=retain, timeout=10)
                return
            except aiomqtt.MqttError as exc:
                log.info("publish on %s failed (%s); retrying after reconnect", topic, exc)
                await asyncio.sleep(0.05)

    def publish_now(self, topic: str, payload: bytes, qos: int = 1, retain: bool = False) -> bool:
        client = self._client
        if client is None or not self.connected.is_set() or self._stopping:
            return False
        return client.publish_nowait(topic, payload, qos, retain)

    async def _subscribe(self, topic_filter: str, qos: int) -> None:
        client = self._client
        if client is not None:
            try:
                await client.subscribe(topic_filter, qos=qos)
            except aiomqtt.MqttError as exc:
                log.info("subscribe to %s failed (%s); done again on reconnect", topic_filter, exc)

    async def unsubscribe(self, topic_filter: str) -> None:
        client = self._client
        if client is not None:
            try:
                await client.unsubscribe(topic_filter)
            except aiomqtt.MqttError:
                pass
