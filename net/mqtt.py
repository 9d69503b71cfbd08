"""The MQTT transport: the only module that imports aiomqtt.

MQTT 3.1.1 only (the embedded amqtt speaks nothing else), TCP_NODELAY on the client socket
(without it a QoS 1 round trip took ~88 ms here instead of ~0.9 ms: Nagle plus delayed ACKs),
and a reconnect loop with backoff because aiomqtt never reconnects by itself.
"""

from __future__ import annotations

import asyncio
import contextvars
import logging
import os
import socket
import ssl
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlparse

import aiomqtt
import paho.mqtt.client as mqtt

from .broker import der_fingerprint
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


# ---- the fast-path adapter ----------------------------------------------------------------
# Everything below up to MqttTransport is the only code that reaches into aiomqtt's and paho's
# private names. Those names are checked at import (`fast_path_supported`), pinned in
# pyproject.toml (aiomqtt 2.5.x, paho-mqtt 2.1-2.2) and held to a contract by
# tests/net/test_mqtt_adapter.py; should a later version lack them, the transport falls back
# to aiomqtt's public API (its message iterator and awaited publish), slower but the same.
AIOMQTT_PRIVATE = ("_on_message", "_on_socket_register_write")  # methods overridden
AIOMQTT_INSTANCE = ("_client", "_disconnected")  # attributes read: the paho client, a future
PAHO_PUBLIC = ("publish", "loop_write", "want_write")
PAHO_INSTANCE = ("_in_callback_mutex",)  # the lock paho holds while inside its callbacks


def fast_path_supported() -> bool:
    """Do the installed aiomqtt and paho have every name the fast path uses (class level)?"""
    return (all(callable(getattr(aiomqtt.Client, name, None)) for name in AIOMQTT_PRIVATE)
            and all(callable(getattr(mqtt.Client, name, None)) for name in PAHO_PUBLIC))


FAST_PATH = fast_path_supported() and os.environ.get("GAMENIGHT_MQTT_FAST", "1") != "0"
"""False: aiomqtt's public API only (GAMENIGHT_MQTT_FAST=0 forces it, e.g. to compare)."""


class _PlainClient(aiomqtt.Client):
    """aiomqtt as documented: messages come through its iterator, publishes are awaited."""

    direct = False

    def __init__(self, *args: Any, on_message: Callable[[str, bytes, bool], None], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)

    def publish_nowait(self, topic: str, payload: bytes, qos: int, retain: bool) -> bool:
        return False


class _DirectClient(aiomqtt.Client):
    """aiomqtt's client with two shortcuts on the per-packet path.

    - Inbound: a message goes straight to `on_message` (our topic dispatch) from paho's read
      callback, instead of through aiomqtt's queue and iterator (a task and two futures per
      message). The iterator is still awaited by the transport: it ends on disconnection.
    - Outbound: a packet paho queues on the event loop's own thread is written at once, when
      paho is not inside one of its callbacks (its own rule for writing directly), instead of
      waking the loop through `call_soon_threadsafe` to register a writer, waiting a loop
      iteration for writability and unregistering it again. Every QoS 1 delivery costs a PUBACK,
      so a commit-reveal step among three peers writes two dozen packets.
    Together they took a mosquitto round trip here from 0.62 to 0.27 ms (bench/net_latency.py).
    """

    direct = True

    def __init__(self, *args: Any, on_message: Callable[[str, bytes, bool], None], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._deliver = on_message
        self._loop_thread = threading.get_ident()
        # paho's read callback was registered from aiomqtt's connect thread, so it runs in an
        # empty context; handlers get the creator's (e.g. Textual's active app), as a task would
        self._context = contextvars.copy_context()
        self._paho_lock = getattr(self._client, "_in_callback_mutex", None)

    def _on_message(self, client: Any, userdata: Any, message: Any) -> None:
        payload = message.payload if isinstance(message.payload, (bytes, bytearray)) else b""
        self._context.run(self._deliver, message.topic, bytes(payload), bool(message.retain))

    def publish_nowait(self, topic: str, payload: bytes, qos: int, retain: bool) -> bool:
        """paho's own publish: queued (and, outside paho's callbacks, written) at once."""
        return self._client.publish(topic, payload, qos, retain).rc == mqtt.MQTT_ERR_SUCCESS

    def _on_socket_register_write(self, client: Any, userdata: Any, sock: Any) -> None:
        lock = self._paho_lock
        if lock is not None and threading.get_ident() == self._loop_thread and lock.acquire(False):
            lock.release()
            try:
                client.loop_write()  # unregisters the write interest itself when all is sent
            except Exception as exc:  # a broken pipe: the connection is gone
                if not self._disconnected.done():
                    self._disconnected.set_exception(exc)
                return
            if not client.want_write():
                return
        super()._on_socket_register_write(client, userdata, sock)


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
        self._client: _DirectClient | _PlainClient | None = None
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

    def _make_client(self) -> _DirectClient | _PlainClient:
        will = None
        if self.will is not None:
            will = aiomqtt.Will(self.will.topic, self.will.payload, qos=self.will.qos, retain=self.will.retain)
        return (_DirectClient if self.fast else _PlainClient)(
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
                client.pending_calls_threshold = 10_000  # a shared connection has many in flight
                async with client:
                    self._client = client
                    for topic_filter in dict.fromkeys(f for f, _ in self._handlers):
                        await client.subscribe(topic_filter, qos=1)
                    backoff = 0.1
                    self._ever_connected = True
                    if self.connected.is_set():
                        self.connected.clear()
                    self._connected_now()
                    async for message in client.messages:  # ends on disconnect
                        if not client.direct:  # the direct client delivered it already
                            self._deliver_message(message)
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
