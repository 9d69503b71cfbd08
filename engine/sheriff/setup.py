"""Sheriff's setup (§4): the deck shuffled or stacked, hands and discard piles dealt. A stacked
deck of card ids (or the network's tokens) makes a dealt game (dealt.py)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..core import InvalidOption, Rng
from ..core.deck import draw, shuffle_or_stack
from ..core.hidden import is_token
from .cards import (
    CARD_GOOD,
    HAND_SIZE,
    PILE_START,
    STARTING_GOLD,
    ZERO,
    card_deck,
    counts_of,
    setup_deck,
)
from .dealt import dealt_zones, stacked_rng
from .state import (
    ASIDE,
    MARKET,
    State,
)


# ---- setup ------------------------------------------------------------------------------
def setup_state(n: int, seed: bytes, royal: bool, first: int | None, stacked: Any) -> State:
    later = None  # a dealt game replayed: decks the table dealt during the game
    if isinstance(stacked, Mapping):  # {"cards": deck, "rebuilds": {...}, "redeals": {...}}
        if "cards" not in stacked or not set(stacked) <= {"cards", "rebuilds", "redeals"}:
            raise InvalidOption('a stacked dealt deck is {"cards": [...], "rebuilds": {...}, "redeals": {...}}')
        stacked, later = stacked["cards"], stacked
    if stacked is not None and (
        not isinstance(stacked, (list, tuple)) or not all(isinstance(c, str) for c in stacked)
    ):
        raise InvalidOption("deck must be a list of good ids (first element = top card)")
    # a deck naming each physical card (the network's deal, engine/sheriff/dealt.py) makes a
    # dealt game: its zones hold cards, not counts of goods
    dealt = bool(stacked) and (is_token(stacked[0]) or stacked[0] in CARD_GOOD)
    if later and not dealt:
        raise InvalidOption("only a dealt deck (card ids) stacks rebuilt draw piles and hands")
    rng = Rng(seed)
    cards = card_deck(n, royal) if dealt else setup_deck(n, royal)
    deck, rng = shuffle_or_stack(cards, rng, stacked, "deck")
    if first is None:
        first, rng = rng.below(n)
    if later:
        rng = stacked_rng(rng, later)
    hands = []
    for _ in range(n):
        cards, deck = draw(deck, HAND_SIZE)
        hands.append(tuple(cards) if dealt else counts_of(cards))
    pile1, deck = draw(deck, PILE_START)
    pile2, deck = draw(deck, PILE_START)
    zones = dealt_zones(n) if dealt else dict(
        hand_known=(ZERO,) * n, aside=ZERO, bags=(ZERO,) * n, stands=(ZERO,) * n,
        stand_known=(ZERO,) * n, confiscated=ZERO)
    return State(
        n_players=n, royal=royal, rng=rng, phase=MARKET, step=ASIDE, round=0, sheriff=first,
        turn=(first + 1) % n, gold=(STARTING_GOLD,) * n, hands=tuple(hands), drew_deck=False,
        declared=("",) * n, draw_pile=deck, piles=(pile1, pile2), pending=(), conditions=(),
        merchant=-1, exchange=0, offer=None, talk=(), debt=None, outcomes=("",) * n,
        revealed=((),) * n, sealed=(0,) * n, held="", **zones,
    )
