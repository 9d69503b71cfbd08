"""MQTT topic names (prefix configurable) and MQTT 3.1.1 topic-filter matching."""

from __future__ import annotations

from dataclasses import dataclass

from aiomqtt import Topic  # a value type only; net/mqtt.py alone uses aiomqtt's client

DEFAULT_PREFIX = "gamenight/v1"
ASK_BYTES = 64  # a question on `ask` names a gid (at most this long); a longer one is not one


@dataclass(frozen=True)
class Topics:
    """The topics of one game `gid` under `prefix`."""

    gid: str
    prefix: str = DEFAULT_PREFIX

    @property
    def lobby(self) -> str:
        return f"{self.prefix}/lobby/{self.gid}"

    @property
    def log(self) -> str:
        return f"{self.prefix}/game/{self.gid}/log"

    @property
    def sync(self) -> str:
        return f"{self.prefix}/game/{self.gid}/sync"

    @property
    def ask(self) -> str:
        """Where a joiner asks "who hosts this table?": the answer is the announcement, live."""
        return f"{self.prefix}/game/{self.gid}/ask"

    @property
    def chat(self) -> str:
        return f"{self.prefix}/game/{self.gid}/chat"

    def presence(self, peer: str) -> str:
        return f"{self.prefix}/game/{self.gid}/presence/{peer}"

    @property
    def presence_all(self) -> str:
        return f"{self.prefix}/game/{self.gid}/presence/+"

    @property
    def game_all(self) -> str:
        return f"{self.prefix}/game/{self.gid}/#"


def lobby_filter(prefix: str = DEFAULT_PREFIX) -> str:
    return f"{prefix}/lobby/+"


def topic_matches(topic_filter: str, topic: str) -> bool:
    """MQTT matching as aiomqtt's `Topic.matches` does it: '+' one level, '#' the rest
    (including the parent level: "a/#" matches "a"); like a plain '+' or '#' filter here, it
    does not set `$SYS` topics apart. A malformed topic or filter matches nothing."""
    try:
        return Topic(topic).matches(topic_filter)
    except ValueError:  # a wildcard in the topic, an empty one, '#' not last in the filter
        return False


def literal_head(topic_filter: str) -> str:
    """The levels of a filter before its first wildcard ("a/b" for "a/b/+/c", "" for "+/x"):
    only a topic under that head can match, so a transport looks filters up by it."""
    levels = topic_filter.split("/")
    for i, level in enumerate(levels):
        if level in ("+", "#"):
            return "/".join(levels[:i])
    return topic_filter
