"""Score pad: the seven-category breakdown from final holdings (docs/seven_wonders.md).

Input: {"players": [{"name", "wonder", "side", "stages", "cards", "coins", "military"}, ...]}
in seat order (left neighbour = next seat). Works for a physical table as well.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from ..core import InvalidOption, Result
from ..core.scorepad import NameBook, check_names, check_player_count, counted_items, plural
from .cards import (
    BOARDS,
    CARDS,
    DEFEAT_TOKEN,
    MAX_PLAYERS,
    MIN_PLAYERS,
    VICTORY_TOKEN,
    WONDER_CITY,
    WONDER_ORDER,
)
from .scoring import Table, result_of, score_table
from .state import SeatScore

_FIELDS = ("name", "wonder", "side", "stages", "cards", "coins", "military")
_TOKENS = sorted(set(VICTORY_TOKEN.values()) | {DEFEAT_TOKEN})
# Cards and wonders by id or by name, in any case ("Lumber Yard", "lumber yard", "age1_lumber_yard").
_CARDS = NameBook({card_id: [card.name] for card_id, card in CARDS.items()}, "card")
_WONDERS = NameBook({w: [WONDER_CITY[w]] for w in WONDER_ORDER}, "wonder")


def template(n_players: int = 3) -> dict[str, Any]:
    """A blank score pad, in seat order: wonder and side, stages built, cards by name, coins,
    and the conflict tokens (1, 3, 5 for victories, -1 for defeats)."""
    return {"players": [{"name": f"Player {i + 1}", "wonder": WONDER_ORDER[i], "side": "A", "stages": 0,
                         "cards": [], "coins": 0, "military": []} for i in range(n_players)]}


def _copies(card_id: str, n: int) -> int:
    card = CARDS[card_id]
    return 1 if card.is_guild else sum(1 for m in card.copies_min_players if m <= n)


def _card(written: Any, where: str, n: int, used: Counter[str]) -> str:
    """The card id meant: a name shared by several cards (two Ages' "Loom") takes the first
    one with a copy left in an n-player game."""
    ids = _CARDS.candidates(written, where)
    return next((c for c in ids if used[c] < _copies(c, n)), ids[0])


def score_pad(data: Any) -> tuple[list[str], Result]:
    names, _, result = score_pad_details(data)
    return names, result


def score_pad_details(data: Any) -> tuple[list[str], tuple[SeatScore, ...], Result]:
    """Names, per-seat details (wildcards, copied guild) and the Result; InvalidOption if bad."""
    if not isinstance(data, dict) or not isinstance(data.get("players"), list):
        raise InvalidOption('the score pad needs a JSON object with a "players" list')
    players = data["players"]
    check_player_count(len(players), MIN_PLAYERS, MAX_PLAYERS, "7 Wonders")
    used: Counter[str] = Counter()
    rows = [_player(i, p, len(players), used) for i, p in enumerate(players)]
    check_names([r[0] for r in rows])
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


def _player(i: int, p: Any, n: int, used: Counter[str]) -> tuple:
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
    wonder, side = _WONDERS.one(p["wonder"], where), p["side"]
    side = side.upper() if isinstance(side, str) else side
    if side not in ("A", "B"):
        raise InvalidOption(f'{where}: side must be "A" or "B", not {side!r}')
    n_stages = len(BOARDS[(wonder, side)].stages)
    stages = _int(p["stages"], f"{where}: stages")
    if not 0 <= stages <= n_stages:
        raise InvalidOption(f"{where}: {wonder} side {side} has 0-{n_stages} stages, not {stages}")
    cards = []
    seen: dict[str, str] = {}
    for written, count in counted_items(p["cards"], where, "cards"):
        c = _card(written, where, n, used)
        if count > 1:
            raise InvalidOption(f"{where}: {CARDS[c].name} is counted {count} times (a city holds one)")
        used[c] += count
        cards.extend([c] * count)
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
        raise InvalidOption(f"{where}: at most 6 conflict tokens (2 per Age), not {plural(len(tokens), 'token')}")
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
            raise InvalidOption(f"{CARDS[card_id].name} ({card_id}) appears {plural(k, 'time')} but a "
                                f"{n}-player game has {plural(copies, 'copy', 'copies')}")
