"""One generic test over every registered game: later games are covered with no new test code.

Random legal play from random seeds, checking after every step: the input state is not
mutated, state and actions round-trip through msgpack, no card is lost, duplicated or in two
places, no view shows a card its seat may not see, and at the end the score equals the sum of
its breakdown and the log replays to the same hash at every step.
"""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.bots import make_bot
from engine.core import Stream, canonical, decode, new_log, replay_hashes, state_hash, to_plain
from engine.registry import game_ids, get_game

from .strings import strings_in

MAX_STEPS = 3000


def _check_zones(game, state, expected: Counter | None) -> Counter:
    zones = game.zones(state)
    cards = Counter(card for cards in zones.values() for card in cards)
    duplicated = [card for card, n in cards.items() if n > 1]
    assert not duplicated, f"cards in two places: {duplicated[:5]}"
    if expected is not None:
        assert cards == expected, f"cards changed: lost {expected - cards}, new {cards - expected}"
    return cards


def _check_views(game, state) -> None:
    for seat in [None, *range(game.n_players(state))]:
        view = game.view(state, seat)
        secret = game.secret_from(state, seat)
        leaked = secret & strings_in(to_plain(view))
        assert not leaked, f"seat {seat} sees hidden cards {sorted(leaked)[:5]}"


@pytest.mark.parametrize("game_id", game_ids())
@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_random_play_keeps_every_invariant(game_id: str, data) -> None:
    game = get_game(game_id)
    n_players = data.draw(st.integers(game.min_players, game.max_players), label="players")
    seed = data.draw(st.binary(min_size=1, max_size=16), label="seed")
    options = game.check_options({})
    low, high = game.player_range(options)
    n_players = min(max(n_players, low), high)
    state = game.setup(n_players, seed, options)
    log = new_log(game, n_players, seed, options)
    hashes = [state_hash(state)]
    cards = _check_zones(game, state, None)
    rng = Stream(seed)
    bots = [make_bot(game, s, "random", rng.fork(str(s))) for s in range(n_players)]
    steps = 0
    while not game.is_over(state) and steps < MAX_STEPS and not game.stalemate(state):
        _check_views(game, state)
        chosen = {}
        for seat in sorted(game.active(state)):
            action = bots[seat].choose(game.view(state, seat), game.legal_actions(state, seat))
            game.validate(state, seat, action)
            assert decode(canonical(action)) == action
            chosen[seat] = action
        assert chosen, "a game that is not over must have someone to act"
        before = canonical(state)
        new_state = game.apply(state, chosen)
        assert canonical(state) == before, "apply mutated its input"
        state = new_state
        assert decode(canonical(state)) == state
        cards = _check_zones(game, state, cards)
        log = log.append(chosen)
        hashes.append(state_hash(state))
        steps += 1
    if game.is_over(state):
        result = game.result(state)
        for seat, rows in enumerate(result.breakdown):
            assert result.scores[seat] == sum(points for _, points in rows)
        assert min(result.places) == 1 and result.winners
    assert replay_hashes(game, log) == hashes
