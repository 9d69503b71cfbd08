"""The Transport interface peers talk through, and an in-memory broker for fast tests.

A transport is one broker connection that any number of local peers may share: each
`subscribe` registers a handler for a topic filter. Handlers are plain callables run on the
event loop; they must not block. `on_connect` callbacks run after every (re)connection so a
peer can resubscribe-dependent work (republish, ask for sync).
"""

from __future__ import annotations

import asyncio
import logging
from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass

from .topics import literal_head, topic_matches

log = logging.getLogger("gamenight.net")

UNSUBSCRIBE_AFTER = 5.0  # seconds an unwanted filter stays subscribed at the broker

Handler = Callable[[str, bytes, bool], None]
"""handler(topic, payload, retained)"""


@dataclass(frozen=True)
class Will:
    topic: str
    payload: bytes
    qos: int = 1
    retain: bool = True


class Transport(ABC):
    """One connection to a broker, shared by the local peers that use it."""

    def __init__(self) -> None:
        self._handlers: list[tuple[str, Handler]] = []
        # an index so a connection shared by hundreds of peers finds a topic's handlers fast
        self._exact: dict[str, list[Handler]] = {}
        self._subtree: dict[str, list[Handler]] = {}  # "a/b/#" under "a/b"
        self._wild: dict[str, list[tuple[str, Handler]]] = {}  # others, under their literal head
        self._connect_callbacks: list[Callable[[], None]] = []
        self._unsubscribing: set[asyncio.Task[None]] = set()
        self.connected = asyncio.Event()
        self.received = 0

    @abstractmethod
    async def start(self) -> None:
        """Connect (and keep reconnecting until stopped); returns once first connected."""

    @abstractmethod
    async def stop(self) -> None: ...

    @abstractmethod
    async def publish(self, topic: str, payload: bytes, qos: int = 1, retain: bool = False) -> None:
        ...

    def publish_now(self, topic: str, payload: bytes, qos: int = 1, retain: bool = False) -> bool:
        """Hand a message to the connection without waiting for the broker's acknowledgement.

        False when that cannot be done now (not connected): the caller then uses `publish`,
        which waits through reconnections. A message handed over on a connection that then
        breaks is lost with it; the protocol recovers (a reconnected peer republishes its part
        of the current step and asks for what it missed).
        """
        return False

    async def subscribe(self, topic_filter: str, handler: Handler, qos: int = 1) -> None:
        self._handlers.append((topic_filter, handler))
        self._index(topic_filter, handler)
        if self.connected.is_set():
            await self._subscribe(topic_filter, qos)

    def unsubscribe_handler(self, handler: Handler) -> None:
        """Forget `handler`; a filter no handler wants any more is unsubscribed at the broker.

        Without that a long-lived shared connection (a relay's) would keep two broker
        subscriptions per game it ever watched, and the broker matches every message
        against all of them.
        """
        # == not `is`: a bound method (peer._on_message) is a new object at every access
        dropped = {f for f, h in self._handlers if h == handler}
        self._handlers = [(f, h) for f, h in self._handlers if h != handler]
        unwanted = dropped - {f for f, _ in self._handlers}
        for table in (self._exact, self._subtree):
            for key in [k for k, hs in table.items() if handler in hs]:
                table[key] = [h for h in table[key] if h != handler]
                if not table[key]:
                    del table[key]
        for key in [k for k, fhs in self._wild.items() if any(h == handler for _, h in fhs)]:
            self._wild[key] = [(f, h) for f, h in self._wild[key] if h != handler]
            if not self._wild[key]:
                del self._wild[key]
        if unwanted and self.connected.is_set():
            loop = asyncio.get_running_loop()
            for topic_filter in sorted(unwanted):
                task = loop.create_task(self._unsubscribe_later(topic_filter))
                self._unsubscribing.add(task)
                task.add_done_callback(self._unsubscribing.discard)

    async def _unsubscribe_later(self, topic_filter: str) -> None:
        """A little later, and only if still nobody wants it: a peer often hands a filter
        straight on (the lobby topic, from the join to the peer), and a broker may handle an
        UNSUBSCRIBE after a SUBSCRIBE that reached it at the same moment (amqtt does)."""
        await asyncio.sleep(UNSUBSCRIBE_AFTER)
        if self.connected.is_set() and all(f != topic_filter for f, _ in self._handlers):
            await self.unsubscribe(topic_filter)

    def _index(self, topic_filter: str, handler: Handler) -> None:
        head, _, last = topic_filter.rpartition("/")
        if "+" not in topic_filter and "#" not in topic_filter:
            self._exact.setdefault(topic_filter, []).append(handler)
        elif last == "#" and head and "+" not in head and "#" not in head:
            self._subtree.setdefault(head, []).append(handler)
        else:
            self._wild.setdefault(literal_head(topic_filter), []).append((topic_filter, handler))

    def _handlers_for(self, topic: str) -> list[Handler]:
        found = list(self._exact.get(topic, ()))
        if self._subtree or self._wild:
            # only the filters under one of the topic's heads are matched (a relay's shared
            # connection holds a presence filter per game: each message meets about one)
            candidates = list(self._wild.get("", ()))
            parts = topic.split("/")
            for i in range(1, len(parts) + 1):
                head = "/".join(parts[:i])
                found.extend(self._subtree.get(head, ()))
                candidates.extend(self._wild.get(head, ()))
            found.extend(h for f, h in candidates if topic_matches(f, topic))
        return found

    @abstractmethod
    async def _subscribe(self, topic_filter: str, qos: int) -> None: ...

    @abstractmethod
    async def unsubscribe(self, topic_filter: str) -> None:
        """Stop receiving `topic_filter` from the broker (handlers are not touched)."""

    def on_connect(self, callback: Callable[[], None]) -> None:
        self._connect_callbacks.append(callback)

    def remove_on_connect(self, callback: Callable[[], None]) -> None:
        self._connect_callbacks = [c for c in self._connect_callbacks if c != callback]

    def _dispatch(self, topic: str, payload: bytes, retained: bool) -> None:
        self.received += 1
        for handler in self._handlers_for(topic):
            try:
                handler(topic, payload, retained)
            except Exception:  # one peer's bug must not stop the others' delivery
                log.exception("handler for %s failed", topic)

    def _connected_now(self) -> None:
        self.connected.set()
        for callback in list(self._connect_callbacks):
            try:
                callback()
            except Exception:
                log.exception("on_connect callback failed")


