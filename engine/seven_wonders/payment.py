"""Production and the ways to pay a cost (seven_wonders.md §6.6), cached.

A city's production is summarised once per distinct city (wonder, side, stages, cards) in a
`Profile`; the ways to pay a cost are computed once per distinct (own production, neighbours'
tradable production, prices, cost) and memoised. Both caches are pure functions of their keys,
so they change no result, only the speed (legal actions are computed at every pick).

A production pool is (fixed units per resource, either/or units as tuples of resource indices).
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import product

from .cards import BASE_PRICE, BOARDS, CARDS, RESOURCES

Pool = tuple[tuple[int, ...], tuple[tuple[int, ...], ...]]
Way = tuple[int, int]

# Cache sizes (entries): a full cache is emptied and refills. These keep a long session under
# 100 MB; the payment answers, shared across games, get the most room.
_PROFILE_LIMIT = 8_192
_CITY_WAYS_LIMIT = 32_768
_WAYS_LIMIT = 100_000
_SUPPLY_LIMIT = 50_000


@dataclass(frozen=True, slots=True)
class Profile:
    """What a city produces, sells and pays, as at the moment it was built up to."""

    serial: int  # unique per profile ever made: a cheap cache key (never reused)
    names: frozenset[str]
    own: Pool  # everything the city produces for itself
    sells: Pool  # what neighbours may buy (starting resource, brown and grey cards)
    price_left: tuple[int, ...]  # coins per unit bought from the left neighbour
    price_right: tuple[int, ...]
    shields: int
    reach: tuple[int, ...]  # most units per resource the city can make (either/or counted for each)
    sell_reach: tuple[int, ...]  # the same for what it sells


def _reach(pool: Pool) -> tuple[int, ...]:
    fixed, choices = pool
    if not choices:
        return fixed
    out = list(fixed)
    for options in choices:
        for r in options:
            out[r] += 1
    return tuple(out)


_PROFILES: dict[tuple, Profile] = {}
_SERIAL = [0]


def profile(wonder: str, side: str, stages: int, cards: tuple[str, ...]) -> Profile:
    key = (wonder, side, stages, cards)
    hit = _PROFILES.get(key)
    if hit is None:
        if len(_PROFILES) > _PROFILE_LIMIT:
            _PROFILES.clear()
        hit = _PROFILES[key] = _grow_profile(wonder, side, stages, cards)
    return hit


def _grow_profile(wonder: str, side: str, stages: int, cards: tuple[str, ...]) -> Profile:
    """A city grows one card or stage per step: extend the profile it grew from when cached."""
    if cards:
        parent = _PROFILES.get((wonder, side, stages, cards[:-1]))
        if parent is not None:
            card = CARDS[cards[-1]]
            return _extend(parent, card.effects, card.name)
    if stages:
        parent = _PROFILES.get((wonder, side, stages - 1, cards))
        if parent is not None:
            return _extend(parent, BOARDS[(wonder, side)].stages[stages - 1].effects, None)
    return _make_profile(wonder, side, stages, cards)


def _extend(parent: Profile, e, name: str | None) -> Profile:
    own_fixed, own_choice = parent.own
    sell_fixed, sell_choice = parent.sells
    if any(e.produce):
        own_fixed = tuple(a + b for a, b in zip(own_fixed, e.produce, strict=True))
        if e.tradable:
            sell_fixed = tuple(a + b for a, b in zip(sell_fixed, e.produce, strict=True))
    if e.produce_one_of:
        own_choice = tuple(sorted(own_choice + e.produce_one_of))
        if e.tradable:
            sell_choice = tuple(sorted(sell_choice + e.produce_one_of))
    price_left, price_right = parent.price_left, parent.price_right
    if e.discounts:
        left, right = list(price_left), list(price_right)
        for side_name, r in e.discounts:
            prices = left if side_name == "left" else right
            prices[r] = min(prices[r], e.discount_price)
        price_left, price_right = tuple(left), tuple(right)
    _SERIAL[0] += 1
    own, sells = (own_fixed, own_choice), (sell_fixed, sell_choice)
    return Profile(
        serial=_SERIAL[0],
        names=parent.names | {name} if name is not None else parent.names,
        own=own,
        sells=sells,
        price_left=price_left,
        price_right=price_right,
        shields=parent.shields + e.shields,
        reach=parent.reach if own == parent.own else _reach(own),
        sell_reach=parent.sell_reach if sells == parent.sells else _reach(sells),
    )


def _make_profile(wonder: str, side: str, stages: int, cards: tuple[str, ...]) -> Profile:
    board = BOARDS[(wonder, side)]
    own = [0] * len(RESOURCES)
    sells = [0] * len(RESOURCES)
    own[board.starting_resource] += 1
    sells[board.starting_resource] += 1
    own_choice: list[tuple[int, ...]] = []
    sell_choice: list[tuple[int, ...]] = []
    price = {"left": [BASE_PRICE] * len(RESOURCES), "right": [BASE_PRICE] * len(RESOURCES)}
    shields = 0
    effects = [CARDS[c].effects for c in cards] + [s.effects for s in board.stages[:stages]]
    for e in effects:
        for r, k in enumerate(e.produce):
            if k:
                own[r] += k
                if e.tradable:
                    sells[r] += k
        for options in e.produce_one_of:
            own_choice.append(options)
            if e.tradable:
                sell_choice.append(options)
        for side_name, r in e.discounts:
            price[side_name][r] = min(price[side_name][r], e.discount_price)
        shields += e.shields
    _SERIAL[0] += 1
    own_pool = (tuple(own), tuple(sorted(own_choice)))
    sell_pool = (tuple(sells), tuple(sorted(sell_choice)))
    return Profile(
        serial=_SERIAL[0],
        names=frozenset(CARDS[c].name for c in cards),
        own=own_pool,
        sells=sell_pool,
        price_left=tuple(price["left"]),
        price_right=tuple(price["right"]),
        shields=shields,
        reach=_reach(own_pool),
        sell_reach=_reach(sell_pool),
    )


# ---- ways to pay ---------------------------------------------------------------------------
_WAYS: dict[tuple, tuple[Way, ...]] = {}
_CITY_WAYS: dict[tuple, tuple[Way, ...]] = {}
_SUPPLY: dict[tuple, bool] = {}


def city_ways(
    own: Profile, left: Profile, right: Profile, prices: Profile, cost: tuple[tuple[int, int], ...]
) -> tuple[Way, ...]:
    """`payment_ways` for a city between two neighbours, cached by the profiles' serials."""
    key = (own.serial, left.serial, right.serial, prices.serial, cost)
    hit = _CITY_WAYS.get(key)
    if hit is None:
        if len(_CITY_WAYS) > _CITY_WAYS_LIMIT:
            _CITY_WAYS.clear()
        hit = _CITY_WAYS[key] = payment_ways(
            own.own, left.sells, right.sells, prices.price_left, prices.price_right, cost
        )
    return hit


