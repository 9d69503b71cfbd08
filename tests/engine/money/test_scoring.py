"""Scoring (money.md §8) and the worked examples of §10.1-10.3, verbatim."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.money.cards import label, serial, value
from engine.money.scoring import currency_points, hand_total, score_hand, score_hands

RULES = json.loads(
    (Path(__file__).resolve().parents[3] / "engine" / "money" / "data" / "money.json").read_text()
)


def test_classic_450_point_hand_of_the_rulebook() -> None:
    hand = ["euro_20", "euro_20", "euro_20", "yen_20", "yen_30", "yen_30", "yen_30",
            "dollar_20", "dollar_30", "dollar_30", "dollar_40", "dollar_50", "dollar_60",
            "coin", "bluff"]
    rows = dict(score_hand(hand, "classic"))
    assert rows == {"euro": 0, "yen": 10, "dollar": 230, "coins": 10, "sets": 200}
    assert hand_total(hand, "classic") == 450


def test_gold_and_silver_770_point_hand() -> None:
    hand = ["yen_20", "yen_20", "yen_20", "yen_30", "yen_40", "yen_50", "yen_60",
            "euro_30", "euro_30", "euro_30", "euro_50", "pound_20", "pound_40",
            "gold", "gold", "gold", "silver", "silver", "silver", "bluff"]
    rows = dict(score_hand(hand, "gold_silver"))
    assert rows == {"pound": 0, "yen": 240, "euro": 40, "gold": 60, "silver": 30, "sets": 400}
    assert hand_total(hand, "gold_silver") == 770


def test_all_nine_francs_make_500() -> None:
    hand = ["franc_20_1", "franc_20_2", "franc_20_3", "franc_30_1", "franc_30_2", "franc_30_3",
            "franc_40_1", "franc_50_1", "franc_60_1"]
    assert dict(score_hand(hand, "gold_silver"))["franc"] == 300
    assert hand_total(hand, "gold_silver") == 500
    assert hand_total(hand, "classic") == 500


def test_thresholds_100_110_190_200() -> None:
    hand = ["dollar_40", "dollar_60", "pound_50", "pound_60", "krona_20", "krona_20",
            "krona_30", "krona_30", "krona_40", "krona_50", "rouble_20", "rouble_30",
            "rouble_40", "rouble_50", "rouble_60"]
    rows = dict(score_hand(hand, "gold_silver"))
    assert (rows["dollar"], rows["pound"], rows["krona"], rows["rouble"]) == (0, 10, 90, 200)
    assert rows["sets"] == 0
    assert hand_total(hand, "gold_silver") == 300


def test_six_gold_two_silver_make_two_sets() -> None:
    hand = ["gold"] * 6 + ["silver"] * 2
    assert dict(score_hand(hand, "gold_silver")) == {"gold": 120, "silver": 20, "sets": 200}
    assert hand_total(hand, "gold_silver") == 340


def test_classic_coins_never_form_sets() -> None:
    hand = ["coin_1", "coin_2", "coin_3", "coin_4", "rouble_20_1", "rouble_20_2", "rouble_20_3"]
    assert dict(score_hand(hand, "classic")) == {"rouble": 0, "coins": 40, "sets": 100}
    assert hand_total(hand, "classic") == 140


@pytest.mark.parametrize("example", [e for e in RULES["examples"] if e["what"] == "score"],
                         ids=lambda e: e["id"])
def test_every_scoring_example_of_the_rules_data(example) -> None:
    rows = dict(score_hand(example["hand"], example["edition"]))
    expected = example["expected"]
    assert {c: rows[c] for c in expected["currencies"]} == expected["currencies"]
    extra = rows.get("coins", 0) + rows.get("gold", 0) + rows.get("silver", 0)
    assert extra == expected["coins_gold_silver"]
    assert rows["sets"] == expected["sets"]
    assert sum(rows.values()) == expected["total"]


@pytest.mark.parametrize(
    ("total", "points"),
    [(0, 0), (20, 0), (100, 0), (110, 10), (150, 50), (190, 90), (200, 200), (300, 300)],
)
def test_currency_positions(total: int, points: int) -> None:
    assert currency_points(total) == points


def test_breakdown_lists_only_currencies_held_and_always_the_extras() -> None:
    assert score_hand(["bluff_1"], "gold_silver") == (("gold", 0), ("silver", 0), ("sets", 0))
    assert score_hand(["bluff_1"], "classic") == (("coins", 0), ("sets", 0))
    assert [c for c, _ in score_hand(["euro_20_1", "dollar_60_1"], "gold_silver")][:2] == [
        "dollar", "euro"]


def test_a_set_scores_in_a_weak_currency_and_does_not_count_toward_it() -> None:
    rows = dict(score_hand(["yen_30_1", "yen_30_2", "yen_30_3"], "gold_silver"))
    assert rows["yen"] == 0 and rows["sets"] == 100  # 90 is weak; the set still pays


def test_shared_win_has_no_tiebreak() -> None:
    result = score_hands([["gold_1"], ["gold_2"], ["silver_1"]], "gold_silver")
    assert result.scores == (20, 20, 10)
    assert result.winners == (0, 1) and result.places == (1, 1, 3)


def test_card_helpers() -> None:
    assert value("euro_60_1") == 60 and value("gold_3") == 20 and value("silver_1") == 10
    assert value("coin_2") == 10 and value("bluff_4") == 0
    assert serial("dollar_20_1") == 1 and serial("euro_60_1") == 63 and serial("silver_6") == 75
    assert serial("coin_1") == 64 and serial("bluff_1") is None
    assert [label(c) for c in ("euro_60_1", "gold_1", "silver_2", "coin_3", "bluff_1")] == [
        "Euro 60", "Gold", "Silver", "Coin", "Bluff"]
