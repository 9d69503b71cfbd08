"""A Result as a table: every player's categories in the game's order, totals and places."""

from __future__ import annotations

from engine.core import Result
from tui.results import categories, format_table, table_rows, winners_line


def test_categories_keep_the_game_order_when_players_hold_different_ones():
    result = Result.from_breakdown([
        [("dollar", 230), ("yen", 10), ("sets", 100)],
        [("dollar", 0), ("krona", 300), ("sets", 200)],
    ])
    assert categories(result) == ["dollar", "krona", "yen", "sets"]
    rows = table_rows(["Ann", "Bob"], result)
    assert rows[0] == ["", "Ann", "Bob"]
    assert rows[2] == ["krona", "-", "300"]
    assert rows[-2] == ["total", "340", "500"]
    assert rows[-1] == ["place", "2nd", "1st"]


def test_shared_wins_are_said_so():
    result = Result.from_breakdown([[("a", 5)], [("a", 5)], [("a", 1)]])
    assert winners_line(["Ann", "Bob", "Cy"], result) == "Shared win: Ann, Bob with 5 points."
    assert "1st" in format_table(["Ann", "Bob", "Cy"], result).splitlines()[-1]
