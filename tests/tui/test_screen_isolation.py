"""Screens never leak into each other: a game opened after any other looks as in a fresh app."""

from __future__ import annotations

import pytest

from tui.app import GamenightApp
from tui.screens.new_game import GameSetup

from .helpers import screen_text, settle

GAMES = ("money", "ten", "sheriff", "seven_wonders")
PLAYERS = {"money": 4, "ten": 3, "sheriff": 4, "seven_wonders": 3}


def every_ordered_pair(items: tuple[str, ...]) -> list[str]:
    """A walk that visits every ordered pair (a, b), a != b, as consecutive items (Hierholzer)."""
    unused = {a: [b for b in items if b != a] for a in items}
    stack, walk = [items[0]], []
    while stack:
        node = stack[-1]
        if unused[node]:
            stack.append(unused[node].pop())
        else:
            walk.append(stack.pop())
    return walk[::-1]


def setup(game: str) -> GameSetup:
    players = PLAYERS[game]
    return GameSetup(game, players, players - 1, seed=5, names=["Ann"], bot_delay=0)


def layout(app) -> dict[str, tuple[bool, tuple[int, int, int, int]]]:
    """Every widget with an id on the screen: shown or not, and where."""
    return {
        widget.id: (widget.display, tuple(widget.region))
        for widget in app.screen.query("*") if widget.id
    }


async def fresh(game: str, config, size) -> tuple[str, dict]:
    app = GamenightApp(start=setup(game), config=config)
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        return screen_text(app), layout(app)


def test_the_walk_covers_every_ordered_pair():
    walk = every_ordered_pair(GAMES)
    pairs = set(zip(walk, walk[1:], strict=False))
    assert pairs == {(a, b) for a in GAMES for b in GAMES if a != b}


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
async def test_each_game_after_each_other_game_looks_as_in_a_fresh_app(config, size):
    expected = {game: await fresh(game, config, size) for game in GAMES}
    app = GamenightApp(config=config)
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        walk = every_ordered_pair(GAMES)
        for before, game in zip([None, *walk[:-1]], walk, strict=True):
            app.start_local(setup(game))
            await settle(pilot)
            text, widgets = expected[game]
            assert screen_text(app) == text, f"{game} after {before} differs from a fresh app"
            assert layout(app) == widgets, f"{game} after {before}: widgets shown or sized differently"
