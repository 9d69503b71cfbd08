"""A shared connection gives up a broker subscription once no local handler wants it."""

from __future__ import annotations

import asyncio

import net.transport as transport_module
from net.transport import MemoryBroker, MemoryTransport


async def test_a_filter_is_unsubscribed_when_its_last_handler_goes(monkeypatch) -> None:
    monkeypatch.setattr(transport_module, "UNSUBSCRIBE_AFTER", 0.0)
    transport = MemoryTransport(MemoryBroker())
    await transport.start()
    first, second = (lambda *_: None), (lambda *_: None)
    await transport.subscribe("g/1/#", first)
    await transport.subscribe("g/1/#", second)
    transport.unsubscribe_handler(first)
    await asyncio.sleep(0.01)
    assert transport.wants("g/1/log")  # the second still wants it
    transport.unsubscribe_handler(second)
    await asyncio.sleep(0.01)
    assert not transport.wants("g/1/log")


async def test_a_filter_taken_again_meanwhile_stays(monkeypatch) -> None:
    monkeypatch.setattr(transport_module, "UNSUBSCRIBE_AFTER", 0.01)
    transport = MemoryTransport(MemoryBroker())
    await transport.start()
    join, peer = (lambda *_: None), (lambda *_: None)
    await transport.subscribe("lobby/g", join)
    transport.unsubscribe_handler(join)
    await transport.subscribe("lobby/g", peer)  # handed straight on, as join -> peer does
    await asyncio.sleep(0.05)
    assert transport.wants("lobby/g")
