"""net/mqtt.py's two clients: paho driven on the loop (net/paho_client.py) and aiomqtt's.

Both must behave the same for a peer: every message once, in order, retained ones marked,
handlers run in the context the transport was made in; the direct one writes at once.
"""

from __future__ import annotations

import asyncio
import contextvars

import pytest

from net import mqtt as adapter
from net.broker import EmbeddedBroker
from net.launch import BrokerSettings, connect

pytestmark = pytest.mark.net
WHO = contextvars.ContextVar("who", default="nobody")


@pytest.mark.parametrize("fast", [True, False], ids=["fast path", "public API"])
async def test_both_paths_deliver_in_order_once_with_retained_marked_in_context(fast: bool) -> None:
    async with EmbeddedBroker(port=0) as broker:
        settings = BrokerSettings(broker=broker.url)
        sender = await connect(broker.url, settings)
        await sender.publish("t/retained", b"kept", retain=True)
        WHO.set("receiver's creator")
        receiver = adapter.MqttTransport(broker.url)
        receiver.fast = fast
        await receiver.start()
        got: list[tuple[str, bytes, bool, str]] = []
        done = asyncio.Event()

        def handler(topic: str, payload: bytes, retained: bool) -> None:
            got.append((topic, payload, retained, WHO.get()))
            if payload == b"99":
                done.set()

        try:
            await receiver.subscribe("t/#", handler)
            for _ in range(300):  # the retained message arrives first
                if got:
                    break
                await asyncio.sleep(0.01)
            assert receiver._client.direct is fast
            for i in range(100):
                if not sender.publish_now("t/live", str(i).encode()):
                    await sender.publish("t/live", str(i).encode())
            await asyncio.wait_for(done.wait(), 15)
            await asyncio.sleep(0.1)  # nothing further may come
        finally:
            await receiver.stop()
            await sender.stop()
    assert got[0] == ("t/retained", b"kept", True, "receiver's creator")
    assert [p for t, p, r, _ in got[1:]] == [str(i).encode() for i in range(100)]
    assert not any(r for _, _, r, _ in got[1:]) and {w for *_, w in got} == {"receiver's creator"}


async def test_on_the_fast_path_a_publish_leaves_at_once() -> None:
    async with EmbeddedBroker(port=0) as broker:
        transport = await connect(broker.url, BrokerSettings(broker=broker.url))
        try:
            assert transport.fast and transport.publish_now("t/x", b"now", qos=1)
            assert not transport._client.want_write()  # written, not left for the loop
        finally:
            await transport.stop()


async def test_on_the_public_api_publish_now_declines_and_publish_works() -> None:
    async with EmbeddedBroker(port=0) as broker:
        transport = adapter.MqttTransport(broker.url)
        transport.fast = False
        await transport.start()
        try:
            assert transport.publish_now("t/x", b"now") is False
            await transport.publish("t/x", b"later")
        finally:
            await transport.stop()


async def test_a_handlers_publish_leaves_as_soon_as_the_read_that_called_it_returns() -> None:
    """A peer answers inside its handler (a reveal, a PUBACK): no waiting for writability."""
    async with EmbeddedBroker(port=0) as broker:
        sender = await connect(broker.url, BrokerSettings(broker=broker.url))
        answerer = await connect(broker.url, BrokerSettings(broker=broker.url))
        left: list[bool] = []
        done = asyncio.Event()

        def answer(topic: str, payload: bytes, retained: bool) -> None:
            assert answerer.publish_now("t/answer", payload)
            # runs right after the read callback, before the loop polls the sockets again
            asyncio.get_running_loop().call_soon(lambda: (left.append(answerer._client.want_write()), done.set()))

        try:
            await answerer.subscribe("t/ask", answer)
            await sender.publish("t/ask", b"?")
            await asyncio.wait_for(done.wait(), 10)
        finally:
            await answerer.stop()
            await sender.stop()
    assert left == [False]


async def test_a_socket_that_breaks_under_paho_is_a_lost_connection_and_the_transport_reconnects() -> None:
    """paho raising out of a read or write (a broken pipe, a TLS error) ends the connection as
    an MqttError, which the transport's reconnect loop handles, not an error that kills it."""
    async with EmbeddedBroker(port=0) as broker:
        transport = await connect(broker.url, BrokerSettings(broker=broker.url))
        got: list[bytes] = []
        try:
            await transport.subscribe("t/after", lambda t, p, r: got.append(p))
            transport._client._lost(BrokenPipeError(32, "Broken pipe"))  # as _readable/_write do
            for _ in range(100):
                if transport.reconnects and transport.connected.is_set():
                    break
                await asyncio.sleep(0.05)
            assert transport.reconnects == 1 and transport.connected.is_set()
            await transport.publish("t/after", b"again")
            for _ in range(100):
                if got:
                    break
                await asyncio.sleep(0.02)
            assert got == [b"again"]
        finally:
            await transport.stop()


async def test_giving_up_on_a_broker_that_never_answers_closes_the_connection() -> None:
    """A listener that accepts and stays silent: start() gives up, and the socket goes too
    (no connection left open, no keepalive pings from a client nobody holds)."""
    closed = asyncio.Event()

    async def silent(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        while await reader.read(1024):  # the CONNECT, then nothing until the client closes
            pass
        closed.set()
        writer.close()

    server = await asyncio.start_server(silent, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    try:
        transport = adapter.MqttTransport(f"mqtt://127.0.0.1:{port}")
        with pytest.raises(adapter.BrokerUnreachable):
            await transport.start(timeout=0.5)
        await asyncio.wait_for(closed.wait(), 5)
    finally:
        server.close()
        await server.wait_closed()
