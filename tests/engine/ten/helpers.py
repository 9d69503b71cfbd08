"""Shared helpers for Ten tests: physical ids from type ids, stacked decks, scripted play."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

from engine.ten import GAME
from engine.ten.cards import TYPE_OF, deck_for

RULES_JSON = json.loads(
    (Path(__file__).parents[3] / "engine" / "ten" / "data" / "ten.json").read_text()
)


def physical(types: Sequence[str], n_players: int = 5, taken: set[str] | None = None) -> list[str]:
    """One free physical card per type id (a physical id is passed through)."""
    taken = set() if taken is None else taken
    out = []
    for wanted in types:
        if wanted in TYPE_OF:
            card = wanted
        else:
            card = next(c for c in deck_for(n_players) if TYPE_OF[c] == wanted and c not in taken)
        taken.add(card)
        out.append(card)
    return out


def stacked(n_players: int, top: Sequence[str]) -> list[str]:
    """The deck for n players with `top` (type or physical ids) first, the rest in data order."""
    first = physical(top, n_players)
    rest = [c for c in deck_for(n_players) if c not in set(first)]
    return first + rest


def start(n_players: int, top: Sequence[str], first_player: int = 0, deck_left: int | None = None):
    """A game whose deck starts with `top`. With deck_left, only that many cards stay in the
    deck (the rest go to the discard pile, so every card is still somewhere): the game ends
    soon, for end-of-game tests."""
    deck = stacked(n_players, top)
    state = GAME.setup(n_players, b"ten-test", {"deck": deck, "first_player": first_player})
    if deck_left is not None:
        state = replace(state, deck=state.deck[:deck_left], discard=state.deck[deck_left:])
    return state


def play(state, *steps):
    """Apply (seat, action) pairs in order, each validated by the engine."""
    for seat, action in steps:
        state = GAME.apply(state, {seat: action})
    return state
