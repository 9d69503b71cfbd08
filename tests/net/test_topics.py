"""MQTT topic-filter matching (aiomqtt's `Topic.matches`) and the transport's index over it."""

from __future__ import annotations

import asyncio

import pytest

from net.topics import Topics, literal_head, topic_matches
from net.transport import MemoryBroker, MemoryTransport

CASES = [
    # (filter, topic, matches)
    ("a/b", "a/b", True),
    ("a/b", "a/b/c", False),
    ("a/b", "a", False),
    ("a/+", "a/b", True),
    ("a/+", "a", False),
    ("a/+", "a/b/c", False),
    ("a/+", "a/", True),  # an empty level is a level
    ("+/b", "x/b", True),
    ("+/+", "/", True),
    ("a/+/c", "a/x/c", True),
    ("a/+/c", "a/x/d", False),
    ("a/#", "a", True),  # '#' takes the parent level too
    ("a/#", "a/b/c", True),
    ("a/#", "ab", False),
    ("a/+/#", "a/b", True),
    ("a/+/#", "a", False),
    ("#", "a/b", True),
    ("/#", "/a", True),
    ("/#", "a", False),
    ("$SYS/#", "$SYS/broker/uptime", True),
    ("$SYS/+", "$SYS", False),
    ("#", "$SYS/broker/uptime", True),  # as before: a local '#' does not set $ topics apart
    ("+/broker", "$SYS/broker", True),
    ("a/b#", "a/b", False),  # malformed filters and topics match nothing
    ("a/#/c", "a/b/c", False),
    ("a/+", "a/+", False),
]


@pytest.mark.parametrize(("topic_filter", "topic", "expected"), CASES)
def test_topic_filters_match_as_mqtt_says(topic_filter: str, topic: str, expected: bool) -> None:
    assert topic_matches(topic_filter, topic) is expected


def test_a_filters_literal_head_is_what_comes_before_its_first_wildcard() -> None:
    assert [literal_head(f) for f in ("a/b/+/c", "+/x", "#", "a/b", "a/b/#", "a//+")] == \
        ["a/b", "", "", "a/b", "a/b", "a/"]


async def test_a_transport_hands_each_message_to_every_handler_whose_filter_matches() -> None:
    transport = MemoryTransport(MemoryBroker())
    await transport.start()
    got: dict[str, list[str]] = {}
    filters = ["#", "a/#", "a/+", "+/b", "a/+/c", "a/b", "$SYS/#", Topics("g1").presence_all]
    for topic_filter in filters:
        await transport.subscribe(topic_filter, lambda t, p, r, f=topic_filter: got.setdefault(t, []).append(f))
    topics = ["a", "a/b", "a/x/c", "x/b", "$SYS/load", Topics("g1").presence("p1"), Topics("g2").presence("p1")]
    for topic in topics:
        transport.publish_now(topic, b"x")
    await asyncio.sleep(0)
    for topic in topics:
        assert sorted(got.get(topic, [])) == sorted(f for f in filters if topic_matches(f, topic)), topic
    assert sorted(got["a/b"]) == sorted(["#", "a/#", "a/+", "+/b", "a/b"])
    assert got[Topics("g2").presence("p1")] == ["#"]
