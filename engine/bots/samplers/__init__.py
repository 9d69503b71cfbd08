"""Per-game samplers for the hard bot (engine/bots/search.py).

`sample(game, view, rng)` builds a full state from one seat's view only: every card the view
does not show is dealt at random from the cards the view leaves unaccounted for, and the game
RNG (future shuffles) is replaced by one seeded from the bot's own stream. Whatever the seat
cannot know is drawn afresh, so a state sampled this way gives the seat the view it came from.
"""

from __future__ import annotations

from ...core import Stream
from ...core.rng import Rng


def fresh_rng(rng: Stream) -> Rng:
    """A game RNG for the sampled state: the future is as unknown as the hidden cards."""
    return Rng(rng.fork("game-rng").seed)
