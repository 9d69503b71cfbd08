"""A game the table ends early is scored as it stands, in every game, and marked as such."""

from __future__ import annotations

import pytest

from engine.bots import make_bot
from engine.core import Stream
from engine.core.early import ENDED_EARLY, early_reason, ended_early, is_ended_early
from engine.registry import game_ids, get_game


def _play(game, n: int, steps: int):
    state = game.setup(n, b"early", {})
    bots = {s: make_bot(game, s, "random", Stream(bytes([s]))) for s in range(n)}
    for _ in range(steps):
        if game.is_over(state):
            break
        active = game.active(state)
        state = game.apply(state, {s: bots[s].choose(game.view(state, s), game.legal_actions(state, s))
                                   for s in sorted(active)})
    return state


@pytest.mark.parametrize("game_id", game_ids())
@pytest.mark.parametrize("steps", [0, 7, 40])
def test_result_now_scores_an_unfinished_game_with_its_own_scoring(game_id: str, steps: int) -> None:
    game = get_game(game_id)
    n = max(game.min_players, 3)
    state = _play(game, n, steps)
    result = game.result_now(state)
    assert len(result.scores) == n
    for score, rows in zip(result.scores, result.breakdown, strict=True):
        assert score == sum(points for _, points in rows)
    early = ended_early(result)
    assert is_ended_early(early) and not is_ended_early(result)
    assert early.scores == result.scores and early.places == result.places
    assert all(rows[-1] == (ENDED_EARLY, 0) for rows in early.breakdown)
    assert early_reason(ended_early(result, why="Bob went offline")) == "Bob went offline"


def test_a_seat_ended_for_cause_is_ranked_last_whatever_its_score() -> None:
    game = get_game("money")
    result = game.result_now(_play(game, 3, 30))
    best = min(range(3), key=lambda s: result.places[s])
    early = ended_early(result, last={best})
    assert early.places[best] == 3
    assert best not in early.winners and early.winners
