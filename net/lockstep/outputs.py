"""What the protocol's state machines hand back to the shell, and the small values they share."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import msgpack

from ..codec import MAX_SIZE

SETUP_KINDS = frozenset({"seat", "kick", "start", "seed_commit", "seed_reveal"})
STEP_KINDS = frozenset({"act", "commit", "reveal"})
TABLE_KINDS = frozenset({"vote", "proof", "handover"})  # the table deciding about a stall
DECK_KINDS = frozenset({"deck_own", "deck_mask", "deck_shuffle", "deck_lock", "deck_show", "deck_open",
                        "deck_audit", "deck_handover", "deck_ask", "deck_give", "deck_score",
                        "deck_broken"})
SYNCABLE = SETUP_KINDS | STEP_KINDS | TABLE_KINDS | DECK_KINDS
VOTING = ("seed", "play", "ending")  # phases whose waits have deadlines and may be voted on
MAX_AHEAD = 1000
MAX_BUFFERED = 20_000
SYNC_CHUNK = MAX_SIZE - 2048


@dataclass(frozen=True)
class Publish:
    """Send `payload` on a channel: "log", "sync", "chat", "lobby" (retained) or "presence"."""

    channel: str
    payload: bytes
    retain: bool = False


@dataclass(frozen=True)
class Keep:
    """Append this accepted envelope to the disk log (before anything is published)."""

    raw: bytes


@dataclass(frozen=True)
class Secret:
    """Persist a secret of this peer (a seed share or a commitment's opening) before sending."""

    name: str
    data: bytes


@dataclass(frozen=True)
class Note:
    """Something for the screen: changed, waiting, your_turn, lobby, started, chat, presence,
    error, refused, desync, over, dropped."""

    kind: str
    text: str = ""
    data: dict[str, Any] = field(default_factory=dict)


Output = Publish | Keep | Secret | Note


@dataclass
class TableInfo:
    """What the host announced: game, player count, options (plain), versions."""

    game: str
    players: int
    options: dict[str, Any]
    versions: dict[str, str]
    relay_bots: int = 0


def unpack(data: bytes) -> Any:
    """A stored opening `(action, salt)` back from its canonical msgpack."""
    return msgpack.unpackb(data, raw=False)
