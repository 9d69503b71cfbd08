"""Ten's setup: the options checked, the deck shuffled (or stacked), the first seat given or drawn."""

from __future__ import annotations

from typing import Any

from ..core import InvalidOption, Rng, shuffle_or_stack
from .cards import START_TOKENS, deck_for
from .state import DRAW, State


def setup_state(n_players: int, seed: bytes, options: dict[str, Any]) -> State:
    """The opening state: every seat with its starting tokens, the first seat to draw."""
    first = options["first_player"]
    if first is not None and (
        not isinstance(first, int) or isinstance(first, bool) or not 0 <= first < n_players
    ):
        raise InvalidOption(f"Ten: first_player must be a seat 0-{n_players - 1}, not {first!r}")
    stacked = options["deck"]
    if stacked is not None:
        if isinstance(stacked, (str, bytes)) or not isinstance(stacked, (list, tuple)):
            raise InvalidOption("Ten: the stacked deck must be a list of card ids")
        stacked = tuple(stacked)
    deck, rng = shuffle_or_stack(deck_for(n_players), Rng(seed), stacked, "Ten deck")
    if first is None:
        first, rng = rng.below(n_players)
    return State(
        n_players=n_players,
        rng=rng,
        deck=deck,
        turn=first,
        phase=DRAW,
        tableau=(),
        total=0,
        currency_sum=0,
        collections=((),) * n_players,
        currency=(START_TOKENS,) * n_players,
        busts=(0,) * n_players,
        market=(),
        discard=(),
        auction=None,
        buyers=(),
        last_turn=None,
    )

