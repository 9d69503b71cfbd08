"""The contract of net/mqtt.py's fast-path adapter over aiomqtt and paho internals.

If an upgrade of aiomqtt or paho-mqtt removes or changes what the adapter uses, these fail
(and the transport falls back to aiomqtt's public API, see FAST_PATH). Both paths must behave
the same for a peer: every message once, in order, retained ones marked, handlers run in the
context the transport was made in.
"""

from __future__ import annotations

import asyncio
import contextvars
import threading

import paho.mqtt.client as paho
import pytest

from net import mqtt as adapter
from net.broker import EmbeddedBroker
from net.launch import BrokerSettings, connect

pytestmark = pytest.mark.net
WHO = contextvars.ContextVar("who", default="nobody")


def test_the_pinned_libraries_have_everything_the_fast_path_uses() -> None:
    assert adapter.fast_path_supported()
    for name in adapter.AIOMQTT_PRIVATE:
        assert callable(getattr(adapter.aiomqtt.Client, name))
    for name in adapter.PAHO_PUBLIC:
        assert callable(getattr(paho.Client, name))


async def test_a_direct_client_finds_the_instance_internals_it_reads() -> None:
    client = adapter._DirectClient("127.0.0.1", 1, on_message=lambda *_: None)
    for name in adapter.AIOMQTT_INSTANCE:
        assert hasattr(client, name)
    assert isinstance(client._client, paho.Client)
    lock = getattr(client._client, adapter.PAHO_INSTANCE[0])
    assert isinstance(lock, type(threading.Lock()))
    assert client._paho_lock is lock


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
            assert not transport._client._client.want_write()  # written, not left for the loop
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
