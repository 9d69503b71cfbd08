"""The `gamenight` command: the TUI menu, local play, bot self-play, the score pad, resume, rules.

Bad input never shows a traceback: it is one line on stderr and exit status 2. Each
subcommand sets `func(args) -> int` with `set_defaults`; the network subcommands are added by
`tui.cli_net.add_net_commands` the same way (one module per command: tui/cli_net_*.py).
"""

from __future__ import annotations

import argparse
import json
import logging
import sys
import time
from collections.abc import Sequence
from importlib import import_module
from pathlib import Path
from typing import Any

from engine.core import GameError, Result
from engine.core.descriptor import GameDescriptor

from .cli_args import (
    EXIT_BAD_INPUT,
    CliError,
    CliParser,
    find_game,
    game_options,
    parse_bot_time,
    parse_bots,
    parse_clock,
    parse_names,
    parse_seed,
    player_count,
)

log = logging.getLogger(__name__)

# ---- subcommands ----------------------------------------------------------------------------
def cmd_menu(args: argparse.Namespace) -> int:
    return _run_app(None)


def cmd_play(args: argparse.Namespace) -> int:
    from tui.config import load_config
    from tui.games import has_screen
    from tui.local_table import LocalTable

    game = find_game(args.game)
    options = game_options(game, args.edition, args.option)
    players = player_count(game, args.players, options)
    bots, bot_kind = parse_bots(args.bots, players)
    if not 0 <= bots <= players:
        raise CliError(f"--bots must be between 0 and {players} for {players} players, not {bots}")
    if not has_screen(game.id):
        raise CliError(f"{game.name} has no screen yet (try `gamenight selfplay {game.id}`)")
    config = load_config()
    names = parse_names(args.names)
    if names is None and players - bots == 1:
        names = [config.player.name]
    if args.bot_delay is not None and not 0 <= args.bot_delay <= 10:
        raise CliError(f"--bot-delay must be from 0 to 10 seconds, not {args.bot_delay}")
    delay = config.ui.bot_delay if args.bot_delay is None else args.bot_delay
    table = LocalTable.new(
        game.id, players, humans=players - bots, seed=parse_seed(args.seed), options=options,
        names=names, bot_delay=delay, clock=parse_clock(args.clock), bot_kind=bot_kind,
        bot_time=parse_bot_time(args.bot_time),
    )
    return _run_app(table, config)


def cmd_resume(args: argparse.Namespace) -> int:
    from tui.config import load_config
    from tui.local_table import (
        DamagedSave,
        SaveError,
        last_save_path,
        load_save,
        network_game_is_newer,
    )

    path = Path(args.file) if args.file else last_save_path()
    if not args.file and network_game_is_newer(path):
        from tui.cli_net_join import resume_last_network

        return resume_last_network()
    if path is None:
        raise CliError("there is no saved game to resume (local or network)")
    config = load_config()
    try:
        table = load_save(path, bot_delay=config.ui.bot_delay)
    except DamagedSave:
        return _run_app(path, config)  # the app says so and offers what is left of it
    except SaveError as exc:
        raise CliError(str(exc)) from None
    return _run_app(table, config)


def cmd_replay(args: argparse.Namespace) -> int:
    from tui.replay import CannotReplay, load_replay
    from tui.replay_export import write_export

    try:
        recorded = load_replay(args.file)
    except CannotReplay as exc:
        raise CliError(str(exc)) from None
    if recorded.notice and args.export is not None:
        print(f"gamenight: {recorded.notice}", file=sys.stderr)  # the app shows it in a dialog
    if args.export is None:
        from tui.app import ReplayApp
        from tui.config import load_config

        app = ReplayApp(recorded, load_config())
        app.run()
        return int(app.return_code or 0)
    if args.export == "-":
        write_export(recorded, sys.stdout)
        return 0
    try:
        with open(args.export, "w", encoding="utf-8") as out:
            write_export(recorded, out)
    except OSError as exc:
        raise CliError(f"cannot write {args.export}: {exc.strerror or exc}") from None
    return 0


def cmd_rules(args: argparse.Namespace) -> int:
    from tui.games import help_text

    game = find_game(args.game)
    print(help_text(game.id))
    return 0


