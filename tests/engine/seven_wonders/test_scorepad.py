"""The score pad: `gamenight score seven_wonders FILE.json` (schema in docs/seven_wonders.md)."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from engine.core import InvalidOption
from engine.seven_wonders import score_pad
from engine.seven_wonders.scorepad import score_pad_details

EXAMPLE = {
    "players": [
        {"name": "Ana", "wonder": "babylon", "side": "A", "stages": 2,
         "cards": ["age1_apothecary", "age1_workshop", "age2_dispensary", "age1_altar", "age3_haven",
                   "age1_lumber_yard"],
         "coins": 14, "military": [1, 3, 5, -1, -1, -1]},
        {"name": "Bo", "wonder": "olympia", "side": "B", "stages": 3,
         "cards": ["age1_stockade", "age2_walls"], "coins": 2, "military": [1, 3, 5]},
        {"name": "Cy", "wonder": "gizah", "side": "A", "stages": 3,
         "cards": ["age3_spies_guild", "age1_barracks"], "coins": 0, "military": [-1, -1, -1]},
    ]
}


def test_score_pad_gives_the_seven_categories_in_seat_order() -> None:
    names, result = score_pad(EXAMPLE)
    assert names == ["Ana", "Bo", "Cy"]
    ana = dict(result.breakdown[0])
    # military 6, treasury 4, wonder 3 (stage 2 is the wildcard), civilian 2,
    # science: 2 compass, 1 gear + wildcard tablet = 4+1+1+7 = 13, commercial: Haven 1 brown
    assert ana == {"military": 6, "treasury": 4, "wonder": 3, "civilian": 2, "science": 13,
                   "commercial": 1, "guilds": 0}
    bo = dict(result.breakdown[1])
    # Olympia B copies Cy's Spies Guild: red cards of her neighbours: Barracks (Cy) = 1 (Ana has none)
    assert bo["guilds"] == 1 and bo["wonder"] == 5
    cy = dict(result.breakdown[2])
    assert cy["wonder"] == 15 and cy["guilds"] == 2  # Stockade, Walls next door
    _, details, _ = score_pad_details(EXAMPLE)
    assert details[0].wildcards == ("tablet",) and details[1].copied_guild == "age3_spies_guild"


def test_docs_example_is_valid() -> None:
    doc = Path(__file__).resolve().parents[3] / "docs" / "seven_wonders.md"
    text = doc.read_text()
    block = text.split("```json", 1)[1].split("```", 1)[0]
    names, result = score_pad(json.loads(block))
    assert len(names) == len(result.scores) >= 3


def _broken(path: tuple, value) -> dict:
    data = copy.deepcopy(EXAMPLE)
    target = data
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    return data


@pytest.mark.parametrize(
    "data, message",
    [
        ([], "players"),
        ({"players": EXAMPLE["players"][:2]}, "3-7 players"),
        (_broken(("players", 0), "Ana"), "expected an object"),
        (_broken(("players", 0, "wonder"), "atlantis"), "unknown wonder"),
        (_broken(("players", 0, "side"), "C"), "side"),
        (_broken(("players", 0, "stages"), 4), "0-3 stages"),
        (_broken(("players", 0, "stages"), "2"), "whole number"),
        (_broken(("players", 0, "cards"), ["age1_unicorn"]), "unknown card id"),
        (_broken(("players", 0, "cards"), ["age1_loom", "age2_loom"]), "duplicates"),
        (_broken(("players", 0, "coins"), -1), "negative"),
        (_broken(("players", 0, "military"), [2]), "not a conflict token"),
        (_broken(("players", 1, "wonder"), "babylon"), "two players have the wonder"),
        (_broken(("players", 1, "cards"), ["age3_spies_guild"]), "appears 2 times"),
        (_broken(("players", 0, "name"), ""), "name"),
    ],
)
def test_malformed_input_raises_one_clear_line(data, message: str) -> None:
    with pytest.raises(InvalidOption, match=message) as err:
        score_pad(data)
    assert "\n" not in str(err.value)


def test_missing_and_unknown_fields() -> None:
    data = copy.deepcopy(EXAMPLE)
    del data["players"][2]["coins"]
    with pytest.raises(InvalidOption, match="missing coins"):
        score_pad(data)
    data = copy.deepcopy(EXAMPLE)
    data["players"][2]["colour"] = "red"
    with pytest.raises(InvalidOption, match="unknown field"):
        score_pad(data)
