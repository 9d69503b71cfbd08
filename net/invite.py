"""Invite codes: the broker address and the game id in one line a player can paste.

Form: `mqtt://192.168.1.20:1883/money-1a2b3c4d` (mqtts:// for TLS). A bare game id means "on
the broker from the settings".
"""

from __future__ import annotations

from .codec import _gid
from .mqtt import parse_broker


def make_invite(broker_url: str, gid: str) -> str:
    return f"{parse_broker(broker_url).url}/{gid}"


def parse_invite(code: str, default_broker: str = "mqtt://127.0.0.1:1883") -> tuple[str, str]:
    """(broker url, game id); ValueError with one clear line for anything else."""
    text = code.strip().rstrip("/")
    if "/" in text.replace("://", ""):
        broker, _, gid = text.rpartition("/")
    else:
        broker, gid = default_broker, text
    if not _gid(gid):
        raise ValueError(f"not an invite code: {code!r} (expected e.g. mqtt://host:1883/money-1a2b3c4d)")
    return parse_broker(broker).url, gid
