"""Network subcommands of the `gamenight` CLI: host, join, watch, bot, relay; and selfplay --net.

One module per command beside this one, which registers their arguments: cli_net_host.py,
cli_net_join.py (join, watch, bot, and resume of a network game), cli_net_relay.py (with its
doors), cli_net_selfplay.py; what they share is in cli_net_common.py.

Bad input (unknown game, bad invite code, unreachable broker, busy port, refused join) is one
line on stderr and exit status 2, through tui.cli's CliError.
"""

from __future__ import annotations

import argparse

from engine.bots.levels import LEVELS

from .cli_net_host import cmd_host
from .cli_net_join import cmd_bot, cmd_join, cmd_watch
from .cli_net_relay import cmd_relay, ssh_door_args, web_door_args


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
    web_door_args(relay)
    ssh_door_args(relay)
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

