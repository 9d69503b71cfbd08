"""Ten's seats round the table: who acts now, who is next, what a seat can pay."""

from __future__ import annotations

from .cards import BUST_TOKEN_VALUE, CARD_PAYMENT_VALUE
from .state import AUCTION, BUY, CHOOSE, DRAW, FINAL_BUY, OVER, PAY, SOLO_WILD, State

MAX_PLAYERS = 5
TURN_PHASES = frozenset({DRAW, CHOOSE, BUY, SOLO_WILD})
"""Phases in which the player whose turn it is acts."""
ROUND_FROM_LEFT = {
    n: tuple(tuple((a + i) % n for i in range(1, n + 1)) for a in range(n))
    for n in range(1, MAX_PLAYERS + 1)
}
"""ROUND_FROM_LEFT[n][a]: the player to a's left, then clockwise, a last."""


def acting(state: State) -> int:
    """The seat that acts now, -1 once the game is over."""
    phase = state.phase
    if phase in TURN_PHASES:
        return state.turn
    if phase == AUCTION:
        return state.auction.bidders[0]
    if phase == PAY:
        return state.auction.high_bidder
    if phase == FINAL_BUY:
        return state.buyers[0]
    if phase == OVER:
        return -1
    return state.turn


def power_of(state: State, seat: int) -> int:
    """What `seat` could pay now: its tokens, bust tokens and collection cards (ten.md §6)."""
    return (
        state.currency[seat]
        + BUST_TOKEN_VALUE * state.busts[seat]
        + CARD_PAYMENT_VALUE * len(state.collections[seat])
    )
