"""Properties over random 3-5 player games: gold and cards are conserved, views hide exactly
what the seat may not know (two states that differ only there give that seat equal views),
msgpack round-trips and replays reproduce every state hash."""

from __future__ import annotations

import dataclasses

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.bots import make_bot
from engine.core import Stream, canonical, decode, new_log, replay_hashes, state_hash
from engine.sheriff import GAME
from engine.sheriff.cards import GOODS, IDX, IS_LEGAL, NG, deck_counts

ALL = range(NG)


def _card_counts(state) -> tuple[int, ...]:
    out = [0] * NG
    for zone in [*state.hands, *state.bags, *state.stands, state.aside, state.confiscated]:
        for i in ALL:
            out[i] += zone[i]
    for pile in (state.draw_pile, *state.piles):
        for card in pile:
            out[IDX[card]] += 1
    return tuple(out)


def _put(seq, index, value):
    return seq[:index] + (value,) + seq[index + 1:]


def _swap(counts, give: int, take: int):
    return _put(_put(counts, give, counts[give] - 1), take, counts[take] + 1)


def _perturbations(state, p: int):
    """States that differ from `state` only in cards of seat `p` nobody else can see: one
    unidentified hand, bag or face-down stand card swapped with a draw-pile card."""
    for i in ALL:
        k = next((k for k, c in enumerate(state.draw_pile) if IDX[c] != i), None)
        if k is None:
            continue
        j = IDX[state.draw_pile[k]]
        draw = _put(state.draw_pile, k, GOODS[i])
        if state.hands[p][i] > state.hand_known[p][i]:
            yield dataclasses.replace(state, draw_pile=draw,
                                      hands=_put(state.hands, p, _swap(state.hands[p], i, j)))
        if state.bags[p][i]:
            yield dataclasses.replace(state, draw_pile=draw,
                                      bags=_put(state.bags, p, _swap(state.bags[p], i, j)))
        if (not IS_LEGAL[i] and not IS_LEGAL[j] and state.phase != "over"
                and state.stands[p][i] > state.stand_known[p][i]):
            yield dataclasses.replace(state, draw_pile=draw,
                                      stands=_put(state.stands, p, _swap(state.stands[p], i, j)))


def _check_views_hide(state) -> None:
    n = state.n_players
    for owner in range(n):
        for other in _perturbations(state, owner):
            for seat in [None, *range(n)]:
                if seat == owner:
                    continue
                assert GAME.view(other, seat) == GAME.view(state, seat), (
                    f"seat {seat} can tell a hidden card of seat {owner} (phase {state.phase})")
            assert GAME.view(other, owner) != GAME.view(state, owner)


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(n=st.integers(3, 5), seed=st.binary(min_size=1, max_size=8), royal=st.booleans(),
       kind=st.sampled_from(["random", "heuristic"]))
def test_random_games_conserve_gold_and_cards_and_views_hide_secrets(n, seed, royal, kind):
    options = {"royal_goods": royal}
    state = GAME.setup(n, seed, options)
    deck = tuple(deck_counts(n, royal))
    log = new_log(GAME, n, seed, GAME.check_options(options))
    hashes = [state_hash(state)]
    rng = Stream(seed)
    bots = [make_bot(GAME, s, kind if s % 2 else "random", rng.fork(str(s))) for s in range(n)]
    steps = 0
    while not GAME.is_over(state):
        if steps % 7 == 0:
            _check_views_hide(state)
        chosen = {s: bots[s].choose(GAME.view(state, s), GAME.legal_actions(state, s))
                  for s in sorted(GAME.active(state))}
        state = GAME.apply(state, chosen)
        steps += 1
        assert sum(state.gold) == 50 * n and min(state.gold) >= 0
        assert _card_counts(state) == deck
        assert decode(canonical(GAME.view(state, steps % n))) == GAME.view(state, steps % n)
        log = log.append(chosen)
        hashes.append(state_hash(state))
    assert steps < 3000
    assert replay_hashes(GAME, log) == hashes
    result = GAME.result(state)
    assert [sum(p for _, p in rows) for rows in result.breakdown] == list(result.scores)
    assert sum(dict(rows)["gold"] for rows in result.breakdown) == 50 * n
