"""`gamenight relay`: the headless relay (embedded broker, game archive, bot seats) with its
browser door (net/doors/web.py) and SSH door (net/doors/ssh.py)."""

from __future__ import annotations

import argparse
import asyncio
from typing import Any

from .cli_net_common import (
    check_broker_exposure,
    cli_error,
    net_settings,
    read_config,
    run_network,
    say,
)


def cmd_relay(args: argparse.Namespace) -> int:
    from pathlib import Path

    config = read_config()
    settings = net_settings(args, config, args.broker)
    check_broker_exposure(settings)
    if args.bots < 0:
        raise cli_error("--bots cannot be negative")
    web = _web_door_options(args)
    ssh = _ssh_door_options(args, settings.bind)
    return run_network(_relay(settings, args.bots, Path(args.archive) if args.archive else None, web, ssh,
                              bot_level=args.bot_level))


async def _relay(settings: Any, bots: int, archive: Any, web: dict[str, Any] | None = None,
                 ssh: Any = None, bot_level: str = "normal") -> int:
    from net.doors.env import broker_access
    from net.relay import Relay

    relay = Relay(settings, max_bots=bots, archive=archive, bot_level=bot_level)
    await relay.start()
    pin = f"; certificate sha256 {settings.fingerprint}" if settings.fingerprint else ""
    bots_said = f"up to {bots} {bot_level} bots" if bots else "no bots"
    say(f"relay on {relay.url} (archive {relay.archive}, {bots_said}{pin}); Ctrl-C stops it")
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


def _stop_on_sigterm() -> None:
    """SIGTERM (systemd's stop) ends the relay as Ctrl-C does: its doors' sessions end cleanly.
    Once: a second SIGTERM while it stops (`timeout` passing on the one it got, an impatient
    operator) must not cut the stopping short, which printed a CancelledError traceback."""
    import signal

    task = asyncio.current_task()
    if task is None:
        return
    loop = asyncio.get_running_loop()

    def stop() -> None:
        loop.add_signal_handler(signal.SIGTERM, lambda: None)  # already stopping
        task.cancel()

    loop.add_signal_handler(signal.SIGTERM, stop)


# ---- the browser door (net/doors/web.py) -----------------------------------------------
def web_door_args(parser: argparse.ArgumentParser) -> None:
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
        raise cli_error(f"--web must be a port from 0 to 65535, not {args.web}")
    if args.web_sessions < 1:
        raise cli_error(f"--web-sessions must be at least 1, not {args.web_sessions}")
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
    say(f"browser door on {door.url(host)} (up to {web['sessions']} tabs); give this address, "
        "key included, to the friends who play in a browser")
    return door



# ---- the SSH door (net/doors/ssh.py) ---------------------------------------------------
def ssh_door_args(parser: argparse.ArgumentParser) -> None:
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
                raise cli_error(f"--{flag.replace('_', '-')} needs --ssh PORT")
        return None
    import sys
    from pathlib import Path

    from net.doors.limits import DoorLimits
    from net.doors.ssh import SshDoorOptions
    from net.doors.ssh_keys import HOST_KEY_NAME
    from net.paths import data_dir

    address, _, port_text = args.ssh.rpartition(":")
    if not port_text.isdigit() or not 0 <= int(port_text) <= 65535:
        raise cli_error(f"--ssh must be a port from 0 to 65535 (or ADDR:PORT), not {args.ssh}")
    bind = address.strip("[]") or bind
    if bool(args.open) == bool(args.authorized_keys):
        raise cli_error("--ssh needs --authorized-keys FILE (admit those keys) or --open (admit any key)")
    if args.authorized_keys:
        from net.doors.ssh_keys import AuthorizedKeys, KeyFileError

        try:
            AuthorizedKeys(Path(args.authorized_keys))  # a file that does not read stops us before we listen
        except KeyFileError as exc:
            raise cli_error(str(exc)) from None
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
        raise cli_error(f"--ssh: {exc}") from None


async def _start_ssh_door(options: Any, broker_url: str, access: tuple[tuple[str, str], ...] = ()) -> Any:
    """Start the door next to the relay and print what a host tells its players."""
    from net.doors.ssh import SshDoor
    from net.doors.ssh_keys import KeyFileError, count_keys

    try:
        door = SshDoor(options, broker_url, access)
        await door.start()
    except KeyFileError as exc:
        raise cli_error(str(exc)) from None
    except OSError as exc:
        raise cli_error(f"cannot listen for SSH on {options.bind}:{options.port}: {exc.strerror or exc}") from None
    who = ("ANY key (--open): whoever reaches this port can play" if options.open
           else f"the {count_keys(options.authorized_keys)} keys in {options.authorized_keys}")
    say(f"ssh door on {options.bind}:{door.port} (players: ssh -p {door.port} HOST), "
        f"host key {door.fingerprint}; admitting {who}")
    return door

