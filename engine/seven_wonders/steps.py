"""The steps of a 7 Wonders Age (seven_wonders.md §5-7): picks resolved, hands passed, conflicts."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..core import (
    fast_maker,
    shuffle_or_stack,
)
from ..core.hidden import is_token
from .cards import (
    BOARDS,
    CARD_RANK,
    CARDS,
    DEFEAT_TOKEN,
    DISCARD_COINS,
    HAND_SIZE,
    PASS_LEFT,
    TURNS_PER_AGE,
    VICTORY_TOKEN,
    Counts,
    age_cards,
)
from .position import keeps_last_card, memo_of, profile_of
from .scoring import Table
from .state import (
    BABYLON,
    BUILD,
    BUILD_FREE,
    DISCARD,
    HALIKARNASSOS,
    OVER,
    PICK,
    STAGE,
    BabylonTurn,
    BuildFromDiscard,
    Conflict,
    Decline,
    Move,
    Pick,
    State,
)

_evolve = fast_maker(State).evolve  # a copy of a state with some fields changed


def start_age(state: State, age: int) -> State:
    n = state.n_players
    stacked = state.stacked[age - 1]
    if stacked is not None and any(map(is_token, stacked)):
        # dealt by the table, face down: nobody may sort what nobody has seen (a hand is put
        # in rank order where its faces are written in, see state.py)
        hands = tuple(stacked[HAND_SIZE * s: HAND_SIZE * (s + 1)] for s in range(n))
        return _evolve(state, age=age, turn=1, phase=PICK, hands=hands, free_used=(False,) * n,
                       moves=state.moves if age > 1 else ())
    cards = age_cards(age, n) + (state.guilds if age == 3 else ())
    deck, rng = shuffle_or_stack(cards, state.rng, stacked, f"Age {age} deck")
    hands = tuple(
        tuple(sorted(deck[HAND_SIZE * s: HAND_SIZE * (s + 1)], key=CARD_RANK.__getitem__)) for s in range(n)
    )
    return _evolve(state, age=age, turn=1, phase=PICK, hands=hands, free_used=(False,) * n, rng=rng,
                   moves=state.moves if age > 1 else ())


def _spend(state: State, seat: int, action: Pick) -> int:
    if action.kind == BUILD:
        card = CARDS[action.card]
        if card.chain_from and not card.chain_from.isdisjoint(profile_of(state, seat).names):
            return 0
        return card.coin_cost + action.pay_left + action.pay_right
    if action.kind == STAGE:
        stage = BOARDS[(state.wonders[seat], state.sides[seat])].stages[state.stages[seat]]
        return stage.coin_cost + action.pay_left + action.pay_right
    return 0


class _Turn:
    """Mutable scratch copy of the parts of the state a resolution changes."""

    def __init__(self, state: State) -> None:
        self.n = state.n_players
        self.wonders, self.sides = state.wonders, state.sides
        self.hands = [list(h) for h in state.hands]
        self.cities = list(state.cities)
        self.stages = list(state.stages)
        self.tucked = list(state.tucked)
        self.coins = list(state.coins)
        self.discard = list(state.discard)
        self.free_used = list(state.free_used)
        self.tokens = state.tokens

    def count(self, seat: int, counts: Counts) -> int:
        return Table(self.wonders, self.sides, self.stages, self.cities, self.coins, self.tokens).count(
            seat, counts)

    def place(self, seat: int, action: Pick) -> list:
        """Put the picked card where it goes; return the effects that pay coins on arrival."""
        if action.kind in (BUILD, BUILD_FREE):
            self.cities[seat] = self.cities[seat] + (action.card,)
            return [CARDS[action.card].effects]
        if action.kind == STAGE:
            stage = BOARDS[(self.wonders[seat], self.sides[seat])].stages[self.stages[seat]]
            self.tucked[seat] = self.tucked[seat] + (action.card,)
            self.stages[seat] += 1
            return [stage.effects]
        self.discard.append((seat, action.card))
        return []

    def income(self, seat: int, action: Pick, effects: list) -> int:
        gained = DISCARD_COINS if action.kind == DISCARD else 0
        for e in effects:
            gained += e.coins
        for e in effects:
            if e.coins_per is not None:
                gained += e.coins_per.amount * self.count(seat, e.coins_per)
        return gained

    def pay_neighbours(self, seat: int, action: Pick) -> None:
        self.coins[(seat + 1) % self.n] += action.pay_left
        self.coins[(seat - 1) % self.n] += action.pay_right

    def into(self, state: State, **changes: Any) -> State:
        return _evolve(
            state,
            hands=tuple(tuple(h) for h in self.hands),
            cities=tuple(self.cities),
            stages=tuple(self.stages),
            tucked=tuple(self.tucked),
            coins=tuple(self.coins),
            discard=tuple(self.discard),
            free_used=tuple(self.free_used),
            **changes,
        )


def resolve_picks(state: State, actions: Mapping[int, Pick]) -> State:
    t = _Turn(state)
    n = state.n_players
    seats = range(n)
    for seat in seats:
        t.hands[seat].remove(actions[seat].card)
    kept = None
    if state.turn == TURNS_PER_AGE:  # DISCARD_REST, except Babylon B's kept card
        for seat in seats:
            after = state.stages[seat] + (actions[seat].kind == STAGE)
            if t.hands[seat] and keeps_last_card(state.wonders[seat], state.sides[seat], after):
                kept = (seat, t.hands[seat][0])
            else:
                t.discard += [(seat, c) for c in t.hands[seat]]
            t.hands[seat] = []
    spent = [_spend(state, seat, actions[seat]) for seat in seats]
    for seat in seats:
        t.coins[seat] -= spent[seat]
    hali = -1
    arriving = []
    for seat in seats:
        effects = t.place(seat, actions[seat])
        arriving.append(effects)
        if any(e.build_from_discard for e in effects) and actions[seat].kind == STAGE:
            hali = seat
        if actions[seat].kind == BUILD_FREE:
            t.free_used[seat] = True
    gains = [t.income(seat, actions[seat], arriving[seat]) for seat in seats]
    for seat in seats:
        t.coins[seat] += gains[seat]
    for seat in seats:
        t.pay_neighbours(seat, actions[seat])
    moves = tuple(
        Move(seat, actions[seat].kind, actions[seat].card, actions[seat].pay_left, actions[seat].pay_right)
        for seat in seats
    )
    if kept is not None:
        seat, card = kept
        babylon = BabylonTurn(seat, card, state.coins[seat] - spent[seat], state.stages[seat],
                              len(state.cities[seat]))
        return t.into(state, phase=BABYLON, babylon=babylon, halikarnassos=hali, moves=moves)
    if hali < 0 and state.turn < TURNS_PER_AGE:  # the usual turn: pass the hands in the same step
        step = 1 if PASS_LEFT[state.age] else -1
        t.hands = [t.hands[(s - step) % n] for s in seats]
        return t.into(state, moves=moves, halikarnassos=-1, turn=state.turn + 1)
    nxt = t.into(state, moves=moves, halikarnassos=hali)
    return _after_turn(nxt)


def resolve_babylon(state: State, action: Pick) -> State:
    seat = state.babylon.seat
    t = _Turn(state)
    t.coins[seat] -= _spend(state, seat, action)
    effects = t.place(seat, action)
    t.coins[seat] += t.income(seat, action, effects)
    t.pay_neighbours(seat, action)
    move = Move(seat, action.kind, action.card, action.pay_left, action.pay_right)
    nxt = t.into(state, babylon=None, moves=state.moves + (move,))
    return _after_turn(nxt)


def resolve_halikarnassos(state: State, action: BuildFromDiscard | Decline) -> State:
    seat = state.halikarnassos
    if isinstance(action, Decline):
        move = Move(seat, "decline", "")
        return _after_turn(_evolve(state, halikarnassos=-1, moves=state.moves + (move,)))
    t = _Turn(state)
    index = next(i for i, (_, c) in enumerate(t.discard) if c == action.card)
    del t.discard[index]
    pick = Pick(action.card, BUILD)
    effects = t.place(seat, pick)
    t.coins[seat] += t.income(seat, pick, effects)
    move = Move(seat, "from_discard", action.card)
    return _after_turn(t.into(state, halikarnassos=-1, moves=state.moves + (move,)))


def _after_turn(state: State) -> State:
    """Halikarnassos if due, then pass hands or end the Age."""
    if state.halikarnassos >= 0:
        if state.discard:
            return _evolve(state, phase=HALIKARNASSOS)
        state = _evolve(state, halikarnassos=-1)
    if state.turn < TURNS_PER_AGE:
        n = state.n_players
        step = 1 if PASS_LEFT[state.age] else -1
        hands = tuple(state.hands[(s - step) % n] for s in range(n))
        return _evolve(state, phase=PICK, turn=state.turn + 1, hands=hands)
    state = _military(state)
    if state.age < 3:
        return start_age(state, state.age + 1)
    return _evolve(state, phase=OVER)


def _military(state: State) -> State:
    """The conflicts of the Age ending (§7): tokens to each seat, and the results kept."""
    n = state.n_players
    shields = tuple(p.shields for p in memo_of(state).profiles())
    win = VICTORY_TOKEN[state.age]
    tokens = []
    results = []
    for s in range(n):
        got = []
        for other in ((s + 1) % n, (s - 1) % n):
            if shields[s] > shields[other]:
                got.append(win)
            elif shields[s] < shields[other]:
                got.append(DEFEAT_TOKEN)
            else:
                got.append(0)
        results.append((got[0], got[1]))
        tokens.append(state.tokens[s] + tuple(t for t in got if t))
    conflict = Conflict(state.age, shields, tuple(results))
    return _evolve(state, tokens=tuple(tokens), conflicts=state.conflicts + (conflict,))


def eligible_discards(state: State, seat: int) -> tuple[str, ...]:
    names = profile_of(state, seat).names
    return tuple(sorted({c for _, c in state.discard if CARDS[c].name not in names},
                        key=CARD_RANK.__getitem__))
