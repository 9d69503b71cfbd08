"""The market (§5.1), the empty draw pile (§5.7, §9.8) and identified hand cards (§6, §9.6)."""

from __future__ import annotations

import dataclasses
from collections import Counter

import pytest

from engine.core import HIDDEN, IllegalAction
from engine.sheriff import GAME
from engine.sheriff.cards import counts_of, ids_of
from engine.sheriff.state import Discard, DrawDeck, DrawDiscard, SetAside

from .helpers import start, step

HANDS = [
    ["apple"] * 6,  # seat 0, the Sheriff
    ["cheese", "cheese", "chicken", "silk", "bread", "apple"],  # seat 1, first merchant
    ["chicken"] * 6,
    ["bread"] * 6,
]
PILE1 = ["cheese", "mead", "apple", "apple", "pepper"]  # bottom to top: pepper on top


def test_worked_example_market_turn():
    """§9.6: set aside 3, take pepper, apple, apple from pile 1, discard onto pile 2."""
    state = start(HANDS, pile1=PILE1, draw=["crossbow"])
    state = step(state, 1, SetAside(("cheese", "bread", "apple")))
    assert state.step == "draw"
    for _ in range(3):
        state = step(state, 1, DrawDiscard(1))
    assert state.step == "discard"
    assert state.piles[0] == ("cheese", "mead")
    assert ids_of(state.hands[1]) == ("apple", "apple", "cheese", "chicken", "pepper", "silk")
    state = step(state, 1, Discard(2, ("bread", "apple", "cheese")))
    assert state.piles[1][-3:] == ("bread", "apple", "cheese") and state.piles[1][-1] == "cheese"
    assert state.turn == 2 and state.step == "set_aside"
    # the three cards taken stay identified for everyone until a card leaves face down
    seen = GAME.view(state, 3).players[1].hand
    assert sorted(c for c in seen if c != HIDDEN) == ["apple", "apple", "pepper"]
    assert seen.count(HIDDEN) == 3


def test_setting_aside_nothing_ends_the_market_turn():
    state = start(HANDS)
    state = step(state, 1, SetAside(()))
    assert state.turn == 2 and state.step == "set_aside" and state.hands[1] == counts_of(HANDS[1])


def test_after_the_draw_pile_only_the_draw_pile():
    state = start(HANDS, pile1=PILE1, draw=["crossbow", "silk"])
    state = step(state, 1, SetAside(("cheese", "bread")))
    state = step(state, 1, DrawDeck())
    assert GAME.legal_actions(state, 1) == (DrawDeck(),)
    with pytest.raises(IllegalAction, match="only the draw pile"):
        GAME.validate(state, 1, DrawDiscard(1))
    state = step(state, 1, DrawDeck())
    assert ids_of(state.hands[1]).count("crossbow") == 1 and state.step == "discard"
    # a card drawn from the draw pile is not identified to the others
    assert set(GAME.view(state, 2).players[1].hand) == {HIDDEN}


@pytest.mark.parametrize(("action", "reason"), [
    (SetAside(("silk", "silk")), "not all in your hand"),
    (SetAside(["cheese"]), "tuple"),
    (SetAside(("cheese", "cheese", "chicken", "silk", "bread", "apple")), "at most 5"),
    (SetAside(("gold",)), "not a good"),
    (DrawDeck(), "set aside"),
])
def test_illegal_market_moves_say_why(action, reason):
    state = start(HANDS)
    with pytest.raises(IllegalAction, match=reason):
        GAME.validate(state, 1, action)


def test_discard_must_hold_exactly_the_set_aside_cards():
    state = start(HANDS)
    state = step(state, 1, SetAside(("cheese",)))
    state = step(state, 1, DrawDeck())
    with pytest.raises(IllegalAction, match="exactly cheese"):
        GAME.validate(state, 1, Discard(1, ("apple",)))
    with pytest.raises(IllegalAction, match="pile is 1 or 2"):
        GAME.validate(state, 1, Discard(3, ("cheese",)))