class MemoryBroker:
    """An in-process MQTT-like broker: topic filters, retained messages, last wills."""

    def __init__(self) -> None:
        self.clients: list[MemoryTransport] = []
        self.retained: dict[str, bytes] = {}
        self.published = 0

    def route(self, sender: MemoryTransport | None, topic: str, payload: bytes, retain: bool) -> None:
        self.published += 1
        if retain:
            if payload:
                self.retained[topic] = payload
            else:
                self.retained.pop(topic, None)
        loop = asyncio.get_running_loop()
        for client in list(self.clients):
            if client.wants(topic):
                loop.call_soon(client.deliver, topic, payload, False)

    def drop(self, client: MemoryTransport, with_will: bool) -> None:
        if client in self.clients:
            self.clients.remove(client)
            if with_will and client.will is not None:
                will = client.will
                self.route(None, will.topic, will.payload, will.retain)


class MemoryTransport(Transport):
    """Same interface as the MQTT transport, over a MemoryBroker (unit tests)."""

    def __init__(self, broker: MemoryBroker, will: Will | None = None) -> None:
        super().__init__()
        self.broker = broker
        self.will = will
        self.filters: list[str] = []
        self.sent = 0

    async def start(self) -> None:
        self.broker.clients.append(self)
        for topic_filter, _ in self._handlers:
            await self._subscribe(topic_filter, 1)
        self._connected_now()

    async def stop(self) -> None:
        self.broker.drop(self, with_will=False)
        self.connected.clear()

    def kill(self) -> None:
        """Vanish without a clean disconnect: the broker publishes the last will."""
        self.broker.drop(self, with_will=True)
        self.connected.clear()

    async def publish(self, topic: str, payload: bytes, qos: int = 1, retain: bool = False) -> None:
        self.publish_now(topic, payload, qos, retain)

    def publish_now(self, topic: str, payload: bytes, qos: int = 1, retain: bool = False) -> bool:
        if self in self.broker.clients:  # a dead connection loses what it sends, like a socket would
            self.sent += 1
            self.broker.route(self, topic, payload, retain)
        return True

    async def _subscribe(self, topic_filter: str, qos: int) -> None:
        self.filters.append(topic_filter)
        for topic, payload in list(self.broker.retained.items()):
            if topic_matches(topic_filter, topic):
                asyncio.get_running_loop().call_soon(self.deliver, topic, payload, True)

    async def unsubscribe(self, topic_filter: str) -> None:
        self.filters = [f for f in self.filters if f != topic_filter]

    def wants(self, topic: str) -> bool:
        return any(topic_matches(f, topic) for f in self.filters)

    def deliver(self, topic: str, payload: bytes, retained: bool) -> None:
        if self in self.broker.clients:
            self._dispatch(topic, payload, retained)
