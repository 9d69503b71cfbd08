"""Game screens by game id. Adding a game's screen = one line in SCREENS (imported lazily).

Each entry is "module:Class" of a `tui.games.base.GameScreen` subclass; its rules summary and
keys live in tui/help/<game>.md and its styles in tui/styles/<game>.tcss (see docs/tui.md).
"""

from __future__ import annotations

from importlib import import_module
from pathlib import Path

SCREENS: dict[str, str] = {
    "money": "tui.games.money:MoneyScreen",
    "ten": "tui.games.ten:TenScreen",
    "sheriff": "tui.games.sheriff:SheriffScreen",
    "seven_wonders": "tui.games.seven_wonders:SevenWondersScreen",
}

HELP_DIR = Path(__file__).resolve().parent.parent / "help"


def has_screen(game_id: str) -> bool:
    return game_id in SCREENS


def screen_class(game_id: str) -> type:
    """The GameScreen subclass for a game; LookupError if the game has no screen yet."""
    path = SCREENS.get(game_id)
    if path is None:
        raise LookupError(f"there is no screen for {game_id!r} yet")
    module, name = path.split(":")
    return getattr(import_module(module), name)


def help_text(game_id: str) -> str:
    """The player-facing rules summary and keys of a game (tui/help/<game>.md)."""
    path = HELP_DIR / f"{game_id}.md"
    try:
        return path.read_text(encoding="utf-8")
    except OSError:
        return f"# {game_id}\n\nThere is no rules summary for this game yet."
