"""Today's normal Sheriff bot (its rates and bag values remembered, issue 22 item 6) decides
exactly as the bot before the speed-up (tests/engine/sheriff/bot_reference.py): at every step
of seeded games at every player count, plain and dealt, on the same view and with its own
stream, which the two must also leave at the same point (the same draws, in the same order)."""

from __future__ import annotations

from typing import Any

import pytest

from engine.bots.sheriff import SheriffBot
from engine.core import Stream, seed_bytes
from engine.sheriff import GAME
from engine.sheriff.cards import card_deck
from engine.sheriff.state import Choose, Declare, Inspect, Load, Offer, SetAside

from ..bots.reference import compare_one_game
from .bot_reference import SheriffBotReference


def _options(n_players: int, dealt: bool, seed: bytes) -> dict[str, Any] | None:
    """A plain game, or one dealt as the network deals it (card ids, shuffled by the seed)."""
    if not dealt:
        return None
    order = tuple(Stream(seed).fork("deck").shuffle(card_deck(n_players, True)))
    return GAME.dealt_options(n_players, {"deck": order})


def _compare_one_game(n_players: int, label: str, dealt: bool = False) -> list:
    """Play a game with today's bots, asking the reference bot at every decision; the actions."""
    decisions, now, before = compare_one_game(GAME, SheriffBot, SheriffBotReference, n_players, label,
                                              options=_options(n_players, dealt, seed_bytes(label)), same_draws=True)
    for mine, reference in zip(now, before, strict=True):
        assert mine.record == reference.record  # the same table history was read
    return decisions


@pytest.mark.parametrize("players", [3, 4, 5])
def test_remembering_bot_makes_the_decisions_of_the_reference_bot(players) -> None:
    decisions = [a for game in range(4) for a in _compare_one_game(players, f"sheriff-reference-{players}-{game}")]
    assert len(decisions) > 4 * 150  # whole games were compared, not a step or two
    kinds = {type(a) for a in decisions}
    assert kinds >= {SetAside, Load, Declare, Choose, Offer, Inspect}
    assert any(isinstance(a, Offer) and a.gold for a in decisions)  # bribes were drawn too


@pytest.mark.parametrize("players", [3, 4, 5])
def test_remembering_bot_decides_as_the_reference_bot_in_a_dealt_game(players) -> None:
    decisions = _compare_one_game(players, f"sheriff-reference-dealt-{players}", dealt=True)
    assert len(decisions) > 150 and "#" in decisions[0].cards[0]  # a whole game, of card ids
