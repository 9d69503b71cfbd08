"""`gamenight score sheriff FILE.json`: the score pad reads stands and gold (docs/sheriff.md)."""

from __future__ import annotations

import json
from importlib import resources

import pytest

from engine.core import InvalidOption
from engine.sheriff import score_pad

DATA = json.loads(resources.files("engine.sheriff").joinpath("data/sheriff.json").read_text())
TABLE = next(e for e in DATA["examples"] if e["id"] == "seed_final_scoring_125")["table"]


def _pad():
    return {"players": [{"name": name, "gold": p["gold"], "stand": dict(p["stand"])}
                        for name, p in TABLE.items()]}


def test_score_pad_scores_the_125_example():
    names, result = score_pad(_pad())
    assert names == ["Huy", "Phuc", "Yen", "Thu"]
    assert result.scores == (125, 133, 141, 87) and result.winners == (2,)
    assert ("chicken_queen", 2) in result.breakdown[0] and ("chicken_queen", 2) in result.breakdown[1]


def test_score_pad_counts_royal_goods_for_king_and_queen():
    pad = {"players": [{"name": "A", "gold": 0, "stand": {"cheese": 11}},
                       {"name": "B", "gold": 0, "stand": {"cheese": 10, "gouda_cheese": 1}},
                       {"name": "C", "gold": 0}]}
    _, result = score_pad(pad)
    assert ("cheese_king", 15) in result.breakdown[1] and ("cheese_queen", 10) in result.breakdown[0]
    assert result.scores == (33 + 10, 30 + 6 + 15, 0)


@pytest.mark.parametrize(("mutate", "message"), [
    (lambda d: d["players"][0]["stand"].update(banana=1), "unknown good id 'banana'"),
    (lambda d: d["players"][0]["stand"].update(apple=-1), "whole number"),
    (lambda d: d["players"][0]["stand"].update(apple=1.5), "whole number"),
    (lambda d: d["players"][0].update(gold="42"), "gold must be a whole number"),
    (lambda d: d["players"][0].update(gold=True), "gold must be a whole number"),
    (lambda d: d["players"][1].update(name="Huy"), "appears twice"),
    (lambda d: d["players"][1].update(name=""), "name must be"),
    (lambda d: d["players"][1].update(colour="red"), "unknown field 'colour'"),
    (lambda d: d["players"][0].update(stand=[1, 2]), "stand must be an object"),
    (lambda d: d.update(players=d["players"][:2]), "3-5 players"),
    (lambda d: d.update(extra=1), "unknown field 'extra'"),
    (lambda d: d["players"][0]["stand"].update(crossbow=6), "6 crossbow on the stands"),
    (lambda d: d["players"].__setitem__(0, "Huy"), "must be an object"),
])
def test_malformed_pads_are_refused_in_one_line(mutate, message):
    data = _pad()
    mutate(data)
    with pytest.raises(InvalidOption, match=message) as info:
        score_pad(data)
    assert "\n" not in str(info.value)


def test_not_an_object_is_refused():
    with pytest.raises(InvalidOption, match='"players" list'):
        score_pad([1, 2, 3])
