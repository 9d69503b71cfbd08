"""Ten-specific invariants over random legal games of 1-5 players (the generic ones are in
tests/engine/test_conformance.py)."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.bots import make_bot
from engine.core import Stream
from engine.ten import GAME
from engine.ten.cards import CURRENCY_VALUE, IS_WILD, NUMBER_VALUE, TOKEN_CAP, deck_for
from engine.ten.state import FINAL_BUY, OVER


def _check(state) -> None:
    assert all(0 <= c <= TOKEN_CAP for c in state.currency)
    assert all(b >= 0 for b in state.busts)
    assert all(card in NUMBER_VALUE for card in state.market)
    for cards in state.collections:
        assert not any(card in CURRENCY_VALUE for card in cards)
    numbers = sum(NUMBER_VALUE.get(c, 0) for c in state.tableau)
    shown = sum(CURRENCY_VALUE.get(c, 0) for c in state.tableau)
    assert state.currency_sum == shown and state.total == numbers - shown
    assert state.total < 11 and state.currency_sum < 11  # a bust ends the turn at once
    assert not any(card in IS_WILD for card in state.tableau)
    if state.phase != OVER:
        assert len(GAME.active(state)) == 1


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.integers(1, 5), seed=st.binary(min_size=1, max_size=8),
       kind=st.sampled_from(["random", "heuristic"]))
def test_random_games_keep_the_rules_invariants(players, seed, kind) -> None:
    state = GAME.setup(players, seed)
    bots = [make_bot(GAME, s, kind, Stream(seed).fork(str(s))) for s in range(players)]
    final_buyers = []
    while not GAME.is_over(state):
        _check(state)
        (seat,) = GAME.active(state)
        if state.phase == FINAL_BUY:
            final_buyers.append(seat)
        action = bots[seat].choose(GAME.view(state, seat), GAME.legal_actions(state, seat))
        state = GAME.apply(state, {seat: action})
    _check(state)
    assert state.deck == ()
    assert sorted(final_buyers) == list(range(players))  # everyone's last buy, once each
    everything = [c for zone in GAME.zones(state).values() for c in zone]
    assert sorted(everything) == sorted(deck_for(players))
    result = GAME.result(state)
    assert len(result.scores) == players and min(result.places) == 1
