"""The payment enumerator on hand-built cities (§6.6): either/or units, caps, discounts, both
neighbours, resources that cannot be sold, and the coins held at the start of the turn.

Seats: 0 is the buyer; its left neighbour is seat 1, its right neighbour seat 2 (3 players).
"""

from __future__ import annotations

import pytest

from engine.core import IllegalAction
from engine.seven_wonders import GAME
from engine.seven_wonders.payment import payment_ways
from engine.seven_wonders.state import Pick

from .helpers import all_ways, table, ways


def test_own_either_or_card_covers_one_unit_the_rest_is_bought() -> None:
    # Gizah (stone) + Timber Yard as stone = 2 stone; Aqueduct needs 3: one from the left's Stone Pit
    s = table(["gizah", "rhodos", "olympia"], [["age1_timber_yard"], ["age1_stone_pit"], []], age=2)
    assert ways(s, 0, "age2_aqueduct") == [(2, 0)]


def test_an_either_or_card_gives_one_unit_not_both() -> None:
    # Timber Yard (stone or wood) alone cannot pay Stockade (wood) and stone at once
    s = table(["rhodos", "ephesos", "babylon"], [["age1_timber_yard"], [], []], age=2)
    # Walls: 3 stone; own: Timber Yard 1 -> 2 more stone, nobody sells stone
    assert all_ways(s, 0, "age2_walls") == []


def test_a_neighbour_either_or_card_sells_one_unit_per_build() -> None:
    # Archery Range: 2 wood + ore. Rhodos gives the ore; Gizah's Timber Yard sells only one wood.
    s = table(["rhodos", "gizah", "ephesos"], [[], ["age1_timber_yard"], []], age=2)
    assert all_ways(s, 0, "age2_archery_range") == []
    s = table(["rhodos", "gizah", "olympia"], [[], ["age1_timber_yard"], []], age=2)
    assert all_ways(s, 0, "age2_archery_range") == [(2, 2)]


def test_a_double_card_sells_two_units() -> None:
    s = table(["rhodos", "gizah", "ephesos"], [[], ["age2_sawmill"], []], coins=[4, 3, 3], age=2)
    assert ways(s, 0, "age2_archery_range") == [(4, 0)]
    s = table(["rhodos", "gizah", "ephesos"], [[], ["age2_sawmill"], []], coins=[3, 3, 3], age=2)
    assert ways(s, 0, "age2_archery_range") == []  # 4 coins needed, 3 held
    assert all_ways(s, 0, "age2_archery_range") == [(4, 0)]


def test_both_neighbours_and_the_order_of_the_ways() -> None:
    # Statue: 2 ore + wood. Babylon (clay) has nothing; left Rhodos sells ore, right Olympia wood,
    # and both sell through Mine / Forest Cave.
    s = table(["babylon", "rhodos", "olympia"], [[], ["age1_forest_cave"], ["age1_mine"]], coins=[9, 3, 3], age=2)
    # left sells 2 of its units at most (board ore + Forest Cave): never all three
    assert ways(s, 0, "age2_statue") == [(2, 4), (4, 2)]


@pytest.mark.parametrize(
    "card, left_price, right_price",
    [
        ("age1_west_trading_post", 1, 2),
        ("age1_east_trading_post", 2, 1),
    ],
)
def test_trading_posts_discount_raw_materials_on_their_side(card: str, left_price: int, right_price: int) -> None:
    s = table(["ephesos", "rhodos", "alexandria"], [[card], ["age1_stone_pit"], ["age1_stone_pit"]],
              coins=[9, 3, 3], age=2)
    # Baths: 1 stone, from either side
    assert sorted(ways(s, 0, "age1_baths")) == sorted([(left_price, 0), (0, right_price)])


def test_marketplace_discounts_manufactured_goods_from_both_sides_not_raw() -> None:
    s = table(["gizah", "alexandria", "ephesos"], [["age1_marketplace"], ["age1_ore_vein"], []],
              coins=[9, 3, 3], age=2)
    assert ways(s, 0, "age1_workshop") == [(1, 0)]  # glass from Alexandria's board at 1
    assert ways(s, 0, "age1_barracks") == [(2, 0)]  # ore stays at 2
    assert ways(s, 0, "age1_scriptorium") == [(0, 1)]  # papyrus from Ephesos's board at 1


def test_olympia_b_first_stage_discounts_raw_materials_from_both_sides() -> None:
    s = table(["olympia", "gizah", "rhodos"], [[], [], []], sides=["B", "A", "A"], stages=[1, 0, 0],
              coins=[9, 3, 3], age=2)
    assert ways(s, 0, "age1_baths") == [(1, 0)]
    assert ways(s, 0, "age1_barracks") == [(0, 1)]
    assert ways(s, 0, "age1_workshop") == []  # nobody sells glass


