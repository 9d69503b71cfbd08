"""The heuristic bot plays legal, complete games at every player count and beats random play."""

from __future__ import annotations

import pytest

from engine.bots import bot_kinds, play_game
from engine.bots.sheriff import SheriffBot
from engine.core import Stream
from engine.sheriff import GAME
from engine.sheriff.state import Load, NoOffer, Offer

from .helpers import skip_market, start, to_inspection


def test_heuristic_bot_is_registered():
    assert "heuristic" in bot_kinds("sheriff")


@pytest.mark.parametrize("n", [3, 4, 5])
def test_heuristic_bots_finish_games(n):
    played = play_game(GAME, n, f"bots{n}", "heuristic")
    assert played.result is not None


def test_heuristic_bot_beats_random_bots_most_of_the_time():
    wins = 0
    for k in range(12):
        bots = ["random"] * 4
        bots[k % 4] = "heuristic"
        result = play_game(GAME, 4, f"vs-random-{k}", bots).result
        wins += (k % 4) in result.winners
    assert wins >= 8


def test_bot_smuggles_contraband_under_a_plausible_declaration():
    hands = [["apple"] * 6, ["cheese"] * 3 + ["silk", "bread", "apple"], ["chicken"] * 6, ["bread"] * 6]
    state = skip_market(start(hands))
    bot = SheriffBot(GAME, 1, Stream(b"bot"))
    load = bot.choose(GAME.view(state, 1), GAME.legal_actions(state, 1))
    assert isinstance(load, Load) and "silk" in load.cards and load.cards.count("cheese") == 3
    state = GAME.apply(state, {1: load, 2: Load(("chicken",)), 3: Load(("bread",))})
    declared = bot.choose(GAME.view(state, 1), GAME.legal_actions(state, 1))
    assert declared.good == "cheese"


def test_an_honest_bag_bribes_at_most_a_token():
    """An honest bag wants to be opened (the Sheriff pays): at most a gold now and then, so
    that a bribe alone proves nothing (tests/engine/sheriff/test_bot_bluff.py has the rest)."""
    hands = [["apple"] * 6, ["cheese"] * 6, ["chicken"] * 5 + ["silk"], ["bread"] * 6]
    state = to_inspection(start(hands), {1: (["cheese"] * 3, "cheese"),
                                         2: (["chicken", "silk"], "chicken"),
                                         3: (["bread"], "bread")})
    from engine.sheriff.state import Choose

    honest = GAME.apply(state, {0: Choose(1)})
    for seed in range(40):
        offer = SheriffBot(GAME, 1, Stream(f"a{seed}")).choose(GAME.view(honest, 1), GAME.legal_actions(honest, 1))
        assert offer == NoOffer() or (isinstance(offer, Offer) and offer.gold <= 1)
