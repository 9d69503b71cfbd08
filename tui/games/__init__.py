"""What the TUI adds to each game, under the id of its engine descriptor (engine/registry.py).

Adding a game's screen = one line in GAMES: its `GameScreen` ("module:Class", imported when a
game starts), its rules summary and keys (tui/help/) and its styles (tui/styles/, every rule
nested under the screen's class). What the game's options mean comes from the engine
descriptor, so the help page lists them without a copy here. See docs/tui.md.
"""

from __future__ import annotations

import textwrap
from dataclasses import dataclass
from importlib import import_module
from pathlib import Path

from engine.core import GameError
from engine.core.descriptor import SEAT, GameDescriptor, OptionDoc
from engine.registry import get_descriptor

TUI_DIR = Path(__file__).resolve().parent.parent
HELP_DIR = TUI_DIR / "help"
STYLES_DIR = TUI_DIR / "styles"
WIDTH = 95
"""Help pages are wrapped at this width, so `gamenight rules` reads in a terminal too."""


@dataclass(frozen=True, slots=True)
class GameUI:
    screen: str
    """"module:Class" of the game's `tui.games.base.GameScreen` subclass."""
    help: str
    """File in tui/help/: the rules in brief for a player, then `## Keys`."""
    styles: str
    """File in tui/styles/: the screen's CSS_PATH."""

    @property
    def help_path(self) -> Path:
        return HELP_DIR / self.help

    @property
    def styles_path(self) -> Path:
        return STYLES_DIR / self.styles


GAMES: dict[str, GameUI] = {
    "money": GameUI("tui.games.money:MoneyScreen", "money.md", "money.tcss"),
    "ten": GameUI("tui.games.ten:TenScreen", "ten.md", "ten.tcss"),
    "sheriff": GameUI("tui.games.sheriff:SheriffScreen", "sheriff.md", "sheriff.tcss"),
    "seven_wonders": GameUI("tui.games.seven_wonders:SevenWondersScreen", "seven_wonders.md", "seven_wonders.tcss"),
}


def has_screen(game_id: str) -> bool:
    return game_id in GAMES


def screen_class(game_id: str) -> type:
    """The GameScreen subclass for a game; LookupError if the game has no screen yet."""
    ui = GAMES.get(game_id)
    if ui is None:
        raise LookupError(f"there is no screen for {game_id!r} yet")
    module, name = ui.screen.split(":")
    return getattr(import_module(module), name)


def help_text(game_id: str) -> str:
    """The player-facing rules summary and keys of a game, then what its options mean."""
    ui = GAMES.get(game_id)
    try:
        text = ui.help_path.read_text(encoding="utf-8") if ui else ""
    except OSError:
        text = ""
    if not text:
        text = f"# {game_id}\n\nThere is no rules summary for this game yet.\n"
    try:
        descriptor = get_descriptor(game_id)
    except GameError:
        return text
    return text.rstrip("\n") + "\n\n" + options_help(descriptor)


def options_help(descriptor: GameDescriptor) -> str:
    """The `## Options` section of a game's help: the form's options, then the --option ones."""
    if not descriptor.options:
        return "## Options\n\nThis game has no options.\n"
    lines = ["## Options", ""]
    in_form = [doc for doc in descriptor.options if doc.form is not None]
    for doc in in_form:
        lines.append(_item(f"**{doc.label}** ({_values(doc)}): {doc.text}."))
    if in_form:
        names = "`, `".join(doc.name for doc in in_form)
        note = f"Set them in the new-game form, or with `--option name=value` (`{names}`)."
        if any(doc.form == SEAT for doc in in_form):
            note += " There a player is a seat number from 0, and drawn is `null`."
        lines += ["", textwrap.fill(note, WIDTH), ""]
    others = [doc for doc in descriptor.options if doc.form is None]
    if others:
        lines.append("With `--option name=value` only:")
        lines.append("")
        lines += [_item(f"`{doc.name}`: {doc.text}.") for doc in others]
    return "\n".join(lines) + "\n"


def _item(text: str) -> str:
    return textwrap.fill(text, WIDTH, initial_indent="- ", subsequent_indent="  ")


def _values(doc: OptionDoc) -> str:
    if doc.form == SEAT:
        return "drawn, or a player"
    values = ("on" if v is True else "off" if v is False else str(v) for v in doc.form or ())
    return " / ".join(values)
