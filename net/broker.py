"""The embedded broker: amqtt started in-process, so hosting a game needs no installed service.

amqtt 0.12 binds 0.0.0.0:1883 unless a listener says otherwise, refuses every client when no
auth plugin is configured, and logs every packet with its default plugins; so the listener,
the anonymous-auth plugin and the loggers are all set explicitly here.

amqtt 0.12.1 iterates its subscription table (filter -> list of sessions) while awaiting:
a client that connects loops over every filter and awaits the delivery of matching retained
messages, and meanwhile another client subscribes; "dictionary changed size during
iteration" then kills the new client's session handler after its CONNACK, so its SUBSCRIBEs
are never answered and its game waits forever (`selfplay --net` wedged 7 runs in 7).
`_SnapshotTable` replaces that table with one whose iteration walks a copy.
"""

from __future__ import annotations

import asyncio
import logging
import socket

QUIET = ("amqtt", "transitions")


def _quiet_loggers() -> None:
    for name in QUIET:
        logger = logging.getLogger(name)
        logger.setLevel(logging.CRITICAL)
        logger.propagate = False


def free_port(host: str = "127.0.0.1") -> int:
    """A TCP port nothing listens on now (bind port 0 and ask)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind((host, 0))
        return sock.getsockname()[1]


class _SnapshotTable(dict):
    """amqtt's subscription table, iterated over a copy (see the module doc).

    Its lists are copied too: a broadcast walks a filter's sessions while it may await a
    topic check, and an unsubscribe pops from that list, which would skip a subscriber.
    Writes are untouched, so amqtt's own bookkeeping works as before.
    """

    def __iter__(self):  # type: ignore[override]
        return iter(list(dict.keys(self)))

    def keys(self):  # type: ignore[override]
        return list(dict.keys(self))

    def values(self):  # type: ignore[override]
        return [list(v) for v in dict.values(self)]

    def items(self):  # type: ignore[override]
        return [(k, list(v)) for k, v in dict.items(self)]


def _guard_subscriptions(broker: object) -> None:
    """Swap in the copy-on-iterate table before the broker serves anyone.

    The one place that touches an amqtt internal; tests/net/test_embedded_broker.py both
    reproduces the wedge without it and fails if amqtt stops keeping the table under this name.
    """
    table = _SnapshotTable(broker._subscriptions)  # type: ignore[attr-defined]
    broker._subscriptions = table  # type: ignore[attr-defined]


class EmbeddedBroker:
    """amqtt on `bind`:`port` (127.0.0.1:1883 by default). Create and start inside a running loop."""

    def __init__(self, bind: str = "127.0.0.1", port: int = 1883, max_connections: int = 0) -> None:
        self.bind = bind
        self.port = port if port else free_port(bind)
        self.max_connections = max_connections
        self.guard = True  # False shows the amqtt defect (tests/net/test_embedded_broker.py fails)
        self._broker = None

    @property
    def url(self) -> str:
        host = "127.0.0.1" if self.bind in ("0.0.0.0", "") else self.bind
        return f"mqtt://{host}:{self.port}"

    def config(self) -> dict:
        return {
            "listeners": {
                "default": {
                    "type": "tcp",
                    "bind": f"{self.bind}:{self.port}",
                    "max_connections": self.max_connections,
                },
            },
            "plugins": {
                "amqtt.plugins.authentication.AnonymousAuthPlugin": {"allow_anonymous": True},
            },
        }

    async def start(self) -> None:
        _quiet_loggers()
        from amqtt.broker import Broker  # imported here: it is heavy and only hosts need it

        _quiet_loggers()
        self._broker = Broker(self.config())
        if self.guard:
            _guard_subscriptions(self._broker)
        try:
            await self._broker.start()
        except Exception as exc:
            self._broker = None
            raise OSError(f"cannot start the embedded broker on {self.bind}:{self.port}: {exc}") from None
        # The broker side needs nothing for Nagle: asyncio sets TCP_NODELAY on its transports.

    async def stop(self) -> None:
        if self._broker is not None:
            broker, self._broker = self._broker, None
            try:
                await asyncio.wait_for(broker.shutdown(), 10)
            except Exception:  # shutting down: nothing useful to do with a failure
                logging.getLogger("gamenight.net").info("embedded broker shutdown was not clean")

    async def __aenter__(self) -> EmbeddedBroker:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()
