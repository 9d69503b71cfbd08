"""What this machine saved of its network games (net/store.py): the newest unfinished one,
when it was last played, and what this user's key noted about a game (its role, its pins).

No screen is imported here: the local table asks it (Continue: which game is newer) and the
screens sit above the tables. Everything from net/ is imported on use.
"""

from __future__ import annotations

from typing import Any

from .cli_args import CliError


def last_network_game() -> tuple[str, str]:
    """(broker, gid) of the newest unfinished game this machine hosts or plays (CliError: none)."""
    from net.store import saved_games

    for gid, _, meta in saved_games():
        if meta.get("role") in ("host", "player") and meta.get("broker") and not meta.get("finished"):
            return meta["broker"], gid
    raise CliError("no unfinished network game to rejoin: give an invite code")


def last_network_activity() -> float | None:
    """When this machine last wrote to its most recent unfinished network game (None: none)."""
    from net.store import games_dir

    try:
        _, gid = last_network_game()
    except Exception:
        return None
    files = [p for p in (games_dir() / gid).rglob("*") if p.is_file()]
    return max((p.stat().st_mtime for p in files), default=0.0)


def my_meta(gid: str) -> dict[str, Any]:
    """What this machine saved about game `gid` under this user's key ({} if nothing)."""
    from net.identity import load_or_create
    from net.store import GameStore, games_dir

    path = games_dir() / gid / load_or_create().peer_id
    return GameStore(path).load_meta() if (path / "meta.json").exists() else {}


def saved_pin(gid: str) -> tuple[Any, str]:
    """The table pin and broker certificate pin this machine joined `gid` with (to rejoin
    without the code)."""
    from net.invite import parse_pin
    from net.mqtt import normal_pin

    meta = my_meta(gid)
    text, cert = meta.get("pin"), meta.get("cert")
    pin = parse_pin(text) if isinstance(text, str) and text else None
    try:
        cert = normal_pin(cert) if isinstance(cert, str) and cert else ""
    except ValueError:  # a damaged file: rejoin as without it (the broker's certificate decides)
        cert = ""
    return pin, cert
