"""Network subcommands of the `gamenight` CLI: host, join, watch, bot, relay; and selfplay --net.

Bad input (unknown game, bad invite code, unreachable broker, busy port, refused join) is one
line on stderr and exit status 2, through tui.cli's CliError.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import statistics
import time
from typing import Any

from engine.bots.levels import LEVELS

from .net_games import last_network_game, my_meta, saved_pin
from .net_resume import host_request, host_screen, invite_again, last_network_screen

log = logging.getLogger(__name__)
_saved_pin = saved_pin  # (the name tests/net/test_invite_cert.py imports)


def add_net_commands(subparsers: argparse._SubParsersAction) -> None:
    """Register host, join, watch, bot and relay."""
    host = subparsers.add_parser("host", help="host a network game and print its invite code")
    host.add_argument("game", help="game id, e.g. money")
    host.add_argument("--players", type=int, help="seats at the table (default 4, within the game's range)")
    host.add_argument("--bots", type=int, default=0, help="seats filled by bots run here (each its own peer)")
    host.add_argument("--relay-bots", type=int, default=0, help="seats a relay on the broker should fill with its bots")
    _broker_args(host, embedded_default=True)
    host.add_argument("--name", help="your name at the table (default from config)")
    host.add_argument("--edition", help="the game's edition, where it has several (`gamenight rules GAME`)")
    host.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                      help="a game option (repeatable; `gamenight rules GAME` lists them)")
    host.add_argument("--clock", help="off (default), move:SECONDS a move, or bank:SECONDS+INCREMENT; each terminal plays its own seat on time-out")
    host.add_argument("--deadline", type=int, metavar="SECONDS",
                      help="seconds a seat may take to act before the others may vote (default 120; 30 to reveal)")
    host.add_argument("--headless", action="store_true", help="no TUI: a bot plays the host's seat, progress is printed")
    host.add_argument("--bot-delay", type=float, default=None, help="seconds local bots wait before acting")
    host.add_argument("--gid", help=argparse.SUPPRESS)
    host.set_defaults(func=cmd_host)

    join = subparsers.add_parser("join", help="join a network game by its invite code (again to resume)")
    join.add_argument("code", nargs="?", help="invite code (mqtt://host:port/game-id); none: rejoin the last network game")
    _broker_args(join, embedded_default=False)
    join.add_argument("--name", help="your name at the table (default from config)")
    join.add_argument("--headless", action="store_true", help="no TUI: a bot plays your seat")
    join.set_defaults(func=cmd_join)

    watch = subparsers.add_parser("watch", help="follow a network game (public view only)")
    watch.add_argument("code", help="invite code")
    _broker_args(watch, embedded_default=False)
    watch.add_argument("--headless", action="store_true", help="print the moves instead of the TUI")
    watch.set_defaults(func=cmd_watch)

    bot = subparsers.add_parser("bot", help="run a bot peer that takes a seat in a network game")
    bot.add_argument("code", help="invite code")
    _broker_args(bot, embedded_default=False)
    bot.add_argument("--kind", default="best", help="bot level: easy, normal (best, heuristic), hard; or random")
    bot.add_argument("--key", help="key file of this bot (default: <data dir>/bot.key)")
    bot.add_argument("--name", default="Bot", help="the bot's name at the table")
    bot.add_argument("--delay", type=float, default=0.0, help="seconds the bot waits before acting")
    bot.set_defaults(func=cmd_bot)

    relay = subparsers.add_parser("relay", help="headless relay: embedded broker, game archive, bot seats")
    relay.add_argument("--bind", default=None, help="address to listen on (default from config: 127.0.0.1)")
    relay.add_argument("--port", type=int, default=None, help="port (default from config: 1883)")
    relay.add_argument("--broker", default="embedded", help="embedded (default) or the URL of a broker to serve")
    relay.add_argument("--bots", type=int, default=0, help="bot peers it may run at once for hosts that ask")
    relay.add_argument("--bot-level", default="normal", choices=LEVELS,
                       help="how its bots play (hard: a second of search per decision)")
    relay.add_argument("--archive", help="directory for the game logs (default: <data dir>/archive)")
    relay.add_argument("--prefix", default="gamenight/v1", help="topic prefix")
    _access_args(relay)
    _web_door_args(relay)
    _ssh_door_args(relay)
    relay.set_defaults(func=cmd_relay)


def _broker_args(parser: argparse.ArgumentParser, embedded_default: bool) -> None:
    default = "embedded (start one here)" if embedded_default else "from the invite code or config"
    parser.add_argument("--broker", help=f"'embedded' or mqtt://host:port / mqtts://host:port (default: {default})")
    parser.add_argument("--bind", help="embedded broker: address to listen on (default 127.0.0.1)")
    parser.add_argument("--port", type=int, help="embedded broker: port (default 1883)")
    parser.add_argument("--prefix", default="gamenight/v1", help="topic prefix (default gamenight/v1)")
    if embedded_default:
        _access_args(parser)


def _access_args(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--tls", action="store_true", default=None,
                        help="embedded broker: TLS only (config cert_file/key_file, else a self-signed one)")
    parser.add_argument("--insecure", action="store_true",
                        help="embedded broker: allow listening off 127.0.0.1 with neither login nor TLS")


def _ssh_door_args(parser: argparse.ArgumentParser) -> None:
    """The relay's SSH door: `ssh -p PORT host` opens a visitor's own gamenight (docs/network.md)."""
    from net.doors.limits import DoorLimits

    d = DoorLimits()
    door = parser.add_argument_group("SSH door (players need only an ssh client)")
    door.add_argument("--ssh", metavar="[ADDR:]PORT",
                      help="also listen for SSH on PORT (at --bind's address, or at ADDR: e.g. 0.0.0.0:2222 opens only the door)")
    door.add_argument("--authorized-keys", metavar="FILE", help="admit only the keys in FILE (OpenSSH format)")
    door.add_argument("--open", action="store_true", help="admit any SSH key (each key is its own player)")
    door.add_argument("--ssh-sessions-per-key", type=int, default=d.sessions_per_key, metavar="N",
                      help=f"sessions one key may have open at once (default {d.sessions_per_key})")
    door.add_argument("--ssh-sessions", type=int, default=d.sessions_total, metavar="N",
                      help=f"sessions open at once in total (default {d.sessions_total})")
    door.add_argument("--ssh-connections-per-minute", type=float, default=d.connections_per_minute, metavar="N",
                      help=f"new connections from one address a minute, {d.connection_burst} at once (default {d.connections_per_minute:g})")
    door.add_argument("--ssh-auth-per-minute", type=float, default=d.auth_per_minute, metavar="N",
                      help=f"keys one address may offer a minute, {d.auth_burst} at once (default {d.auth_per_minute:g})")
    door.add_argument("--ssh-idle-minutes", type=float, default=d.idle_seconds / 60, metavar="M",
                      help=f"end a session with no key pressed for M minutes (default {d.idle_seconds / 60:g})")
    door.add_argument("--ssh-session-hours", type=float, default=d.session_seconds / 3600, metavar="H",
                      help=f"the longest session (default {d.session_seconds / 3600:g} hours)")


def _ssh_door_options(args: argparse.Namespace, bind: str) -> Any:
    """The door's options from the relay's flags, or None without --ssh; bad flags are one line."""
    if args.ssh is None:
        for flag in ("authorized_keys", "open"):
            if getattr(args, flag):
                raise _cli_error(f"--{flag.replace('_', '-')} needs --ssh PORT")
        return None
    import sys
    from pathlib import Path

    from net.doors.limits import DoorLimits
    from net.doors.ssh import SshDoorOptions
    from net.doors.ssh_keys import HOST_KEY_NAME
    from net.paths import data_dir

    address, _, port_text = args.ssh.rpartition(":")
    if not port_text.isdigit() or not 0 <= int(port_text) <= 65535:
        raise _cli_error(f"--ssh must be a port from 0 to 65535 (or ADDR:PORT), not {args.ssh}")
    bind = address.strip("[]") or bind
    if bool(args.open) == bool(args.authorized_keys):
        raise _cli_error("--ssh needs --authorized-keys FILE (admit those keys) or --open (admit any key)")
    if args.authorized_keys:
        from net.doors.ssh_keys import AuthorizedKeys, KeyFileError

        try:
            AuthorizedKeys(Path(args.authorized_keys))  # a file that does not read stops us before we listen
        except KeyFileError as exc:
            raise _cli_error(str(exc)) from None
    try:
        limits = DoorLimits(
            sessions_per_key=args.ssh_sessions_per_key, sessions_total=args.ssh_sessions,
            connections_per_minute=args.ssh_connections_per_minute,
            connection_burst=max(1, min(DoorLimits.connection_burst, int(args.ssh_connections_per_minute))),
            auth_per_minute=args.ssh_auth_per_minute,
            auth_burst=max(1, min(DoorLimits.auth_burst, int(args.ssh_auth_per_minute))),
            idle_seconds=args.ssh_idle_minutes * 60, session_seconds=args.ssh_session_hours * 3600)
        return SshDoorOptions(
            port=int(port_text), bind=bind, command=(sys.executable, "-m", "tui.cli"),
            root=data_dir() / "doors" / "ssh", host_key=data_dir() / HOST_KEY_NAME,
            authorized_keys=Path(args.authorized_keys) if args.authorized_keys else None,
            open=bool(args.open), limits=limits)
    except ValueError as exc:
        raise _cli_error(f"--ssh: {exc}") from None


def _stop_on_sigterm() -> None:
    """SIGTERM (systemd's stop) ends the relay as Ctrl-C does: its doors' sessions end cleanly."""
    import signal

    task = asyncio.current_task()
    if task is not None:
        asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, task.cancel)


async def _start_ssh_door(options: Any, broker_url: str, access: tuple[tuple[str, str], ...] = ()) -> Any:
    """Start the door next to the relay and print what a host tells its players."""
    from net.doors.ssh import SshDoor
    from net.doors.ssh_keys import KeyFileError, count_keys

    try:
        door = SshDoor(options, broker_url, access)
        await door.start()
    except KeyFileError as exc:
        raise _cli_error(str(exc)) from None
    except OSError as exc:
        raise _cli_error(f"cannot listen for SSH on {options.bind}:{options.port}: {exc.strerror or exc}") from None
    who = ("ANY key (--open): whoever reaches this port can play" if options.open
           else f"the {count_keys(options.authorized_keys)} keys in {options.authorized_keys}")
    _print(f"ssh door on {options.bind}:{door.port} (players: ssh -p {door.port} HOST), "
           f"host key {door.fingerprint}; admitting {who}")
    return door


# ---- shared helpers ---------------------------------------------------------------------
def _cli_error(message: str) -> Exception:
    from tui.cli_args import CliError

    return CliError(message)


def _config() -> Any:
    from tui.config import load_config

    return load_config()


def _settings(args: argparse.Namespace, config: Any, broker: str | None) -> Any:
    from net.mqtt import parse_broker
    from tui.config import broker_settings

    chosen = broker or "embedded"
    if chosen != "embedded":
        try:
            chosen = parse_broker(chosen).url
        except ValueError as exc:
            raise _cli_error(str(exc)) from None
    port = args.port if getattr(args, "port", None) is not None else config.broker.port
    if not 0 <= port <= 65535:
        raise _cli_error(f"--port must be from 0 to 65535, not {port}")
    access: dict[str, Any] = {"insecure": bool(getattr(args, "insecure", False))}
    if getattr(args, "tls", None):
        access["tls"] = True
    return broker_settings(config, chosen, bind=getattr(args, "bind", None) or config.broker.bind, port=port,
                           prefix=getattr(args, "prefix", None) or "gamenight/v1", **access)


def _check_exposure(settings: Any) -> None:
    """Before anything starts: an embedded broker off loopback needs a login or TLS."""
    from net.launch import check_exposure

    try:
        check_exposure(settings)
    except ValueError as exc:
        raise _cli_error(str(exc)) from None


def _parseinvite_again(code: str, args: argparse.Namespace, config: Any) -> Any:
    """The invite (broker, gid, pin, cert) a command was given; --broker names another address."""
    from net.invite import parse_invite

    try:
        invite = parse_invite(code, args.broker or config.broker.url)
    except ValueError as exc:
        raise _cli_error(str(exc)) from None
    if args.broker and args.broker != "embedded":
        invite = invite._replace(broker=_settings(args, config, args.broker).broker)
    return invite


def _join_settings(args: argparse.Namespace, config: Any, url: str, cert: str) -> Any:
    """The settings to reach `url` with, trusting the certificate the invite code pins (if any)."""
    from net.launch import trusting

    return trusting(_settings(args, config, url), url, cert)


def _run(coro: Any) -> int:
    """Run a network coroutine, turning the expected failures into one CLI line."""
    from net.errors import Refused
    from net.mqtt import BrokerUnreachable

    try:
        return int(asyncio.run(coro) or 0)
    except (Refused, BrokerUnreachable, ValueError, SelfplayStalled) as exc:
        raise _cli_error(str(exc)) from None
    except TimeoutError:  # an OSError with no text: never let it print a bare "gamenight: "
        raise _cli_error("timed out waiting for the network (details in the log)") from None
    except OSError as exc:
        raise _cli_error(str(exc) or type(exc).__name__) from None


def _run_app(first_screen: Any, config: Any) -> int:
    from tui.app import GamenightApp

    class NetApp(GamenightApp):
        """The normal app, opening on a Host or Join screen instead of the menu."""

        def on_mount(self) -> None:
            super().on_mount()
            self.call_after_refresh(lambda: self.push_screen(first_screen))

    app = NetApp(start=None, config=config)
    app.run()
    return int(app.return_code or 0)


def _check_reachable(url: str, timeout: float = 3.0) -> None:
    """Before the TUI takes the terminal: an unreachable broker is one line, not a screen."""
    import socket

    from net.mqtt import parse_broker

    address = parse_broker(url)
    try:
        with socket.create_connection((address.host, address.port), timeout=timeout):
            pass
    except OSError as exc:
        raise _cli_error(f"cannot reach the broker at {address.url}: {exc.strerror or exc}") from None


def _check_announced(url: str, gid: str, settings: Any, timeout: float = 5.0) -> None:
    """Before the TUI: a code for no game on that broker is one line (after a bounded wait),
    unless this machine played that game (its own log lets it rejoin)."""
    if my_meta(gid):
        return

    async def look() -> None:
        from net.launch import connect
        from net.session import fetch_announce

        transport = await connect(url, settings, timeout=timeout)
        try:
            await fetch_announce(transport, gid, settings.prefix, timeout=timeout)
        finally:
            await transport.stop()

    _run(look())


def _print(*parts: Any) -> None:
    print(*parts, flush=True)


def _printer(peer: Any) -> None:
    """Headless progress: lobby, start, waits over a second, errors and the result."""
    def on_note(note: Any) -> None:
        if note.kind in ("lobby", "started", "refused", "error", "desync", "presence") and note.text:
            _print(note.text)
        elif note.kind == "over":
            ls = peer.lockstep
            result = ls.game.result(ls.state)
            scores = ", ".join(f"{ls.names[s]} {result.scores[s]}" for s in range(len(ls.names)))
            _print(f"game over after {ls.step} steps: {scores}; state {ls.hash.hex()[:16]}")

    peer.listeners.append(on_note)


# ---- host -------------------------------------------------------------------------------
def cmd_host(args: argparse.Namespace) -> int:
    from engine.core import GameError
    from tui.cli_args import find_game, game_options, player_count

    config = _config()
    try:
        game = find_game(args.game)
    except GameError as exc:
        raise _cli_error(str(exc)) from None
    options = game_options(game, args.edition, args.option)
    players = player_count(game, args.players, options)
    if not 0 <= args.bots < players:
        raise _cli_error(f"--bots must be from 0 to {players - 1} for {players} players (you take a seat)")
    if not 0 <= args.relay_bots < players - args.bots:
        raise _cli_error("--relay-bots must leave at least the host's seat free")
    settings = _settings(args, config, args.broker)
    _check_exposure(settings)
    name = args.name or config.player.name
    delay = config.ui.bot_delay if args.bot_delay is None else args.bot_delay
    request = dict(game_id=game.id, players=players, bots=args.bots, options=options, settings=settings,
                   name=name, relay_bots=args.relay_bots, gid=args.gid, table=_table_settings(args))
    if args.headless:
        return _run(_host_headless(request, args.bot_delay or 0.0))
    from net.session import new_gid
    from tui.screens.host import HostRequest, HostScreen

    request["gid"] = request["gid"] or new_gid(game.id)
    _print(f"invite code: {_planned_invite(settings, request['gid'])}")

    return _run_app(HostScreen(HostRequest(**request, bot_delay=delay)), config)


def _table_settings(args: argparse.Namespace) -> dict[str, Any]:
    """The host's --clock and --deadline as the table settings every peer receives."""
    from tui.cli_args import parse_clock

    table: dict[str, Any] = {"clock": str(parse_clock(args.clock))}
    if args.deadline is not None:
        if not 5 <= args.deadline <= 24 * 3600:
            raise _cli_error("--deadline must be from 5 seconds to 24 hours")
        table["act"] = args.deadline
    return table


def _planned_invite(settings: Any, gid: str) -> str:
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
        raise _cli_error(str(exc)) from None
    url = f"{scheme}://{embedded_host(settings)}:{settings.port}"
    return make_invite(url, gid, pin, cert or invite_fingerprint(url, settings))


async def _host_headless(request: dict[str, Any], delay: float) -> int:
    from net.launch import host_session

    session = await host_session(**request, host_bot="best", bot_delay=delay)
    _print(f"invite code: {session.invite}")
    _printer(session.peer)
    try:
        await session.peer.done.wait()
        await asyncio.sleep(0.3)  # let the last messages reach slower peers
    finally:
        await session.close()
    return 0 if session.peer.lockstep.phase == "over" else 1


# ---- join / watch / bot -----------------------------------------------------------------
def resume_last_network(config: Any = None) -> int:
    """Rejoin the most recent unfinished network game in the TUI (for `gamenight resume`)."""
    config = config or _config()
    url, gid = last_network_game()
    if my_meta(gid).get("role") != "host":  # a host restarts its own broker
        _check_reachable(url)
    return _run_app(last_network_screen(config), config)


def _reopen_as_host(meta: dict[str, Any], gid: str, config: Any, headless: bool) -> int:
    """The host rejoins its own table: restart its embedded broker if it had one, replay its log."""
    request = host_request(meta, gid, config)
    if headless:
        return _run(_host_headless(request, 0.0))
    return _run_app(host_screen(request, config, listed=bool(meta.get("listed"))), config)


def cmd_join(args: argparse.Namespace) -> int:
    config = _config()
    if args.code:
        url, gid, pin, cert = _parseinvite_again(args.code, args, config)
    else:
        url, gid = last_network_game()
        pin, cert = saved_pin(gid)
    meta = my_meta(gid)
    if meta.get("role") == "host" and not meta.get("finished"):
        return _reopen_as_host(meta, gid, config, args.headless)
    name = args.name or config.player.name
    settings = _join_settings(args, config, url, cert)
    if args.headless:
        return _run(_join_headless(url, gid, settings, name, bot="best", watch=False, pin=pin))
    _check_reachable(url)
    _check_announced(url, gid, settings)
    from tui.screens.join import JoinScreen

    return _run_app(JoinScreen(code=invite_again(url, gid, pin, cert), name=name), config)


def cmd_watch(args: argparse.Namespace) -> int:
    config = _config()
    url, gid, pin, cert = _parseinvite_again(args.code, args, config)
    settings = _join_settings(args, config, url, cert)
    _check_reachable(url)
    _check_announced(url, gid, settings)
    if args.headless:
        return _run(_join_headless(url, gid, settings, config.player.name, bot=None, watch=True, pin=pin))
    from tui.screens.join import JoinScreen

    return _run_app(JoinScreen(code=invite_again(url, gid, pin, cert), watch=True), config)


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
            _print(line)


async def _join_headless(url: str, gid: str, settings: Any, name: str, bot: str | None, watch: bool,
                         identity: Any = None, delay: float = 0.0, pin: Any = None) -> int:
    from net.launch import join_session

    session = await join_session(url, gid, settings=settings, name=name, bot=bot, watch=watch,
                                 identity=identity, bot_delay=delay, pin=pin)
    peer = session.peer
    _printer(peer)
    if watch:
        peer.listeners.append(lambda note: _print_step(peer, note))
    try:
        await peer.done.wait()
        await asyncio.sleep(0.3)
    finally:
        await session.close()
    if peer.lockstep.refused:
        raise _cli_error(peer.lockstep.refused)
    return 0 if peer.lockstep.phase == "over" else 1


def cmd_bot(args: argparse.Namespace) -> int:
    from pathlib import Path

    from engine.bots import bot_kinds
    from net.identity import load_or_create
    from net.paths import data_dir

    config = _config()
    url, gid, pin, cert = _parseinvite_again(args.code, args, config)
    kinds = {"best", *bot_kinds(gid.rsplit("-", 1)[0])}
    if args.kind not in kinds:
        raise _cli_error(f"--kind must be one of {', '.join(sorted(kinds))}")
    identity = load_or_create(Path(args.key) if args.key else data_dir() / "bot.key")
    settings = _join_settings(args, config, url, cert)
    return _run(_join_headless(url, gid, settings, args.name, bot=args.kind, watch=False,
                               identity=identity, delay=args.delay, pin=pin))


# ---- relay ------------------------------------------------------------------------------
def cmd_relay(args: argparse.Namespace) -> int:
    from pathlib import Path

    config = _config()
    settings = _settings(args, config, args.broker)
    _check_exposure(settings)
    if args.bots < 0:
        raise _cli_error("--bots cannot be negative")
    web = _web_door_options(args)
    ssh = _ssh_door_options(args, settings.bind)
    return _run(_relay(settings, args.bots, Path(args.archive) if args.archive else None, web, ssh,
                       bot_level=args.bot_level))


async def _relay(settings: Any, bots: int, archive: Any, web: dict[str, Any] | None = None,
                 ssh: Any = None, bot_level: str = "normal") -> int:
    from net.doors.env import broker_access
    from net.relay import Relay

    relay = Relay(settings, max_bots=bots, archive=archive, bot_level=bot_level)
    await relay.start()
    pin = f"; certificate sha256 {settings.fingerprint}" if settings.fingerprint else ""
    bots_said = f"up to {bots} {bot_level} bots" if bots else "no bots"
    _print(f"relay on {relay.url} (archive {relay.archive}, {bots_said}{pin}); Ctrl-C stops it")
    doors = []
    _stop_on_sigterm()
    # The doors' visitors log in to the relay's broker and trust its certificate as the relay does
    # (its pin is known once the broker has started): their invite codes name that broker.
    access = broker_access(username=settings.username, password=settings.password, ca_file=settings.ca_file,
                           fingerprint=settings.fingerprint)
    try:
        if web:
            doors.append(await _start_web_door(relay.url, settings.bind, web, access))
        if ssh is not None:
            doors.append(await _start_ssh_door(ssh, relay.url, access))
        await relay.wait()
    except asyncio.CancelledError:
        pass
    finally:
        for door in doors:
            await door.stop()
        await relay.stop()
    return 0


# ---- the browser door (net/doors/web.py) -----------------------------------------------
def _web_door_args(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--web", type=int, metavar="PORT",
                        help="browser door: each browser tab gets its own gamenight on this port "
                             "(on --bind; the address to give out, with its key, is printed)")
    parser.add_argument("--web-sessions", type=int, default=8, metavar="N",
                        help="browser door: tabs at once (default 8); the next is told the server is full")
    parser.add_argument("--web-name", metavar="NAME", help="browser door: the page title's name (default: this machine's)")


def _web_door_options(args: argparse.Namespace) -> dict[str, Any] | None:
    if args.web is None:
        return None
    if not 0 <= args.web <= 65535:
        raise _cli_error(f"--web must be a port from 0 to 65535, not {args.web}")
    if args.web_sessions < 1:
        raise _cli_error(f"--web-sessions must be at least 1, not {args.web_sessions}")
    return {"port": args.web, "sessions": args.web_sessions, "name": args.web_name}


async def _start_web_door(broker_url: str, bind: str, web: dict[str, Any],
                          access: tuple[tuple[str, str], ...] = ()) -> Any:
    from net.doors.env import Door
    from net.doors.web import WebDoor, WebLimits, door_title
    from net.launch import lan_address
    from net.paths import data_dir

    door = WebDoor(Door(data_dir() / "door", broker_url, "web", access), bind=bind, port=web["port"],
                   title=door_title(web["name"]), limits=WebLimits(sessions=web["sessions"]))
    await door.start()
    host = lan_address() if bind in ("0.0.0.0", "") else None
    _print(f"browser door on {door.url(host)} (up to {web['sessions']} tabs); give this address, "
           "key included, to the friends who play in a browser")
    return door


# ---- selfplay --net ---------------------------------------------------------------------
def run_selfplay_net(args: argparse.Namespace) -> int:
    """`gamenight selfplay GAME --net`: every seat a bot peer through the broker; JSON summary."""
    from engine.core import GameError
    from tui.cli_args import find_game, player_count

    try:
        game = find_game(args.game)
    except GameError as exc:
        raise _cli_error(str(exc)) from None
    players = player_count(game, args.players, {})
    if args.games < 1:
        raise _cli_error(f"--games must be at least 1, not {args.games}")
    config = _config()
    settings = _settings(args, config, args.broker or "embedded")
    if settings.broker == "embedded":
        settings.port = 0  # a free port: self-play must not collide with a hosted game
    return _run(_selfplay_net(game.id, players, args.games, args.bots, settings, bool(args.json)))


STALL_AFTER = 120.0
"""Seconds a self-play table may go without accepting a message before it counts as stalled:
far above a bot's think time and the peers' own 2-30 s re-asking (net/peer.py)."""


class SelfplayStalled(Exception):
    """A networked self-play game made no progress; the message says who it waited for."""


async def _close_all(peers: list[Any], transports: list[Any]) -> None:
    for p in peers:
        await p.stop(clean=False)
    for t in transports:
        await t.stop()


def _progress(peers: list[Any]) -> tuple:
    return tuple((p.lockstep.phase, p.lockstep.step, len(p.lockstep.accepted)) for p in peers)


async def _until_done_or_stalled(peers: list[Any], stall_after: float) -> float:
    """0 once every peer is done; else the seconds without progress when that reached `stall_after`.

    A slow game is fine as long as it moves: only a table where no peer accepted anything for
    `stall_after` seconds counts as stalled.
    """
    loop = asyncio.get_running_loop()
    last, since = _progress(peers), loop.time()
    while not all(p.done.is_set() for p in peers):
        await asyncio.sleep(0.2)
        mark = _progress(peers)
        if mark != last:
            last, since = mark, loop.time()
        elif loop.time() - since >= stall_after:
            return loop.time() - since
    return 0.0


def _stall_report(peers: list[Any], which: str, seconds: float) -> str:
    """One line: where each peer stands and whom it waits for."""
    parts = []
    for seat, peer in enumerate(peers):
        ls = peer.lockstep
        if peer.done.is_set():
            parts.append(f"Bot {seat} done ({ls.phase})")
            continue
        awaited = sorted(ls.awaited())
        if ls.phase == "lobby":
            wants = f"{len(ls.seat_keys)} of {ls.table.players if ls.table else '?'} seats taken"
        elif awaited:
            what = "seed" if ls.phase == "seed" else ls.step_mode()
            wants = f"waits for {', '.join(f'seat {s}' for s in awaited)} ({what})"
        else:
            wants = "waits for nothing it knows of (a message lost on the way?)"
        connected = "" if peer.transport.connected.is_set() else ", not connected to the broker"
        parts.append(f"Bot {seat} at step {ls.step} ({ls.phase}) {wants}{connected}")
    return f"{which} made no progress for {seconds:.0f} s: " + "; ".join(parts)


async def net_selfplay(game_id: str, players: int, games: int, bots: str, settings: Any,
                       stall_after: float | None = None) -> dict[str, Any]:
    """Play `games` networked bot games one after another and measure the wire.

    Raises SelfplayStalled when a game makes no progress for `stall_after` seconds
    (default STALL_AFTER).
    """
    stall_after = STALL_AFTER if stall_after is None else stall_after
    from engine.registry import get_game
    from net.identity import Identity
    from net.launch import connect, presence_will, start_broker
    from net.session import host_game, join_game, new_gid

    game = get_game(game_id)
    kinds = [k.strip() for k in bots.split(",")] if "," in bots else [bots] * players
    if len(kinds) != players:
        raise ValueError(f"--bots lists {len(kinds)} bots for {players} players")
    url, broker = await start_broker(settings)
    seq: list[float] = []
    cr: list[float] = []
    messages = desyncs = finished = actions = audited = 0
    accused: set[int] = set()
    wins, totals = [0] * players, [0] * players
    mismatched = 0
    started = time.perf_counter()
    try:
        for index in range(games):
            gid = new_gid(game.id)
            ids = [Identity.generate() for _ in range(players)]
            transports = [await connect(url, settings, presence_will(i, gid, f"Bot {s}", settings.prefix))
                          for s, i in enumerate(ids)]
            peers = [await host_game(game, transports[0], ids[0], players=players, name="Bot 0", gid=gid,
                                     prefix=settings.prefix, persist=False, bot=kinds[0])]
            for s in range(1, players):
                peers.append(await join_game(transports[s], ids[s], gid, name=f"Bot {s}", prefix=settings.prefix,
                                             persist=False, bot=kinds[s], game=game))
            stalled = await _until_done_or_stalled(peers, stall_after)
            if stalled:
                report = _stall_report(peers, f"game {index + 1} of {games} ({gid})", stalled)
                await _close_all(peers, transports)
                raise SelfplayStalled(report)
            if peers[0].lockstep.dealt:  # the end audit follows the last step at once
                await _until_audited(peers, stall_after)
            for p in peers:
                await p.flush()
            for p in peers:
                ls = p.lockstep
                messages += p.sent
                desyncs += 1 if ls.frozen else 0
                for kind, seconds in p.metrics.step_kinds:
                    (seq if kind == "act" else cr).append(seconds * 1000)
            ls0 = peers[0].lockstep
            if ls0.phase == "over":
                finished += 1
                result = game.result(ls0.state)
                if len({p.lockstep.hash for p in peers}) != 1 or not ls0.replays():
                    mismatched += 1
                audited += ls0.deal_verdict == "verified"
                for p in peers:
                    accused.update(p.lockstep.accused())
                for seat in result.winners:
                    wins[seat] += 1
                for seat, score in enumerate(result.scores):
                    totals[seat] += score
                actions += sum(len(step) for step in ls0.game_log.steps)
            await _close_all(peers, transports)
    finally:
        if broker is not None:
            await broker.stop()
    seconds = max(time.perf_counter() - started, 1e-9)
    return {
        "game": game.id, "players": players, "games": games, "finished": finished, "actions": actions,
        "seconds": round(seconds, 3), "games_per_s": round(games / seconds, 2),
        "actions_per_s": round(actions / seconds, 1), "wins": wins,
        "mean_score": [round(t / finished, 2) if finished else 0 for t in totals],
        "net": True, "broker": "embedded amqtt" if broker is not None else url,
        "messages": messages, "desyncs": desyncs + mismatched,
        # hidden cards: games whose end audit verified the deal, seats an audit or proof named
        "audited": audited, "accused": sorted(accused),
        "step_latency_ms": {"sequential": _stats(seq), "commit_reveal": _stats(cr)},
    }


async def _until_audited(peers: list[Any], seconds: float) -> None:
    """Wait (at most `seconds`) for every peer's verdict on the deal."""
    loop = asyncio.get_running_loop()
    end = loop.time() + seconds
    while loop.time() < end and not all(p.lockstep.deal_verdict for p in peers):
        await asyncio.sleep(0.01)


def _stats(values: list[float]) -> dict[str, Any]:
    if not values:
        return {"steps": 0, "median": None, "p99": None}
    ordered = sorted(values)
    p99 = ordered[min(len(ordered) - 1, int(round(0.99 * (len(ordered) - 1))))]
    return {"steps": len(values), "median": round(statistics.median(ordered), 3), "p99": round(p99, 3)}


async def _selfplay_net(game_id: str, players: int, games: int, bots: str, settings: Any, as_json: bool) -> int:
    summary = await net_selfplay(game_id, players, games, bots, settings)
    if as_json:
        print(json.dumps(summary))
    else:
        lat = summary["step_latency_ms"]
        print(
            f"{summary['games']} networked games of {summary['game']} for {summary['players']} via "
            f"{summary['broker']} in {summary['seconds']} s: {summary['messages']} messages, "
            f"{summary['desyncs']} desyncs; deal verified by the end audit in {summary['audited']} games"
            f"{', seats accused: ' + str(summary['accused']) if summary['accused'] else ''}\n"
            f"step latency ms: sequential median {lat['sequential']['median']} p99 {lat['sequential']['p99']}; "
            f"commit-reveal median {lat['commit_reveal']['median']} p99 {lat['commit_reveal']['p99']}\n"
            f"wins per seat: {summary['wins']}\nmean score per seat: {summary['mean_score']}"
        )
    return 0 if summary["desyncs"] == 0 and summary["finished"] == summary["games"] and not summary["accused"] else 1