def cmd_selfplay(args: argparse.Namespace) -> int:
    if args.net:
        try:
            run_net = import_module("tui.cli_net_selfplay").run_selfplay_net
        except (ImportError, AttributeError):
            raise CliError("network self-play (--net) is not available in this build") from None
        return int(run_net(args) or 0)
    summary = selfplay(args.game, args.players, args.games, args.seed, args.bots)
    if args.json:
        print(json.dumps(summary))
    else:
        print(
            f"{summary['games']} games of {summary['game']} for {summary['players']} in "
            f"{summary['seconds']} s ({summary['games_per_s']} games/s, "
            f"{summary['actions_per_s']} actions/s)\n"
            f"wins per seat: {summary['wins']}\nmean score per seat: {summary['mean_score']}"
        )
    return 0


def selfplay(game_id: str, players: int | None, games: int, seed: int, bots: str) -> dict[str, Any]:
    """Play `games` bot games (seeds "<seed>:<k>") and summarise them."""
    from engine.bots import play_game

    game = find_game(game_id)
    n = player_count(game, players, {})
    if games < 1:
        raise CliError(f"--games must be at least 1, not {games}")
    kinds: str | list[str] = bots
    if "," in bots:
        kinds = [k.strip() for k in bots.split(",")]
        if len(kinds) != n:
            raise CliError(f"--bots lists {len(kinds)} bots for {n} players")
    wins, totals = [0] * n, [0] * n
    actions = finished = 0
    started = time.perf_counter()
    for k in range(games):
        played = play_game(game, n, f"{seed}:{k}", kinds)
        actions += played.actions
        if played.result is not None:
            finished += 1
            for seat in played.result.winners:
                wins[seat] += 1
            for seat, score in enumerate(played.result.scores):
                totals[seat] += score
    seconds = max(time.perf_counter() - started, 1e-9)
    return {
        "game": game.id,
        "players": n,
        "games": games,
        "finished": finished,
        "actions": actions,
        "seconds": round(seconds, 3),
        "games_per_s": round(games / seconds, 2),
        "actions_per_s": round(actions / seconds, 1),
        "wins": wins,
        "mean_score": [round(t / finished, 2) if finished else 0 for t in totals],
    }


def cmd_score(args: argparse.Namespace) -> int:
    from tui.results import as_json, format_table, winners_line

    if args.template:
        print(json.dumps(score_template(args.game, args.players), indent=2))
        return 0
    if args.file is None:
        raise CliError("give the score pad file (or - for standard input), or --template for a blank one")
    names, result = score_file(args.game, args.file)
    if args.json:
        print(json.dumps(as_json(args.game, names, result)))
    else:
        print(format_table(names, result))
        print(winners_line(names, result))
    return 0


def _descriptor(game_id: str) -> GameDescriptor:
    from engine.registry import get_descriptor

    return get_descriptor(game_id)


def score_template(game_id: str, players: int | None) -> Any:
    """A blank score pad to fill in (`gamenight score GAME --template > pad.json`)."""
    descriptor = _descriptor(game_id)
    if descriptor.score_template is None:
        raise CliError(f"{descriptor.title} has no score-pad template")
    if players is not None and not 1 <= players <= 10:
        raise CliError(f"--players must be from 1 to 10, not {players}")
    return descriptor.score_template() if players is None else descriptor.score_template(players)


def score_file(game_id: str, path: Path | str) -> tuple[list[str], Result]:
    """Read a score-pad JSON file ("-": standard input) and score it with the game's score pad."""
    descriptor = _descriptor(game_id)
    if descriptor.score_pad is None:
        raise CliError(f"{descriptor.title} has no score pad")
    where = "standard input" if str(path) == "-" else str(path)
    try:
        text = sys.stdin.read() if str(path) == "-" else Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise CliError(f"no such file: {path}") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise CliError(f"cannot read {where}: {(exc.strerror if isinstance(exc, OSError) else None) or exc}") from None
    try:
        data = json.loads(text)
    except ValueError as exc:
        raise CliError(f"{where} is not valid JSON: {exc}") from None
    names, result = descriptor.score_pad(data)
    return list(names), result


