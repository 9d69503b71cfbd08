"""The structured negotiation of §5.4: offers, binding conditions, promises that bind nothing."""

from __future__ import annotations

import dataclasses
from collections import Counter
from math import comb

import pytest

from engine.core import HIDDEN, IllegalAction, Stream
from engine.sheriff import GAME
from engine.sheriff.cards import counts_of, ids_of
from engine.sheriff.state import (
    Accept,
    Choose,
    Confiscate,
    Declare,
    Demand,
    Inspect,
    Load,
    NoOffer,
    Offer,
    Pass,
)

from .helpers import gold_total, skip_market, start, step, to_inspection

# Sheriff S = seat 0; Thu = 1, Huy = 2, Lan = 3 (§9.5)
THU, HUY, LAN = 1, 2, 3


def _round(stands: dict[int, list[str]] | None = None):
    hands = [["chicken"] * 6,
             ["cheese"] * 3 + ["silk", "apple", "apple"],
             ["apple"] * 3 + ["pepper", "pepper", "cheese"],
             ["chicken"] * 4 + ["mead", "apple"]]
    state = start(hands)
    if stands:
        draw = list(state.draw_pile)
        new = list(state.stands)
        for seat, cards in stands.items():
            for card in cards:
                draw.remove(card)
            new[seat] = counts_of(cards)
        state = dataclasses.replace(state, draw_pile=tuple(draw), stands=tuple(new))
    bags = {THU: (["cheese", "cheese", "silk"], "cheese"),
            HUY: (["apple", "pepper", "pepper"], "apple"),
            LAN: (["chicken", "chicken", "mead"], "chicken")}
    return to_inspection(state, bags)


def _deal(state, merchant, offer):
    state = step(state, 0, Choose(merchant))
    return step(state, merchant, offer)


def test_worked_example_negotiation_with_a_condition():
    """§9.5, played move by move."""
    state = _round({LAN: ["apple"]})
    total = gold_total(state)
    # 1. Thu offers 20 gold and "inspect Huy"; the Sheriff accepts
    state = _deal(state, THU, Offer(gold=20, conditions=(("inspect", HUY),)))
    state = step(state, 0, Accept())
    assert state.gold[:2] == (70, 30) and state.conditions == (("inspect", HUY),)
    assert Counter(ids_of(state.stands[THU])) == Counter(["cheese", "cheese", "silk"])
    assert state.outcomes[THU] == "deal"
    # 2. Lan may not ask to pass Huy; she offers 5 and a promise, then 10 and an apple
    state = step(state, 0, Choose(LAN))
    with pytest.raises(IllegalAction, match="already accepted to inspect seat 2"):
        GAME.validate(state, LAN, Offer(gold=5, conditions=(("pass", HUY),)))
    assert Offer(gold=5, conditions=(("pass", HUY),)) not in GAME.legal_actions(state, LAN)
    state = step(state, LAN, Offer(gold=5, promise="I will let you pass when I am Sheriff."))
    state = step(state, 0, Demand("10 and an apple"))
    assert state.exchange == 2 and GAME.active(state) == {LAN}
    state = step(state, LAN, Offer(gold=10, stand_goods=("apple",)))
    state = step(state, 0, Accept())
    assert state.gold[0] == 80 and state.gold[LAN] == 40
    assert ids_of(state.stands[0]) == ("apple",)
    # 3. Huy is inspected at once: no negotiation at all
    state = step(state, 0, Choose(HUY))
    assert state.step == "confiscate" and state.outcomes[HUY] == "inspected"
    assert GAME.view(state, THU).players[HUY].revealed == ("apple", "pepper", "pepper")
    state = step(state, 0, Confiscate(1, ("pepper", "pepper")))
    assert state.gold[HUY] == 42 and gold_total(state) == total
    assert state.phase == "market" and state.round == 1  # the round ended


def test_bribe_of_gold_accepted():
    state = _round()
    state = _deal(state, THU, Offer(gold=7))
    state = step(state, 0, Accept())
    assert state.gold[:2] == (57, 43)
    assert GAME.view(state, HUY).players[THU].stand_up == ("cheese", "cheese")
    assert GAME.view(state, HUY).players[THU].stand_down == (HIDDEN,)  # the silk, face down
    assert GAME.view(state, THU).players[THU].stand_down == ("silk",)


