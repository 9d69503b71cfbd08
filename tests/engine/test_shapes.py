"""Every game's data says what it holds: the annotations the shape check reads are true.

Every state, view and action of random games (plain, and dealt by the trusted dealer: the
public state, each seat's own knowledge) goes through to_plain and from_plain, which rebuilds
a dataclass only when every field fits its annotation; and every game lists its action types.
"""

from __future__ import annotations

import dataclasses

import pytest

from engine.core import from_plain, to_plain
from engine.core.plain import plain_tag
from engine.core.shape import shape_of
from engine.registry import game_ids, get_game

from .random_tables import spots


@pytest.mark.parametrize("game_id", game_ids())
def test_every_game_lists_its_action_types(game_id: str) -> None:
    game = get_game(game_id)
    assert game.action_types, f"{game_id} lists no action types"
    for kind in game.action_types:
        assert dataclasses.is_dataclass(kind) and plain_tag(kind), f"{kind} is not a @plain dataclass"
        shape_of(kind)  # its annotations compile
    tables = {*game._checks, *game._steps}
    assert tables <= set(game.action_types), f"{game_id}'s tables name unlisted types {tables - set(game.action_types)}"
    played = {type(spot.action) for spot in spots(game_id)}
    assert played <= set(game.action_types), f"{game_id} played unlisted action types {played - set(game.action_types)}"


@pytest.mark.parametrize("game_id", game_ids())
def test_every_state_view_and_action_of_random_games_round_trips(game_id: str) -> None:
    game = get_game(game_id)
    for spot in spots(game_id):
        public = spot.faces is not None
        values = [spot.state, spot.action, game.view(spot.state, None if public else spot.seat)]
        for value in values:
            assert from_plain(to_plain(value)) == value, f"{type(value).__name__} does not round-trip"
