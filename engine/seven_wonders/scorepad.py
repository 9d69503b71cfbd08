"""Score pad: the seven-category breakdown from final holdings (docs/seven_wonders.md).

Input: {"players": [{"name", "wonder", "side", "stages", "cards", "coins", "military"}, ...]}
in seat order (left neighbour = next seat). Works for a physical table as well.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from ..core import InvalidOption, Result
from .cards import (
    BOARDS,
    CARDS,
    DEFEAT_TOKEN,
    MAX_PLAYERS,
    MIN_PLAYERS,
    VICTORY_TOKEN,
    WONDER_ORDER,
)
from .scoring import Table, result_of, score_table
from .state import SeatScore

_FIELDS = ("name", "wonder", "side", "stages", "cards", "coins", "military")
_TOKENS = sorted(set(VICTORY_TOKEN.values()) | {DEFEAT_TOKEN})


def score_pad(data: Any) -> tuple[list[str], Result]:
    names, _, result = score_pad_details(data)
    return names, result


def score_pad_details(data: Any) -> tuple[list[str], tuple[SeatScore, ...], Result]:
    """Names, per-seat details (wildcards, copied guild) and the Result; InvalidOption if bad."""
    if not isinstance(data, dict) or not isinstance(data.get("players"), list):
        raise InvalidOption('the score pad needs a JSON object with a "players" list')
    players = data["players"]
    if not MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
        raise InvalidOption(f"7 Wonders is for {MIN_PLAYERS}-{MAX_PLAYERS} players, not {len(players)}")
    rows = [_player(i, p) for i, p in enumerate(players)]
    wonders = [r[1] for r in rows]
    if len(set(wonders)) != len(wonders):
        twice = next(w for w in wonders if wonders.count(w) > 1)
        raise InvalidOption(f"two players have the wonder {twice!r}")
    _check_copies(rows)
    table = Table(
        wonders=wonders,
        sides=[r[2] for r in rows],
        stages=[r[3] for r in rows],
        cities=[r[4] for r in rows],
        coins=[r[5] for r in rows],
        tokens=[r[6] for r in rows],
    )
    scores = score_table(table)
    return [r[0] for r in rows], scores, result_of(scores)


def _player(i: int, p: Any) -> tuple:
    where = f"player {i + 1}"
    if not isinstance(p, dict):
        raise InvalidOption(f"{where}: expected an object with {', '.join(_FIELDS)}")
    missing = [f for f in _FIELDS if f not in p]
    if missing:
        raise InvalidOption(f"{where}: missing {', '.join(missing)}")
    extra = sorted(set(p) - set(_FIELDS))
    if extra:
        raise InvalidOption(f"{where}: unknown field {extra[0]!r}")
    name = p["name"]
    if not isinstance(name, str) or not name.strip():
        raise InvalidOption(f"{where}: name must be a non-empty string")
    where = f"player {i + 1} ({name})"
    wonder, side = p["wonder"], p["side"]
    if wonder not in WONDER_ORDER:
        raise InvalidOption(f"{where}: unknown wonder {wonder!r} (wonders: {', '.join(WONDER_ORDER)})")
    if side not in ("A", "B"):
        raise InvalidOption(f'{where}: side must be "A" or "B", not {side!r}')
    n_stages = len(BOARDS[(wonder, side)].stages)
    stages = _int(p["stages"], f"{where}: stages")
    if not 0 <= stages <= n_stages:
        raise InvalidOption(f"{where}: {wonder} side {side} has 0-{n_stages} stages, not {stages}")
    cards = p["cards"]
    if not isinstance(cards, list):
        raise InvalidOption(f"{where}: cards must be a list of card ids")
    seen: dict[str, str] = {}
    for c in cards:
        if not isinstance(c, str) or c not in CARDS:
            raise InvalidOption(f"{where}: unknown card id {c!r}")
        name_of = CARDS[c].name
        if name_of in seen:
            raise InvalidOption(f"{where}: {c} duplicates {seen[name_of]} (a city holds one {name_of})")
        seen[name_of] = c
    coins = _int(p["coins"], f"{where}: coins")
    if coins < 0:
        raise InvalidOption(f"{where}: coins cannot be negative")
    tokens = p["military"]
    if not isinstance(tokens, list):
        raise InvalidOption(f"{where}: military must be a list of conflict tokens")
    for t in tokens:
        if _int(t, f"{where}: military token") not in _TOKENS:
            raise InvalidOption(f"{where}: {t} is not a conflict token ({', '.join(map(str, _TOKENS))})")
    if len(tokens) > 6:
        raise InvalidOption(f"{where}: at most 6 conflict tokens (2 per Age), not {len(tokens)}")
    return name, wonder, side, stages, tuple(cards), coins, tuple(tokens)


def _int(value: Any, what: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise InvalidOption(f"{what} must be a whole number, not {value!r}")
    return value


def _check_copies(rows: list[tuple]) -> None:
    n = len(rows)
    used = Counter(c for r in rows for c in r[4])
    for card_id, k in sorted(used.items()):
        card = CARDS[card_id]
        copies = 1 if card.is_guild else sum(1 for m in card.copies_min_players if m <= n)
        if k > copies:
            raise InvalidOption(f"{card_id} appears {k} times but a {n}-player game has {copies}")