@pytest.mark.parametrize(
    "wonder, cards, stages, target",
    [
        ("gizah", ["age2_forum"], 0, "age1_workshop"),  # glass
        ("gizah", ["age2_caravansery"], 0, "age1_stockade"),  # wood
        ("alexandria", [], 2, "age1_stockade"),  # A stage 2: any raw material
    ],
)
def test_forum_caravansery_and_alexandria_cannot_be_bought(wonder: str, cards: list, stages: int,
                                                            target: str) -> None:
    # Babylon (clay) next to a city whose only source of the resource is not for sale
    s = table(["babylon", wonder, "rhodos"], [[], cards, []], stages=[0, stages, 0], coins=[9, 3, 3], age=2)
    assert all_ways(s, 0, target) == []
    own = table([wonder, "babylon", "rhodos"], [cards, [], []], stages=[stages, 0, 0], age=2)
    assert ways(own, 0, target) == [(0, 0)]  # but its owner uses it


def test_a_unit_the_city_makes_is_never_bought() -> None:
    s = table(["olympia", "rhodos", "gizah"], [[], ["age1_lumber_yard"], ["age1_lumber_yard"]], age=2)
    assert ways(s, 0, "age1_stockade") == [(0, 0)]
    legal = GAME.legal_actions(s, 0)
    assert all(a.pay_left == 0 and a.pay_right == 0 for a in legal if a.kind == "build")


def test_the_coins_held_at_the_start_of_the_turn_are_the_budget() -> None:
    s = table(["babylon", "rhodos", "olympia"], [[], [], []], coins=[2, 3, 3], age=1,
              hands=[["age1_tree_farm", "age1_stockade", "age1_barracks", "age1_baths"], [], []])
    legal = set(GAME.legal_actions(s, 0))
    assert Pick("age1_tree_farm", "build") in legal  # 1 coin to the bank
    assert Pick("age1_stockade", "build", 0, 2) in legal  # 2 coins to Olympia
    assert Pick("age1_barracks", "build", 2, 0) in legal
    assert not any(a.card == "age1_baths" and a.kind == "build" for a in legal)  # nobody sells stone
    broke = table(["babylon", "rhodos", "olympia"], [[], [], []], coins=[0, 3, 3], age=1,
                  hands=[["age1_tree_farm", "age1_stockade"], [], []])
    legal = set(GAME.legal_actions(broke, 0))
    assert {a.kind for a in legal} == {"discard"}


def test_a_dominated_or_made_up_payment_is_refused() -> None:
    s = table(["babylon", "rhodos", "olympia"], [[], [], []], coins=[9, 3, 3], age=1,
              hands=[["age1_stockade"], ["age1_altar"], ["age1_altar"]])
    GAME.validate(s, 0, Pick("age1_stockade", "build", 0, 2))
    with pytest.raises(IllegalAction, match="ways to pay are"):
        GAME.validate(s, 0, Pick("age1_stockade", "build", 2, 2))
    with pytest.raises(IllegalAction, match="ways to pay are"):
        GAME.validate(s, 0, Pick("age1_stockade", "build", 0, 3))
    poor = table(["babylon", "rhodos", "olympia"], [[], [], []], coins=[1, 3, 3], age=1,
                 hands=[["age1_stockade"], ["age1_altar"], ["age1_altar"]])
    with pytest.raises(IllegalAction, match="you may spend 1"):
        GAME.validate(poor, 0, Pick("age1_stockade", "build", 0, 2))


def test_raw_enumerator_pareto_front() -> None:
    wood, ore = 0, 3
    none = ((0,) * 7, ())
    left = ((1, 0, 0, 1, 0, 0, 0), ())  # wood, ore
    right = ((1, 0, 0, 1, 0, 0, 0), ())
    cheap_left = (1, 1, 1, 1, 2, 2, 2)
    got = payment_ways(none, left, right, cheap_left, (2,) * 7, ((wood, 1), (ore, 1)))
    assert got == ((2, 0), (1, 2), (0, 4))


def test_grown_profiles_equal_profiles_built_from_scratch() -> None:
    from dataclasses import replace as _replace

    from engine.seven_wonders.payment import _make_profile, profile

    cards = ("age1_lumber_yard", "age1_timber_yard", "age1_west_trading_post", "age2_forum", "age1_stockade",
             "age1_marketplace", "age2_caravansery", "age2_sawmill")
    for side in "AB":
        for stages in range(3):
            for k in range(len(cards) + 1):
                profile("olympia", side, stages, cards[:k])  # grows one step at a time
                grown = profile("olympia", side, stages, cards[:k])
                fresh = _make_profile("olympia", side, stages, cards[:k])
                assert _replace(grown, serial=0) == _replace(fresh, serial=0)
