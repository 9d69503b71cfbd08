"""Games across a two-node RabbitMQ cluster (MQTT plugin): issue 23.

RabbitMQ keeps retained messages per node and delivers them only to subscriptions without
wildcards, so a joiner on the other node than the host finds the table only by asking, and
peers learn presence by its live repetitions. The cluster (configs/rabbitmq/) is started once
for this module; without rabbitmq-server the module is skipped with that reason.
"""

from __future__ import annotations

import asyncio

import pytest

from .across import four_games_across, survives_a_restart
from .rabbit import HAVE_RABBITMQ, RabbitCluster

pytestmark = [pytest.mark.net,
              pytest.mark.skipif(not HAVE_RABBITMQ, reason="rabbitmq-server not installed (.ci/run installs it)")]


@pytest.fixture(scope="module")
def cluster():
    nodes = RabbitCluster()
    try:
        asyncio.run(nodes.start())
        yield nodes
    finally:
        asyncio.run(nodes.stop())


@pytest.mark.timeout(400)
async def test_each_of_the_four_games_plays_to_one_verified_end_across_the_two_nodes(cluster):
    await four_games_across(cluster.urls)


@pytest.mark.timeout(400)
async def test_a_node_restarted_mid_game_is_survived(cluster):
    await survives_a_restart(cluster.urls, lambda: cluster.restart(1))
