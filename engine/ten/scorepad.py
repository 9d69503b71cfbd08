"""`gamenight score ten FILE.json`: score players' final holdings (schema in docs/ten.md).

Cards may be given by physical id ("red_4_b") or by type ("red_4", "wild_5", "blue_wild");
a type takes the next copy nobody holds, in the deck for this many players. Each breakdown row
names one colour's scoring run with the wilds placed in it, so the printout shows the optimal
assignment.
"""

from __future__ import annotations

from typing import Any

from ..core import InvalidOption, Result
from ..core.scorepad import NameBook, check_names, counted_items, plural
from .cards import CARD_TYPES, CURRENCY, IS_WILD, TOKEN_CAP, TYPE_OF, card_name, deck_for
from .result import score_collection, tiebreak_key

_PLAYER_KEYS = {"name", "cards", "currency", "bust"}
_FIRST_COPY = {TYPE_OF[card]: card for card in reversed(list(TYPE_OF))}
# A card may be written as its physical id, its type id or its name ("red 4", "Wild 5").
_BOOK = NameBook({**{card: [] for card in TYPE_OF},
                  **{kind: [card_name(first)] for kind, first in _FIRST_COPY.items()}}, "card",
                 quiet=[card for card in TYPE_OF if card not in CARD_TYPES])


def template(n_players: int = 3) -> dict[str, Any]:
    """A blank score pad: cards as a list of names (or name -> count), tokens and busts."""
    return {"game": "ten", "players": [{"name": f"Player {i + 1}", "cards": [], "currency": 0, "bust": 0}
                                       for i in range(n_players)]}


def _count(entry: dict, key: str, who: str, most: int | None = None) -> int:
    value = entry.get(key, 0)
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise InvalidOption(f"{who}: {key} must be a whole number >= 0, not {value!r}")
    if most is not None and value > most:
        raise InvalidOption(f"{who}: {key} cannot be more than {most}, not {value}")
    return value


def _players(data: Any) -> list[dict]:
    if not isinstance(data, dict):
        raise InvalidOption("a Ten score pad is a JSON object with a \"players\" list")
    extra = sorted(set(data) - {"game", "players"})
    if extra:
        raise InvalidOption(f"unknown key {extra[0]!r} in the score pad (keys: game, players)")
    if data.get("game", "ten") != "ten":
        raise InvalidOption(f"this score pad is for {data['game']!r}, not ten")
    players = data.get("players")
    if not isinstance(players, list) or not 1 <= len(players) <= 5:
        raise InvalidOption("\"players\" must be a list of 1 to 5 players")
    for i, entry in enumerate(players):
        if not isinstance(entry, dict):
            raise InvalidOption(f"player {i + 1} must be an object with name, cards, currency, bust")
        unknown = sorted(set(entry) - _PLAYER_KEYS)
        if unknown:
            raise InvalidOption(f"player {i + 1}: unknown key {unknown[0]!r}")
        name = entry.get("name")
        if not isinstance(name, str) or not name.strip():
            raise InvalidOption(f"player {i + 1}: \"name\" must be a non-empty string")
        entry["cards"] = [card for written, count in counted_items(entry.get("cards"), name, "\"cards\"")
                          for card in [_BOOK.one(written, name)] * count]
    check_names([entry["name"] for entry in players])
    return players


def _collections(players: list[dict]) -> list[list[str]]:
    """Physical ids per player; explicit ids first, then types take free copies."""
    in_play = deck_for(len(players))
    in_play_set = set(in_play)
    owner: dict[str, str] = {}
    out: list[list[str]] = [[] for _ in players]
    wanted: list[list[str]] = [[] for _ in players]
    for i, entry in enumerate(players):
        who = entry["name"]
        for card in entry["cards"]:
            if not isinstance(card, str):
                raise InvalidOption(f"{who}: card ids are strings, not {card!r}")
            if card in TYPE_OF:
                kind = CARD_TYPES[TYPE_OF[card]].kind
            elif card in CARD_TYPES:
                kind = CARD_TYPES[card].kind
            else:
                raise InvalidOption(f"{who}: unknown card {card!r}")
            if kind == CURRENCY:
                raise InvalidOption(f"{who}: {card} is a currency card; they never stay in a collection")
            if card in CARD_TYPES:
                wanted[i].append(card)
                continue
            if card not in in_play_set:
                raise InvalidOption(f"{who}: {card} is not used with {plural(len(players), 'player')}")
            if card in owner:
                also = "" if owner[card] == who else f" (also held by {owner[card]})"
                raise InvalidOption(f"{who}: {card} is listed twice{also}")
            owner[card] = who
            out[i].append(card)
    for i, types in enumerate(wanted):
        for card_type in types:
            copy = next((c for c in in_play if TYPE_OF[c] == card_type and c not in owner), None)
            if copy is None:
                copies = sum(1 for c in in_play if TYPE_OF[c] == card_type)
                raise InvalidOption(
                    f"{players[i]['name']}: no copy of {card_type} left "
                    f"(the deck for {plural(len(players), 'player')} has {plural(copies, 'copy', 'copies')})"
                )
            owner[copy] = players[i]["name"]
            out[i].append(copy)
    return out


def _rows(cards: list[str]) -> tuple[tuple[str, int], ...]:
    score = score_collection(cards)
    rows = []
    for run in score.runs:
        if not run.low:
            rows.append((f"{run.colour}: no run", 0))
            continue
        wilds = [f"{card_name(c.card)} as {c.number}" for c in run.cells if c.card in IS_WILD]
        text = f"{run.colour} {run.low}" + (f"-{run.high}" if run.high > run.low else "")
        if wilds:
            text += " (" + ", ".join(wilds) + ")"
        rows.append((text, run.points))
    unused = [card_name(use.card) for use in score.wilds if use.colour is None]
    if unused:
        rows.append(("unused: " + ", ".join(unused), 0))
    return tuple(rows)


def score_pad(data: Any) -> tuple[list[str], Result]:
    """(names, result) for a score pad object; InvalidOption with one clear line if malformed."""
    players = _players(data)
    names = [entry["name"] for entry in players]
    tokens = [
        (_count(e, "currency", e["name"], TOKEN_CAP), _count(e, "bust", e["name"])) for e in players
    ]
    collections = _collections(players)
    breakdown = [_rows(cards) for cards in collections]
    tiebreak = [
        tiebreak_key(currency, len(cards))
        for (currency, _), cards in zip(tokens, collections, strict=True)
    ]
    return names, Result.from_breakdown(breakdown, tiebreak)
