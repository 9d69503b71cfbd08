"""The view works out what inspections and offers lead to (View.consequences,
SeatView.inspection): what a screen shows next to a declaration, an answer or an offer is what
the engine then does — checked against the rules' worked inspection examples."""

from __future__ import annotations

from collections import Counter

import pytest

from engine.sheriff import GAME
from engine.sheriff.cards import IDX, LEGAL, PENALTY, ids_of
from engine.sheriff.state import Accept, Choose, Confiscate, Declare, Inspect, Load, NoOffer, Offer
from engine.sheriff.view import accepted, inspection

from .helpers import skip_market, start, step
from .test_inspection import INSPECTIONS, _table


@pytest.mark.parametrize("example", INSPECTIONS, ids=[e["id"] for e in INSPECTIONS])
def test_the_inspection_foreseen_is_the_inspection_done(example):
    state = step(_table(example["bag"], example["declared"]), 0, Choose(1))
    expected = example["expected"]
    foreseen = GAME.view(state, 1).consequences.if_opened
    assert Counter(foreseen.kept) == Counter(expected["to_stand"])
    assert Counter(foreseen.confiscated) == Counter(expected["confiscated"])
    assert foreseen.fine == expected["sheriff_pays"] + expected["merchant_pays"]
    assert foreseen.honest == (not expected["confiscated"])
    state = step(state, 1, NoOffer())
    sheriff = GAME.view(state, 0).consequences
    assert sheriff.if_opened is None  # the Sheriff does not know the bag ...
    honest = len(example["bag"]) * PENALTY[IDX[example["declared"]]]
    assert sheriff.honest_fine == honest  # ... but its size and declaration are public
    state = step(state, 0, Inspect())
    for seat in (None, 0, 1, 2):
        assert GAME.view(state, seat).players[1].inspection == foreseen
    if expected["confiscated"]:
        assert GAME.view(state, 0).consequences.confiscation_fine == expected["merchant_pays"]
        gold = state.gold[1]
        state = step(state, 0, Confiscate(1, tuple(expected["confiscated"])))
        assert gold - state.gold[1] == expected["merchant_pays"]
    elif honest:
        assert state.gold[0] == 50 - honest


def test_each_declaration_says_what_an_inspection_would_then_do():
    state = skip_market(start([["chicken"] * 6, ["apple", "apple", "silk", "cheese", "bread", "bread"],
                               ["apple"] * 6, ["apple"] * 6]))
    state = GAME.apply(state, {1: Load(("apple", "apple", "silk")), 2: Load(("apple",)), 3: Load(("apple",))})
    assert state.phase == "declare" and GAME.active(state) == {1}
    view = GAME.view(state, 1)
    assert [i.declared for i in view.consequences.declarations] == list(LEGAL)
    waiting = GAME.view(state, 2).consequences.declarations  # about its own bag, never seat 1's
    assert all(i.kept + i.confiscated == ("apple",) for i in waiting)
    assert GAME.view(state, 0).consequences.declarations == ()  # the Sheriff has no bag
    assert GAME.view(state, None).consequences is None
    for good, foreseen in zip(LEGAL, view.consequences.declarations, strict=True):
        declared = step(state, 1, Declare(good))
        assert GAME.view(declared, 1).consequences.if_opened == foreseen
    apple = view.consequences.declarations[LEGAL.index("apple")]
    assert (apple.kept, apple.confiscated, apple.fine) == (("apple", "apple"), ("silk",), 4)


def test_an_accepted_offer_hands_over_only_the_bag_goods_really_there():
    state = skip_market(start([["chicken"] * 6, ["apple", "apple", "silk", "cheese", "bread", "bread"],
                               ["apple"] * 6, ["apple"] * 6]))
    state = GAME.apply(state, {1: Load(("apple", "apple", "silk")), 2: Load(("apple",)), 3: Load(("apple",))})
    for seat in (1, 2, 3):
        state = step(state, seat, Declare("apple"))
    state = step(state, 0, Choose(1))
    promised = ("apple", "cheese")  # the cheese is a bluff: not in the bag
    delivered, rest = accepted(("apple", "apple", "silk"), promised)
    assert (delivered, rest) == (("apple",), ("apple", "silk"))
    state = step(state, 1, Offer(gold=2, bag_goods=promised))
    state = step(state, 0, Accept())
    assert ids_of(state.stands[0]) == delivered
    assert Counter(ids_of(state.stands[1])) == Counter(rest)


def test_an_honest_bag_costs_the_sheriff_the_fines_of_every_good():
    assert inspection(("cheese", "cheese"), "cheese").fine == 2 * PENALTY[IDX["cheese"]]
    lie = inspection(("cheese", "mead", "silk"), "cheese")
    assert not lie.honest and lie.fine == PENALTY[IDX["mead"]] + PENALTY[IDX["silk"]]
