"""The network game this machine may rejoin: which one, when it was last played, and the
Host or Join screen that rejoins it (for `gamenight join`/`resume` and the menu's Continue).

Kept apart from the CLI (tui/cli_net.py) so that the app and the local table can ask it
without importing the command modules, which import the app (no import circle in tui/).
Everything from net/ and the screens is imported on use: the network stack loads only when
a network game is asked for.
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


def last_network_screen(config: Any) -> Any:
    """The screen that rejoins the most recent unfinished network game: Host or Join.

    Raises the CLI's one-line error when there is none.
    """
    url, gid = last_network_game()
    meta = my_meta(gid)
    if meta.get("role") == "host":
        return host_screen(host_request(meta, gid, config), config, listed=bool(meta.get("listed")))
    from tui.screens.join import JoinScreen

    return JoinScreen(code=invite_again(url, gid, *saved_pin(gid)))


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


def invite_again(url: str, gid: str, pin: Any, cert: str = "") -> str:
    """The invite code again (for the Join screen), or the bare address when we hold no pin."""
    from net.invite import make_invite

    return make_invite(url, gid, pin, cert) if pin is not None else f"{url}/{gid}"


def host_request(meta: dict[str, Any], gid: str, config: Any) -> dict[str, Any]:
    """The HostRequest fields that reopen the table `gid` as its meta file describes it."""
    from engine.core import from_plain
    from tui.config import broker_settings

    settings = broker_settings(config, "embedded" if meta.get("embedded") else meta["broker"],
                               bind=meta.get("bind", "127.0.0.1"), port=int(meta.get("port", 1883)),
                               prefix=meta.get("prefix", "gamenight/v1"))
    return dict(game_id=meta["game"], players=int(meta["players"]), bots=int(meta.get("bots", 0)),
                options={k: from_plain(v) for k, v in meta.get("options", {}).items()},
                settings=settings, name=meta.get("name", config.player.name),
                relay_bots=int(meta.get("relay_bots", 0)), gid=gid)


def host_screen(request: dict[str, Any], config: Any, listed: bool = False) -> Any:
    """The Host screen reopening a table; `listed`: it was open to the door's visitors (and
    is again, when this process runs behind that door)."""
    from net.doors.env import current
    from tui.screens.host import HostRequest, HostScreen

    listed = listed and current() is not None
    return HostScreen(HostRequest(**request, bot_delay=config.ui.bot_delay, listed=listed))
