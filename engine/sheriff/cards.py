"""Sheriff of Nottingham card data, read once from the rules JSON shipped in the package.

Cards of one good are identical, so a card is its good id. Internally a multiset of goods
(hand, bag, stand) is a count vector indexed like `GOODS` (the `card_types` order of
sheriff.json); actions and views use sorted tuples of good ids ("canonical order").
"""

from __future__ import annotations

import json
import operator
from collections.abc import Iterable, Sequence
from functools import cache
from importlib import resources

_DATA = json.loads(resources.files(__package__).joinpath("data/sheriff.json").read_text("utf-8"))

CONSTANTS: dict = _DATA["constants"]
STARTING_GOLD: int = CONSTANTS["starting_gold"]
HAND_SIZE: int = CONSTANTS["hand_size"]
PILE_START: int = CONSTANTS["discard_pile_initial_cards"]
ASIDE_MAX: int = CONSTANTS["market_set_aside_max"]
BAG_MIN: int = CONSTANTS["bag_min"]
BAG_MAX: int = CONSTANTS["bag_max"]
EXCHANGES: int = CONSTANTS["offers_per_merchant_max"]
REBUILD_ABOVE: int = CONSTANTS["reshuffle_needs_more_than"]

_TYPES: list[dict] = _DATA["card_types"]
GOODS: tuple[str, ...] = tuple(t["id"] for t in _TYPES)
NG = len(GOODS)
IDX: dict[str, int] = {g: i for i, g in enumerate(GOODS)}
NAME: dict[str, str] = {t["id"]: t["name"] for t in _TYPES}
KIND: tuple[str, ...] = tuple(t["kind"] for t in _TYPES)
VALUE: tuple[int, ...] = tuple(t["value"] for t in _TYPES)
PENALTY: tuple[int, ...] = tuple(t["penalty"] for t in _TYPES)
LEGAL: tuple[str, ...] = tuple(_DATA["legal_goods"])
LEGAL_IDX: tuple[int, ...] = tuple(IDX[g] for g in LEGAL)
IS_LEGAL: tuple[bool, ...] = tuple(k == "legal" for k in KIND)
KING: dict[str, int] = {t["id"]: t["king_bonus"] for t in _TYPES if t["kind"] == "legal"}
QUEEN: dict[str, int] = {t["id"]: t["queen_bonus"] for t in _TYPES if t["kind"] == "legal"}
COUNTS_AS: dict[str, tuple[str, int]] = {
    t["id"]: (t["counts_as"]["good"], t["counts_as"]["n"]) for t in _TYPES if t["counts_as"]
}
PLAYER_COUNTS: dict[int, dict] = {int(k): v for k, v in _DATA["player_counts"].items()}

# §5.8: legal goods first, then contraband and royal goods, each by ascending value;
# equal values keep the card_types order (sorted() is stable).
PAY_ORDER: tuple[int, ...] = tuple(
    sorted(range(NG), key=lambda i: (0 if IS_LEGAL[i] else 1, VALUE[i]))
)
ZERO: tuple[int, ...] = (0,) * NG
_HIDDEN_MASK = tuple(0 if legal else 1 for legal in IS_LEGAL)


def sheriff_turns(n_players: int) -> int:
    return PLAYER_COUNTS[n_players]["sheriff_turns_each"]


def rounds(n_players: int) -> int:
    return PLAYER_COUNTS[n_players]["rounds"]


@cache
def deck_counts(n_players: int, royal: bool) -> tuple[int, ...]:
    """Copies of each good shuffled at setup for this player count and royal-goods setting."""
    return tuple(
        0 if (t["kind"] == "royal" and not royal) else t["count_by_players"][str(n_players)]
        for t in _TYPES
    )


@cache
def setup_deck(n_players: int, royal: bool) -> tuple[str, ...]:
    """The unshuffled deck of §4 step 1: goods in card_types order."""
    return tuple(g for g, n in zip(GOODS, deck_counts(n_players, royal), strict=True) for _ in range(n))


@cache
def goods_in_game(n_players: int, royal: bool) -> tuple[int, ...]:
    """Indices of the goods that exist in this game (no bread with 3 players, no royal when off)."""
    return tuple(i for i, n in enumerate(deck_counts(n_players, royal)) if n)


# ---- count vectors ----------------------------------------------------------------------
def counts_of(cards: Iterable[str]) -> tuple[int, ...]:
    out = [0] * NG
    for card in cards:
        out[IDX[card]] += 1
    return tuple(out)


def ids_of(counts: Sequence[int]) -> tuple[str, ...]:
    """Canonical tuple of good ids (card_types order) for a count vector."""
    out: list[str] = []
    for i, n in enumerate(counts):
        if n:
            out.extend((GOODS[i],) * n)
    return tuple(out)


# count vectors always have NG entries; map() over the operator functions is the fast form
def add(a: Sequence[int], b: Sequence[int]) -> tuple[int, ...]:
    return tuple(map(operator.add, a, b))


def sub(a: Sequence[int], b: Sequence[int]) -> tuple[int, ...]:
    return tuple(map(operator.sub, a, b))


def covers(have: Sequence[int], want: Sequence[int]) -> bool:
    return all(map(operator.ge, have, want))


def lower(known: Sequence[int], removed: Sequence[int]) -> tuple[int, ...]:
    """Identified counts after cards leave a zone: identified ones of a good leave first (§6)."""
    return tuple(k - r if k > r else 0 for k, r in zip(known, removed, strict=True))


def value_of(counts: Sequence[int]) -> int:
    return sum(map(operator.mul, counts, VALUE))


def legal_part(counts: Sequence[int]) -> tuple[int, ...]:
    return tuple(n if IS_LEGAL[i] else 0 for i, n in enumerate(counts))


def hidden_part(counts: Sequence[int]) -> tuple[int, ...]:
    """Contraband and royal goods: the cards that lie face down on a stand."""
    return tuple(map(operator.mul, counts, _HIDDEN_MASK))


def canonical_key(card: str) -> int:
    return IDX[card]


# ---- one id per physical card (a game dealt over the network, engine/sheriff/dealt.py) ----
CARD_SEP = "#"


@cache
def card_deck(n_players: int, royal: bool) -> tuple[str, ...]:
    """`setup_deck` with each physical card named apart, `good#k`: the cards the network deals.

    A dealt card is a token until someone may see it, and a seat's choice names the cards it
    holds; with one id per good, two apples of one seat (one in hand, one on the stand) could
    not be told apart when its choice is turned back into tokens, and a declared or claimed
    good would be taken for a card."""
    return tuple(f"{g}{CARD_SEP}{k}" for g, n in zip(GOODS, deck_counts(n_players, royal), strict=True)
                 for k in range(n))


CARD_GOOD: dict[str, int] = {
    card: IDX[card.partition(CARD_SEP)[0]]
    for n in PLAYER_COUNTS for royal in (True, False) for card in card_deck(n, royal)
}
"""Card id -> index of its good (every card id of every player count)."""

GOOD_OF: dict[str, int] = {**IDX, **CARD_GOOD}
"""A good id or a card id -> the index of its good (what a view's cards name, in either kind)."""

GOOD_NAME: dict[str, str] = {card: GOODS[i] for card, i in CARD_GOOD.items()}
"""Each card id's good id (`apple#3` -> `apple`): a dealt game's cards as a plain game names them."""

CARD_RANK: dict[str, tuple[int, int]] = {
    card: (i, int(card.partition(CARD_SEP)[2])) for card, i in CARD_GOOD.items()
}
"""Card id -> (good index, copy): the canonical order of cards in a view."""
