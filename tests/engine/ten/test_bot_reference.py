"""The heuristic bot with its cached sums decides exactly as the bot before the caches did
(tests/engine/ten/bot_before.py), at every step of seeded games at every player count."""

from __future__ import annotations

import pytest

from engine.bots.ten import TenBot
from engine.core import Stream, seed_bytes
from engine.ten import GAME
from engine.ten.state import Buy, ClaimNumbers, Draw

from .bot_before import TenBotBefore


def _compare_one_game(n_players: int, label: str) -> list:
    """Play a game with today's bots, asking the bot before at every decision; the actions."""
    seed = seed_bytes(label)
    root = Stream(seed)
    now = [TenBot(GAME, seat, root.fork(f"bot{seat}")) for seat in range(n_players)]
    before = [TenBotBefore(GAME, seat, root.fork(f"bot{seat}")) for seat in range(n_players)]
    state = GAME.setup(n_players, seed, None)
    decisions: list = []
    while not GAME.is_over(state):
        chosen = {}
        for seat in sorted(GAME.active(state)):
            view, actions = GAME.view(state, seat), GAME.legal_actions(state, seat)
            chosen[seat] = now[seat].choose(view, actions)
            assert chosen[seat] == before[seat].choose(view, actions), (label, len(decisions), view.phase)
            decisions.append(chosen[seat])
        state = GAME.apply(state, chosen)
    return decisions


@pytest.mark.parametrize("players", [1, 2, 3, 4, 5])
def test_cached_bot_makes_the_decisions_of_the_bot_before(players) -> None:
    decisions = [a for game in range(4) for a in _compare_one_game(players, f"ten-reference-{players}-{game}")]
    assert len(decisions) > 100 * players  # whole games were compared, not a step or two
    # and the decisions that price a payment, with collection cards given among them
    paid_with_cards = [a for a in decisions if getattr(getattr(a, "payment", None), "cards", ())]
    assert paid_with_cards and {type(a) for a in decisions} >= {Draw, ClaimNumbers, Buy}