def payment_ways(
    own: Pool,
    left: Pool,
    right: Pool,
    price_left: tuple[int, ...],
    price_right: tuple[int, ...],
    cost: tuple[tuple[int, int], ...],
) -> tuple[Way, ...]:
    """Every undominated (coins to left, coins to right) that covers `cost`, cheapest first.

    `cost` is a tuple of (resource index, units). () when the cost cannot be covered at all.
    Ordered by total, then coins to the left.
    """
    fixed = own[0]
    spots = []
    need = []
    for r, k in cost:
        if k > fixed[r]:
            spots.append(r)
            need.append(k - fixed[r])
    if not spots:
        return _FREE
    # Only the needed resources matter: the key keeps just them (as short vectors over
    # `spots`), so far more calls share a cached answer.
    lf, rf = left[0], right[0]
    key = (
        tuple(need),
        tuple([min(lf[r], k) for r, k in zip(spots, need, strict=True)]),  # more is never used
        tuple([min(rf[r], k) for r, k in zip(spots, need, strict=True)]),
        tuple([price_left[r] for r in spots]),
        tuple([price_right[r] for r in spots]),
        _only_needed(own[1], spots) if own[1] else (),
        _only_needed(left[1], spots) if left[1] else (),
        _only_needed(right[1], spots) if right[1] else (),
    )
    hit = _WAYS.get(key)
    if hit is None:
        if len(_WAYS) > _WAYS_LIMIT:
            _WAYS.clear()
        hit = _WAYS[key] = _ways(*key)
    return hit