def test_bag_goods_are_delivered_only_as_far_as_they_are_in_the_bag():
    state = _round()
    state = _deal(state, THU, Offer(bag_goods=("cheese", "crossbow")))
    state = step(state, 0, Accept())
    assert ids_of(state.stands[0]) == ("cheese",)  # the claimed crossbow was never there
    assert Counter(ids_of(state.stands[THU])) == Counter(["cheese", "silk"])
    assert state.gold[:2] == (50, 50)


def test_bribe_of_an_absent_bag_good_delivers_nothing():
    state = _round()
    state = _deal(state, HUY, Offer(bag_goods=("silk", "silk")))
    state = step(state, 0, Accept())
    assert ids_of(state.stands[0]) == ()
    assert Counter(ids_of(state.stands[HUY])) == Counter(["apple", "pepper", "pepper"])
    assert state.outcomes[HUY] == "deal"


def test_delivered_contraband_is_identified_on_the_sheriffs_stand():
    state = _round()
    state = _deal(state, THU, Offer(bag_goods=("silk",)))
    state = step(state, 0, Accept())
    assert GAME.view(state, LAN).players[0].stand_down == ("silk",)
    assert GAME.view(state, LAN).players[THU].stand_down == ()


def _finish_round(state):
    while state.phase == "inspect":
        if state.step == "choose":
            state = step(state, 0, Choose(state.pending[0]))
        elif state.step == "offer":
            state = step(state, state.merchant, NoOffer())
        else:
            state = step(state, 0, Pass())
    return state


def test_a_promise_binds_nothing():
    state = _round()
    promise = "I will let you pass when I am Sheriff."
    state = _deal(state, THU, Offer(promise=promise))
    state = step(state, 0, Accept())
    assert state.gold == (50, 50, 50, 50) and state.outcomes[THU] == "deal"
    assert state.talk[0] == (THU, Offer(promise=promise))
    state = _finish_round(state)
    assert state.round == 1 and state.sheriff == THU
    # next round Thu is Sheriff and may open the bag of the seat it promised
    state = skip_market(state)
    hands = {p: ids_of(state.hands[p]) for p in (0, 2, 3)}
    state = GAME.apply(state, {p: Load(hands[p][:1]) for p in (0, 2, 3)})
    while state.phase == "declare":
        state = step(state, state.turn, Declare("apple"))
    state = step(state, THU, Choose(0))
    state = step(state, 0, NoOffer())
    assert Inspect() in GAME.legal_actions(state, THU)
    GAME.validate(state, THU, Inspect())


def test_pass_condition_removes_inspect_but_allows_demand_and_accept():
    state = _round()
    state = _deal(state, THU, Offer(gold=1, conditions=(("pass", LAN),)))
    state = step(state, 0, Accept())
    state = _deal(state, LAN, Offer(gold=1))
    answers = GAME.legal_actions(state, 0)
    assert Inspect() not in answers and Accept() in answers and Pass() in answers
    assert any(isinstance(a, Demand) for a in answers)
    with pytest.raises(IllegalAction, match="let seat 3 pass"):
        GAME.validate(state, 0, Inspect())


def test_conflicting_conditions_are_refused():
    state = _round()
    state = step(state, 0, Choose(THU))
    with pytest.raises(IllegalAction, match="both to inspect and to pass seat 2"):
        GAME.validate(state, THU, Offer(conditions=(("inspect", HUY), ("pass", HUY))))
    state = step(state, THU, Offer(gold=3, conditions=(("pass", HUY),)))
    state = step(state, 0, Accept())
    state = step(state, 0, Choose(LAN))
    with pytest.raises(IllegalAction, match="already accepted to pass seat 2"):
        GAME.validate(state, LAN, Offer(gold=9, conditions=(("inspect", HUY),)))
    # repeating an accepted condition is allowed and changes nothing
    state = step(state, LAN, Offer(gold=2, conditions=(("pass", HUY),)))
    state = step(state, 0, Accept())
    assert state.conditions == (("pass", HUY),)


def test_accept_rechecks_conditions_against_the_accepted_ones():
    """Should a conflicting offer ever stand, accept is refused (the engine re-checks, §5.4.1)."""
    state = _round()
    state = _deal(state, THU, Offer(gold=1, conditions=(("inspect", LAN),)))
    state = dataclasses.replace(state, conditions=(("pass", LAN),))
    assert Accept() not in GAME.legal_actions(state, 0)
    with pytest.raises(IllegalAction, match="contradicts"):
        GAME.validate(state, 0, Accept())


