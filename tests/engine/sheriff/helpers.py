"""Scripted Sheriff games: stacked decks and short-cuts to a chosen phase."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence

from engine.sheriff import GAME
from engine.sheriff.cards import setup_deck
from engine.sheriff.state import Declare, Load, SetAside, State

SEED = b"sheriff-tests"


def stacked(n: int, top: Sequence[str], royal: bool = True) -> list[str]:
    """A valid `deck` option: `top` first, then the rest of the setup deck in card order."""
    rest = Counter(setup_deck(n, royal))
    rest.subtract(top)
    assert all(v >= 0 for v in rest.values()), f"more cards than the deck holds: {top}"
    out = list(top)
    for good in setup_deck(n, royal):
        if rest[good] > 0:
            out.append(good)
            rest[good] -= 1
    return out


def start(hands: Sequence[Sequence[str]], pile1: Sequence[str] = ("apple",) * 5,
          pile2: Sequence[str] = ("cheese",) * 5, draw: Sequence[str] = (), first: int = 0,
          royal: bool = True) -> State:
    """A game with these hands (6 cards each), piles (bottom to top) and draw-pile top."""
    n = len(hands)
    top = [c for hand in hands for c in hand] + list(pile1) + list(pile2) + list(draw)
    return GAME.setup(n, SEED, {"deck": stacked(n, top, royal), "first_sheriff": first,
                                "royal_goods": royal})


def step(state: State, seat: int, action) -> State:
    return GAME.apply(state, {seat: action})


def skip_market(state: State) -> State:
    """Every merchant sets aside nothing."""
    while state.phase == "market":
        state = step(state, state.turn, SetAside(()))
    return state


def to_inspection(state: State, bags: Mapping[int, tuple[Sequence[str], str]]) -> State:
    """Skip the market, load `bags` {seat: (cards, declared good)} and declare."""
    state = skip_market(state)
    assert state.phase == "load"
    state = GAME.apply(state, {seat: Load(tuple(cards)) for seat, (cards, _) in bags.items()})
    while state.phase == "declare":
        state = step(state, state.turn, Declare(bags[state.turn][1]))
    assert state.phase == "inspect"
    return state


def gold_total(state: State) -> int:
    return sum(state.gold)
