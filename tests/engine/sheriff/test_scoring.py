"""Final scoring and King/Queen bonuses: the worked examples of sheriff.md §7 and §9.1, §9.4."""

from __future__ import annotations

import json
from importlib import resources

import pytest

from engine.sheriff.cards import counts_of
from engine.sheriff.scoring import breakdown, final_result, king_queen, king_queen_count

DATA = json.loads(resources.files("engine.sheriff").joinpath("data/sheriff.json").read_text())
EXAMPLES = {e["id"]: e for e in DATA["examples"]}


def _stand(goods: dict[str, int]) -> tuple[int, ...]:
    return counts_of(g for g, n in goods.items() for _ in range(n))


def test_huy_scores_125_and_yen_wins():
    table = EXAMPLES["seed_final_scoring_125"]["table"]
    names = list(table)
    result = final_result([table[p]["gold"] for p in names], [_stand(table[p]["stand"]) for p in names])
    assert dict(zip(names, result.scores, strict=True)) == {"Huy": 125, "Phuc": 133, "Yen": 141, "Thu": 87}
    assert [names[s] for s in result.winners] == ["Yen"]
    huy = {category: points for category, points in result.breakdown[0] if points or "_" not in category}
    assert huy == {"gold": 42, "legal goods": 45, "contraband": 21, "royal goods": 0,
                   "cheese_king": 15, "chicken_queen": 2}
    thu = {category: points for category, points in result.breakdown[3] if points or "_" not in category}
    assert thu == {"gold": 73, "legal goods": 14, "contraband": 0, "royal goods": 0}
    assert len(result.breakdown[3]) == 4 + 2 * 4  # every King and Queen row, 0 when not earned


def test_every_bonus_of_the_125_example():
    example = EXAMPLES["seed_final_scoring_125"]
    table = example["table"]
    names = list(table)
    rows = breakdown([table[p]["gold"] for p in names], [_stand(table[p]["stand"]) for p in names])
    for seat, name in enumerate(names):
        bonuses = {c: p for c, p in rows[seat] if c.endswith(("_king", "_queen")) and p}
        assert bonuses == example["expected"]["bonuses"][name]


@pytest.mark.parametrize("example_id", [e["id"] for e in DATA["examples"] if e["what"] == "king_queen"])
def test_king_queen_examples(example_id):
    example = EXAMPLES[example_id]
    names = list(example["table"])
    stands = [_stand(example["table"][p]) for p in names]
    counts = [king_queen_count(s, example["good"]) for s in stands]
    assert dict(zip(names, counts, strict=True)) == example["expected"]["counts"]
    got = {names[s]: bonus for s, (_, bonus) in king_queen(counts, example["good"]).items()}
    assert got == example["expected"]["bonus"]


def test_two_kings_share_king_and_queen_rounded_down_and_nobody_is_queen():
    # chicken: King 10 + Queen 5 = 15, two Kings get 7 each (7.5 rounded down); C gets nothing
    assert king_queen([4, 4, 2], "chicken") == {0: ("king", 7), 1: ("king", 7)}


def test_two_queens_split_the_queen_bonus_rounded_down():
    # cheese Queen 10 split three ways: 3 each
    assert king_queen([5, 2, 2, 2], "cheese") == {0: ("king", 15), 1: ("queen", 3),
                                                   2: ("queen", 3), 3: ("queen", 3)}


def test_nobody_holding_a_good_gets_nothing_and_zero_counts_never_win_queen():
    assert king_queen([0, 0, 0], "apple") == {}
    assert king_queen([3, 0, 0], "apple") == {0: ("king", 20)}


def test_royal_goods_count_for_king_queen_but_score_their_own_value():
    # Phuc: 10 cheese + Gouda (counts as 2) = 12 beats Yen's 11 cheese
    stands = [_stand({"cheese": 11}), _stand({"cheese": 10, "gouda_cheese": 1}), _stand({})]
    result = final_result([0, 0, 0], stands)
    phuc = dict(result.breakdown[1])
    assert phuc["cheese_king"] == 15 and phuc["royal goods"] == 6 and phuc["legal goods"] == 30
    assert dict(result.breakdown[0])["cheese_queen"] == 10


def test_royal_good_alone_makes_a_king():
    stands = [_stand({"pumpernickel_bread": 1}), _stand({"bread": 2}), _stand({})]
    rows = breakdown([0, 0, 0], stands)
    assert ("bread_king", 15) in rows[0] and ("bread_queen", 10) in rows[1]


def test_equal_totals_share_the_win():
    result = final_result([10, 10, 3], [_stand({}), _stand({}), _stand({})])
    assert result.winners == (0, 1) and result.places == (1, 1, 3)
