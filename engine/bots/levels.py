"""Bot levels shared by every game: `easy` wraps the game's normal bot and makes mistakes.

The levels are `easy`, `normal` (the game's heuristic bot) and `hard` (engine/bots/search.py);
`heuristic` stays an alias of `normal` (saves, configs and scripts name it), and `best` means
normal. A game's descriptor registers all of them with `engine.core.descriptor.bot_levels`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ..core import Action, ActionSpace, Game, Seat, Stream, View, pick_uniform
from .base import Bot

BotFactory = Callable[[Game, Seat, Stream], Bot]
"""A bot maker, as a descriptor lists it (engine.core.descriptor imports this module lazily:
not imported back from there)."""

LEVELS = ("easy", "normal", "hard")
ALIASES = {"heuristic": "normal", "best": "normal"}

MISTAKE = (1, 4)
"""An easy bot plays a uniformly random legal action instead of the normal bot's choice this
often (numerator, denominator): about one decision in four, enough that a normal bot beats it
clearly, few enough that it still collects sets and bids sensibly."""


class EasyBot(Bot):
    """The normal bot's choice, except that with a seeded chance it plays any legal action."""

    kind = "easy"

    def __init__(self, game: Game, seat: Seat, rng: Stream, normal: BotFactory) -> None:
        super().__init__(game, seat, rng)
        # The normal bot draws from its own fork: a mistake never shifts its stream.
        self.normal = normal(game, seat, rng.fork("normal"))

    def choose(self, view: View, actions: Sequence[Action] | ActionSpace) -> Action:
        if self.rng.chance(*MISTAKE):
            return pick_uniform(actions, self.rng)
        return self.normal.choose(view, actions)
