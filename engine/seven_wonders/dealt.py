"""A dealt 7 Wonders game's public state (docs/protocol.md §11): decks, reach, dealt picks."""

from __future__ import annotations

from typing import Any

from ..core import (
    IllegalAction,
)
from ..core.hidden import is_token, masked
from .cards import (
    GUILDS,
    age_cards,
    guild_count,
)
from .picks import Picks
from .position import context_of, free_build_ready
from .state import (
    BABYLON,
    DISCARD,
    HALIKARNASSOS,
    PICK_KINDS,
    STAGE,
    Pick,
    State,
)

# ---- a dealt game's public state ---------------------------------------------------------------
# The Age III deck's guild cards are slots of the guild deck (its first n + 2 positions): the
# table draws them face down into Age III (the pool pass, docs/protocol.md §11), so a position
# opens straight to its guild. A seat's choice is masked with the cards in its reach
# (`in_reach`), in that order, not with every face it ever saw (two copies of one card).
GUILD_DECK = "guilds"
AGE_DECK = {1: "age1", 2: "age2", 3: "age3"}


def network_decks(n: int) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """The decks a table deals (label, cards in setup order): the guild deck before the Age III
    deck, whose guild cards are slots of it (the first n + 2 positions: the guilds in play)."""
    slots = masked(GUILD_DECK, guild_count(n))
    return (("age1", age_cards(1, n)), ("age2", age_cards(2, n)), (GUILD_DECK, GUILDS),
            ("age3", age_cards(3, n) + slots))


def in_reach(state: State, seat: int) -> tuple[str, ...]:
    """The cards `seat` may name in its action now, in the order the rules take copies of one
    card: its hand (a hand passed on is shown to its new owner; the passer knew it), Babylon's
    kept card, and during its step Halikarnassos the discard pile, oldest first (§5.4, §8).

    A seat's choice names a card id; over the network it is put back as the token of one of
    these cards (the first of that face), never of a copy elsewhere that the seat once saw."""
    if state.phase == HALIKARNASSOS and state.halikarnassos == seat:
        return tuple(c for _, c in state.discard)
    if state.babylon is not None and state.babylon.seat == seat:
        return (state.babylon.card, *state.hands[seat])
    return state.hands[seat]


def check_dealt_pick(state: State, seat: int, action: Any) -> None:
    """A pick in the table's public state: the picked card is a token unless it is built (then
    `needs` revealed it), and the other hand cards are tokens, so only the card picked is read."""
    if type(action) is not Pick or not isinstance(action.card, str) or action.kind not in PICK_KINDS:
        raise IllegalAction(f"seat {seat} must pick a card from hand (build, stage or discard)")
    hand = (state.babylon.card,) if state.phase == BABYLON else state.hands[seat]
    if action.card not in hand:
        raise IllegalAction(f"seat {seat} cannot play {action.card}: it is not in your hand")
    if not is_token(action.card):
        if action not in _picks_of(state, seat, action.card):
            raise IllegalAction(f"seat {seat} cannot {action}")
        return
    paid = (action.pay_left, action.pay_right)
    if type(paid[0]) is int and type(paid[1]) is int:  # exact types, as Picks checks them
        if action.kind == DISCARD and paid == (0, 0):
            return
        if action.kind == STAGE and paid in context_of(state, seat).stage_offers():
            return
    raise IllegalAction(f"seat {seat} cannot {action}: a face-down card is only sold or tucked under a stage")


def _picks_of(state: State, seat: int, card: str) -> Picks:
    """The picks of one (face-up) card, in the seat's position."""
    babylon = state.phase == BABYLON
    free = not babylon and free_build_ready(state.wonders[seat], state.sides[seat], state.stages[seat],
                                             state.free_used[seat])
    return Picks(context_of(state, seat), (card,), free)
