"""The heuristic bot: legal play from its view alone, sensible choices, better than random."""

from __future__ import annotations

from dataclasses import replace

import pytest

import engine.bots.ten as ten_bot
import engine.bots.ten_values as ten_values
from engine.bots import make_bot, play_game
from engine.core import Stream
from engine.ten import GAME
from engine.ten.state import Bid, Buy, ClaimCurrency, ClaimNumbers, Draw, Pass, Skip

from .helpers import physical, play, start


def _bot(seat: int):
    return make_bot(GAME, seat, "heuristic", Stream(b"ten-bot").fork(str(seat)))


def _no_fallback(monkeypatch) -> None:
    def refuse(actions, rng):
        raise AssertionError("the heuristic bot built an illegal action")

    monkeypatch.setattr(ten_bot, "pick_uniform", refuse)


def test_heuristic_bot_beats_random_bots_in_most_games() -> None:
    games, wins = 30, 0
    for game in range(games):
        seat = game % 3
        kinds = ["random"] * 3
        kinds[seat] = "heuristic"
        result = play_game(GAME, 3, f"ten-bot-test-{game}", kinds).result
        wins += seat in result.winners
    assert wins >= 0.6 * games


@pytest.mark.parametrize("players", [1, 2, 3, 4, 5])
def test_heuristic_bots_finish_every_player_count_with_legal_actions(players, monkeypatch) -> None:
    _no_fallback(monkeypatch)
    played = play_game(GAME, players, f"ten-all-{players}", "heuristic")
    assert played.result is not None and max(played.result.scores) > 0


def test_bot_draws_when_safe_and_stops_when_risky() -> None:
    bot = _bot(0)
    low = play(start(3, ["red_1"]), (0, Draw()))
    assert bot.choose(GAME.view(low, 0), GAME.legal_actions(low, 0)) == Draw()
    high = play(start(3, ["red_6", "blue_4"]), (0, Draw()), (0, Draw()))
    assert GAME.view(high, 0).bust_cards > GAME.view(high, 0).deck_size // 2
    assert bot.choose(GAME.view(high, 0), GAME.legal_actions(high, 0)) == ClaimNumbers()


def test_bot_bids_more_for_a_wild_that_extends_its_run_and_passes_when_outbid() -> None:
    state = play(start(3, ["wild_4"]), (0, Draw()))
    held = physical(["red_1", "red_2", "red_3", "red_5", "red_6"], 3)
    useful = replace(state, collections=((), tuple(held), ()))
    keen = _bot(1).choose(GAME.view(useful, 1), GAME.legal_actions(useful, 1))
    mild = _bot(1).choose(GAME.view(state, 1), GAME.legal_actions(state, 1))
    assert isinstance(keen, Bid) and isinstance(mild, Bid) and keen.amount > mild.amount
    # seat 2 holds nothing: the wild is worth a run of 1 to it, less than a bid of 4
    outbid = play(state, (1, Bid(4)))
    assert _bot(2).choose(GAME.view(outbid, 2), GAME.legal_actions(outbid, 2)) == Pass()


def test_bot_buys_the_card_that_extends_its_run(monkeypatch) -> None:
    _no_fallback(monkeypatch)
    state = start(3, ["blue_3", "green_1"])
    state = play(state, (0, Draw()), (0, Draw()), (0, ClaimCurrency()))  # both to the market
    held = physical(["blue_1", "blue_2", "blue_4", "blue_5"], 3, taken=set(state.market))
    deck = tuple(c for c in state.deck if c not in held)
    state = replace(state, collections=((), tuple(held), ()), deck=deck[:1],
                    discard=state.discard + deck[1:])
    state = play(state, (1, Draw()), (1, ClaimNumbers()))
    action = _bot(1).choose(GAME.view(state, 1), GAME.legal_actions(state, 1))
    assert isinstance(action, Buy) and action.card == "blue_3_a"


def test_bot_skips_when_nothing_helps() -> None:
    state = play(start(3, ["orange_9"]), (0, Draw()), (0, ClaimCurrency()), (1, Draw()),
                 (1, ClaimNumbers()))
    state = replace(state, currency=(5, 1, 5))
    assert _bot(1).choose(GAME.view(state, 1), GAME.legal_actions(state, 1)) == Skip()



def test_the_lazy_losses_are_the_sorted_losses_of_every_card() -> None:
    """The bot searches a card's loss only when the order asks for it; the pairs it yields
    are those of sorting every card's loss, float for float (seeded collections of bot games)."""
    from .bot_before import value

    collections = set()
    for game in range(3):
        state = play_game(GAME, 3, f"ten-lazy-losses-{game}", ["heuristic"] * 3).state
        collections.update(state.collections)
    assert len(collections) >= 3
    for held in collections:
        base = value(held)
        expected = sorted((base - value(held[:i] + held[i + 1:]), card) for i, card in enumerate(held))
        assert ten_values._Losses(held).smallest(len(held)) == expected


def test_the_gain_floors_and_ceilings_hold_the_gains() -> None:
    """The bot decides without a search when its decision holds between these floors and
    ceilings, so one on the wrong side of a real gain would change a decision."""
    import random

    from engine.ten.cards import IS_WILD, NUMBER_VALUE

    rng = random.Random(25)
    wilds, numbers = sorted(IS_WILD), sorted(NUMBER_VALUE)
    for _ in range(3000):
        held = tuple(rng.sample(numbers, rng.randrange(14)) + rng.sample(wilds, rng.randrange(5)))
        wild = rng.choice([w for w in wilds if w not in held])
        gain = ten_values._value(held + (wild,)) - ten_values._value(held)
        assert ten_values.gain_floor(held, (wild,)) - 1e-9 <= gain <= ten_values.wild_gain_ceiling(held, wild) + 1e-9
        added = tuple(rng.sample([c for c in numbers if c not in held], rng.randrange(1, 4)))
        gain = ten_values._value(held + added) - ten_values._value(held)
        assert ten_values.gain_floor(held, added) - 1e-9 <= gain <= ten_values.gain_ceiling(held, added) + 1e-9


def test_the_gains_without_a_search_are_the_gains_float_for_float() -> None:
    """`gain` skips the search when a floor and a ceiling on the rise meet; it must give the
    very float the two values give (the decisions compare it)."""
    import random

    from engine.ten.cards import IS_WILD, NUMBER_VALUE

    rng = random.Random(26)
    wilds, numbers = sorted(IS_WILD), sorted(NUMBER_VALUE)
    for _ in range(3000):
        held = tuple(rng.sample(numbers, rng.randrange(16)) + rng.sample(wilds, rng.choice([0, 1, 2, 4])))
        if rng.random() < 0.5:
            added = (rng.choice([w for w in wilds if w not in held]),)
        else:
            added = tuple(rng.sample([c for c in numbers if c not in held], rng.randrange(4)))
        assert ten_values.gain(held, added) == ten_values._value(held + added) - ten_values._value(held)
