"""What the `gamenight` commands share (tui/cli.py, tui/cli_net*.py): the one-line error and the
readers of the arguments they have in common. Both command modules import it; it imports
neither, so the two do not import each other's helpers in a circle.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence
from typing import Any, NoReturn

from engine.core import Game

from .clock import ClockError, ClockSpec

EXIT_BAD_INPUT = 2


class CliError(Exception):
    """Bad input: printed as one line, exit status 2."""


class CliParser(argparse.ArgumentParser):
    """argparse that reports a usage error as one line instead of the usage block."""

    def error(self, message: str) -> NoReturn:
        raise CliError(message)


# ---- argument helpers -----------------------------------------------------------------------
def parse_option(text: str) -> tuple[str, Any]:
    """`key=value`; the value is read as JSON when it parses (numbers, lists, null), else text."""
    key, sep, raw = text.partition("=")
    if not sep or not key.strip():
        raise CliError(f"--option needs key=value, not {text!r}")
    try:
        value = json.loads(raw)
    except ValueError:
        value = raw
    return key.strip(), value


def game_options(game: Game, edition: str | None, pairs: Sequence[str]) -> dict[str, Any]:
    """The options dict from --edition and --option; the engine checks names and values."""
    options: dict[str, Any] = dict(parse_option(p) for p in pairs)
    if edition is not None:
        if "edition" not in {spec.name for spec in game.options}:
            raise CliError(f"{game.name} has no editions")
        options["edition"] = edition
    game.check_options(options)
    return options


def find_game(game_id: str) -> Game:
    """The registered game with that id (GameError naming the ids it has otherwise)."""
    from engine.registry import get_game

    return get_game(game_id)


def player_count(game: Game, players: int | None, options: dict[str, Any]) -> int:
    """--players checked against the game's range (with these options); 4 if it fits, when not given."""
    low, high = game.player_range(game.check_options(options))
    if players is None:
        return min(max(4, low), high)
    if not low <= players <= high:
        raise CliError(f"{game.name} is for {low}-{high} players, not {players}")
    return players


def parse_seed(text: str | None) -> int | str | None:
    """A seed as typed: digits are a number (the same deal as the menu's seed field)."""
    if text is None:
        return None
    return int(text) if text.lstrip("-").isdigit() else text


def parse_names(text: str | None) -> list[str] | None:
    """--names "Ann, Bob" as a list (None: not given)."""
    return [n.strip() for n in text.split(",")] if text else None


def parse_clock(text: str | None) -> ClockSpec:
    """--clock as a ClockSpec ("off" when not given); a bad one is the CLI's one-line error."""
    try:
        return ClockSpec.parse(text or "off")
    except ClockError as exc:
        raise CliError(str(exc)) from None


def parse_bots(text: str | None, players: int) -> tuple[int, str]:
    """`--bots` of `play`: (how many seats bots take, their kind or one kind per bot seat).
    A number keeps the best bot; a level fills all seats but one; a comma list is one bot per
    level. The levels themselves are checked when the bots are made (one-line error)."""
    if text is None:
        return players - 1, "best"
    text = text.strip()
    if text.lstrip("-").isdigit():
        return int(text), "best"
    kinds = [kind.strip() for kind in text.split(",")]
    if not all(kinds):
        raise CliError(f"--bots needs a number or levels such as hard,normal,easy, not {text!r}")
    return (players - 1 if len(kinds) == 1 else len(kinds)), ",".join(kinds)


def parse_bot_time(seconds: float | None) -> float:
    """`--bot-time`: a hard bot's seconds per decision (default 1), checked."""
    from net.bot_time import DEFAULT_BOT_TIME, check_bot_time

    try:
        return DEFAULT_BOT_TIME if seconds is None else check_bot_time(seconds)
    except ValueError as exc:
        raise CliError(str(exc)) from None
