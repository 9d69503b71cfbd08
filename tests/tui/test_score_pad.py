"""The score pad for a physical table: templates, stdin, names as people write them, counts."""

from __future__ import annotations

import io
import json

import pytest

from .test_cli import _pad, assert_one_line_error, run

GAMES = ("money", "ten", "sheriff", "seven_wonders")


@pytest.mark.parametrize("game", GAMES)
def test_a_blank_template_scores_as_is(capsys, tmp_path, game):
    code, out, err = run(capsys, "score", game, "--template")
    assert code == 0, err
    pad = json.loads(out)
    assert [p["name"] for p in pad["players"]] == [f"Player {i + 1}" for i in range(len(pad["players"]))]
    code, out, err = run(capsys, "score", game, _pad(tmp_path, pad))
    assert code == 0, err
    assert "Player 1" in out and "total" in out


def test_template_players_and_standard_input(capsys, monkeypatch):
    code, out, _ = run(capsys, "score", "sheriff", "--template", "--players", "5")
    pad = json.loads(out)
    assert len(pad["players"]) == 5
    pad["players"][0]["gold"] = 7
    monkeypatch.setattr("sys.stdin", io.StringIO(json.dumps(pad)))
    code, out, err = run(capsys, "score", "sheriff", "-")
    assert code == 0, err
    assert "Player 1 wins with" in out


def test_seven_wonders_cards_by_display_name_in_any_case(capsys, tmp_path):
    code, out, _ = run(capsys, "score", "seven_wonders", "--template")
    pad = json.loads(out)
    pad["players"][0].update(wonder="Gizah", side="a", cards=["Lumber Yard", "altar", "TEMPLE", "Pantheon"])
    code, out, err = run(capsys, "score", "seven_wonders", _pad(tmp_path, pad), "--json")
    assert code == 0, err
    civic = dict(json.loads(out)["players"][0]["breakdown"])
    assert civic["civilian"] == 2 + 3 + 7  # Altar, Temple, Pantheon


def test_a_misspelt_card_gets_a_suggestion(capsys, tmp_path):
    code, out, _ = run(capsys, "score", "seven_wonders", "--template")
    pad = json.loads(out)
    pad["players"][0]["cards"] = ["Lumber Yrd"]
    code, _, err = run(capsys, "score", "seven_wonders", _pad(tmp_path, pad))
    assert_one_line_error(code, err, "unknown card name 'Lumber Yrd'", "did you mean 'Lumber Yard'")


def test_money_counts_cards(capsys, tmp_path):
    pad = {"players": [{"name": "Ann", "cards": {"gold": 5, "Euro 20": 1}},
                       {"name": "Bob", "cards": ["gold"]}]}
    code, out, err = run(capsys, "score", "money", _pad(tmp_path, pad), "--json")
    assert code == 0, err
    data = json.loads(out)
    from engine.money import score_pad

    listed = {"players": [{"name": "Ann", "cards": ["gold"] * 5 + ["euro_20"]}, {"name": "Bob", "cards": ["gold"]}]}
    assert data["players"][0]["total"] == score_pad(listed)[1].scores[0]


def test_solo_ten_reports_a_score_not_a_winner(capsys, tmp_path):
    pad = {"players": [{"name": "Ann", "cards": ["red 1", "red 2", "red 3"], "currency": 2, "bust": 0}]}
    code, out, err = run(capsys, "score", "ten", _pad(tmp_path, pad))
    assert code == 0, err
    assert "Ann scores" in out and "wins" not in out


@pytest.mark.parametrize("game", GAMES)
def test_duplicate_player_names_are_refused_in_every_game(capsys, tmp_path, game):
    code, out, _ = run(capsys, "score", game, "--template")
    pad = json.loads(out)
    pad["players"][0]["name"] = "ann"
    pad["players"][1]["name"] = "Ann"
    code, _, err = run(capsys, "score", game, _pad(tmp_path, pad))
    assert_one_line_error(code, err, "two players are named 'Ann'")


@pytest.mark.parametrize("game", ["money", "sheriff", "seven_wonders"])
def test_numbers_agree_with_their_nouns(capsys, tmp_path, game):
    code, out, _ = run(capsys, "score", game, "--template")
    pad = json.loads(out)
    pad["players"] = pad["players"][:1]
    code, _, err = run(capsys, "score", game, _pad(tmp_path, pad))
    assert_one_line_error(code, err, "not 1 player")
    assert "1 players" not in err


def test_score_without_a_file_says_what_to_give(capsys):
    code, _, err = run(capsys, "score", "money")
    assert_one_line_error(code, err, "--template")
