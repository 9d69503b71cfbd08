"""`gamenight host`: a table announced on the broker, its invite code printed, the Host screen
(or, headless, a bot in the host's seat)."""

from __future__ import annotations

import argparse
import asyncio
from typing import Any

from .cli_net_common import (
    check_broker_exposure,
    cli_error,
    net_settings,
    print_progress,
    read_config,
    run_app,
    run_network,
    say,
)


def cmd_host(args: argparse.Namespace) -> int:
    from engine.core import GameError
    from tui.cli_args import find_game, game_options, player_count

    config = read_config()
    try:
        game = find_game(args.game)
    except GameError as exc:
        raise cli_error(str(exc)) from None
    options = game_options(game, args.edition, args.option)
    players = player_count(game, args.players, options)
    if not 0 <= args.bots < players:
        raise cli_error(f"--bots must be from 0 to {players - 1} for {players} players (you take a seat)")
    if not 0 <= args.relay_bots < players - args.bots:
        raise cli_error("--relay-bots must leave at least the host's seat free")
    settings = net_settings(args, config, args.broker)
    check_broker_exposure(settings)
    name = args.name or config.player.name
    delay = config.ui.bot_delay if args.bot_delay is None else args.bot_delay
    request = dict(game_id=game.id, players=players, bots=args.bots, options=options, settings=settings,
                   name=name, relay_bots=args.relay_bots, gid=args.gid, table=host_table_settings(args))
    if args.headless:
        return run_network(host_headless(request, args.bot_delay or 0.0))
    from net.session import new_gid
    from tui.screens.host import HostRequest, HostScreen

    request["gid"] = request["gid"] or new_gid(game.id)
    say(f"invite code: {planned_invite(settings, request['gid'])}")

    return run_app(HostScreen(HostRequest(**request, bot_delay=delay)), config)


def host_table_settings(args: argparse.Namespace) -> dict[str, Any]:
    """The host's --clock and --deadline as the table settings every peer receives."""
    from tui.cli_args import parse_clock

    table: dict[str, Any] = {"clock": str(parse_clock(args.clock))}
    if args.deadline is not None:
        if not 5 <= args.deadline <= 24 * 3600:
            raise cli_error("--deadline must be from 5 seconds to 24 hours")
        table["act"] = args.deadline
    return table


def planned_invite(settings: Any, gid: str) -> str:
    """The invite of a game about to be hosted (printed before the TUI takes the terminal)."""
    from net.identity import load_or_create
    from net.invite import make_invite
    from net.launch import embedded_fingerprint, embedded_host, invite_fingerprint
    from net.lockstep.admission import host_pin

    pin = host_pin(load_or_create(), gid)  # the same pin the host screen's table will use
    if settings.broker != "embedded":
        return make_invite(settings.broker, gid, pin, invite_fingerprint(settings.broker, settings))
    scheme = "mqtts" if settings.tls or settings.cert_file else "mqtt"
    try:  # the certificate the broker will serve: made now (once, kept) if it is a new self-signed one
        cert = embedded_fingerprint(settings) if scheme == "mqtts" else ""
    except (OSError, ValueError) as exc:
        raise cli_error(str(exc)) from None
    url = f"{scheme}://{embedded_host(settings)}:{settings.port}"
    return make_invite(url, gid, pin, cert or invite_fingerprint(url, settings))


async def host_headless(request: dict[str, Any], delay: float) -> int:
    from net.launch import host_session

    session = await host_session(**request, host_bot="best", bot_delay=delay)
    say(f"invite code: {session.invite}")
    print_progress(session.peer)
    try:
        await session.peer.done.wait()
        await asyncio.sleep(0.3)  # let the last messages reach slower peers
    finally:
        await session.close()
    return 0 if session.peer.lockstep.phase == "over" else 1

