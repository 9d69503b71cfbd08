"""7 Wonders setup (seven_wonders.md §3): the options checked, boards and sides, the guilds."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..core import (
    InvalidOption,
    Rng,
    check_stacked,
)
from ..core.hidden import is_masked
from .cards import (
    CARD_RANK,
    GUILDS,
    HAND_SIZE,
    STARTING_COINS,
    WONDER_ORDER,
    age_cards,
    guild_count,
)
from .state import (
    PICK,
    State,
)
from .steps import start_age

SIDES = ("A", "B")


def setup_state(n_players: int, seed: bytes, options: dict[str, Any]) -> State:
    """§3: boards and sides, the guilds in play, then Age I dealt (a stacked deck as given)."""
    n = n_players
    stacked = _check_deck(options["deck"], n)
    rng = Rng(seed)
    wonders_opt = options["wonders"]
    if wonders_opt is None:
        order, rng = rng.shuffle(WONDER_ORDER)
        wonders = tuple(order[:n])
    else:
        wonders = _check_wonders(wonders_opt, n)
    sides, rng = _sides(options["wonder_side"], n, rng)
    if stacked[2] is None:
        drawn, rng = rng.shuffle(GUILDS)
        guilds = tuple(sorted(drawn[: guild_count(n)], key=CARD_RANK.__getitem__))
    else:  # a deck dealt by the table holds tokens: _setup_dealt sets the guild deck
        guilds = tuple(sorted((c for c in stacked[2] if c in GUILDS), key=CARD_RANK.__getitem__))
    state = State(
        n_players=n,
        wonders=wonders,
        sides=sides,
        age=0,
        turn=0,
        phase=PICK,
        hands=((),) * n,
        cities=((),) * n,
        stages=(0,) * n,
        tucked=((),) * n,
        coins=(STARTING_COINS,) * n,
        tokens=((),) * n,
        discard=(),
        free_used=(False,) * n,
        guilds=guilds,
        stacked=stacked,
        babylon=None,
        halikarnassos=-1,
        moves=(),
        rng=rng,
        conflicts=(),
    )
    return start_age(state, 1)


def _check_wonders(value: Any, n: int) -> tuple[str, ...]:
    if isinstance(value, (str, bytes)) or not isinstance(value, Sequence):
        raise InvalidOption("wonders must be a list of wonder ids in seat order")
    if len(value) != n:
        raise InvalidOption(f"wonders must name {n} boards, one per seat, not {len(value)}")
    for w in value:
        if w not in WONDER_ORDER:
            raise InvalidOption(f"unknown wonder {w!r} (wonders: {', '.join(WONDER_ORDER)})")
    if len(set(value)) != n:
        raise InvalidOption("wonders must not name a board twice")
    return tuple(value)


def _sides(value: Any, n: int, rng: Rng) -> tuple[tuple[str, ...], Rng]:
    if value in SIDES:
        return (value,) * n, rng
    if value == "random":
        out = []
        for _ in range(n):
            k, rng = rng.below(2)
            out.append(SIDES[k])
        return tuple(out), rng
    if isinstance(value, (list, tuple)):
        if len(value) != n:
            raise InvalidOption(f"wonder_side as a list needs {n} values, one per seat, not {len(value)}")
        if any(v not in SIDES for v in value):
            raise InvalidOption('wonder_side list values must be "A" or "B"')
        return tuple(value), rng
    raise InvalidOption(f'wonder_side must be "A", "B", "random" or a list of sides, not {value!r}')


def _check_deck(value: Any, n: int) -> tuple[tuple[str, ...] | None, ...]:
    """The stacked decks per Age (None = shuffle); a bad list raises InvalidOption."""
    out: list[tuple[str, ...] | None] = [None, None, None]
    if value is None:
        return tuple(out)
    if not isinstance(value, Mapping):
        raise InvalidOption("deck must map an Age (1, 2, 3) to a list of card ids")
    for key, cards in value.items():
        try:
            age = int(key)
        except (TypeError, ValueError):
            age = 0
        if age not in (1, 2, 3) or isinstance(key, bool):
            raise InvalidOption(f"deck: {key!r} is not an Age (1, 2 or 3)")
        if out[age - 1] is not None:
            raise InvalidOption(f"deck: Age {age} is given twice")
        if isinstance(cards, (str, bytes)) or not isinstance(cards, Sequence):
            raise InvalidOption(f"deck: Age {age} must be a list of card ids")
        expected = age_cards(age, n)
        if is_masked(cards, HAND_SIZE * n):  # dealt by the table (_setup_dealt): faces unknown
            out[age - 1] = tuple(cards)
            continue
        if age == 3:
            guilds = [c for c in cards if c in GUILDS]
            if len(guilds) != guild_count(n) or len(set(guilds)) != len(guilds):
                raise InvalidOption(f"deck: Age III must hold {guild_count(n)} different guilds for {n} players")
            expected = expected + tuple(guilds)
        check_stacked(expected, list(cards), f"Age {age} deck")
        out[age - 1] = tuple(cards)
    return tuple(out)
