"""7 Wonders card and wonder data, loaded once from data/seven_wonders.json into fast tables.

Resources are indexed 0..6 (wood, stone, clay, ore, glass, textile, papyrus: raw then
manufactured, as in the data's `conventions`) so costs and production are 7-tuples of ints.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from importlib.resources import files
from typing import Any

DATA: dict[str, Any] = json.loads(
    files(__package__).joinpath("data/seven_wonders.json").read_text(encoding="utf-8")
)

RAW: tuple[str, ...] = tuple(DATA["conventions"]["resources"]["raw"])
MANUFACTURED: tuple[str, ...] = tuple(DATA["conventions"]["resources"]["manufactured"])
RESOURCES: tuple[str, ...] = RAW + MANUFACTURED
RES_INDEX: dict[str, int] = {r: i for i, r in enumerate(RESOURCES)}
SYMBOLS: tuple[str, ...] = tuple(DATA["conventions"]["science_symbols"])
ZERO7: tuple[int, ...] = (0,) * len(RESOURCES)

STARTING_COINS: int = DATA["rules"]["setup"]["starting_coins"]
HAND_SIZE: int = DATA["rules"]["setup"]["hand_size"]
TURNS_PER_AGE: int = DATA["rules"]["age_structure"]["turns_per_age"]
BASE_PRICE: int = DATA["rules"]["trading"]["base_price"]
DISCARD_COINS: int = DATA["rules"]["actions"]["discard_for_coins"]
VICTORY_TOKEN: dict[int, int] = {
    int(k): v for k, v in DATA["rules"]["military"]["victory_token_by_age"].items()
}
DEFEAT_TOKEN: int = DATA["rules"]["military"]["defeat_token"]
PASS_LEFT: dict[int, bool] = {
    int(k): v.startswith("left") for k, v in DATA["rules"]["age_structure"]["pass_direction"].items()
}
MIN_PLAYERS: int = DATA["game"]["min_players"]
MAX_PLAYERS: int = DATA["game"]["max_players"]


def _items(resources: dict[str, int]) -> tuple[tuple[int, int], ...]:
    """A cost as (resource index, units) pairs, resources in index order: what paying loops over."""
    vector = _vector(resources)
    return tuple((r, k) for r, k in enumerate(vector) if k)


def _vector(resources: dict[str, int]) -> tuple[int, ...]:
    out = [0] * len(RESOURCES)
    for name, count in resources.items():
        out[RES_INDEX[name]] += count
    return tuple(out)


@dataclass(frozen=True, slots=True)
class Counts:
    """What a `coins_per` / `victory_points_per` effect counts: kind, cities, colours."""

    amount: int
    kind: str  # "cards" | "wonder_stages" | "defeat_tokens"
    cities: tuple[str, ...]  # subset of "self", "left", "right"
    colors: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Effects:
    """Every effect of a card or a wonder stage, flattened into fields."""

    produce: tuple[int, ...] = ZERO7  # fixed units per resource
    produce_one_of: tuple[tuple[int, ...], ...] = ()  # either/or units (resource indices)
    tradable: bool = True
    shields: int = 0
    science: str | None = None
    science_choice: int = 0  # wildcards
    coins: int = 0
    coins_per: Counts | None = None
    points: int = 0
    points_per: Counts | None = None
    discounts: tuple[tuple[str, int], ...] = ()  # (side, resource index) bought at `price`
    discount_price: int = BASE_PRICE
    free_build_once_per_age: bool = False
    play_last_card: bool = False
    build_from_discard: bool = False
    copy_guild: bool = False


def _counts(effect: dict[str, Any]) -> Counts:
    c = effect["counts"]
    return Counts(effect["amount"], c["kind"], tuple(c["cities"]), tuple(c.get("colors", ())))


def _effects(raw: list[dict[str, Any]]) -> Effects:
    fields: dict[str, Any] = {}
    produce = [0] * len(RESOURCES)
    one_of: list[tuple[int, ...]] = []
    discounts: list[tuple[str, int]] = []
    for e in raw:
        kind = e["type"]
        if kind == "produce":
            for name, k in e["resources"].items():
                produce[RES_INDEX[name]] += k
            fields["tradable"] = e["tradable"]
        elif kind == "produce_one_of":
            one_of.append(tuple(sorted(RES_INDEX[r] for r in e["options"])))
            fields["tradable"] = e["tradable"]
        elif kind == "shields":
            fields["shields"] = e["amount"]
        elif kind == "science":
            fields["science"] = e["symbol"]
        elif kind == "science_choice":
            fields["science_choice"] = 1
        elif kind == "coins":
            fields["coins"] = e["amount"]
        elif kind == "coins_per":
            fields["coins_per"] = _counts(e)
        elif kind == "victory_points":
            fields["points"] = e["amount"]
        elif kind == "victory_points_per":
            fields["points_per"] = _counts(e)
        elif kind == "trade_discount":
            discounts += [(side, RES_INDEX[r]) for side in e["neighbors"] for r in e["resources"]]
            fields["discount_price"] = e["price"]
        elif kind == "free_build_once_per_age":
            fields["free_build_once_per_age"] = True
        elif kind == "play_last_card_of_age":
            fields["play_last_card"] = True
        elif kind == "build_from_discard":
            fields["build_from_discard"] = True
        elif kind == "copy_neighbor_guild":
            fields["copy_guild"] = True
        else:  # a data change the engine does not know must fail loudly at import
            raise ValueError(f"unknown effect type {kind!r}")
    return Effects(
        produce=tuple(produce), produce_one_of=tuple(one_of), discounts=tuple(discounts), **fields
    )


@dataclass(frozen=True, slots=True)
class Card:
    id: str
    name: str
    age: int
    color: str
    coin_cost: int
    cost: tuple[tuple[int, int], ...]  # (resource index, units) for each resource of the cost
    chain_from: frozenset[str]  # names
    chain_to: tuple[str, ...]
    copies_min_players: tuple[int, ...]  # () for guilds
    effects: Effects

    @property
    def is_guild(self) -> bool:
        return self.color == "purple"


@dataclass(frozen=True, slots=True)
class Stage:
    number: int
    coin_cost: int
    cost: tuple[tuple[int, int], ...]
    effects: Effects


@dataclass(frozen=True, slots=True)
class Board:
    """One side of one wonder."""

    wonder: str
    side: str
    city: str
    starting_resource: int
    stages: tuple[Stage, ...]


CARD_ORDER: tuple[str, ...] = tuple(c["id"] for c in DATA["cards"])
CARDS: dict[str, Card] = {
    c["id"]: Card(
        id=c["id"],
        name=c["name"],
        age=c["age"],
        color=c["color"],
        coin_cost=c["cost"]["coins"],
        cost=_items(c["cost"]["resources"]),
        chain_from=frozenset(c["chain_from"]),
        chain_to=tuple(c["chain_to"]),
        copies_min_players=tuple(c["copies_min_players"] or ()),
        effects=_effects(c["effects"]),
    )
    for c in DATA["cards"]
}
CARD_RANK: dict[str, int] = {cid: i for i, cid in enumerate(CARD_ORDER)}
GUILDS: tuple[str, ...] = tuple(cid for cid in CARD_ORDER if CARDS[cid].is_guild)

WONDER_ORDER: tuple[str, ...] = tuple(w["id"] for w in DATA["wonders"])
WONDER_CITY: dict[str, str] = {w["id"]: w["city"] for w in DATA["wonders"]}
BOARDS: dict[tuple[str, str], Board] = {
    (w["id"], side): Board(
        wonder=w["id"],
        side=side,
        city=w["city"],
        starting_resource=RES_INDEX[sd["starting_resource"]],
        stages=tuple(
            Stage(st["stage"], st["cost"]["coins"], _items(st["cost"]["resources"]), _effects(st["effects"]))
            for st in sd["stages"]
        ),
    )
    for w in DATA["wonders"]
    for side, sd in w["sides"].items()
}


@cache
def age_cards(age: int, n_players: int) -> tuple[str, ...]:
    """The non-guild cards of an Age's deck for n players, in the order of `cards`, per copy."""
    return tuple(
        cid
        for cid in CARD_ORDER
        if CARDS[cid].age == age and not CARDS[cid].is_guild
        for m in CARDS[cid].copies_min_players
        if m <= n_players
    )


def guild_count(n_players: int) -> int:
    return DATA["rules"]["setup"]["guilds"]["count_by_players"][str(n_players)]


def card_name(card_id: str) -> str:
    return CARDS[card_id].name
