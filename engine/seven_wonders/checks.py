"""Why a 7 Wonders action is not legal now, in words (seven_wonders.md §5, §8)."""

from __future__ import annotations

from typing import Any

from ..core import (
    IllegalAction,
)
from .cards import (
    CARDS,
)
from .position import context_of, free_build_ready, profile_of
from .state import (
    BABYLON,
    BUILD,
    BUILD_FREE,
    DISCARD,
    HALIKARNASSOS,
    PICK_KINDS,
    BuildFromDiscard,
    Decline,
    Pick,
    State,
)


def explain(state: State, seat: int, action: Any) -> None:
    """Raise IllegalAction with the reason `action` is not legal (returns if it is)."""
    if state.phase == HALIKARNASSOS:
        _explain_from_discard(state, seat, action)
        return
    if not isinstance(action, Pick) or not isinstance(action.card, str) or not isinstance(action.kind, str):
        raise IllegalAction(f"seat {seat} must pick a card from hand (build, stage or discard)")
    if not all(isinstance(p, int) and not isinstance(p, bool) for p in (action.pay_left, action.pay_right)):
        raise IllegalAction(f"seat {seat}: payments are whole numbers of coins")
    card = action.card
    if state.phase == BABYLON:
        if card != state.babylon.card:
            raise IllegalAction(f"seat {seat} cannot play {card}: the kept card is {state.babylon.card}")
        if action.kind == BUILD_FREE:
            raise IllegalAction(f"seat {seat} has no free build for the last card")
    elif card not in state.hands[seat]:
        raise IllegalAction(f"seat {seat} cannot play {card}: it is not in your hand")
    if action.kind not in PICK_KINDS:
        raise IllegalAction(f"seat {seat}: {action.kind!r} is not build, build_free, stage or discard")
    paid = (action.pay_left, action.pay_right)
    if action.kind == DISCARD or action.kind == BUILD_FREE:
        if paid != (0, 0):
            raise IllegalAction(f"seat {seat}: a {action.kind} pays nobody")
        if action.kind == BUILD_FREE:
            if not free_build_ready(state.wonders[seat], state.sides[seat], state.stages[seat],
                                     state.free_used[seat]):
                raise IllegalAction(f"seat {seat} has no free build available now")
            if CARDS[card].name in profile_of(state, seat).names:
                raise IllegalAction(f"seat {seat} cannot build {card}: {CARDS[card].name} is already in the city")
        return
    ctx = context_of(state, seat)
    if action.kind == BUILD:
        status, coin_cost, offered = ctx.build_status(card)
        what = f"build {card}"
        if status == "owned":
            raise IllegalAction(f"seat {seat} cannot {what}: {CARDS[card].name} is already in the city")
        if status == "impossible":
            raise IllegalAction(f"seat {seat} cannot {what}: its resources cannot be produced or bought")
        ways = ctx.ways(CARDS[card].cost) if status != "free" else ((0, 0),)
    else:
        if ctx.stage_cost is None:
            raise IllegalAction(f"seat {seat}: every stage of the wonder is built")
        what, coin_cost, offered = "build the next stage", ctx.stage_coins, ctx.stage_offers()
        ways = ctx.ways(ctx.stage_cost)
        if not ways:
            raise IllegalAction(f"seat {seat} cannot {what}: its resources cannot be produced or bought")
    if paid in offered:
        return
    if paid in ways:
        raise IllegalAction(
            f"seat {seat} cannot {what} paying {paid[0]} left and {paid[1]} right: "
            f"it costs {coin_cost + paid[0] + paid[1]} coins, you may spend {ctx.budget}")
    listed = ", ".join(f"({a}, {b})" for a, b in offered) or "none you can afford"
    raise IllegalAction(
        f"seat {seat} cannot {what} paying {paid[0]} left and {paid[1]} right: ways to pay are {listed}")


def _explain_from_discard(state: State, seat: int, action: Any) -> None:
    """Halikarnassos' step (§5.4): build a card of the discard pile not in the city, or decline."""
    if isinstance(action, Decline):
        return
    if not isinstance(action, BuildFromDiscard) or not isinstance(action.card, str):
        raise IllegalAction(f"seat {seat} must build a card from the discard pile or decline")
    if action.card not in {c for _, c in state.discard}:
        raise IllegalAction(f"seat {seat} cannot build {action.card}: it is not in the discard pile")
    if CARDS[action.card].name in profile_of(state, seat).names:
        raise IllegalAction(
            f"seat {seat} cannot build {action.card}: {CARDS[action.card].name} is already in the city")
