"""Generic properties over random 3-7 player games: card conservation, coins never negative,
views hide other hands and face-down cards, msgpack round-trips, replay hashes."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.core import (
    Stream,
    canonical,
    decode,
    new_log,
    pick_uniform,
    replay_hashes,
    state_hash,
    to_plain,
)
from engine.seven_wonders import GAME

from ..strings import strings_in


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(n=st.integers(3, 7), seed=st.binary(min_size=1, max_size=8),
       side=st.sampled_from(["A", "B", "random"]))
def test_random_games_keep_every_invariant(n: int, seed: bytes, side: str) -> None:
    options = GAME.check_options({"wonder_side": side})
    state = GAME.setup(n, seed, options)
    log = new_log(GAME, n, seed, options)
    hashes = [state_hash(state)]
    cards = Counter(c for z in GAME.zones(state).values() for c in z)
    assert sum(cards.values()) == 7 * n * 2 + 7 * n - (n + 2) + 10
    rng = Stream(seed)
    while not GAME.is_over(state):
        for seat in [None, *range(n)]:
            view = GAME.view(state, seat)
            assert not GAME.secret_from(state, seat) & strings_in(to_plain(view))
            if seat is not None:
                assert len(view.hand) == (len(state.hands[seat]) or len(view.hand))
        if state.phase == "pick":
            # another deal of the cards seat 0 cannot see gives seat 0 the same view
            others = [state.hands[s] for s in range(1, n)]
            redealt = replace(state, hands=(state.hands[0], *others[1:], others[0]), guilds=state.guilds[::-1])
            assert GAME.view(redealt, 0) == GAME.view(state, 0)
        chosen = {s: pick_uniform(GAME.legal_actions(state, s), rng) for s in GAME.active(state)}
        for a in chosen.values():
            assert decode(canonical(a)) == a
        state = GAME.apply(state, chosen)
        assert decode(canonical(state)) == state
        assert min(state.coins) >= 0
        assert Counter(c for z in GAME.zones(state).values() for c in z) == cards
        log = log.append(chosen)
        hashes.append(state_hash(state))
    result = GAME.result(state)
    assert all(s == sum(p for _, p in rows) for s, rows in zip(result.scores, result.breakdown, strict=True))
    assert replay_hashes(GAME, log) == hashes


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(n=st.integers(3, 7), seed=st.binary(min_size=1, max_size=8))
def test_validate_accepts_exactly_the_legal_actions(n: int, seed: bytes) -> None:
    """Every candidate pick (each hand card, each kind, payments 0-6 each side): validate
    passes if and only if it is in legal_actions; otherwise it names a reason."""
    from engine.core import IllegalAction
    from engine.seven_wonders.state import PICK_KINDS, Pick

    state = GAME.setup(n, seed, {"wonder_side": "random"})
    rng = Stream(seed)
    step = 0
    while not GAME.is_over(state):
        if step % 4 == 0 and state.phase in ("pick", "babylon"):
            seat = min(GAME.active(state))
            legal = set(GAME.legal_actions(state, seat))
            hand = state.hands[seat] if state.phase == "pick" else (state.babylon.card,)
            for card in set(hand):
                for kind in PICK_KINDS:
                    for left in range(7):
                        for right in range(7):
                            action = Pick(card, kind, left, right)
                            try:
                                GAME.validate(state, seat, action)
                                ok = True
                            except IllegalAction as err:
                                ok = False
                                assert str(err)
                            assert ok == (action in legal), action
        chosen = {s: pick_uniform(GAME.legal_actions(state, s), rng) for s in GAME.active(state)}
        state = GAME.apply(state, chosen)
        step += 1
