"""What a relay gives each announcing key, and what it keeps loaded (net/relay.py, net/relay_lending.py)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class RelayLimits:
    """What one announcing key (a host) may take of a relay, and what the relay keeps loaded."""

    live_per_key: int = 4  # unfinished games watched (and archived) at once
    bots_per_key: int = 4  # relay bots lent at once
    archived_per_key: int = 200  # finished games kept on disk; the oldest goes first
    loaded_archives: int = 4  # finished games kept in memory to answer sync requests
    loads_per_minute: int = 30  # finished games read back from disk (replaying costs CPU)
    # a table not started by then (fake, abandoned), or started and silent that long, is let go
    lobby_seconds: float = 600.0
    lobby_tables: int = 1000  # unstarted tables watched at once, from all keys; the oldest goes first
    # bots (net/relay_lending.py): tables set up at once (their seed and first deal need no
    # player to think), and how long a table may wait on its players before it lends its
    # bots to a table that waits, when setting up and when playing
    setup_tables: int = 32
    setup_wait: float = 1.0
    idle_seconds: float = 30.0