def test_empty_discard_pile_cannot_be_drawn_from():
    state = start(HANDS)
    state = dataclasses.replace(state, piles=((), state.piles[1]))
    state = step(state, 1, SetAside(("cheese",)))
    assert DrawDiscard(1) not in GAME.legal_actions(state, 1)
    with pytest.raises(IllegalAction, match="pile 1 is empty"):
        GAME.validate(state, 1, DrawDiscard(1))


def _empty_draw(state, pile1, pile2):
    """The state with an empty draw pile and these discard piles (the rest of the cards move
    onto the Sheriff's stand so that no card is lost)."""
    spare = list(state.draw_pile) + list(state.piles[0]) + list(state.piles[1])
    for card in list(pile1) + list(pile2):
        spare.remove(card)
    stands = (counts_of(spare),) + state.stands[1:]
    return dataclasses.replace(state, draw_pile=(), piles=(tuple(pile1), tuple(pile2)), stands=stands)


def test_no_rebuild_with_ten_cards_or_fewer():
    """§9.8 first case: 4 + 5 cards in the piles: nothing is shuffled, she stops short."""
    state = _empty_draw(start(HANDS), ["apple"] * 4, ["cheese"] * 5)
    state = step(state, 1, SetAside(("cheese", "bread")))
    rng = state.rng
    assert GAME.legal_actions(state, 1) == (DrawDiscard(1), DrawDiscard(2))
    state = dataclasses.replace(state, drew_deck=True)  # she already drew from the draw pile
    assert GAME.legal_actions(state, 1) == ()
    state = start(HANDS)
    state = _empty_draw(state, ["apple"] * 4, ["cheese"] * 5)
    state = step(state, 1, SetAside(("cheese",)))
    state = step(state, 1, DrawDiscard(2))
    assert state.step == "discard" and sum(state.hands[1]) == 6
    assert state.rng == rng


def test_market_merchant_stops_short_when_no_draw_is_left():
    state = _empty_draw(start(HANDS), ["apple"] * 4, ["cheese"] * 5)
    state = dataclasses.replace(state, piles=((), ()))
    stands = (counts_of(ids_of(state.stands[0]) + ("apple",) * 4 + ("cheese",) * 5),) + state.stands[1:]
    state = dataclasses.replace(state, stands=stands)
    state = step(state, 1, SetAside(("cheese", "bread")))
    assert state.step == "discard" and sum(state.hands[1]) == 4  # no draw at all: straight to discard
    state = step(state, 1, Discard(1, ("bread", "cheese")))
    assert state.piles[0] == ("bread", "cheese")


def test_rebuild_with_more_than_ten_cards():
    """§9.8 second case: 6 + 8 cards are shuffled; 5 onto each pile; the draw pile holds 4."""
    pile1 = ["apple"] * 6
    pile2 = ["chicken"] * 8
    state = _empty_draw(start(HANDS), pile1, pile2)
    state = step(state, 1, SetAside(("cheese",)))
    before = state.rng
    state = step(state, 1, DrawDeck())
    assert state.rng != before  # the game RNG shuffled
    assert len(state.draw_pile) == 3 and [len(p) for p in state.piles] == [5, 5]
    drawn = Counter(ids_of(state.hands[1])) - (Counter(HANDS[1]) - Counter(["cheese"]))
    rebuilt = Counter(state.draw_pile + state.piles[0] + state.piles[1]) + drawn
    assert rebuilt == Counter(pile1 + pile2) and sum(drawn.values()) == 1


def test_rebuild_order_is_pile1_then_pile2_shuffled_with_the_game_rng():
    pile1 = ["apple"] * 3 + ["mead"] * 3
    pile2 = ["chicken"] * 4 + ["silk"] * 4
    state = _empty_draw(start(HANDS), pile1, pile2)
    state = step(state, 1, SetAside(("cheese",)))
    expected, _ = state.rng.shuffle(pile1 + pile2)
    state = step(state, 1, DrawDeck())
    assert state.piles == (expected[:5], expected[5:10])
    assert state.draw_pile == expected[11:]
    assert ids_of(state.hands[1]).count(expected[10]) >= 1
