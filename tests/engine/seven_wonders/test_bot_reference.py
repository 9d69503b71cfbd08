"""Today's normal 7 Wonders bot (its worths remembered per decision, issue 22 item 6) decides
exactly as the bot before the speed-up (tests/engine/seven_wonders/bot_reference.py), at every
step of seeded games at every player count."""

from __future__ import annotations

import pytest

from engine.bots.seven_wonders import SevenWondersBot
from engine.core import Stream, seed_bytes
from engine.seven_wonders import GAME
from engine.seven_wonders.state import BUILD, BUILD_FREE, DISCARD, STAGE, Pick

from .bot_reference import SevenWondersBotReference


def _compare_one_game(n_players: int, label: str) -> list:
    """Play a game with today's bots, asking the reference bot at every decision; the actions."""
    seed = seed_bytes(label)
    root = Stream(seed)
    now = [SevenWondersBot(GAME, seat, root.fork(f"bot{seat}")) for seat in range(n_players)]
    before = [SevenWondersBotReference(GAME, seat, root.fork(f"bot{seat}")) for seat in range(n_players)]
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


@pytest.mark.parametrize("players", [3, 4, 5, 6, 7])
def test_remembering_bot_makes_the_decisions_of_the_reference_bot(players) -> None:
    decisions = [a for game in range(3) for a in _compare_one_game(players, f"wonders-reference-{players}-{game}")]
    assert len(decisions) >= 3 * 18 * players  # whole games were compared: 18 picks a seat
    kinds = {a.kind for a in decisions if isinstance(a, Pick)}
    assert kinds >= {BUILD, STAGE, DISCARD} and kinds & {BUILD, BUILD_FREE}
