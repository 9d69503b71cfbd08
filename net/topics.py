"""MQTT topic names (prefix configurable) and MQTT 3.1.1 topic-filter matching."""

from __future__ import annotations

from dataclasses import dataclass

DEFAULT_PREFIX = "gamenight/v1"


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
    """MQTT 3.1.1 matching: '+' one level, '#' the rest (including the parent level)."""
    fparts = topic_filter.split("/")
    tparts = topic.split("/")
    for i, part in enumerate(fparts):
        if part == "#":
            return True
        if i >= len(tparts):
            return False
        if part != "+" and part != tparts[i]:
            return False
    return len(fparts) == len(tparts)
