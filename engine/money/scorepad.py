"""`gamenight score money FILE.json`: score final hands typed in from a real table.

Schema (docs/money.md): {"edition": "gold_silver" | "classic" (optional, default gold_silver),
"players": [{"name": "Ann", "cards": ["euro_20_1", "euro_20", "gold", ...]}, ...]}.
A card is a physical id (`euro_20_1`: that very card) or a type id (`euro_20`: one card of that
type), or the type's name in any case ("Euro 20", "gold"); "cards" may also be an object of
card -> count (`{"gold": 6}`). Across all players no physical card may appear twice and no type more often than the
box holds it. Any problem raises InvalidOption with one line naming it.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from ..core import InvalidOption, Result
from ..core.scorepad import NameBook, check_names, check_player_count, counted_items
from .cards import (
    DEFAULT_EDITION,
    EDITIONS,
    PLAYER_RANGE,
    SERIAL,
    TYPE_COUNT,
    TYPE_EDITIONS,
    TYPE_OF,
    label,
)
from .scoring import score_hands

_KEYS = {"edition", "players"}
_PLAYER_KEYS = {"name", "cards"}
# What a person may write for a card: its physical id, its type id, or the type's name.
_BOOK = NameBook({card: ([label(card)] if card == TYPE_OF[card] else []) for card in TYPE_OF}, "card",
                 quiet=SERIAL)


def template(n_players: int = 3) -> dict[str, Any]:
    """A blank score pad to fill in: cards as a list of names, or an object of name -> count."""
    return {"edition": DEFAULT_EDITION,
            "players": [{"name": f"Player {i + 1}", "cards": {}} for i in range(n_players)]}


def _check_card(card: Any, where: str, edition: str) -> str:
    card = _BOOK.one(card, where)
    if edition not in TYPE_EDITIONS[TYPE_OF[card]]:
        raise InvalidOption(f"{where}: {card} is not a card of the {edition} edition")
    return card


def score_pad(data: Any) -> tuple[list[str], Result]:
    """(player names, Result with per-category breakdown) for the described final hands."""
    if not isinstance(data, dict):
        raise InvalidOption("the score pad must be a JSON object with \"players\"")
    unknown = sorted(set(data) - _KEYS)
    if unknown:
        raise InvalidOption(f"unknown key {unknown[0]!r} in the score pad (keys: edition, players)")
    edition = data.get("edition", DEFAULT_EDITION)
    if edition not in EDITIONS:
        raise InvalidOption(f"edition must be one of {', '.join(EDITIONS)}, not {edition!r}")
    players = data.get("players")
    if not isinstance(players, list):
        raise InvalidOption("\"players\" must be a list of {\"name\": ..., \"cards\": [...]}")
    low, high = PLAYER_RANGE[edition]
    check_player_count(len(players), low, high, f"the {edition} edition")
    names: list[str] = []
    hands: list[list[str]] = []
    physical: set[str] = set()
    per_type: Counter[str] = Counter()
    for index, player in enumerate(players):
        where = f"player {index + 1}"
        if not isinstance(player, dict):
            raise InvalidOption(f"{where} must be an object with \"name\" and \"cards\"")
        extra = sorted(set(player) - _PLAYER_KEYS)
        if extra:
            raise InvalidOption(f"{where}: unknown key {extra[0]!r} (keys: name, cards)")
        name = player.get("name")
        if not isinstance(name, str) or not name.strip():
            raise InvalidOption(f"{where}: \"name\" must be a non-empty string")
        check_names([*names, name])
        where = f"player {name!r}"
        cards: list[str] = []
        for written, count in counted_items(player.get("cards", []), where, "\"cards\""):
            card = _check_card(written, where, edition)
            if card in SERIAL:  # a physical id names one particular card
                if card in physical or count > 1:
                    raise InvalidOption(f"{where}: card {card} is listed twice")
                physical.add(card)
            kind = TYPE_OF[card]
            per_type[kind] += count
            if per_type[kind] > TYPE_COUNT[kind]:
                raise InvalidOption(
                    f"{where}: more {kind} cards than the game has ({TYPE_COUNT[kind]})"
                )
            cards.extend([card] * count)
        names.append(name)
        hands.append(cards)
    return names, score_hands(hands, edition)
