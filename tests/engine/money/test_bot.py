"""The heuristic bot: legal play from its view, and better than random (statistically)."""

from __future__ import annotations

from engine.bots import make_bot, play_game
from engine.core import Stream
from engine.money import GAME


def test_heuristic_bot_beats_random_bots_in_most_games() -> None:
    games = 60
    wins = 0
    for game in range(games):
        seat = game % 4
        kinds = ["random"] * 4
        kinds[seat] = "heuristic"
        played = play_game(GAME, 4, f"bot-test-{game}", kinds)
        assert played.result is not None
        wins += seat in played.result.winners
    assert wins >= games // 2


def test_heuristic_bot_plays_every_player_count_and_edition() -> None:
    for players, edition in [(2, "gold_silver"), (3, "classic"), (5, "gold_silver"),
                             (5, "classic")]:
        played = play_game(GAME, players, f"all-{players}-{edition}", "heuristic",
                           {"edition": edition})
        assert played.result is not None


def test_heuristic_bot_chooses_from_the_legal_actions_only() -> None:
    state = GAME.setup(2, b"legal", {})
    bots = [make_bot(GAME, s, "heuristic", Stream(b"b").fork(str(s))) for s in range(2)]
    for _ in range(60):
        if GAME.is_over(state):
            break
        chosen = {}
        for seat in sorted(GAME.active(state)):
            legal = GAME.legal_actions(state, seat)
            action = bots[seat].choose(GAME.view(state, seat), legal)
            assert action in legal
            chosen[seat] = action
        state = GAME.apply(state, chosen)
