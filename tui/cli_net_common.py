"""What the network commands (tui/cli_net*.py) share: settings from the flags and config, the
checks made before the TUI takes the terminal, running a network coroutine as one CLI line on
failure, and the headless progress lines."""

from __future__ import annotations

import argparse
import asyncio
from typing import Any

from .net_games import my_meta


class SelfplayStalled(Exception):
    """A networked self-play game made no progress; the message says who it waited for."""


def cli_error(message: str) -> Exception:
    from tui.cli_args import CliError

    return CliError(message)


def read_config() -> Any:
    from tui.config import load_config

    return load_config()


def net_settings(args: argparse.Namespace, config: Any, broker: str | None) -> Any:
    from net.mqtt import parse_broker
    from tui.config import broker_settings

    chosen = broker or "embedded"
    if chosen != "embedded":
        try:
            chosen = parse_broker(chosen).url
        except ValueError as exc:
            raise cli_error(str(exc)) from None
    port = args.port if getattr(args, "port", None) is not None else config.broker.port
    if not 0 <= port <= 65535:
        raise cli_error(f"--port must be from 0 to 65535, not {port}")
    access: dict[str, Any] = {"insecure": bool(getattr(args, "insecure", False))}
    if getattr(args, "tls", None):
        access["tls"] = True
    return broker_settings(config, chosen, bind=getattr(args, "bind", None) or config.broker.bind, port=port,
                           prefix=getattr(args, "prefix", None) or "gamenight/v1", **access)


def check_broker_exposure(settings: Any) -> None:
    """Before anything starts: an embedded broker off loopback needs a login or TLS."""
    from net.launch import check_exposure

    try:
        check_exposure(settings)
    except ValueError as exc:
        raise cli_error(str(exc)) from None


def invite_from_code(code: str, args: argparse.Namespace, config: Any) -> Any:
    """The invite (broker, gid, pin, cert) a command was given; --broker names another address."""
    from net.invite import parse_invite

    try:
        invite = parse_invite(code, args.broker or config.broker.url)
    except ValueError as exc:
        raise cli_error(str(exc)) from None
    if args.broker and args.broker != "embedded":
        invite = invite._replace(broker=net_settings(args, config, args.broker).broker)
    return invite


def join_settings(args: argparse.Namespace, config: Any, url: str, cert: str) -> Any:
    """The settings to reach `url` with, trusting the certificate the invite code pins (if any)."""
    from net.launch import trusting

    return trusting(net_settings(args, config, url), url, cert)


def run_network(coro: Any) -> int:
    """Run a network coroutine, turning the expected failures into one CLI line."""
    from net.errors import Refused
    from net.mqtt import BrokerUnreachable

    try:
        return int(asyncio.run(coro) or 0)
    except (Refused, BrokerUnreachable, ValueError, SelfplayStalled) as exc:
        raise cli_error(str(exc)) from None
    except TimeoutError:  # an OSError with no text: never let it print a bare "gamenight: "
        raise cli_error("timed out waiting for the network (details in the log)") from None
    except OSError as exc:
        raise cli_error(str(exc) or type(exc).__name__) from None


def run_app(first_screen: Any, config: Any) -> int:
    from tui.app import GamenightApp

    class NetApp(GamenightApp):
        """The normal app, opening on a Host or Join screen instead of the menu."""

        def on_mount(self) -> None:
            super().on_mount()
            self.call_after_refresh(lambda: self.push_screen(first_screen))

    app = NetApp(start=None, config=config)
    app.run()
    return int(app.return_code or 0)


def check_reachable(url: str, timeout: float = 3.0) -> None:
    """Before the TUI takes the terminal: an unreachable broker is one line, not a screen."""
    import socket

    from net.mqtt import parse_broker

    address = parse_broker(url)
    try:
        with socket.create_connection((address.host, address.port), timeout=timeout):
            pass
    except OSError as exc:
        raise cli_error(f"cannot reach the broker at {address.url}: {exc.strerror or exc}") from None


def check_announced(url: str, gid: str, settings: Any, timeout: float = 5.0) -> None:
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

    run_network(look())


def say(*parts: Any) -> None:
    print(*parts, flush=True)


def print_progress(peer: Any) -> None:
    """Headless progress: lobby, start, waits over a second, errors and the result."""
    def on_note(note: Any) -> None:
        if note.kind in ("lobby", "started", "refused", "error", "desync", "presence") and note.text:
            say(note.text)
        elif note.kind == "over":
            ls = peer.lockstep
            result = ls.game.result(ls.state)
            scores = ", ".join(f"{ls.names[s]} {result.scores[s]}" for s in range(len(ls.names)))
            say(f"game over after {ls.step} steps: {scores}; state {ls.hash.hex()[:16]}")

    peer.listeners.append(on_note)

