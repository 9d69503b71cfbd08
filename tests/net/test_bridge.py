"""Games across a bridged pair of mosquittos (configs/mosquitto-bridge.conf): issue 23.

Broker B bridges gamenight's prefix to broker A both ways; seats alternate between them. The
bridge section of the config file is used as it is, with A's free port put in.
"""

from __future__ import annotations

import asyncio

import pytest

from net.launch import BrokerSettings, connect

from .across import four_games_across, survives_a_restart
from .brokers import HAVE_MOSQUITTO, Mosquitto, bridge_to, wait_bridged
from .helpers import until

pytestmark = [pytest.mark.net, pytest.mark.skipif(not HAVE_MOSQUITTO, reason="mosquitto not on PATH")]


@pytest.fixture(scope="module")
def pair():
    a = Mosquitto()
    b = Mosquitto(extra=bridge_to(a.port))
    try:
        asyncio.run(_start(a, b))
        yield a, b
    finally:
        asyncio.run(b.stop())
        asyncio.run(a.stop())


async def _start(a: Mosquitto, b: Mosquitto) -> None:
    await a.start()
    await b.start()
    await wait_bridged(a, b)


async def test_a_retained_announcement_crosses_the_bridge_once(pair):
    a, b = pair
    host = await connect(a.url, BrokerSettings(broker=a.url))
    late = await connect(b.url, BrokerSettings(broker=b.url))
    seen: list[tuple[bytes, bool]] = []
    try:
        await host.publish("gamenight/v1/lobby/bridge-0001", b"announce", retain=True)
        await asyncio.sleep(0.5)
        await late.subscribe("gamenight/v1/lobby/+", lambda t, payload, retained: seen.append((payload, retained)))
        await until(lambda: seen, timeout=5)
        await asyncio.sleep(0.5)
        assert seen == [(b"announce", True)]  # kept on B, and no echo back and forth
    finally:
        await host.publish("gamenight/v1/lobby/bridge-0001", b"", retain=True)
        await host.stop()
        await late.stop()


@pytest.mark.timeout(400)
async def test_each_of_the_four_games_plays_to_one_verified_end_across_the_bridge(pair):
    a, b = pair
    await four_games_across([a.url, b.url])


@pytest.mark.timeout(400)
async def test_a_restart_of_the_bridging_broker_is_survived(pair):
    a, b = pair

    async def restart() -> None:
        await b.stop()
        await b.start()
        await wait_bridged(a, b)

    await survives_a_restart([a.url, b.url], restart)