# ---- the parser -----------------------------------------------------------------------------
def build_parser() -> argparse.ArgumentParser:
    parser = CliParser(prog="gamenight", description="A terminal game table: play card games with friends or bots.")
    parser.set_defaults(func=cmd_menu)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    play = sub.add_parser("play", help="start a local game (you, friends at this keyboard, bots)")
    play.add_argument("game", help="game id, e.g. money")
    play.add_argument("--players", type=int, help="players at the table (default 4, within the game's range)")
    play.add_argument("--bots", help="how many seats bots take (default: all but one), a level for them "
                      "(easy, normal, hard), or one level per bot seat (e.g. hard,normal,easy)")
    play.add_argument("--bot-time", type=float, help="seconds a hard bot thinks per move (default 1)")
    play.add_argument("--seed", help="seed for a reproducible deal (default: random)")
    play.add_argument("--edition", help="the game's edition, where it has several (`gamenight rules GAME`)")
    play.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                      help="a game option (repeatable; `gamenight rules GAME` lists them)")
    play.add_argument("--names", help="comma-separated names: for the humans, or for every seat")
    play.add_argument("--bot-delay", type=float, help="seconds a bot waits before acting (default from config)")
    play.add_argument("--clock", help="off (default), move:SECONDS a move, or bank:SECONDS+INCREMENT (e.g. bank:10m+5s)")
    play.set_defaults(func=cmd_play)

    resume = sub.add_parser("resume", help="continue the last game (local, or a network game to rejoin)")
    resume.add_argument("file", nargs="?", help="a .save file (default: the last game)")
    resume.set_defaults(func=cmd_resume)

    replay = sub.add_parser("replay", help="step through a finished game (a save, a network log or a relay archive)")
    replay.add_argument("file", help="a .save file, a game's log.bin or its folder, or a network game id")
    replay.add_argument("--export", metavar="OUT", help="write the game as JSON lines to OUT (- = stdout) instead")
    replay.set_defaults(func=cmd_replay)

    rules = sub.add_parser("rules", help="print a game's rules summary and keys")
    rules.add_argument("game")
    rules.set_defaults(func=cmd_rules)

    selfplay_ = sub.add_parser("selfplay", help="let bots play headless games and report speed and results")
    selfplay_.add_argument("game")
    selfplay_.add_argument("--players", type=int)
    selfplay_.add_argument("--games", type=int, default=10)
    selfplay_.add_argument("--seed", type=int, default=0)
    selfplay_.add_argument("--bots", default="best", help="random, easy, normal, hard (heuristic, best: normal), "
                           "or one kind per seat (comma list)")
    selfplay_.add_argument("--json", action="store_true", help="print one JSON object")
    selfplay_.add_argument("--net", action="store_true", help="play through an MQTT broker (network stack)")
    selfplay_.add_argument("--broker", help="broker URL for --net (default: an embedded broker)")
    selfplay_.set_defaults(func=cmd_selfplay)

    score = sub.add_parser("score", help="score final holdings from a JSON file (the score pad)")
    score.add_argument("game")
    score.add_argument("file", nargs="?", help="the filled-in score pad; - reads standard input")
    score.add_argument("--template", action="store_true", help="print a blank score pad to fill in")
    score.add_argument("--players", type=int, help="players in the --template (default: the game's usual)")
    score.add_argument("--json", action="store_true", help="print JSON instead of a table")
    score.set_defaults(func=cmd_score)

    from tui.cli_net import add_net_commands

    add_net_commands(sub)
    return parser


def _run_app(start: Any, config: Any = None) -> int:
    from tui.app import GamenightApp

    app = GamenightApp(start=start, config=config)
    app.run()
    return int(app.return_code or 0)


def fail(message: str) -> int:
    print(f"gamenight: {message}", file=sys.stderr)
    return EXIT_BAD_INPUT


def main(argv: Sequence[str] | None = None) -> int:
    from tui.config import ConfigError
    from tui.local_table import SaveError
    from tui.logfile import setup_logging

    try:
        setup_logging()
    except OSError as exc:
        return fail(f"cannot write the log file: {exc.strerror or exc}")
    try:
        args = build_parser().parse_args(argv)
        return int(args.func(args) or 0)
    except (CliError, GameError, ConfigError, SaveError) as exc:
        return fail(str(exc))
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # `gamenight rules money | head`: the reader left, nothing to say
        sys.stderr.close()
        return 0
    except Exception as exc:  # never a traceback on the terminal: it goes to the log
        log.exception("gamenight failed")
        from tui.logfile import log_path

        print(f"gamenight: unexpected error: {exc} (details in {log_path()})", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
