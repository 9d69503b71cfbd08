"""A game's descriptor: everything the engine knows about a game, in one registered object.

Each game package exports `DESCRIPTOR` from its `__init__.py` and engine/registry.py lists the
package (one line per game). The rules (`game`), its bots, its score pad and what each option
means all hang off it, so the bots registry, `gamenight score`, `gamenight rules` and the
new-game form need no table of their own. The TUI adds its screen, help page and styles under
the same id (tui/games/__init__.py). tests/engine/test_descriptors.py proves each one complete;
docs/engine.md shows how to add a game.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from importlib import import_module
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from .game import Game, Result, Seat, State
from .rng import Stream

if TYPE_CHECKING:  # engine.bots imports the games: only the type is needed here
    from ..bots.base import Bot

SEAT = "seat"
"""`OptionDoc.form` of an option whose value is a seat: the form offers "drawn" or one player."""

BotFactory = Callable[[Game, Seat, Stream], "Bot"]
ScorePad = Callable[[Any], tuple[list[str], Result]]


@dataclass(frozen=True, slots=True)
class OptionDoc:
    """What one of the game's `OptionSpec`s means to a player, and how the new-game form sets it.

    `form`: the values the form cycles through; `SEAT` for "drawn or one player"; None keeps
    the option out of the form (set with `--option` only: stacked decks for tests and replays).
    """

    name: str
    label: str
    text: str
    form: tuple[Any, ...] | str | None = None


@dataclass(frozen=True, slots=True)
class Rounds:
    """What the game calls its rounds ("round", "age") and which one a state is in (from 1).

    The replay viewer jumps by them; a game without rounds leaves `GameDescriptor.rounds` None.
    """

    label: str
    number: Callable[[State], int]


@dataclass(frozen=True)
class GameDescriptor:
    """One game: its rules, bots, score pad, option documentation, rounds and full rules page.

    `bots` maps a kind ("heuristic", ...) to a factory `(game, seat, rng) -> Bot`, or to
    "module:Class" imported when the first such bot is made (a bot module imports its game's
    package, so the package cannot import it back). "random" comes free for every game.
    """

    game: Game
    options: tuple[OptionDoc, ...] = ()
    bots: Mapping[str, BotFactory | str] = field(default_factory=dict)
    score_pad: ScorePad | None = None
    score_template: Callable[..., Any] | None = None
    """`(n_players)` -> a blank score pad to fill in; with no argument, for the usual table."""
    rounds: Rounds | None = None
    docs: str = ""
    """The full rules, relative to the repository (docs/<game>.md)."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "bots", MappingProxyType(dict(self.bots)))

    @property
    def id(self) -> str:
        return self.game.id

    @property
    def title(self) -> str:
        return self.game.name

    @property
    def min_players(self) -> int:
        return self.game.min_players

    @property
    def max_players(self) -> int:
        return self.game.max_players

    @property
    def best_bot(self) -> str:
        """The kind `make_bot(..., "best")` gives: the normal level, else the heuristic bot
        (a game outside the levels, such as a test's own), else random."""
        for kind in ("normal", "heuristic"):
            if kind in self.bots:
                return kind
        return "random"

    def option(self, name: str) -> OptionDoc | None:
        """The documentation of one option (None if the descriptor leaves it out)."""
        for doc in self.options:
            if doc.name == name:
                return doc
        return None

    def bot_factory(self, kind: str) -> BotFactory:
        """The factory of a bot kind of this game (not "random"); KeyError if there is none."""
        ref = self.bots[kind]
        return ref if not isinstance(ref, str) else _load(ref)


def _load(ref: str) -> Any:
    module, name = ref.split(":")
    return getattr(import_module(module), name)


def bot_levels(normal: str, sampler: str) -> dict[str, BotFactory | str]:
    """A game's `bots`: the levels easy, normal (`normal`, "module:Class"), hard (searching
    with `sampler`, "module:function"), and "heuristic", the old name of normal
    (engine/bots/levels.py). Imported lazily: a bot module imports its game's package."""

    def easy(game: Game, seat: Seat, rng: Stream) -> Bot:
        from ..bots.levels import EasyBot

        return EasyBot(game, seat, rng, _load(normal))

    def hard(game: Game, seat: Seat, rng: Stream) -> Bot:
        from ..bots.search import SearchBot

        return SearchBot(game, seat, rng, _load(normal), _load(sampler))

    return {"easy": easy, "normal": normal, "hard": hard, "heuristic": normal}
