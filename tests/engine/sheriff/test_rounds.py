"""Whole rounds and games: load and declare, Sheriff rotation, refills, the end (§5.2-§5.9, §7)."""

from __future__ import annotations

import dataclasses

import pytest

from engine.bots import play_game
from engine.core import IllegalAction
from engine.sheriff import GAME
from engine.sheriff.cards import counts_of, ids_of
from engine.sheriff.scoring import final_result
from engine.sheriff.state import Choose, Declare, Load, NoOffer, Pass

from .helpers import SEED, skip_market, start, step, to_inspection

HANDS = [["apple"] * 6, ["cheese"] * 6, ["chicken"] * 6, ["silk"] * 6]


def _sheriffs(n: int, seed: str) -> list[int]:
    """The Sheriff of every round of a random game."""
    from engine.bots.base import RandomBot
    from engine.core import Stream

    state = GAME.setup(n, seed.encode())
    bots = [RandomBot(GAME, s, Stream(f"{seed}{s}")) for s in range(n)]
    seen = [state.sheriff]
    while not GAME.is_over(state):
        chosen = {s: bots[s].choose(None, GAME.legal_actions(state, s)) for s in GAME.active(state)}
        state = GAME.apply(state, chosen)
        if not GAME.is_over(state) and state.round == len(seen):
            seen.append(state.sheriff)
    return seen


@pytest.mark.parametrize(("n", "rounds", "turns"), [(3, 9, 3), (4, 8, 2), (5, 10, 2)])
def test_every_player_is_sheriff_the_same_number_of_times_passing_left(n, rounds, turns):
    sheriffs = _sheriffs(n, f"rotation{n}")
    assert len(sheriffs) == rounds
    assert all(sheriffs.count(p) == turns for p in range(n))
    assert all(b == (a + 1) % n for a, b in zip(sheriffs, sheriffs[1:], strict=False))


def test_load_is_simultaneous_for_every_merchant_and_hidden():
    state = skip_market(start(HANDS, first=1))
    assert state.phase == "load" and GAME.active(state) == {0, 2, 3}
    with pytest.raises(IllegalAction, match="waiting for seat 3"):
        GAME.apply(state, {0: Load(("apple",)), 2: Load(("chicken",))})
    view = GAME.view(state, 0)
    assert all(p.bag == () for p in view.players)
    state = GAME.apply(state, {0: Load(("apple",) * 2), 2: Load(("chicken",)), 3: Load(("silk",) * 5)})
    view = GAME.view(state, 0)
    assert [len(p.bag) for p in view.players] == [2, 0, 1, 5]
    assert view.players[3].bag == ("?",) * 5 and view.players[0].bag == ("apple", "apple")
    # declarations in order from the Sheriff's left
    assert state.phase == "declare" and state.turn == 2
    state = step(state, 2, Declare("chicken"))
    assert state.turn == 3
    with pytest.raises(IllegalAction, match="only apple, cheese, bread, chicken"):
        GAME.validate(state, 3, Declare("silk"))
    state = step(state, 3, Declare("bread"))
    state = step(state, 0, Declare("apple"))
    assert state.phase == "inspect" and state.pending == (0, 2, 3) and GAME.active(state) == {1}


@pytest.mark.parametrize(("cards", "reason"), [((), "1 to 5"), (("chicken",) * 6, "1 to 5"),
                                               (("cheese",), "not all in your hand")])
def test_bag_holds_one_to_five_cards_from_hand(cards, reason):
    state = skip_market(start(HANDS))
    with pytest.raises(IllegalAction, match=reason):
        GAME.validate(state, 2, Load(cards))


def test_end_of_round_refills_from_the_outgoing_sheriffs_left_and_passes_the_marker():
    state = start(HANDS, draw=["pepper", "mead", "crossbow", "silk", "apple"])
    state = to_inspection(state, {1: (["cheese"] * 2, "cheese"), 2: (["chicken"], "chicken"),
                                  3: (["silk"] * 2, "apple")})
    for merchant in (1, 2, 3):
        state = step(state, 0, Choose(merchant))
        state = step(state, merchant, NoOffer())
        state = step(state, 0, Pass())
    assert state.round == 1 and state.sheriff == 1 and state.phase == "market" and state.turn == 2
    assert ids_of(state.hands[1]) == ("cheese",) * 4 + ("pepper", "mead")
    assert ids_of(state.hands[2]) == ("chicken",) * 5 + ("crossbow",)
    assert ids_of(state.hands[3]) == ("apple",) + ("silk",) * 5
    assert state.outcomes == ("",) * 4 and state.declared == ("",) * 4
    assert ids_of(state.stands[3]) == ("silk", "silk")  # passed undeclared: face down


