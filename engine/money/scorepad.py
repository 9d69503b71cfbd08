"""`gamenight score money FILE.json`: score final hands typed in from a real table.

Schema (docs/money.md): {"edition": "gold_silver" | "classic" (optional, default gold_silver),
"players": [{"name": "Ann", "cards": ["euro_20_1", "euro_20", "gold", ...]}, ...]}.
A card is a physical id (`euro_20_1`: that very card) or a type id (`euro_20`: one card of that
type). Across all players no physical card may appear twice and no type more often than the
box holds it. Any problem raises InvalidOption with one line naming it.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from ..core import InvalidOption, Result
from .cards import (
    DEFAULT_EDITION,
    EDITIONS,
    PLAYER_RANGE,
    SERIAL,
    TYPE_COUNT,
    TYPE_EDITIONS,
    TYPE_OF,
)
from .scoring import score_hands

_KEYS = {"edition", "players"}
_PLAYER_KEYS = {"name", "cards"}


def _check_card(card: Any, where: str, edition: str) -> str:
    if not isinstance(card, str):
        raise InvalidOption(f"{where}: a card must be a card id string, not {card!r}")
    if card not in TYPE_OF:
        raise InvalidOption(f"{where}: unknown card id {card!r}")
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
    if not low <= len(players) <= high:
        raise InvalidOption(f"the {edition} edition is for {low}-{high} players, not {len(players)}")
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
        if name in names:
            raise InvalidOption(f"two players are named {name!r}")
        where = f"player {name!r}"
        cards = player.get("cards")
        if not isinstance(cards, list):
            raise InvalidOption(f"{where}: \"cards\" must be a list of card ids")
        for card in cards:
            _check_card(card, where, edition)
            if card in SERIAL:  # a physical id names one particular card
                if card in physical:
                    raise InvalidOption(f"{where}: card {card} is listed twice")
                physical.add(card)
            kind = TYPE_OF[card]
            per_type[kind] += 1
            if per_type[kind] > TYPE_COUNT[kind]:
                raise InvalidOption(
                    f"{where}: more {kind} cards than the game has ({TYPE_COUNT[kind]})"
                )
        names.append(name)
        hands.append(cards)
    return names, score_hands(hands, edition)
