"""The `gamenight` command: clear one-line errors with exit status 2, self-play JSON, score pad."""

from __future__ import annotations

import json

import pytest

from tui.cli import main

CLASSIC_450 = [
    "euro_20", "euro_20", "euro_20", "yen_20", "yen_30", "yen_30", "yen_30",
    "dollar_20", "dollar_30", "dollar_30", "dollar_40", "dollar_50", "dollar_60", "coin", "bluff",
]


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def assert_one_line_error(code: int, err: str, *words: str) -> None:
    assert code == 2
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert "Traceback" not in err
    for word in words:
        assert word in lines[0], lines[0]


@pytest.mark.parametrize(
    "argv, words",
    [
        (["play", "chess"], ["unknown game 'chess'", "money"]),
        (["play", "money", "--players", "9"], ["2-5 players", "not 9"]),
        (["play", "money", "--players", "2", "--edition", "classic"], ["3-5 players"]),
        (["play", "money", "--edition", "platinum"], ["edition", "gold_silver, classic"]),
        (["play", "money", "--option", "speed=3"], ["no option 'speed'"]),
        (["play", "money", "--option", "novalue"], ["key=value"]),
        (["play", "money", "--players", "3", "--bots", "5"], ["--bots"]),
        (["play", "money", "--players", "many"], ["--players", "invalid int"]),
        (["play", "money", "--players", "3", "--bots", "1", "--names", "A,B,C,D"], ["names"]),
        (["play", "money", "--option", 'removed_currencies=["gold"]', "--players", "4"], ["unknown currency"]),
        (["play", "money", "--bot-delay", "-1"], ["--bot-delay"]),
        (["frobnicate"], ["invalid choice"]),
        (["rules", "chess"], ["unknown game"]),
        (["selfplay", "money", "--players", "7"], ["2-5 players"]),
        (["selfplay", "money", "--bots", "random,random", "--players", "3"], ["--bots"]),
        (["selfplay", "money", "--bots", "genius"], ["no 'genius' bot"]),
    ],
)
def test_bad_arguments_are_one_line_and_exit_2(capsys, argv, words):
    code, out, err = run(capsys, *argv)
    assert_one_line_error(code, err, *words)
    assert out == ""


def test_selfplay_json_reports_speed_wins_and_scores(capsys):
    code, out, err = run(capsys, "selfplay", "money", "--players", "3", "--games", "3", "--seed", "5", "--json")
    assert code == 0, err
    lines = out.strip().splitlines()
    assert len(lines) == 1
    data = json.loads(lines[0])
    for key in ("game", "players", "games", "actions", "seconds", "games_per_s", "actions_per_s", "wins", "mean_score"):
        assert key in data
    assert data["game"] == "money" and data["players"] == 3 and data["games"] == 3
    assert len(data["wins"]) == 3 and len(data["mean_score"]) == 3
    assert sum(data["wins"]) >= 3  # every game has at least one winner (ties share)
    assert data["actions"] > 0 and data["games_per_s"] > 0
    # Same seed, same games.
    again = json.loads(run(capsys, "selfplay", "money", "--players", "3", "--games", "3", "--seed", "5", "--json")[1])
    assert (again["wins"], again["mean_score"], again["actions"]) == (data["wins"], data["mean_score"], data["actions"])


def test_selfplay_net_without_the_network_stack_is_a_clear_error(capsys, monkeypatch):
    import tui.cli_net_selfplay

    monkeypatch.delattr(tui.cli_net_selfplay, "run_selfplay_net", raising=False)
    code, _, err = run(capsys, "selfplay", "money", "--net")
    assert_one_line_error(code, err, "--net")


def _pad(tmp_path, data) -> str:
    path = tmp_path / "pad.json"
    path.write_text(json.dumps(data) if not isinstance(data, str) else data, encoding="utf-8")
    return str(path)


def classic_pad() -> dict:
    return {
        "edition": "classic",
        "players": [
            {"name": "Ana", "cards": CLASSIC_450},
            {"name": "Bia", "cards": ["krona_60", "coin", "bluff"]},
            {"name": "Caio", "cards": ["pound_20", "pound_20", "pound_20"]},
        ],
    }


def test_score_prints_the_450_point_hand_as_a_table(capsys, tmp_path):
    code, out, err = run(capsys, "score", "money", _pad(tmp_path, classic_pad()))
    assert code == 0, err
    lines = out.splitlines()
    header = lines[0].split()
    assert header == ["Ana", "Bia", "Caio"]
    rows = {line.split()[0]: line.split()[1:] for line in lines[1:] if line.strip() and not line.startswith("-")}
    assert rows["total"] == ["450", "10", "100"]
    assert rows["place"] == ["1st", "3rd", "2nd"]
    assert "Ana wins with 450 points." in out


def test_score_json_has_breakdown_total_and_place(capsys, tmp_path):
    code, out, err = run(capsys, "score", "money", _pad(tmp_path, classic_pad()), "--json")
    assert code == 0, err
    data = json.loads(out)
    ana = data["players"][0]
    assert ana["name"] == "Ana" and ana["total"] == 450 and ana["place"] == 1
    assert sum(points for _, points in ana["breakdown"]) == 450
    assert data["winners"] == ["Ana"]


@pytest.mark.parametrize(
    "content, words",
    [
        ("{not json", ["not valid JSON"]),
        ({"players": [{"name": "A", "cards": ["euro_99"]}, {"name": "B", "cards": []}]}, ["unknown card id"]),
        ({"players": "everyone"}, ["players"]),
        ([1, 2, 3], ["JSON object"]),
    ],
)
def test_score_rejects_malformed_input_in_one_line(capsys, tmp_path, content, words):
    code, _, err = run(capsys, "score", "money", _pad(tmp_path, content))
    assert_one_line_error(code, err, *words)


def test_score_of_a_missing_file_and_unknown_game(capsys, tmp_path):
    code, _, err = run(capsys, "score", "money", str(tmp_path / "nope.json"))
    assert_one_line_error(code, err, "no such file")
    code, _, err = run(capsys, "score", "chess", _pad(tmp_path, classic_pad()))
    assert_one_line_error(code, err, "unknown game")


def test_rules_prints_the_summary_and_keys(capsys):
    code, out, _ = run(capsys, "rules", "money")
    assert code == 0
    assert "Money!" in out and "## Keys" in out and "space" in out


def test_resume_without_a_save_or_with_a_corrupt_one(capsys, gamenight_home):
    code, _, err = run(capsys, "resume")
    assert_one_line_error(code, err, "no saved game")
    from tui.local_table import LocalTable

    table = LocalTable.new("money", 3, humans=1, seed=1, bot_delay=0)
    table.save_path.write_bytes(b"garbage")
    code, _, err = run(capsys, "resume")
    assert_one_line_error(code, err, "not a gamenight save")
    assert table.save_path.read_bytes() == b"garbage"
