"""The Host or Join screen that rejoins this machine's newest unfinished network game (for
`gamenight join`/`resume` and the menu's Continue); tui/net_games.py finds the game.

Kept apart from the CLI (tui/cli_net*.py) so that the app can ask it without importing the
command modules, which import the app (no import circle in tui/). Everything from net/ and
the screens is imported on use: the network stack loads only when a network game is asked for.
"""

from __future__ import annotations

from typing import Any

from .net_games import last_network_game, my_meta, saved_pin


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
