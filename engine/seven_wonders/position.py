"""What one 7 Wonders state has worked out for its seats: paying contexts, profiles, picks."""

from __future__ import annotations

from ..core import (
    IllegalAction,
)
from .cards import (
    BOARDS,
    MAX_PLAYERS,
)
from .payment import Profile, profile
from .picks import Context, Picks
from .scoring import science_symbols
from .state import (
    BABYLON,
    HALIKARNASSOS,
    PICK,
    Production,
    State,
    View,
)


def context_of(state: State, seat: int) -> Context:
    cities = memo_of(state).profiles()
    if state.phase == BABYLON and state.babylon is not None and state.babylon.seat == seat:
        b = state.babylon
        return Context(state.wonders, state.sides, state.stages, state.cities, seat, b.budget,
                       (b.start_stages, b.start_cards), cities)
    return Context(state.wonders, state.sides, state.stages, state.cities, seat, state.coins[seat],
                   None, cities)


def free_build_ready(wonder: str, side: str, stages: int, used: bool) -> bool:
    """Olympia A: a stage with the free build is built (before this turn) and unused this Age."""
    if used:
        return False
    return any(s.effects.free_build_once_per_age for s in BOARDS[(wonder, side)].stages[:stages])


def keeps_last_card(wonder: str, side: str, stages_after_pick: int) -> bool:
    return any(s.effects.play_last_card for s in BOARDS[(wonder, side)].stages[:stages_after_pick])


def view_context(view: View) -> Context:
    """The paying context of the viewing seat, rebuilt from its view alone (for screens/bots)."""
    if view.seat is None:
        raise IllegalAction("a spectator has no hand")
    return Context(view.wonders, view.sides, view.stages, view.cities, view.seat, view.budget,
                   view.discount_basis)


class _Memo:
    """What one state object has already worked out: its cities' profiles, its seats' picks.

    legal_actions, validate, apply and view of one state share it; the entry holds the state,
    so its id cannot be reused while cached."""

    __slots__ = ("state", "_profiles", "_production", "picks")

    def __init__(self, state: State) -> None:
        self.state = state
        self._profiles: tuple[Profile, ...] | None = None
        self._production: tuple[Production, ...] | None = None
        self.picks: dict[int, Picks] = {}

    def production(self) -> tuple[Production, ...]:
        if self._production is None:
            s = self.state
            self._production = tuple(
                Production(p.own[0], p.own[1], p.sells[0], p.sells[1], p.shields,
                           *science_symbols(s.cities[seat], [stage.effects for stage in
                                            BOARDS[(s.wonders[seat], s.sides[seat])].stages[: s.stages[seat]]]))
                for seat, p in enumerate(self.profiles()))
        return self._production

    def profiles(self) -> tuple[Profile, ...]:
        if self._profiles is None:
            s = self.state
            self._profiles = tuple(profile(s.wonders[i], s.sides[i], s.stages[i], s.cities[i])
                                   for i in range(s.n_players))
        return self._profiles


_MEMO: dict[int, _Memo] = {}


def memo_of(state: State) -> _Memo:
    memo = _MEMO.get(id(state))
    if memo is None or memo.state is not state:
        if len(_MEMO) > 64:
            _MEMO.clear()
        memo = _MEMO[id(state)] = _Memo(state)
    return memo


def position_of(state: State, seat: int) -> Picks:
    """The seat's picks, worked out once per state object."""
    memo = memo_of(state)
    hit = memo.picks.get(seat)
    if hit is None:
        hit = memo.picks[seat] = _positions(state, seat)
    return hit


def _positions(state: State, seat: int) -> Picks:
    ctx = context_of(state, seat)
    if state.phase == BABYLON:
        hand: tuple[str, ...] = (state.babylon.card,)
        free = False
    else:
        hand = state.hands[seat]
        free = free_build_ready(state.wonders[seat], state.sides[seat], state.stages[seat],
                                 state.free_used[seat])
    return Picks(ctx, hand, free)


_EVERY_SEAT = tuple(frozenset(range(n)) for n in range(MAX_PLAYERS + 1))  # asked several times a step
_ONE_SEAT = tuple(frozenset((s,)) for s in range(MAX_PLAYERS))


def active_seats(state: State) -> frozenset[int]:
    if state.phase == PICK:
        return _EVERY_SEAT[state.n_players]
    if state.phase == BABYLON:
        return _ONE_SEAT[state.babylon.seat]
    if state.phase == HALIKARNASSOS:
        return _ONE_SEAT[state.halikarnassos]
    return frozenset()


def profile_of(state: State, seat: int) -> Profile:
    return memo_of(state).profiles()[seat]
