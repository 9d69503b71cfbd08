"""`gamenight score sheriff FILE.json`: score a finished table from its stands and gold.

The JSON object (docs/sheriff.md) lists each player's name, gold and stand goods by good id:
{"players": [{"name": "Huy", "gold": 42, "stand": {"apple": 4, "pepper": 2}}, ...]}
It serves a physical table as well as a finished engine game.
"""

from __future__ import annotations

from typing import Any

from ..core import InvalidOption, Result
from ..core.scorepad import NameBook, check_names, check_player_count, plural
from .cards import GOODS, IDX, NAME, NG, deck_counts
from .scoring import final_result

# A good may be written as its id ("chicken") or its name ("Chickens"), in any case.
_BOOK = NameBook({good: [NAME[good]] for good in GOODS}, "good")


def template(n_players: int = 4) -> dict[str, Any]:
    """A blank score pad: each player's gold and the goods on their stand (name -> cards)."""
    return {"players": [{"name": f"Player {i + 1}", "gold": 0, "stand": {}} for i in range(n_players)]}


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def _player(entry: Any, k: int) -> tuple[str, int, tuple[int, ...]]:
    where = f"players[{k}]"
    if not isinstance(entry, dict):
        raise InvalidOption(f"{where} must be an object with name, gold and stand")
    unknown = sorted(set(entry) - {"name", "gold", "stand"})
    if unknown:
        raise InvalidOption(f"{where} has an unknown field {unknown[0]!r} (fields: name, gold, stand)")
    name = entry.get("name")
    if not isinstance(name, str) or not name.strip():
        raise InvalidOption(f"{where}.name must be a non-empty string")
    gold = entry.get("gold")
    if not _whole(gold):
        raise InvalidOption(f"{where} ({name}): gold must be a whole number of 0 or more")
    stand = entry.get("stand", {})
    if not isinstance(stand, dict):
        raise InvalidOption(f"{where} ({name}): stand must be an object of good id -> number of cards")
    counts = [0] * NG
    for written, n in stand.items():
        good = _BOOK.one(written, f"{where} ({name})")
        if not _whole(n):
            raise InvalidOption(f"{where} ({name}): the number of {good} must be a whole number of 0 or more")
        counts[IDX[good]] += n
    return name, gold, tuple(counts)


def score_pad(data: Any) -> tuple[list[str], Result]:
    """(names, Result) for a table described by `data`; InvalidOption names the first problem."""
    if not isinstance(data, dict) or not isinstance(data.get("players"), list):
        raise InvalidOption('the score pad needs an object with a "players" list')
    unknown = sorted(set(data) - {"players"})
    if unknown:
        raise InvalidOption(f"unknown field {unknown[0]!r} (the score pad reads only \"players\")")
    players = [_player(entry, k) for k, entry in enumerate(data["players"])]
    check_player_count(len(players), 3, 5, "Sheriff of Nottingham")
    names = [name for name, _, _ in players]
    check_names(names)
    copies = deck_counts(len(players), True)
    for i, good in enumerate(GOODS):
        total = sum(stand[i] for _, _, stand in players)
        if total > copies[i]:
            raise InvalidOption(
                f"{total} {good} on the stands, but a {len(players)}-player game has only {plural(copies[i], 'card')}"
            )
    return names, final_result([g for _, g, _ in players], [s for _, _, s in players])
