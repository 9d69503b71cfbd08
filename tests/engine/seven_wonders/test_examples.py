"""The worked examples of seven_wonders.md §11, run through the engine from the JSON data."""

from __future__ import annotations

import pytest

from engine.seven_wonders import GAME
from engine.seven_wonders.cards import DATA
from engine.seven_wonders.payment import profile
from engine.seven_wonders.picks import Context
from engine.seven_wonders.scoring import Table, best_science, science_points, score_table
from engine.seven_wonders.state import BABYLON, HALIKARNASSOS, BuildFromDiscard, Pick

from .helpers import all_ways, table, ways

EXAMPLES = {ex["id"]: ex for ex in DATA["examples"]}


def _pick(p: dict) -> Pick:
    pay = p.get("pay", [0, 0])
    return Pick(p["card"], p["action"], pay[0], pay[1])


# ---- 11.1 rulebook scoring checks -------------------------------------------------------------
def test_rulebook_military_treasury_science_wonder() -> None:
    three = Table(["gizah", "rhodos", "ephesos"], ["A"] * 3, [0, 0, 0], [(), (), ()], [14, 0, 0],
                  [(1, 3, 5, -1, -1, -1), (), ()])
    cats = dict(score_table(three)[0].categories)
    assert cats["military"] == 6
    assert cats["treasury"] == 4
    assert science_points([3, 2, 1]) == 21
    assert science_points([3, 2, 2]) == 31
    alexandria = Table(["alexandria", "rhodos", "ephesos"], ["A"] * 3, [3, 0, 0], [(), (), ()],
                       [0, 0, 0], [(), (), ()])
    assert dict(score_table(alexandria)[0].categories)["wonder"] == 10


def test_rulebook_examples_in_data_are_the_ones_tested() -> None:
    points = [ex["points"] for ex in DATA["rules"]["examples_from_rulebook"]]
    assert points == [6, 4, 21, 31, 10]


# ---- 11.2 production ----------------------------------------------------------------------------
def test_seed_production_example() -> None:
    ex = EXAMPLES["seed_production"]
    city = ex["city"]
    state = table([city["wonder"], "rhodos", "ephesos"], [city["cards"], [], []], coins=[0, 0, 0])
    for card, buildable in ex["expected"].items():
        assert (ways(state, 0, card) == [(0, 0)]) is buildable, card
    assert ways(state, 0, "age1_barracks") == [(0, 0)]
    assert ways(state, 0, "age2_aqueduct") == []


# ---- 11.3 trading ---------------------------------------------------------------------------------
def test_trading_example_every_target() -> None:
    ex = EXAMPLES["trade_west_trading_post"]
    me, left, right = ex["player"], ex["left"], ex["right"]
    # seat 0 = the player, seat 1 = its left neighbour, seat 3 = its right neighbour (4 players)
    state = table([me["wonder"], left["wonder"], "ephesos", right["wonder"]],
                  [me["cards"], left["cards"], ["age1_loom"], right["cards"]],
                  coins=[me["coins"], 3, 3, 3], age=2)
    for target in ex["targets"]:
        card = target.get("build")
        if card is not None and not target["legal"]:
            ctx = Context(state.wonders, state.sides, state.stages, state.cities, 0, 3)
            assert ctx.build_status(card)[0] == "owned"
            continue
        assert all_ways(state, 0, card) == [tuple(w) for w in target["ways"]], target
        assert ways(state, 0, card) == [tuple(w) for w in target["offered"]], target
        if card is not None:
            free = Context(state.wonders, state.sides, state.stages, state.cities, 0, 3).build_status(card)[0]
            assert (free == "free") is target["free_by_chain"]


def test_trading_example_legal_actions_match_offers() -> None:
    ex = EXAMPLES["trade_west_trading_post"]
    me, left, right = ex["player"], ex["left"], ex["right"]
    state = table([me["wonder"], left["wonder"], "ephesos", right["wonder"]],
                  [me["cards"], left["cards"], ["age1_loom"], right["cards"]],
                  coins=[3, 3, 3, 3], age=2,
                  hands=[["age2_temple", "age2_archery_range", "age2_library", "age2_press"], [], [], []])
    legal = set(GAME.legal_actions(state, 0))
    assert Pick("age2_temple", "build", 2, 0) in legal
    assert Pick("age2_temple", "build", 1, 2) in legal
    assert Pick("age2_temple", "build", 0, 4) not in legal  # 4 coins > 3
    assert not any(a.card == "age2_archery_range" and a.kind == "build" for a in legal)
    assert Pick("age2_library", "build", 0, 0) in legal
    assert not any(a.card == "age2_press" and a.kind == "build" for a in legal)
    assert Pick("age2_press", "stage", 1, 2) in legal
    assert Pick("age2_press", "stage", 0, 4) not in legal


