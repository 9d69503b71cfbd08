"""The embedded amqtt broker serves every client, whatever the others do at the same moment.

amqtt 0.12.1 iterates its subscription table while awaiting (net/broker.py); a client that
connects while another subscribes then never gets its subscriptions answered. Without
`_SnapshotTable` the first test loses about two clients in three here.
"""

from __future__ import annotations

import asyncio

import pytest

from net.broker import EmbeddedBroker, _SnapshotTable
from net.launch import BrokerSettings, connect

pytestmark = pytest.mark.net

CLIENTS = 30
FILTERS = 8  # subscriptions per client, each answered before the next (as peers do)
RETAINED = 20  # retained messages a new client is offered while it connects


async def _client_gets_its_message(url: str, k: int, publisher) -> bool:
    got = asyncio.Event()
    transport = await connect(url, BrokerSettings(broker=url))
    try:
        for j in range(FILTERS):
            await transport.subscribe(f"t/u/{k}/{j}", lambda *_: got.set())
        await publisher.publish(f"t/u/{k}/{FILTERS - 1}", b"hello", qos=1)
        try:
            await asyncio.wait_for(got.wait(), 15)  # a hang detector, not a speed check
        except TimeoutError:
            return False
        return True
    finally:
        await transport.stop()


async def test_clients_connecting_while_others_subscribe_all_get_their_messages() -> None:
    async with EmbeddedBroker(port=0) as broker:
        publisher = await connect(broker.url, BrokerSettings(broker=broker.url))
        try:
            for i in range(RETAINED):
                await publisher.publish(f"t/r/{i}", b"x", qos=1, retain=True)
            await publisher.subscribe("t/r/#", lambda *_: None)
            tasks = []
            for k in range(CLIENTS):  # staggered, so connects overlap other clients' subscribes
                tasks.append(asyncio.create_task(_client_gets_its_message(broker.url, k, publisher)))
                await asyncio.sleep(0.003)
            served = await asyncio.gather(*tasks)
        finally:
            await publisher.stop()
    assert served.count(False) == 0, f"{served.count(False)} of {CLIENTS} clients were never served"


async def test_the_guard_stays_in_place_while_the_broker_runs() -> None:
    """If amqtt ever rebuilds its table under another name, the guard silently stops guarding."""
    async with EmbeddedBroker(port=0) as broker:
        transport = await connect(broker.url, BrokerSettings(broker=broker.url))
        try:
            await transport.subscribe("t/a", lambda *_: None)
            table = broker._broker.subscriptions
            assert isinstance(table, _SnapshotTable)
            assert "t/a" in table
        finally:
            await transport.stop()


def test_the_table_iterates_over_a_copy() -> None:
    table = _SnapshotTable({"a": [1], "b": [2]})
    for key in table:
        table[key + "x"] = []
    for _key, sessions in table.items():
        sessions.append(3)
    assert sorted(table) == ["a", "ax", "b", "bx"]
    assert table["a"] == [1]


def test_pruning_drops_only_filters_nobody_holds() -> None:
    table = _SnapshotTable({"a": [1], "b": [], "c": []})
    assert table.prune() == 2 and dict(table) == {"a": [1]}
