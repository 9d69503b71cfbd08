"""The rules and every clarification and edge case of seven_wonders.md (§5, §6, §9, §10, §12)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from engine.core import IllegalAction
from engine.seven_wonders import GAME
from engine.seven_wonders.cards import CARDS
from engine.seven_wonders.scoring import Table, score_table
from engine.seven_wonders.state import Pick

from .helpers import table


def discard(card: str) -> Pick:
    return Pick(card, "discard")


def three(cities, hands, coins=(3, 3, 3), age=1, turn=1, wonders=("gizah", "rhodos", "olympia"), **kw):
    return table(list(wonders), [list(c) for c in cities], coins=list(coins), hands=[list(h) for h in hands],
                 age=age, turn=turn, **kw)


# ---- §10.1, §6.4 discarding ------------------------------------------------------------------------
def test_discard_is_always_legal_and_gives_three_coins() -> None:
    s = three([[], [], []], [["age3_palace"], ["age3_palace"], ["age3_pantheon"]], coins=(0, 0, 0), age=3, turn=6)
    for seat in range(3):
        assert [a.kind for a in GAME.legal_actions(s, seat)] == ["discard"]
    s = three([[], [], []], [["age1_altar", "age1_theater"], ["age1_altar"], ["age1_altar"]])
    after = GAME.apply(s, {0: discard("age1_altar"), 1: discard("age1_altar"), 2: discard("age1_altar")})
    assert after.coins == (6, 6, 6) and len(after.discard) == 3


# ---- §10.2, §2.1 same name ------------------------------------------------------------------------------
def test_a_name_already_built_cannot_be_built_but_can_be_staged_or_sold() -> None:
    s = three([["age1_loom", "age1_stone_pit"], [], []], [["age2_loom", "age2_school"], ["age2_press"], ["age2_press"]], age=2)
    legal = GAME.legal_actions(s, 0)
    assert not any(a.card == "age2_loom" and a.kind == "build" for a in legal)
    assert Pick("age2_loom", "discard") in legal
    assert any(a.card == "age2_loom" and a.kind == "stage" for a in legal)
    with pytest.raises(IllegalAction, match="Loom is already in the city"):
        GAME.validate(s, 0, Pick("age2_loom", "build"))


# ---- §10.3 two copies in one hand ----------------------------------------------------------------------
def test_two_copies_in_a_hand_are_listed_once() -> None:
    s = table(["gizah", "rhodos", "olympia", "babylon"], [[], [], [], []],
              hands=[["age1_lumber_yard", "age1_lumber_yard"], ["age1_altar"], ["age1_altar"], ["age1_altar"]])
    legal = GAME.legal_actions(s, 0)
    assert len(legal) == len(set(legal))
    assert list(legal).count(Pick("age1_lumber_yard", "build")) == 1


# ---- §10.6, §6.7 coins and cards gained this turn ---------------------------------------------------------
def test_coins_received_during_a_turn_are_spent_from_the_next_turn() -> None:
    # seat 1 (Rhodos, 0 coins) sells ore to seat 0; it cannot use the income this turn
    s = three([[], [], []], [["age1_barracks", "age1_altar"], ["age1_stockade", "age1_tree_farm"],
                             ["age1_altar", "age1_theater"]], coins=(3, 0, 3))
    assert not any(a.kind == "build" and a.card == "age1_stockade" for a in GAME.legal_actions(s, 1))
    after = GAME.apply(s, {0: Pick("age1_barracks", "build", 2, 0), 1: discard("age1_tree_farm"),
                           2: discard("age1_altar")})
    assert after.coins == (1, 5, 6)


def test_a_card_built_this_turn_by_a_neighbour_cannot_be_bought_this_turn() -> None:
    s = three([[], [], []], [["age1_stockade", "age1_altar"], ["age1_lumber_yard", "age1_altar"],
                             ["age1_altar", "age1_theater"]], wonders=("babylon", "gizah", "rhodos"))
    assert not any(a.kind == "build" and a.card == "age1_stockade" for a in GAME.legal_actions(s, 0))
    with pytest.raises(IllegalAction):
        GAME.validate(s, 0, Pick("age1_stockade", "build", 2, 0))
    after = GAME.apply(s, {0: discard("age1_altar"), 1: Pick("age1_lumber_yard", "build"),
                           2: discard("age1_altar")})
    # next turn the wood is for sale (hands passed left: seat 0 now holds seat 2's hand)
    after = table(["babylon", "gizah", "rhodos"], [list(c) for c in after.cities], coins=list(after.coins),
                  hands=[["age1_stockade"], ["age1_altar"], ["age1_altar"]])
    assert Pick("age1_stockade", "build", 2, 0) in GAME.legal_actions(after, 0)


def test_a_zero_coin_player_can_chain_and_build_what_its_city_makes() -> None:
    s = three([["age1_baths", "age1_stone_pit"], [], []],
              [["age2_aqueduct", "age2_walls", "age2_sawmill"], ["age2_school"], ["age2_school"]],
              coins=(0, 3, 3), age=2)
    legal = GAME.legal_actions(s, 0)
    assert Pick("age2_aqueduct", "build") in legal  # chain from Baths, 0 coins
    assert not any(a.card == "age2_walls" and a.kind == "build" for a in legal)  # 3 stone: 2 own
    assert not any(a.card == "age2_sawmill" and a.kind == "build" for a in legal)  # 1 coin
    assert any(a.kind == "stage" for a in legal)  # Gizah A stage 1: 2 stone, both its own


# ---- §10.8 discounts from the next turn ------------------------------------------------------------------
def test_a_discount_applies_from_the_turn_after_it_is_built() -> None:
    s = three([["age1_lumber_yard"], ["age1_stone_pit"], []],
              [["age1_west_trading_post", "age1_baths"], ["age1_altar", "age1_theater"], ["age1_altar", "age1_theater"]],
              wonders=("olympia", "gizah", "rhodos"))
    assert Pick("age1_baths", "build", 2, 0) in GAME.legal_actions(s, 0)
    after = GAME.apply(s, {0: Pick("age1_west_trading_post", "build"), 1: discard("age1_altar"),
                           2: discard("age1_altar")})
    nxt = table(list(after.wonders), [list(c) for c in after.cities], coins=list(after.coins),
                hands=[["age1_baths"], ["age1_theater"], ["age1_theater"]], turn=2)
    assert Pick("age1_baths", "build", 1, 0) in GAME.legal_actions(nxt, 0)


# ---- §10.9 chains --------------------------------------------------------------------------------------------
def test_chains_are_free_never_apply_to_stages_and_a_tucked_card_is_no_source() -> None:
    s = three([["age1_scriptorium"], [], []], [["age2_library", "age2_courthouse"], ["age2_school"], ["age2_school"]],
              coins=(0, 3, 3), age=2, stages=[1, 0, 0])
    legal = GAME.legal_actions(s, 0)
    assert Pick("age2_library", "build") in legal
    assert Pick("age2_courthouse", "build") in legal  # Courthouse also chains from Scriptorium
    # Gizah A stage 2 (3 wood) is not made free by any chain
    assert not any(a.kind == "stage" for a in legal)
    tucked = three([[], [], []], [["age2_library"], ["age2_school"], ["age2_school"]], coins=(0, 3, 3), age=2,
                   stages=[1, 0, 0])
    tucked = replace(tucked, tucked=(("age1_scriptorium",), (), ()))
    assert not any(a.kind == "build" for a in GAME.legal_actions(tucked, 0))


# ---- §5.5 passing, §5.6 end of an Age ----------------------------------------------------------------------
@pytest.mark.parametrize("age, direction", [(1, 1), (2, -1), (3, 1)])
def test_hands_pass_left_right_left(age: int, direction: int) -> None:
    hands = [["age1_altar", "age1_theater"], ["age1_baths", "age1_pawnshop"], ["age1_tavern", "age1_loom"]]
    s = three([[], [], []], hands, age=age)
    after = GAME.apply(s, {0: discard("age1_altar"), 1: discard("age1_baths"), 2: discard("age1_tavern")})
    rest = [("age1_theater",), ("age1_pawnshop",), ("age1_loom",)]
    assert [after.hands[(s_ + direction) % 3] for s_ in range(3)] == rest


def test_sixth_turn_last_card_is_discarded_for_nothing_then_military() -> None:
    s = three([["age1_stockade"], ["age1_barracks"], []],
              [["age1_altar", "age1_theater"], ["age1_altar", "age1_theater"], ["age1_altar", "age1_theater"]],
              turn=6)
    after = GAME.apply(s, {0: Pick("age1_altar", "build"), 1: Pick("age1_altar", "build"),
                           2: Pick("age1_altar", "build")})
    assert after.coins == (3, 3, 3) and sorted(c for _, c in after.discard) == ["age1_theater"] * 3
    # 1 = 1 is a tie: nothing; both beat seat 2
    assert after.tokens == ((1,), (1,), (-1, -1))
    assert after.age == 2 and after.turn == 1 and all(len(h) == 7 for h in after.hands)


@pytest.mark.parametrize("age, win", [(1, 1), (2, 3), (3, 5)])
def test_victory_tokens_per_age_and_defeat_minus_one(age: int, win: int) -> None:
    from engine.seven_wonders.steps import _military

    s = three([["age1_stockade", "age1_barracks"], ["age1_guard_tower"], []], [[], [], []], age=age)
    assert _military(s).tokens == ((win, win), (win, -1), (-1, -1))


# ---- §9 scoring -------------------------------------------------------------------------------------------
def _scores(cities, coins=(0, 0, 0), tokens=((), (), ()), stages=(0, 0, 0), wonders=("gizah", "rhodos", "olympia")):
    return score_table(Table(wonders, ("A",) * 3, stages, cities, coins, tokens))


def test_seven_categories_in_order_and_coin_tie_break() -> None:
    seats = _scores([["age1_altar"], ["age1_theater"], []], coins=(5, 3, 8))
    assert [c for c, _ in seats[0].categories] == ["military", "treasury", "wonder", "civilian", "science",
                                                    "commercial", "guilds"]
    from engine.seven_wonders.scoring import result_of

    result = result_of(seats)
    assert result.scores == (3, 3, 2) and result.winners == (0,) and result.places == (1, 2, 3)
    tie = result_of(_scores([["age1_altar"], ["age1_theater"], []], coins=(5, 5, 0)))
    assert tie.winners == (0, 1)


def test_lighthouse_and_shipowners_count_themselves() -> None:
    seat = _scores([["age3_lighthouse", "age1_tavern"], [], []])[0]
    assert dict(seat.categories)["commercial"] == 2
    seat = _scores([["age3_shipowners_guild", "age1_loom", "age1_lumber_yard"], [], []])[0]
    assert dict(seat.categories)["guilds"] == 3


def test_strategists_guild_counts_neighbours_defeats_after_age_three() -> None:
    seat = _scores([["age3_strategists_guild"], [], []], tokens=((5, 5), (-1, -1, 3), (-1, 1)))[0]
    assert dict(seat.categories)["guilds"] == 3
    assert dict(seat.categories)["military"] == 10


def test_commercial_and_guild_points_count_at_the_end() -> None:
    cities = [["age3_arena", "age3_haven", "age1_lumber_yard", "age3_chamber_of_commerce", "age1_loom"],
              ["age1_stone_pit"], ["age1_press"]]
    seat = _scores(cities, stages=(2, 0, 0))[0]
    assert dict(seat.categories)["commercial"] == 2 + 1 + 2  # Arena 2 stages, Haven 1 brown, Chamber 1 grey
    assert dict(seat.categories)["wonder"] == 3 + 5


def test_on_build_coins_count_after_placement() -> None:
    s = three([["age1_lumber_yard"], ["age1_stone_pit"], []],
              [["age2_vineyard", "age2_school"], ["age2_sawmill", "age2_school"], ["age2_bazar", "age2_school"]],
              age=2)
    after = GAME.apply(s, {0: Pick("age2_vineyard", "build"), 1: Pick("age2_sawmill", "build"),
                           2: Pick("age2_bazar", "build")})
    # Vineyard: Lumber Yard, Stone Pit, Sawmill = 3; Bazar: no grey cards = 0
    assert after.coins == (6, 2, 3)


def test_a_card_not_in_hand_or_a_bad_action_is_refused() -> None:
    s = three([[], [], []], [["age1_altar"], ["age1_altar"], ["age1_altar"]])
    with pytest.raises(IllegalAction, match="not in your hand"):
        GAME.validate(s, 0, Pick("age1_theater", "build"))
    with pytest.raises(IllegalAction, match="is not build"):
        GAME.validate(s, 0, Pick("age1_altar", "steal"))
    with pytest.raises(IllegalAction, match="pays nobody"):
        GAME.validate(s, 0, Pick("age1_altar", "discard", 1, 0))
    with pytest.raises(IllegalAction, match="pay_left is True, which is not a whole number"):
        GAME.validate(s, 0, Pick("age1_altar", "build", True, 0))
    assert CARDS["age1_altar"].name == "Altar"


# ---- §10.4, §10.5 both neighbours buy from one city in the same turn ---------------------------------------
def test_both_neighbours_buy_the_same_unit_and_either_or_options_in_one_turn() -> None:
    # seat 0 (Gizah) has a Timber Yard (stone or wood); seat 1 buys its wood, seat 2 its stone
    s = three([["age1_timber_yard"], [], []],
              [["age1_altar", "age1_theater"], ["age1_stockade", "age1_pawnshop"], ["age1_baths", "age1_tavern"]],
              wonders=("gizah", "babylon", "ephesos"))
    # seat 1's right neighbour is seat 0; seat 2's left neighbour is seat 0
    assert Pick("age1_stockade", "build", 0, 2) in GAME.legal_actions(s, 1)
    assert Pick("age1_baths", "build", 2, 0) in GAME.legal_actions(s, 2)
    after = GAME.apply(s, {0: Pick("age1_altar", "build"), 1: Pick("age1_stockade", "build", 0, 2),
                           2: Pick("age1_baths", "build", 2, 0)})
    assert after.coins == (7, 1, 1)
    assert after.cities[0] == ("age1_timber_yard", "age1_altar")


# ---- §10.8, §10.12 Babylon's last card: no new discount, stage 3 if affordable ---------------------------------
def _babylon_turn6(first_hand, cities0, coins0=3, stages0=2):
    return table(["babylon", "rhodos", "gizah"], [cities0, ["age1_stone_pit"], ["age1_clay_pool"]],
                 sides=["B", "A", "A"], stages=[stages0, 0, 0], coins=[coins0, 3, 3], age=2, turn=6,
                 hands=[first_hand, ["age2_school", "age2_loom"], ["age2_press", "age2_glassworks"]])


def test_babylon_last_card_gets_no_discount_built_this_turn() -> None:
    s = _babylon_turn6(["age1_east_trading_post", "age2_walls"], ["age2_quarry"])
    s = GAME.apply(s, {0: Pick("age1_east_trading_post", "build"), 1: Pick("age2_school", "discard"),
                       2: Pick("age2_press", "discard")})
    # Walls: 3 stone = Quarry 2 + one bought: from Rhodos (left) at 2 or Gizah (right) at 2, not 1
    legal = [a for a in GAME.legal_actions(s, 0) if a.kind == "build"]
    assert legal == [Pick("age2_walls", "build", 0, 2), Pick("age2_walls", "build", 2, 0)]


def test_babylon_last_card_may_build_stage_three() -> None:
    # stage 3 of Babylon B: 3 clay + papyrus: board clay, Brickyard 2 clay, Press
    s = _babylon_turn6(["age2_school", "age2_walls"], ["age2_brickyard", "age1_press"])
    s = GAME.apply(s, {0: Pick("age2_school", "discard"), 1: Pick("age2_school", "discard"),
                       2: Pick("age2_press", "discard")})
    assert Pick("age2_walls", "stage") in GAME.legal_actions(s, 0)
    s = GAME.apply(s, {0: Pick("age2_walls", "stage")})
    assert s.stages[0] == 3 and s.age == 3


# ---- §10.13 Olympia A's free build on a card that is free anyway ----------------------------------------------
def test_olympia_free_build_on_a_chain_card_is_used_up() -> None:
    s = three([["age1_baths"], [], []], [["age2_aqueduct", "age2_statue"], ["age2_school", "age2_loom"],
                                        ["age2_press", "age2_glassworks"]],
              wonders=("olympia", "rhodos", "gizah"), stages=[2, 0, 0], age=2)
    legal = GAME.legal_actions(s, 0)
    assert Pick("age2_aqueduct", "build") in legal and Pick("age2_aqueduct", "build_free") in legal
    s = GAME.apply(s, {0: Pick("age2_aqueduct", "build_free"), 1: Pick("age2_school", "discard"),
                       2: Pick("age2_press", "discard")})
    assert s.free_used[0] and not any(a.kind == "build_free" for a in GAME.legal_actions(s, 0))


def test_card_counts_ignore_the_boards_starting_resource() -> None:
    # Vineyard counts brown cards only: Gizah's stone, Rhodos's ore are boards, not cards
    s = three([[], [], []], [["age2_vineyard", "age2_school"], ["age2_school", "age2_loom"],
                             ["age2_school", "age2_loom"]], age=2)
    after = GAME.apply(s, {0: Pick("age2_vineyard", "build"), 1: Pick("age2_school", "discard"),
                           2: Pick("age2_school", "discard")})
    assert after.coins[0] == 3


def test_malformed_actions_from_the_wire_are_refused_cleanly() -> None:
    from engine.seven_wonders.state import BuildFromDiscard, Decline

    s = three([[], [], []], [["age1_altar"], ["age1_altar"], ["age1_altar"]])
    for bad in (Pick({"x": 1}, "build"), Pick("age1_altar", ("build",)), Pick("age1_altar", "build", -2, 0),
                BuildFromDiscard("age1_altar"), Decline(), 7, None):
        with pytest.raises(IllegalAction):
            GAME.validate(s, 0, bad)
