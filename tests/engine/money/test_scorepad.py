"""`gamenight score money FILE.json` (docs/money.md, score pad schema)."""

from __future__ import annotations

import pytest

from engine.core import InvalidOption
from engine.money import score_pad


def test_score_pad_scores_the_rulebook_hands_with_a_breakdown() -> None:
    names, result = score_pad({
        "edition": "classic",
        "players": [
            {"name": "Ann", "cards": ["euro_20_1", "euro_20_2", "euro_20_3", "yen_20_1",
                                      "yen_30_1", "yen_30_2", "yen_30_3", "dollar_20_1",
                                      "dollar_30", "dollar_30", "dollar_40", "dollar_50_1",
                                      "dollar_60", "coin", "bluff_1"]},
            {"name": "Bo", "cards": ["franc_20", "franc_20", "franc_20", "franc_30", "franc_30",
                                     "franc_30", "franc_40", "franc_50", "franc_60"]},
            {"name": "Cy", "cards": []},
        ],
    })
    assert names == ["Ann", "Bo", "Cy"]
    assert result.scores == (450, 500, 0)
    assert dict(result.breakdown[0]) == {"dollar": 230, "yen": 10, "euro": 0, "coins": 10,
                                         "sets": 200}
    assert result.winners == (1,) and result.places == (2, 1, 3)


def test_default_edition_and_shared_win() -> None:
    names, result = score_pad({"players": [{"name": "A", "cards": ["gold", "silver"]},
                                           {"name": "B", "cards": ["gold_2", "silver_2"]}]})
    assert result.scores == (30, 30) and result.winners == (0, 1)
    assert dict(result.breakdown[0]) == {"gold": 20, "silver": 10, "sets": 0}


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ([], "must be a JSON object"),
        ({"players": [], "colour": 1}, "unknown key 'colour'"),
        ({"edition": "deluxe", "players": []}, "edition must be one of"),
        ({"players": {}}, "must be a list"),
        ({"players": [{"name": "A", "cards": []}]}, "2-5 players, not 1"),
        ({"edition": "classic", "players": [{"name": "A", "cards": []}] * 2}, "3-5 players"),
        ({"players": [{"name": "A", "cards": []}, "B"]}, "player 2 must be an object"),
        ({"players": [{"name": "", "cards": []}, {"name": "B", "cards": []}]}, "non-empty"),
        ({"players": [{"name": "A", "cards": []}, {"name": "A", "cards": []}]},
         "two players are named 'A'"),
        ({"players": [{"name": "A", "cards": "gold"}, {"name": "B", "cards": []}]},
         "must be a list of card ids"),
        ({"players": [{"name": "A", "cards": [], "age": 3}, {"name": "B", "cards": []}]},
         "unknown key 'age'"),
        ({"players": [{"name": "A", "cards": ["peso_20"]}, {"name": "B", "cards": []}]},
         "unknown card id 'peso_20'"),
        ({"players": [{"name": "A", "cards": [20]}, {"name": "B", "cards": []}]},
         "card id string"),
        ({"players": [{"name": "A", "cards": ["coin_1"]}, {"name": "B", "cards": []}]},
         "coin_1 is not a card of the gold_silver edition"),
        ({"edition": "classic", "players": [{"name": "A", "cards": ["gold"]}, {"name": "B",
          "cards": []}, {"name": "C", "cards": []}]}, "gold is not a card of the classic"),
        ({"players": [{"name": "A", "cards": ["euro_60_1"]},
                      {"name": "B", "cards": ["euro_60_1"]}]}, "euro_60_1 is listed twice"),
        ({"players": [{"name": "A", "cards": ["euro_60_1"]},
                      {"name": "B", "cards": ["euro_60"]}]}, "more euro_60 cards than the game"),
        ({"players": [{"name": "A", "cards": ["gold"] * 4},
                      {"name": "B", "cards": ["gold"] * 3}]}, r"more gold cards .*\(6\)"),
        ({"players": [{"name": "A", "cards": ["euro_20_1", "euro_20", "euro_20"]},
                      {"name": "B", "cards": ["euro_20"]}]}, "more euro_20 cards"),
    ],
)
def test_score_pad_rejects_bad_input_with_one_line(data, message) -> None:
    with pytest.raises(InvalidOption, match=message) as caught:
        score_pad(data)
    assert "\n" not in str(caught.value)


def test_the_example_of_the_docs_scores_as_documented() -> None:
    import json
    import re
    from pathlib import Path

    doc = (Path(__file__).resolve().parents[3] / "docs" / "money.md").read_text()
    data = json.loads(re.search(r"```json\n(.*?)```", doc, re.S).group(1))
    names, result = score_pad(data)
    assert names == ["Ann", "Bo"] and result.scores == (160, 190) and result.winners == (1,)