_FREE: tuple[Way, ...] = ((0, 0),)


def _only_needed(choices: tuple[tuple[int, ...], ...], spots: list[int]) -> tuple[tuple[int, ...], ...]:
    """Either/or units restricted to the needed resources, as positions in `spots`."""
    where = {r: i for i, r in enumerate(spots)}
    kept = []
    for options in choices:
        useful = tuple([where[r] for r in options if r in where])
        if useful:
            kept.append(useful)
    kept.sort()
    return tuple(kept)


def _ways(need, left_fixed, right_fixed, price_left, price_right, own_choices, left_choices, right_choices):
    """The undominated ways, on vectors over the needed resources only."""
    left = (left_fixed, left_choices)
    right = (right_fixed, right_choices)
    found: set[Way] = set()
    for residual in _residuals(need, own_choices):
        if not any(residual):
            return _FREE
        for split in product(*(range(k + 1) for k in residual)):
            if not _can_supply(left, split):
                continue
            rest = tuple(k - a for k, a in zip(residual, split, strict=True))
            if _can_supply(right, rest):
                found.add((
                    sum(a * p for a, p in zip(split, price_left, strict=True)),
                    sum(b * p for b, p in zip(rest, price_right, strict=True)),
                ))
    undominated = [
        w for w in found if not any(o != w and o[0] <= w[0] and o[1] <= w[1] for o in found)
    ]
    return tuple(sorted(undominated, key=lambda w: (w[0] + w[1], w[0])))


def _residuals(need: tuple[int, ...], choices: tuple[tuple[int, ...], ...]) -> list[tuple[int, ...]]:
    """The minimal needs left after the city's own either/or units cover what they can."""
    out: set[tuple[int, ...]] = set()
    seen: set[tuple[int, tuple[int, ...]]] = set()

    def walk(i: int, rest: tuple[int, ...]) -> None:
        if (i, rest) in seen:
            return
        seen.add((i, rest))
        if i == len(choices) or not any(rest):
            out.add(rest)
            return
        useful = [r for r in choices[i] if rest[r]]
        if not useful:
            walk(i + 1, rest)
        for r in useful:
            walk(i + 1, rest[:r] + (rest[r] - 1,) + rest[r + 1 :])

    walk(0, need)
    return [
        r for r in out if not any(o != r and all(a <= b for a, b in zip(o, r, strict=True)) for o in out)
    ]


def _can_supply(pool: Pool, want: tuple[int, ...]) -> bool:
    """Whether a pool produces the multiset `want` (each either/or unit once)."""
    key = (pool, want)
    hit = _SUPPLY.get(key)
    if hit is None:
        if len(_SUPPLY) > _SUPPLY_LIMIT:
            _SUPPLY.clear()
        fixed, choices = pool
        rest = tuple(w - f if w > f else 0 for w, f in zip(want, fixed, strict=True))
        total = sum(rest)
        hit = _SUPPLY[key] = total == 0 or (total <= len(choices) and _match(rest, choices, 0))
    return hit


def _match(rest: tuple[int, ...], choices: tuple[tuple[int, ...], ...], i: int) -> bool:
    if not any(rest):
        return True
    if len(choices) - i < sum(rest):
        return False
    for r in choices[i]:
        if rest[r] and _match(rest[:r] + (rest[r] - 1,) + rest[r + 1 :], choices, i + 1):
            return True
    return _match(rest, choices, i + 1)
