"""What a seat sees of 7 Wonders (seven_wonders.md §8), and the final scores."""

from __future__ import annotations

from typing import NamedTuple

from ..core import (
    HIDDEN,
)
from ..core.plain import fast_maker
from .cards import (
    CARD_RANK,
    PASS_LEFT,
)
from .position import active_seats, free_build_ready, memo_of, position_of
from .scoring import Table, score_table
from .state import (
    BABYLON,
    BUILD,
    BUILD_FREE,
    HALIKARNASSOS,
    OVER,
    PICK,
    CardOption,
    Move,
    Payment,
    SeatScore,
    State,
    View,
)

_new_view = fast_maker(View)


def final_scores(state: State) -> tuple[SeatScore, ...]:
    return score_table(Table(state.wonders, state.sides, state.stages, state.cities, state.coins,
                             state.tokens))


class _Own(NamedTuple):
    """What only the viewing seat sees of its own position."""

    hand: tuple[str, ...] = ()
    kept: str | None = None
    budget: int = 0
    basis: tuple[int, int] | None = None
    free: bool = False
    options: tuple[CardOption, ...] = ()
    stage_pay: tuple[Payment, ...] = ()
    pile: tuple[str, ...] = ()


def _own(state: State, me: int, active: tuple[int, ...]) -> _Own:
    hand = state.hands[me]
    budget = state.coins[me]
    basis = None
    free = free_build_ready(state.wonders[me], state.sides[me], state.stages[me], state.free_used[me])
    kept = None
    if state.babylon is not None and state.babylon.seat == me:
        kept = state.babylon.card
        if state.phase == BABYLON:
            hand = (kept,)
            budget = state.babylon.budget
            basis = (state.babylon.start_stages, state.babylon.start_cards)
            free = False
    options: tuple[CardOption, ...] = ()
    stage_pay: tuple[Payment, ...] = ()
    if me in active and state.phase in (PICK, BABYLON):
        options, stage_pay = position_of(state, me).options
    pile: tuple[str, ...] = ()
    if state.phase == HALIKARNASSOS and state.halikarnassos == me:
        pile = tuple(sorted((c for _, c in state.discard), key=CARD_RANK.__getitem__))
    return _Own(hand, kept, budget, basis, free, options, stage_pay, pile)


def make_view(state: State, seat: int | None) -> View:
    n = state.n_players
    me = seat if seat is not None and 0 <= seat < n else None
    active = tuple(sorted(active_seats(state)))
    own = _Own() if me is None else _own(state, me, active)
    moves = tuple(
        m if m.kind in (BUILD, BUILD_FREE, "from_discard", "decline") or m.seat == me
        else Move(m.seat, m.kind, HIDDEN, m.pay_left, m.pay_right)
        for m in state.moves
    )
    hand_sizes = tuple(len(h) for h in state.hands)
    # positional, in field order (the View's fields): its frozen __init__ would set each of
    # the 29 fields through object.__setattr__, and a bot reads a view every decision
    return _new_view(
        me,  # seat
        n,  # n_players
        state.age,  # age
        state.turn,  # turn
        state.phase,  # phase
        active,  # active
        PASS_LEFT[state.age],  # pass_left
        state.wonders,  # wonders
        state.sides,  # sides
        state.cities,  # cities
        state.stages,  # stages
        state.coins,  # coins
        state.tokens,  # tokens
        hand_sizes,  # hand_sizes
        len(state.discard),  # discard_count
        moves,  # moves
        own.hand,  # hand
        state.tucked[me] if me is not None else (),  # tucked
        tuple(c for who, c in state.discard if who == me) if me is not None else (),  # my_discards
        own.pile,  # discard_pile
        own.kept,  # kept
        own.budget,  # budget
        own.basis,  # discount_basis
        own.free,  # free_build
        own.options,  # options
        own.stage_pay,  # stage_payments
        final_scores(state) if state.phase == OVER else (),  # final
        memo_of(state).production(),  # production
        state.conflicts,  # conflicts
    )
