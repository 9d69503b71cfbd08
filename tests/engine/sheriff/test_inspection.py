"""Inspections (§5.6), debts and payment in goods (§5.8): the worked examples §9.2, §9.3, §9.7."""

from __future__ import annotations

import dataclasses
import json
from collections import Counter
from importlib import resources

import pytest

from engine.core import HIDDEN, IllegalAction
from engine.sheriff import GAME
from engine.sheriff.cards import counts_of, ids_of
from engine.sheriff.common import pay_options
from engine.sheriff.state import Choose, Confiscate, Inspect, NoOffer, PayGoods

from .helpers import gold_total, start, step, to_inspection

DATA = json.loads(resources.files("engine.sheriff").joinpath("data/sheriff.json").read_text())
INSPECTIONS = [e for e in DATA["examples"] if e["what"] == "inspection"]
PAYMENTS = [e for e in DATA["examples"] if e["what"] == "payment"]


def _table(bag1: list[str], declared: str, stand1: list[str] = (), gold1: int = 50):
    """4 players, Sheriff seat 0; seat 1 loads `bag1`; seats 2 and 3 load one honest apple."""
    hand1 = list(bag1) + ["cheese"] * (6 - len(bag1))
    state = start([["chicken"] * 6, hand1, ["apple"] * 6, ["apple"] * 6])
    if stand1 or gold1 != 50:
        # the stand's cards come from the draw pile, the gold from the Sheriff: nothing is lost
        draw = list(state.draw_pile)
        for card in stand1:
            draw.remove(card)
        gold = list(state.gold)
        gold[0] += gold[1] - gold1
        gold[1] = gold1
        state = dataclasses.replace(
            state, draw_pile=tuple(draw), gold=tuple(gold),
            stands=(state.stands[0], counts_of(stand1)) + state.stands[2:])
    bags = {1: (bag1, declared), 2: (["apple"], "apple"), 3: (["apple"], "apple")}
    return to_inspection(state, bags)


def _inspect_seat1(state):
    state = step(state, 0, Choose(1))
    state = step(state, 1, NoOffer())
    return step(state, 0, Inspect())


@pytest.mark.parametrize("example", INSPECTIONS, ids=[e["id"] for e in INSPECTIONS])
def test_inspection_examples(example):
    state = _table(example["bag"], example["declared"])
    total = gold_total(state)
    state = _inspect_seat1(state)
    expected = example["expected"]
    assert Counter(ids_of(state.stands[1])) == Counter(expected["to_stand"])
    assert Counter(ids_of(state.confiscated)) == Counter(expected["confiscated"])
    assert Counter(GAME.view(state, 3).players[1].revealed) == Counter(example["bag"])
    if expected["confiscated"]:
        assert state.step == "confiscate" and GAME.active(state) == {0}
        pile_before = state.piles[1]
        state = step(state, 0, Confiscate(2, tuple(expected["confiscated"])))
        assert state.piles[1] == pile_before + tuple(expected["confiscated"])
    assert state.gold[0] == 50 - expected["sheriff_pays"] + expected["merchant_pays"]
    assert state.gold[1] == 50 + expected["sheriff_pays"] - expected["merchant_pays"]
    assert gold_total(state) == total
    assert state.outcomes[1] == "inspected" and state.step == "choose"


def test_truthful_bag_of_one_card_costs_the_sheriff_two():
    state = _inspect_seat1(_table(["cheese"], "cheese"))
    assert state.gold[:2] == (48, 52)


def test_contraband_only_bag_is_all_confiscated():
    state = _inspect_seat1(_table(["silk", "mead"], "apple"))
    assert ids_of(state.stands[1]) == () and ids_of(state.confiscated) == ("mead", "silk")
    state = step(state, 0, Confiscate(1, ("silk", "mead")))
    assert state.gold[1] == 42 and state.piles[0][-1] == "mead"


def test_royal_good_is_never_the_declared_good():
    state = _inspect_seat1(_table(["cheese", "cheese", "gouda_cheese"], "cheese"))
    assert ids_of(state.confiscated) == ("gouda_cheese",)


@pytest.mark.parametrize("example", PAYMENTS, ids=[e["id"] for e in PAYMENTS])
def test_payment_examples_list_exactly_one_valid_payment(example):
    stand = counts_of(example["stand"])
    owed = example["debt"] - example["expected"]["gold_paid"]
    assert pay_options(stand, owed) == (PayGoods(tuple(example["choice_order"])),)


