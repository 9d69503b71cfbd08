"""The MQTT transport: the only module that imports aiomqtt.

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
from dataclasses import dataclass
from urllib.parse import urlparse

import aiomqtt

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
    ) -> None:
        super().__init__()
        self.address = parse_broker(address) if isinstance(address, str) else address
        self.will = will
        self.username = username or os.environ.get("GAMENIGHT_BROKER_USERNAME") or None
        self.password = password or os.environ.get("GAMENIGHT_BROKER_PASSWORD") or None
        self.client_id = client_id or f"gn-{os.urandom(6).hex()}"
        self.keepalive = keepalive
        self.nodelay = nodelay
        self._client: aiomqtt.Client | None = None
        self._task: asyncio.Task[None] | None = None
        self._stopping = False
        self._failure: BaseException | None = None
        self._refused = asyncio.Event()  # the very first attempt was refused: nobody listens
        self._ever_connected = False
        self.reconnects = 0

    async def start(self, timeout: float = 5.0) -> None:
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
            reason = f": {self._failure}" if self._failure else ""
            raise BrokerUnreachable(f"cannot reach the broker at {self.address.url}{reason}") from None

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

    def _make_client(self) -> aiomqtt.Client:
        will = None
        if self.will is not None:
            will = aiomqtt.Will(self.will.topic, self.will.payload, qos=self.will.qos, retain=self.will.retain)
        return aiomqtt.Client(
            self.address.host,
            self.address.port,
            username=self.username,
            password=self.password,
            identifier=self.client_id,
            protocol=aiomqtt.ProtocolVersion.V311,
            will=will,
            clean_session=True,
            keepalive=self.keepalive,
            tls_context=ssl.create_default_context() if self.address.tls else None,
            socket_options=[NODELAY] if self.nodelay else [],
            max_queued_incoming_messages=0,
        )

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
                    async for message in client.messages:
                        payload = message.payload
                        if isinstance(payload, str):
                            payload = payload.encode()
                        elif not isinstance(payload, (bytes, bytearray)):
                            payload = b""
                        self._dispatch(message.topic.value, bytes(payload), bool(message.retain))
            except aiomqtt.MqttError as exc:
                self._failure = exc
                if not self._ever_connected and "refused" in str(exc).lower():
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
