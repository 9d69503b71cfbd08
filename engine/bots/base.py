"""What a bot is: something that picks a legal action seeing only its seat's view."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ..core import Action, ActionSpace, Game, Seat, Stream, View, pick_uniform
from ..core.rng import BitStream


class Bot:
    """Base bot. `choose` gets the seat's view and its legal actions, never the full state."""

    kind = "base"
    wants_view = True
    """False for bots that ignore the view, so harnesses can skip building it."""

    def __init__(self, game: Game, seat: Seat, rng: Stream) -> None:
        self.game = game
        self.seat = seat
        self.rng = rng

    def choose(self, view: View, actions: Sequence[Action] | ActionSpace) -> Action:
        raise NotImplementedError

    def shortlist(self, view: View, actions: Sequence[Action] | ActionSpace) -> list[Action] | None:
        """The few actions this bot rates best here, best first, for the hard bot to search
        (engine/bots/search.py); None: no ranking, the search samples the legal actions; empty:
        nothing here is worth a search (the sampler cannot model what the choice depends on),
        the bot's own choice stands."""
        return None

    def share_memory(self, other: Bot) -> None:
        """Hand what this bot remembers of the public table to `other`, a bot of its kind that
        plays a rollout from here (engine/bots/search.py): the rollout's bots then remember the
        game so far as the table's real bots do. Default: a bot that remembers nothing."""

    def in_own_terms(self, decide: Callable[[View, Sequence[Action] | ActionSpace], Action],
                     view: View, actions: Sequence[Action] | ActionSpace) -> Action:
        """`decide(view, actions)` on the view and actions as this bot reads them, its pick
        played as the game takes it: as they are, unless a game's bot thinks in other terms
        (Sheriff's in goods, where a dealt game names cards). The hard bot searches in these
        terms, which are its sampler's."""
        return decide(view, actions)


class RandomBot(Bot):
    """Uniform over the legal actions (an ActionSpace samples uniformly itself)."""

    kind = "random"
    wants_view = False

    def __init__(self, game: Game, seat: Seat, rng: Stream) -> None:
        # Its own bit-spending stream from the same seed: a random bot's draws are mostly
        # small, and a whole SHA-256 per draw was a fifth of a benchmark game.
        super().__init__(game, seat, BitStream(rng.seed))

    def choose(self, view: View, actions: Sequence[Action] | ActionSpace) -> Action:
        # `pick_uniform` written out: random bots run every benchmark and property test.
        if type(actions) is tuple and actions:
            return actions[self.rng.below(len(actions))]
        if isinstance(actions, ActionSpace):
            return actions.sample(self.rng)
        return pick_uniform(actions, self.rng)
