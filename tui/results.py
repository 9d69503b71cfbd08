"""A Result as a table: categories as rows, players as columns, then total and place.

Shared by the end screen and `gamenight score`, so both show a game's breakdown the same way.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.core import Result
from engine.core.early import early_reason
from engine.core.scorepad import plural


def categories(result: Result) -> list[str]:
    """Every category of any player, in the game's order: each player's rows keep their order,
    and a category only some players have goes right after the one it follows for them."""
    merged: list[str] = []
    for rows in result.breakdown:
        names = [category for category, _ in rows]
        for index, category in enumerate(names):
            if category in merged:
                continue
            if index > 0:
                merged.insert(merged.index(names[index - 1]) + 1, category)
                continue
            later = [merged.index(c) for c in names[index + 1:] if c in merged]
            merged.insert(min(later) if later else len(merged), category)
    return merged


def points(result: Result, seat: int, category: str) -> int | None:
    """Total points of a category for a seat; None when the seat has no such row."""
    found = [p for c, p in result.breakdown[seat] if c == category]
    return sum(found) if found else None


def category_label(category: str) -> str:
    """A category id as a player reads it: "apple_king" -> "Apple king", "sets" -> "Sets"."""
    text = category.replace("_", " ")
    return text[:1].upper() + text[1:]


def ordinal(place: int) -> str:
    suffix = "th" if 10 <= place % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(place % 10, "th")
    return f"{place}{suffix}"


def table_rows(names: Sequence[str], result: Result) -> list[list[str]]:
    """Header row, one row per category, then "total" and "place" (missing cells are "-")."""
    rows = [["", *names]]
    for category in categories(result):
        cells = [points(result, seat, category) for seat in range(len(names))]
        rows.append([category, *("-" if c is None else str(c) for c in cells)])
    rows.append(["total", *(str(s) for s in result.scores)])
    rows.append(["place", *(ordinal(p) for p in result.places)])
    return rows


def format_table(names: Sequence[str], result: Result) -> str:
    """A plain-text table, first column left-aligned and numbers right-aligned."""
    rows = table_rows(names, result)
    for row in rows[1:-2]:
        row[0] = category_label(row[0])
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    rule = "  ".join("-" * w for w in widths)
    lines = []
    for row in rows:
        if row[0] == "total":
            lines.append(rule)
        cells = [row[0].ljust(widths[0])] + [cell.rjust(w) for cell, w in zip(row[1:], widths[1:], strict=True)]
        lines.append("  ".join(cells).rstrip())
        if row is rows[0]:
            lines.append(rule)
    return "\n".join(lines)


def winners_line(names: Sequence[str], result: Result) -> str:
    early = early_reason(result)
    if early is not None:  # the table voted to end it: say so before who leads
        return f"Ended early{': ' + early if early else ''}. " + _winners(names, result)
    return _winners(names, result)


def _winners(names: Sequence[str], result: Result) -> str:
    """Who won, with how many points; a solo game has a score, not a winner."""
    if len(names) == 1:
        return f"{names[0]} scores {plural(result.scores[0], 'point')}."
    winners = [names[s] for s in result.winners]
    points = plural(result.scores[result.winners[0]], "point")
    if len(winners) == 1:
        return f"{winners[0]} wins with {points}."
    return f"Shared win: {', '.join(winners)} with {points}."


def as_json(game_id: str, names: Sequence[str], result: Result) -> dict[str, Any]:
    return {
        "game": game_id,
        "players": [
            {
                "name": name,
                "breakdown": [[c, p] for c, p in result.breakdown[seat]],
                "total": result.scores[seat],
                "place": result.places[seat],
            }
            for seat, name in enumerate(names)
        ],
        "winners": [names[s] for s in result.winners],
    }
