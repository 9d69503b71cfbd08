"""The heuristic bot with its cached sums decides exactly as the bot before the caches did
(tests/engine/ten/bot_before.py), at every step of seeded games at every player count."""

from __future__ import annotations

import pytest

from engine.bots.ten import TenBot
from engine.ten import GAME
from engine.ten.state import Buy, ClaimNumbers, Draw

from ..bots.reference import compare_one_game
from .bot_before import TenBotBefore


@pytest.mark.parametrize("players", [1, 2, 3, 4, 5])
def test_cached_bot_makes_the_decisions_of_the_bot_before(players) -> None:
    decisions = [a for game in range(4) for a in compare_one_game(GAME, TenBot, TenBotBefore, players, f"ten-reference-{players}-{game}")[0]]
    assert len(decisions) > 100 * players  # whole games were compared, not a step or two
    # and the decisions that price a payment, with collection cards given among them
    paid_with_cards = [a for a in decisions if getattr(getattr(a, "payment", None), "cards", ())]
    assert paid_with_cards and {type(a) for a in decisions} >= {Draw, ClaimNumbers, Buy}