def test_refill_stops_for_everyone_once_the_draw_pile_cannot_be_rebuilt():
    state = start(HANDS)
    state = to_inspection(state, {1: (["cheese"] * 2, "cheese"), 2: (["chicken"], "chicken"),
                                  3: (["silk"] * 2, "apple")})
    # the draw pile holds one card, the discard piles 10: nothing can be rebuilt
    spare = list(state.draw_pile[1:])
    state = dataclasses.replace(state, draw_pile=state.draw_pile[:1],
                                stands=(counts_of(spare),) + state.stands[1:])
    for merchant in (1, 2, 3):
        state = step(state, 0, Choose(merchant))
        state = step(state, merchant, NoOffer())
        state = step(state, 0, Pass())
    assert [sum(h) for h in state.hands] == [6, 5, 5, 4]
    assert state.draw_pile == ()


def test_a_merchant_with_an_empty_hand_sits_the_round_out():
    state = skip_market(start(HANDS))
    spare = ids_of(state.hands[2])
    state = dataclasses.replace(state, hands=state.hands[:2] + (counts_of(()),) + state.hands[3:],
                                stands=(counts_of(spare),) + state.stands[1:])
    assert GAME.active(state) == {1, 3}
    state = GAME.apply(state, {1: Load(("cheese",)), 3: Load(("silk",))})
    state = step(state, 1, Declare("cheese"))
    state = step(state, 3, Declare("apple"))
    assert state.pending == (1, 3)


def test_game_ends_after_the_last_round_and_scores_the_stands():
    played = play_game(GAME, 4, "full game", "random")
    state = played.state
    assert GAME.is_over(state) and state.round == 7
    assert played.result == final_result(state.gold, state.stands)
    assert GAME.active(state) == frozenset() and GAME.legal_actions(state, 0) == ()
    # contraband identities are revealed to everyone at the end
    for p, seat in enumerate(GAME.view(state, None).players):
        assert "?" not in seat.stand_down and len(seat.stand_down) == sum(
            n for i, n in enumerate(state.stands[p]) if i >= 4)


def test_three_player_games_never_hold_bread_but_may_declare_it():
    state = skip_market(GAME.setup(3, SEED, {"first_sheriff": 0}))
    loads = {p: Load(ids_of(state.hands[p])[:1]) for p in (1, 2)}
    state = GAME.apply(state, loads)
    assert Declare("bread") in GAME.legal_actions(state, 1)
    state = step(state, 1, Declare("bread"))
    assert state.declared[1] == "bread"
    played = play_game(GAME, 3, "three", "random")
    assert played.result is not None and all(stand[2] == 0 for stand in played.state.stands)


def test_refill_rebuilds_the_draw_pile_when_it_runs_out():
    state = start(HANDS)
    state = to_inspection(state, {1: (["cheese"] * 2, "cheese"), 2: (["chicken"], "chicken"),
                                  3: (["silk"] * 2, "apple")})
    # the draw pile holds two cards; the discard piles 5 + 8 = 13 > 10 cards; 5 are needed
    extra = state.draw_pile[2:5]
    spare = list(state.draw_pile[5:])
    state = dataclasses.replace(state, draw_pile=state.draw_pile[:2],
                                piles=(state.piles[0], state.piles[1] + extra),
                                stands=(counts_of(spare),) + state.stands[1:])
    rng = state.rng
    for merchant in (1, 2, 3):
        state = step(state, 0, Choose(merchant))
        state = step(state, merchant, NoOffer())
        state = step(state, 0, Pass())
    assert state.rng != rng  # shuffled with the game RNG
    assert [sum(h) for h in state.hands] == [6, 6, 6, 6]
    # 2 cards from the old pile, then 13 rebuilt: 5 + 5 face up, 3 drawn, none left
    assert [len(p) for p in state.piles] == [5, 5] and state.draw_pile == ()
