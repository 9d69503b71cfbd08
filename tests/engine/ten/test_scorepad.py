"""`gamenight score ten FILE.json`: the score pad schema of docs/ten.md."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from engine.core import InvalidOption
from engine.ten import score_pad

DOC = Path(__file__).parents[3] / "docs" / "ten.md"


def _doc_example() -> dict:
    text = DOC.read_text()
    block = re.search(r"```json\n(.*?)```", text, re.S)
    assert block, "docs/ten.md must hold a score pad example in a ```json block"
    return json.loads(block.group(1))


def test_documented_example_scores_with_wilds_placed() -> None:
    names, result = score_pad(_doc_example())
    assert names == ["Ana", "Bo"]
    assert result.scores == (11, 10)
    assert result.winners == (0,)
    rows = dict(result.breakdown[0])
    assert rows["red 3-7 (wild 5 as 5)"] == 5
    assert sum(rows.values()) == 11


def test_type_ids_take_free_copies_and_tiebreaks_use_tokens_and_cards() -> None:
    data = {"players": [
        {"name": "A", "cards": ["red_4", "red_4", "red_5"], "currency": 3, "bust": 4},
        {"name": "B", "cards": ["blue_1_a", "blue_2"], "currency": 3},
    ]}
    names, result = score_pad(data)
    assert result.scores == (2, 2)
    assert result.winners == (1,)  # same currency, B holds fewer cards; bust tokens ignored


def test_unused_wild_is_named() -> None:
    reds = [f"red_{n}" for n in range(1, 10)]
    _, result = score_pad({"players": [{"name": "A", "cards": [*reds, "red_wild"]}]})
    assert result.scores == (10,)
    assert ("unused: red wild", 0) in result.breakdown[0]
    assert ("red 1-9", 10) in result.breakdown[0]


@pytest.mark.parametrize(
    "data, message",
    [
        ([], "JSON object"),
        ({"players": []}, "1 to 5"),
        ({"players": [{"name": "A", "cards": []}] * 6}, "1 to 5"),
        ({"players": [{"name": "", "cards": []}]}, "name"),
        ({"players": [{"name": "A"}]}, "cards"),
        ({"players": [{"name": "A", "cards": ["red_10"]}]}, "unknown card id 'red_10'"),
        ({"players": [{"name": "A", "cards": [4]}]}, "card id string"),
        ({"players": [{"name": "A", "cards": ["currency_3"]}]}, "currency card"),
        ({"players": [{"name": "A", "cards": ["red_1_a", "red_1_a"]}]}, "listed twice"),
        ({"players": [{"name": "A", "cards": ["red_1_a"]}, {"name": "B", "cards": ["red_1_a"]}]},
         "also held by A"),
        ({"players": [{"name": "A", "cards": ["red_1", "red_1"]}]}, "no copy of red_1 left"),
        ({"players": [{"name": "A", "cards": ["red_1_c"]}]}, "not used with 1 player"),
        ({"players": [{"name": "A", "cards": [], "currency": 11}]}, "more than 10"),
        ({"players": [{"name": "A", "cards": [], "bust": -1}]}, "bust"),
        ({"players": [{"name": "A", "cards": [], "busts": 1}]}, "unknown key 'busts'"),
        ({"game": "money", "players": []}, "not ten"),
    ],
)
def test_malformed_pads_raise_one_clear_line(data, message) -> None:
    with pytest.raises(InvalidOption, match=re.escape(message)) as err:
        score_pad(data)
    assert "\n" not in str(err.value)
