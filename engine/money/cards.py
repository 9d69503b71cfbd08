"""Money! card data, read once from the package's copy of money.json into flat lookup dicts.

Every helper accepts a physical card id (`euro_20_1`, `gold_3`, `bluff_2`) and, where it makes
sense, a type id (`euro_20`, `gold`, `bluff`): the score pad and the examples speak in types.
The rules page (docs money.md) is authoritative; the JSON is its machine-readable half.
"""

from __future__ import annotations

import json
from pathlib import Path

from ..core.hidden import is_token

_DATA = json.loads((Path(__file__).parent / "data" / "money.json").read_text(encoding="utf-8"))

EDITIONS: tuple[str, ...] = tuple(_DATA["options"]["edition"]["values"])
DEFAULT_EDITION: str = _DATA["options"]["edition"]["default"]
CURRENCIES: tuple[str, ...] = tuple(_DATA["currencies"])
CURRENCY_NAMES: dict[str, str] = dict(_DATA["currency_names"])

_CONST = _DATA["constants"]
HAND_SIZE: int = _CONST["cards_dealt_per_player"]
MARKET_TARGET: int = _CONST["market_side_target"]
STRONG_MIN: int = _CONST["strong_position_min"]
WEAK_MAX: int = _CONST["weak_position_max"]
COMMISSION: int = _CONST["commission"]
SET_SIZE: int = _CONST["set_size"]
SET_BONUS: int = _CONST["set_bonus"]
SIDE_NAMES: tuple[str, ...] = tuple(_CONST["market_sides"])

_TYPES: dict[str, dict] = {t["id"]: t for t in _DATA["card_types"]}

# Per-edition facts, keyed by edition id.
PLAYER_RANGE: dict[str, tuple[int, int]] = {
    ed: (e["min_players"], e["max_players"]) for ed, e in _DATA["editions"].items()
}
REMOVED_COUNT: dict[str, dict[int, int]] = {
    ed: {int(n): k for n, k in e["currencies_removed"].items()}
    for ed, e in _DATA["editions"].items()
}
SPLIT_BIDS: dict[str, bool] = {ed: e["two_player_split_bids"] for ed, e in _DATA["editions"].items()}
EXTRA_TYPES: dict[str, tuple[str, ...]] = {
    ed: tuple(e["non_currency_money_types"]) for ed, e in _DATA["editions"].items()
}

# Physical cards.
TYPE_OF: dict[str, str] = {}
SERIAL: dict[str, int | None] = {}
EDITIONS_OF: dict[str, tuple[str, ...]] = {}
for _card in _DATA["cards"]:
    TYPE_OF[_card["id"]] = _card["type"]
    SERIAL[_card["id"]] = _card["serial"]
    EDITIONS_OF[_card["id"]] = tuple(_card["editions"])

KIND: dict[str, str] = {}
VALUE: dict[str, int] = {}
CURRENCY: dict[str, str | None] = {}
for _cid, _tid in list(TYPE_OF.items()) + [(t, t) for t in _TYPES]:
    _type = _TYPES[_tid]
    KIND[_cid] = _type["kind"]
    VALUE[_cid] = _type["value"]
    CURRENCY[_cid] = _type["currency"]
TYPE_OF.update({t: t for t in _TYPES})
TYPE_COUNT: dict[str, int] = {t: v["count"] for t, v in _TYPES.items()}
TYPE_EDITIONS: dict[str, tuple[str, ...]] = {t: tuple(v["editions"]) for t, v in _TYPES.items()}

BLUFFS: tuple[str, ...] = tuple(c for c in SERIAL if KIND[c] == "bluff")


class _SortKeys(dict):
    """Card id -> sort key; a card token (a face nobody at this peer has seen, over the
    network) sorts first, in the order it lies, since its serial is unknown.

    A dict subclass without its own __getitem__: looking a card up costs what it costs in a
    plain dict; only a miss comes to __missing__.
    """

    def __missing__(self, card: str) -> int:
        if is_token(card):
            return -1
        raise KeyError(card)


# Hands and market sides are kept sorted by serial; bluff cards (no serial) sort last.
SORT_KEY: dict[str, int] = _SortKeys(
    (c, SERIAL[c] if SERIAL[c] is not None else 1000 + BLUFFS.index(c)) for c in SERIAL
)


def money_cards(edition: str, currencies: tuple[str, ...] | None = None) -> tuple[str, ...]:
    """The edition's money cards (no bluff) of `currencies` (default all) in serial order."""
    keep = CURRENCIES if currencies is None else currencies
    out = [
        c for c in SERIAL
        if edition in EDITIONS_OF[c] and KIND[c] != "bluff"
        and (CURRENCY[c] is None or CURRENCY[c] in keep)
    ]
    return tuple(sorted(out, key=SORT_KEY.__getitem__))


EDITION_CARDS: dict[str, frozenset[str]] = {ed: frozenset(money_cards(ed)) for ed in EDITIONS}


def value(card_id: str) -> int:
    """Face value used for bids and currency totals (Gold 20, Silver 10, coin 10, bluff 0)."""
    return VALUE[card_id]


def serial(card_id: str) -> int | None:
    """The printed serial number (None for bluff cards and type ids)."""
    return SERIAL.get(card_id)


def currency(card_id: str) -> str | None:
    """The currency id of a currency card, None for Gold, Silver, coin and bluff cards."""
    return CURRENCY[card_id]


def kind(card_id: str) -> str:
    """"currency", "gold", "silver", "coin" or "bluff"."""
    return KIND[card_id]


def is_bluff(card_id: str) -> bool:
    return KIND.get(card_id) == "bluff"


def is_card(card_id: object) -> bool:
    """True for a physical card id of either edition."""
    return isinstance(card_id, str) and card_id in SERIAL


LABEL: dict[str, str] = {
    c: (f"{CURRENCY_NAMES[CURRENCY[c]]} {VALUE[c]}" if KIND[c] == "currency" else KIND[c].capitalize())
    for c in KIND
}


def label(card_id: str) -> str:
    """A player-facing name: "Euro 60", "Gold", "Silver", "Coin", "Bluff"."""
    return LABEL[card_id]


def labels(cards: tuple[str, ...] | list[str]) -> str:
    """Labels joined for a log line ("Dollar 60, Gold"); "nothing" for no card."""
    return ", ".join(map(LABEL.__getitem__, cards)) if cards else "nothing"


def sort_cards(cards) -> tuple[str, ...]:
    """Cards in serial order (bluff cards last), the order of hands, bids and market sides."""
    return tuple(sorted(cards, key=SORT_KEY.__getitem__))
