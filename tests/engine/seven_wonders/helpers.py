"""Helpers for 7 Wonders tests: hand-built tables and stacked-deck games."""

from __future__ import annotations

from dataclasses import replace

from engine.seven_wonders import GAME
from engine.seven_wonders.cards import BOARDS, CARDS, age_cards
from engine.seven_wonders.picks import Context
from engine.seven_wonders.state import Pick, State


def table(
    wonders: list[str],
    cities: list[list[str]],
    coins: list[int] | None = None,
    sides: list[str] | str = "A",
    stages: list[int] | None = None,
    hands: list[list[str]] | None = None,
    age: int = 1,
    turn: int = 1,
) -> State:
    """A state in the PICK step of `age`/`turn` with the given cities (cards built earlier)."""
    n = len(wonders)
    sides = [sides] * n if isinstance(sides, str) else sides
    state = GAME.setup(n, b"table", {"wonders": wonders, "wonder_side": sides})
    stages = stages or [0] * n
    tucked = tuple(tuple(age_cards(1, 7)[:k]) for k in stages)  # placeholder tucked cards
    return replace(
        state,
        cities=tuple(tuple(c) for c in cities),
        coins=tuple(coins if coins is not None else [3] * n),
        stages=tuple(stages),
        tucked=tucked,
        hands=tuple(tuple(h) for h in (hands if hands is not None else state.hands)),
        age=age,
        turn=turn,
    )


def ways(state: State, seat: int, card: str | None = None) -> list[tuple[int, int]]:
    """Offered payments for building `card` (or the next stage) as (left, right) pairs."""
    ctx = Context(state.wonders, state.sides, state.stages, state.cities, seat, state.coins[seat])
    if card is None:
        return list(ctx.stage_offers())
    return list(ctx.build_status(card)[2])


def all_ways(state: State, seat: int, card: str | None = None) -> list[tuple[int, int]]:
    """Every undominated way to pay, affordable or not."""
    ctx = Context(state.wonders, state.sides, state.stages, state.cities, seat, 10**6)
    if card is None:
        return list(ctx.stage_offers())
    return list(ctx.build_status(card)[2])


def pick(card: str, kind: str = "build", pay: tuple[int, int] = (0, 0)) -> Pick:
    return Pick(card, kind, pay[0], pay[1])


def play(state: State, picks: dict[int, Pick]) -> State:
    return GAME.apply(state, picks)


def stage_cost(wonder: str, side: str, k: int) -> tuple[tuple[int, int], ...]:
    return BOARDS[(wonder, side)].stages[k].cost


def name(card: str) -> str:
    return CARDS[card].name