def test_cannot_pay_hands_over_goods_with_no_change():
    """§9.3: debt 10, gold 3, stand apple, chicken, silk: all three go, no change is given."""
    # declared apple, bag pepper, pepper, cheese: penalties 4 + 4 + 2 = 10
    state = _table(["pepper", "pepper", "cheese"], "apple", ["apple", "chicken", "silk"], gold1=3)
    total = gold_total(state)
    state = _inspect_seat1(state)
    state = step(state, 0, Confiscate(1, ("cheese", "pepper", "pepper")))
    assert state.step == "pay" and GAME.active(state) == {1}
    assert state.gold[1] == 0 and state.debt.amount == 7
    assert GAME.legal_actions(state, 1) == (PayGoods(("apple", "chicken", "silk")),)
    with pytest.raises(IllegalAction, match="legal goods must all be handed over"):
        GAME.validate(state, 1, PayGoods(("silk",)))
    with pytest.raises(IllegalAction, match="order"):
        GAME.validate(state, 1, PayGoods(("silk", "apple", "chicken")))
    state = step(state, 1, PayGoods(("apple", "chicken", "silk")))
    assert ids_of(state.stands[1]) == ()
    assert Counter(ids_of(state.stands[0])) == Counter(["apple", "chicken", "silk"])
    assert state.gold[1] == 0 and gold_total(state) == total  # 17 handed over, nothing back
    # the silk went face down, but everyone saw it handed over
    assert GAME.view(state, 2).players[0].stand_down == ("silk",)


def test_debt_larger_than_everything_is_forgiven():
    state = _table(["pepper", "pepper", "pepper"], "apple", ["apple", "pepper"], gold1=0)
    state = _inspect_seat1(state)
    state = step(state, 0, Confiscate(1, ("pepper",) * 3))
    assert state.debt.amount == 12
    state = step(state, 1, PayGoods(("apple", "pepper")))
    assert state.gold[1] == 0 and ids_of(state.stands[1]) == () and state.step == "choose"


def test_worked_example_pay_with_the_goods_just_kept():
    """§9.7: gold 2 and a pepper; bag apple, apple, cheese, silk declared apple."""
    state = _table(["apple", "apple", "cheese", "silk"], "apple", ["pepper"], gold1=2)
    state = _inspect_seat1(state)
    assert ids_of(state.stands[1]) == ("apple", "apple", "pepper")
    state = step(state, 0, Confiscate(1, ("silk", "cheese")))
    assert state.piles[0][-1] == "cheese"
    assert state.debt.amount == 4 and state.gold[1] == 0
    assert GAME.legal_actions(state, 1) == (PayGoods(("apple", "apple")),)
    for wrong, reason in [(("apple",), "cover only 2 of 4"), (("pepper",), "legal goods"),
                          (("apple", "apple", "pepper"), "paid before the last card")]:
        with pytest.raises(IllegalAction, match=reason):
            GAME.validate(state, 1, PayGoods(wrong))
    state = step(state, 1, PayGoods(("apple", "apple")))
    assert ids_of(state.stands[1]) == ("pepper",) and ids_of(state.stands[0]) == ("apple", "apple")
    assert state.gold[:2] == (50 + 50 - 2 + 2, 0)


def test_a_sheriff_short_of_gold_pays_an_honest_merchant_in_goods():
    state = _table(["cheese"] * 5, "cheese")
    # the Sheriff has 3 gold and two chickens on his stand
    draw = list(state.draw_pile)
    draw.remove("chicken")
    draw.remove("chicken")
    state = dataclasses.replace(state, gold=(3, 97, 50, 50), draw_pile=tuple(draw),
                                stands=(counts_of(["chicken", "chicken"]),) + state.stands[1:])
    state = _inspect_seat1(state)
    assert state.step == "pay" and state.debt.payer == 0 and state.debt.amount == 7
    assert GAME.legal_actions(state, 0) == (PayGoods(("chicken", "chicken")),)
    state = step(state, 0, PayGoods(("chicken", "chicken")))
    assert state.gold[:2] == (0, 100) and state.stands[1][3] == 2


def test_pay_options_never_overpay_by_a_whole_card():
    stand = counts_of(["apple"] * 3 + ["cheese"] * 2 + ["silk"])
    for option in pay_options(stand, 5):
        values = [{"apple": 2, "cheese": 3, "silk": 8}[c] for c in option.cards]
        assert sum(values) >= 5 and sum(values[:-1]) < 5
        assert "silk" not in option.cards
    assert {o.cards for o in pay_options(stand, 5)} == {
        ("apple", "apple", "apple"), ("apple", "cheese"), ("apple", "apple", "cheese"), ("cheese", "cheese"),
    }


def test_inspected_bag_is_shown_to_everyone_and_hands_stay_hidden():
    state = _table(["apple", "silk"], "apple")
    before = GAME.view(state, 2).players[1]
    assert before.bag == (HIDDEN, HIDDEN) and before.revealed == ()
    state = _inspect_seat1(state)
    assert GAME.view(state, 2).players[1].revealed == ("apple", "silk")
    assert set(GAME.view(state, 2).players[1].hand) == {HIDDEN}
