"""Today's normal 7 Wonders bot (its worths remembered per decision, issue 22 item 6) decides
exactly as the bot before the speed-up (tests/engine/seven_wonders/bot_reference.py), at every
step of seeded games at every player count."""

from __future__ import annotations

import pytest

from engine.bots.seven_wonders import SevenWondersBot
from engine.seven_wonders import GAME
from engine.seven_wonders.state import BUILD, BUILD_FREE, DISCARD, STAGE, Pick

from ..bots.reference import compare_one_game
from .bot_reference import SevenWondersBotReference


@pytest.mark.parametrize("players", [3, 4, 5, 6, 7])
def test_remembering_bot_makes_the_decisions_of_the_reference_bot(players) -> None:
    decisions = [a for game in range(3) for a in compare_one_game(GAME, SevenWondersBot, SevenWondersBotReference, players,
                                                   f"wonders-reference-{players}-{game}")[0]]
    assert len(decisions) >= 3 * 18 * players  # whole games were compared: 18 picks a seat
    kinds = {a.kind for a in decisions if isinstance(a, Pick)}
    assert kinds >= {BUILD, STAGE, DISCARD} and kinds & {BUILD, BUILD_FREE}
