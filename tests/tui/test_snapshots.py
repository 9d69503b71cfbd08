"""Every game's screen as a player first sees it, at the smallest supported size and a large one.

The SVGs under `__snapshots__/` were looked at by a person; a change in what a player sees
fails here until it is looked at again (`pytest tests/tui/test_snapshots.py --snapshot-update`).
"""

from __future__ import annotations

import pytest

from tui.app import GamenightApp
from tui.config import Config, UiConfig
from tui.screens.new_game import GameSetup

from .helpers import settle

PLAYERS = {"money": 4, "ten": 3, "sheriff": 4, "seven_wonders": 3}
SIZES = {"80x24": (80, 24), "120x40": (120, 40)}


def first_turn(game: str) -> GamenightApp:
    """A game against bots, seeded, at the human's first decision."""
    players = PLAYERS[game]
    config = Config(ui=UiConfig(bell=False, bot_delay=0.0))
    return GamenightApp(start=GameSetup(game, players, players - 1, seed=5, names=["Ann"], bot_delay=0),
                        config=config)


@pytest.mark.parametrize("size", SIZES, ids=list(SIZES))
@pytest.mark.parametrize("game", PLAYERS)
def test_each_game_screen_looks_as_approved(snap_compare, game, size):
    assert snap_compare(first_turn(game), terminal_size=SIZES[size], run_before=settle)


@pytest.mark.parametrize("size", SIZES, ids=list(SIZES))
def test_the_main_menu_looks_as_approved(snap_compare, size):
    config = Config(ui=UiConfig(bell=False, bot_delay=0.0))
    assert snap_compare(GamenightApp(config=config), terminal_size=SIZES[size], run_before=settle)