# ---- 11.4 one simultaneous turn -------------------------------------------------------------------
def test_simultaneous_turn_vineyard_counts_same_turn_builds() -> None:
    ex = EXAMPLES["vineyard_same_turn"]
    seats = ex["seats"]
    hands = [[p["card"], "age2_school"] for p in ex["picks"]]
    state = table([s["wonder"] for s in seats], [s["cards"] for s in seats],
                  coins=[s["coins"] for s in seats], age=2, hands=hands)
    after = GAME.apply(state, {i: _pick(p) for i, p in enumerate(ex["picks"])})
    assert list(after.coins) == ex["expected"]["coins"] == [10, 3, 1]


# ---- 11.5 a whole Age I with Babylon B and Halikarnassos B ----------------------------------------
def test_whole_age_babylon_b_halikarnassos_b() -> None:
    ex = EXAMPLES["age1_babylon_b_halikarnassos_b"]
    options = {"wonders": ex["options"]["wonders"], "wonder_side": ex["options"]["wonder_side"],
               "deck": {1: ex["options"]["deck"]["1"]}}
    state = GAME.setup(3, b"age example", options)
    for t, turn in enumerate(ex["turns"], 1):
        if "hands" in turn:
            assert [sorted(h) for h in state.hands] == [sorted(h) for h in turn["hands"]]
        state = GAME.apply(state, {i: _pick(p) for i, p in enumerate(turn["picks"])})
        assert list(state.coins) == turn["coins_after"], f"turn {t}"
    assert state.phase == BABYLON and state.babylon.card == ex["babylon_last"]["card"]
    assert state.babylon.budget == ex["babylon_last"]["spendable_coins"] == 2
    view = GAME.view(state, 0)
    assert view.stage_payments == ()  # stage 3 would cost (4, 2): out of reach
    ctx = Context(state.wonders, state.sides, state.stages, state.cities, 0, 100, (1, 4))
    assert [list(w) for w in ctx.stage_offers()] == ex["babylon_last"]["stage3_ways"]
    state = GAME.apply(state, {0: _pick(ex["babylon_last"])})
    assert state.phase == HALIKARNASSOS
    eligible = sorted(a.card for a in GAME.legal_actions(state, 1) if isinstance(a, BuildFromDiscard))
    assert eligible == ex["halikarnassos"]["eligible"]
    state = GAME.apply(state, {1: BuildFromDiscard(ex["halikarnassos"]["card"])})
    exp = ex["expected"]
    assert state.age == 2 and state.turn == 1
    assert list(state.coins) == exp["coins"]
    assert [profile(state.wonders[s], state.sides[s], state.stages[s], state.cities[s]).shields
            for s in range(3)] == exp["shields"]
    tokens = [sorted(t) for t in state.tokens]
    expected_tokens = [sorted(v for v in row.values() if v) for row in exp["military"]]
    assert tokens == expected_tokens
    assert sorted(c for _, c in state.discard) == exp["discard_pile"]
    assert list(state.stages) == exp["stages_built"]
    assert [list(c) for c in state.cities] == exp["cities"]


# ---- 11.6 military --------------------------------------------------------------------------------
def test_military_age2_five_players() -> None:
    ex = EXAMPLES["military_age2_five_players"]
    seats = ex["seats"]
    state = table([s["wonder"] for s in seats], [s["cards"] for s in seats],
                  stages=[s["stages_built"] for s in seats], age=2, turn=6,
                  hands=[["age2_school", "age2_loom"] for _ in seats])
    from engine.seven_wonders.steps import _military

    after = _military(state)
    sums = [sum(t) for t in after.tokens]
    assert sums == ex["expected"]["sums"] == [6, -1, -1, 6, -2]


# ---- 11.7 Olympia B copies a guild ------------------------------------------------------------------
def test_olympia_b_copies_the_scientists_guild() -> None:
    ex = EXAMPLES["olympia_b_copies_a_guild"]
    # seat 1 = Olympia; left = seat 2, right = seat 0
    wonders = [ex["right"]["wonder"], "olympia", ex["left"]["wonder"]]
    sides = [ex["right"].get("side", "A"), "B", ex["left"].get("side", "A")]
    t = Table(wonders, sides, [ex["right"].get("stages_built", 0), 3, ex["left"].get("stages_built", 0)],
              [ex["right"]["cards"], ex["olympia"]["cards"], ex["left"]["cards"]], [0, 0, 0], [(), (), ()])
    seat = score_table(t)[1]
    assert seat.copied_guild == ex["expected"]["copied"] == "age3_scientists_guild"
    assert seat.copied_from == 2
    assert dict(seat.categories)["science"] == ex["expected"]["science_with_copy"] == 26
    assert seat.wildcards == ("tablet",)
    assert best_science([2, 2, 1], 0)[0] == ex["expected"]["science_without_copy"] == 16


@pytest.mark.parametrize("example_id", sorted(EXAMPLES))
def test_every_json_example_has_a_test(example_id: str) -> None:
    tested = {"seed_production", "trade_west_trading_post", "vineyard_same_turn",
              "age1_babylon_b_halikarnassos_b", "military_age2_five_players", "olympia_b_copies_a_guild"}
    assert example_id in tested