@pytest.mark.parametrize(("offer", "reason"), [
    (Offer(), "must contain something"),
    (Offer(promise="   "), "must contain something"),
    (Offer(gold=51), "only 50 gold"),
    (Offer(gold=-1), "0 or more"),
    (Offer(gold=True), "whole number"),
    (Offer(stand_goods=("apple",)), "not all on your stand"),
    (Offer(bag_goods=("apple",) * 4), "holds only 3"),
    (Offer(bag_goods=("banana",)), "not a good"),
    (Offer(promise="x" * 201), "longer than 200"),
    (Offer(promise="a\nb"), "control characters"),
    (Offer(conditions=(("inspect", THU),)), "not another merchant"),
    (Offer(conditions=(("inspect", 0),)), "not another merchant"),
    (Offer(conditions=(("bribe", HUY),)), "not a condition"),
    (Offer(conditions=(("inspect", HUY), ("inspect", HUY))), "twice"),
    (Demand("more"), "make an offer"),
])
def test_illegal_offers_say_why(offer, reason):
    state = step(_round(), 0, Choose(THU))
    with pytest.raises(IllegalAction, match=reason):
        GAME.validate(state, THU, offer)
    assert offer not in GAME.legal_actions(state, THU)


def test_no_offer_keeps_the_standing_offer_and_three_exchanges_at_most():
    state = _round()
    state = _deal(state, THU, Offer(gold=4))
    assert Accept() in GAME.legal_actions(state, 0)
    state = step(state, 0, Demand("more"))
    state = step(state, THU, NoOffer())
    assert state.offer == Offer(gold=4)
    state = step(state, 0, Demand(""))
    state = step(state, THU, Offer(gold=6))
    assert state.exchange == 3
    assert not any(isinstance(a, Demand) for a in GAME.legal_actions(state, 0))
    with pytest.raises(IllegalAction, match="last exchange"):
        GAME.validate(state, 0, Demand("even more"))
    state = step(state, 0, Accept())
    assert state.gold[:2] == (56, 44)


def test_accept_needs_an_offer():
    state = _deal(_round(), THU, NoOffer())
    assert Accept() not in GAME.legal_actions(state, 0)
    with pytest.raises(IllegalAction, match="made no offer"):
        GAME.validate(state, 0, Accept())


def test_inspection_drops_the_standing_offer():
    state = _deal(_round(), THU, Offer(gold=30))
    state = step(state, 0, Inspect())
    assert state.offer is None and state.gold[THU] <= 50
    state = step(state, 0, Confiscate(1, ("silk",)))
    assert state.gold[:2] == (54, 46)  # only the silk's penalty changed hands


def test_naming_face_down_stand_goods_identifies_them():
    state = _round({THU: ["mead", "mead", "silk"]})
    assert GAME.view(state, LAN).players[THU].stand_down == (HIDDEN,) * 3
    state = _deal(state, THU, Offer(stand_goods=("mead",)))
    assert GAME.view(state, LAN).players[THU].stand_down == ("mead", HIDDEN, HIDDEN)
    state = step(state, 0, Pass())  # refused offers still showed the card
    view = GAME.view(state, LAN).players[THU]
    assert view.stand_down.count("mead") == 1 and view.stand_down.count(HIDDEN) == 3


def test_the_offer_space_samples_and_contains_like_validate():
    state = _deal(_round({THU: ["apple", "mead"]}), THU, NoOffer())
    state = step(state, 0, Demand("more"))
    space = GAME.legal_actions(state, THU)
    rng = Stream(b"offers")
    for _ in range(200):
        action = space.sample(rng)
        GAME.validate(state, THU, action)
        assert action in space
    assert NoOffer() in space and Offer(promise="anything I like") in space
    claims = comb(15 + 3, 3)  # multisets of at most 3 cards (the bag size) over the 15 goods
    # gold 0-50, 0-1 apple, 0-1 mead, 3 stock promises, the claims, 3 choices for 2 merchants;
    # the one empty combination is NoOffer
    assert len(space) == 51 * 2 * 2 * 3 * claims * 3 * 3
