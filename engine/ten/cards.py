"""Ten's card data, read once from data/ten.json (a copy of the rules data) into lookup tables.

Every rule constant the project read differently from the published game ([P] in ten.md) comes
from that file, so a correction is a data change. Physical card ids ("red_4_b") are what the
engine moves around; type ids ("red_4") name what a card is.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import NamedTuple

_DATA = json.loads((Path(__file__).parent / "data" / "ten.json").read_text(encoding="utf-8"))

COLOURS: tuple[str, ...] = tuple(_DATA["colours"])
COLOUR_INDEX: dict[str, int] = {colour: i for i, colour in enumerate(COLOURS)}

_C = _DATA["constants"]
START_TOKENS: int = _C["starting_currency_tokens"]
TOKEN_CAP: int = _C["currency_token_cap"]
BUST_TOKEN_VALUE: int = _C["bust_token_value"]
CARD_PAYMENT_VALUE: int = _C["collection_card_payment_value"]
BUST_AT_TOTAL: int = _C["bust_at_running_total"]
BUST_AT_CURRENCY: int = _C["bust_at_currency_total"]
FULL_RUN_POINTS: int = _C["full_run_points"]
MIN_BID: int = _C["min_bid"]
SOLO_WILD_PRICE: int = _C["solo_wild_price"]

NUMBERS: tuple[int, ...] = tuple(range(1, 10))

NUMBER = "number"
COLOUR_WILD = "colour_wild"
NUMBER_WILD = "number_wild"
RAINBOW_WILD = "rainbow_wild"
CURRENCY = "currency"
WILD_KINDS = frozenset({COLOUR_WILD, NUMBER_WILD, RAINBOW_WILD})


class CardType(NamedTuple):
    id: str
    kind: str
    colour: str | None
    number: int | None
    value: int | None


CARD_TYPES: dict[str, CardType] = {
    t["id"]: CardType(t["id"], t["kind"], t["colour"], t["number"], t["value"])
    for t in _DATA["card_types"]
}
ALL_CARDS: tuple[str, ...] = tuple(c["id"] for c in _DATA["cards"])
"""Every physical card in the order of ten.json (the order a deck is built in before shuffling)."""
TYPE_OF: dict[str, str] = {c["id"]: c["type"] for c in _DATA["cards"]}
_MIN_PLAYERS_OF_MARK: dict[str, int] = {m: v["min_players"] for m, v in _DATA["marks"].items()}
_MARK_OF: dict[str, str | None] = {c["id"]: c["mark"] for c in _DATA["cards"]}

KIND: dict[str, str] = {cid: CARD_TYPES[TYPE_OF[cid]].kind for cid in ALL_CARDS}
"""Kind of each physical card."""
IS_WILD: frozenset[str] = frozenset(cid for cid in ALL_CARDS if KIND[cid] in WILD_KINDS)
NUMBER_VALUE: dict[str, int] = {
    cid: CARD_TYPES[TYPE_OF[cid]].number for cid in ALL_CARDS if KIND[cid] == NUMBER
}
"""A number card's number (the running total it adds, its market price)."""
CURRENCY_VALUE: dict[str, int] = {
    cid: CARD_TYPES[TYPE_OF[cid]].value for cid in ALL_CARDS if KIND[cid] == CURRENCY
}
CELL: dict[str, tuple[int, int]] = {
    cid: (COLOUR_INDEX[CARD_TYPES[TYPE_OF[cid]].colour], NUMBER_VALUE[cid]) for cid in NUMBER_VALUE
}
"""(colour index, number) of each number card: the spot it fills in a run."""


@cache  # a pure function of a card id: a few dozen wilds (an unknown id raises: not kept)
def wild_uses(card: str) -> tuple[tuple[int, int], ...]:
    """The (colour index, number) spots a wild may fill, in the reporting order of ten.md §8."""
    t = CARD_TYPES[TYPE_OF[card]]
    if t.kind == COLOUR_WILD:
        return tuple((COLOUR_INDEX[t.colour], n) for n in NUMBERS)
    if t.kind == NUMBER_WILD:
        return tuple((c, t.number) for c in range(len(COLOURS)))
    if t.kind == RAINBOW_WILD:
        return tuple((c, n) for c in range(len(COLOURS)) for n in NUMBERS)
    raise ValueError(f"{card} is not a wild card")


def deck_players(n_players: int) -> int:
    """The player count whose deck is used (the solo game uses the 2-player deck)."""
    return max(n_players, 2)


def deck_for(n_players: int) -> tuple[str, ...]:
    """The physical cards in play for this player count, in data order (before shuffling)."""
    players = deck_players(n_players)
    return tuple(
        cid
        for cid in ALL_CARDS
        if _MARK_OF[cid] is None or _MIN_PLAYERS_OF_MARK[_MARK_OF[cid]] <= players
    )


def card_name(card: str) -> str:
    """Short readable name: "red 4", "blue wild", "wild 5", "rainbow wild", "currency 3"."""
    t = CARD_TYPES[TYPE_OF[card]]
    if t.kind == NUMBER:
        return f"{t.colour} {t.number}"
    if t.kind == COLOUR_WILD:
        return f"{t.colour} wild"
    if t.kind == NUMBER_WILD:
        return f"wild {t.number}"
    if t.kind == RAINBOW_WILD:
        return "rainbow wild"
    return f"currency {t.value}"
