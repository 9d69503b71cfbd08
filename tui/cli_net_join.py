"""`gamenight join`, `watch` and `bot`: a seat (or the public view) at a table by its invite
code, in the TUI or headless; and `gamenight resume` of the last network game."""

from __future__ import annotations

import argparse
import asyncio
from typing import Any

from .cli_net_common import (
    check_announced,
    check_reachable,
    cli_error,
    invite_from_code,
    join_settings,
    print_progress,
    read_config,
    run_app,
    run_network,
    say,
)
from .cli_net_host import host_headless
from .net_games import last_network_game, my_meta, saved_pin
from .net_resume import host_request, host_screen, invite_again, last_network_screen


def resume_last_network(config: Any = None) -> int:
    """Rejoin the most recent unfinished network game in the TUI (for `gamenight resume`)."""
    config = config or read_config()
    url, gid = last_network_game()
    if my_meta(gid).get("role") != "host":  # a host restarts its own broker
        check_reachable(url)
    return run_app(last_network_screen(config), config)


def _reopen_as_host(meta: dict[str, Any], gid: str, config: Any, headless: bool) -> int:
    """The host rejoins its own table: restart its embedded broker if it had one, replay its log."""
    request = host_request(meta, gid, config)
    if headless:
        return run_network(host_headless(request, 0.0))
    return run_app(host_screen(request, config, listed=bool(meta.get("listed"))), config)


def cmd_join(args: argparse.Namespace) -> int:
    config = read_config()
    if args.code:
        url, gid, pin, cert = invite_from_code(args.code, args, config)
    else:
        url, gid = last_network_game()
        pin, cert = saved_pin(gid)
    meta = my_meta(gid)
    if meta.get("role") == "host" and not meta.get("finished"):
        return _reopen_as_host(meta, gid, config, args.headless)
    name = args.name or config.player.name
    settings = join_settings(args, config, url, cert)
    if args.headless:
        return run_network(_join_headless(url, gid, settings, name, bot="best", watch=False, pin=pin))
    check_reachable(url)
    check_announced(url, gid, settings)
    from tui.screens.join import JoinScreen

    return run_app(JoinScreen(code=invite_again(url, gid, pin, cert), name=name), config)


def cmd_watch(args: argparse.Namespace) -> int:
    config = read_config()
    url, gid, pin, cert = invite_from_code(args.code, args, config)
    settings = join_settings(args, config, url, cert)
    check_reachable(url)
    check_announced(url, gid, settings)
    if args.headless:
        return run_network(_join_headless(url, gid, settings, config.player.name, bot=None, watch=True, pin=pin))
    from tui.screens.join import JoinScreen

    return run_app(JoinScreen(code=invite_again(url, gid, pin, cert), watch=True), config)


def _print_step(peer: Any, note: Any) -> None:
    """A watcher's line per step: its public events, with names (as the log panel says them)."""
    if note.kind != "changed":
        return
    from .log_text import event_lines

    ls = peer.lockstep
    events = note.data.get("events")
    lines = [note.text] if events is None else event_lines(ls.game.id, events, list(ls.names))
    for line in lines:
        if line:
            say(line)


async def _join_headless(url: str, gid: str, settings: Any, name: str, bot: str | None, watch: bool,
                         identity: Any = None, delay: float = 0.0, pin: Any = None) -> int:
    from net.launch import join_session

    session = await join_session(url, gid, settings=settings, name=name, bot=bot, watch=watch,
                                 identity=identity, bot_delay=delay, pin=pin)
    peer = session.peer
    print_progress(peer)
    if watch:
        peer.listeners.append(lambda note: _print_step(peer, note))
    try:
        await peer.done.wait()
        await asyncio.sleep(0.3)
    finally:
        await session.close()
    if peer.lockstep.refused:
        raise cli_error(peer.lockstep.refused)
    return 0 if peer.lockstep.phase == "over" else 1


def cmd_bot(args: argparse.Namespace) -> int:
    from pathlib import Path

    from engine.bots import bot_kinds
    from net.identity import load_or_create
    from net.paths import data_dir

    config = read_config()
    url, gid, pin, cert = invite_from_code(args.code, args, config)
    kinds = {"best", *bot_kinds(gid.rsplit("-", 1)[0])}
    if args.kind not in kinds:
        raise cli_error(f"--kind must be one of {', '.join(sorted(kinds))}")
    identity = load_or_create(Path(args.key) if args.key else data_dir() / "bot.key")
    settings = join_settings(args, config, url, cert)
    return run_network(_join_headless(url, gid, settings, args.name, bot=args.kind, watch=False,
                                      identity=identity, delay=args.delay, pin=pin))

