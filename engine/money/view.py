"""What a seat sees of Money! (money.md §7): the bids on the table and the round's log."""

from __future__ import annotations

from functools import lru_cache

from ..core import (
    Seat,
)
from .cards import (
    SERIAL,
    SIDE_NAMES,
    VALUE,
    labels,
)
from .state import (
    BidView,
    Event,
    MoneyState,
    MoneyView,
    PendingBid,
)

_VALUE_OF = VALUE.__getitem__
_WITHDRAWN = tuple(BidView(seat, 0, (), 0, 0, "withdrawn", "bluff card only") for seat in range(5))
_TURNS = frozenset(("market", "swap", "keep"))
_FIXED_LINES = {
    "over": "the final round is over: the game ends",
    "deck_empty": "the deck is empty: the next round is the final round",
    "last_dealt": "the last card was dealt: the next round is the final round",
}


def _split_owners(history: tuple[Event, ...]) -> frozenset[int]:
    """Seats that made two bids this round (2 players): their bids are named left/right."""
    if history and history[0][0] == "reveal":
        return frozenset(b.owner for b in history[0][3] if b.slot == 1)
    return frozenset()


def _whose(split: frozenset[int], owner: int, slot: int) -> str:
    """"seat 1", or "seat 1's left bid" when seat 1 made two bids this round (2 players)."""
    if owner in split:
        return f"seat {owner}'s {'right' if slot else 'left'} bid"
    return f"seat {owner}"


def _outcome(split: frozenset[int], event: Event) -> str:
    """What a turn did, as a resolved bid's `outcome`."""
    kind = event[0]
    if kind == "market":
        return f"swapped with side {SIDE_NAMES[event[2]]}"
    if kind == "swap":
        target = event[2]
        outcome = f"swapped with {_whose(split, target.owner, target.slot)}"
        return outcome if outcome.endswith(" bid") else outcome + "'s bid"
    return "kept"


@lru_cache(maxsize=256)
def _round_bids(history: tuple[Event, ...]) -> tuple[tuple[BidView, ...], tuple[BidView, ...]]:
    """(the resolved bids in the order they acted, the withdrawn bids) of one round's log
    (remembered, as `_history_lines`: every view of a round reads the last round's again)."""
    split = _split_owners(history)
    resolved = []
    withdrawn: tuple[BidView, ...] = ()
    for event in history:
        kind = event[0]
        if kind == "reveal":
            withdrawn = tuple(_WITHDRAWN[seat] for seat in event[4])
        elif kind in _TURNS:
            target = (event[2].owner, event[2].slot) if kind == "swap" else None
            resolved.append(_bid_view(event[1], "resolved", _outcome(split, event), target))
    return tuple(resolved), withdrawn


def _bid_view(bid: PendingBid, status: str, outcome: str = "",
              target: tuple[int, int] | None = None) -> BidView:
    cards = bid.cards
    return BidView(bid.owner, bid.slot, cards, sum(map(_VALUE_OF, cards)), SERIAL[cards[0]],
                   status, outcome, target)


@lru_cache(maxsize=256)
def _history_lines(history: tuple[Event, ...]) -> tuple[str, ...]:
    """One round's log worded for players (remembered: a round's views repeat it)."""
    split = _split_owners(history)
    lines = []
    for event in history:
        kind = event[0]
        if kind == "reveal":
            lines.extend(_reveal_lines(event))
        elif kind in _TURNS:
            bid = event[1]
            who = _whose(split, bid.owner, bid.slot)
            if kind == "market":
                lines.append(f"{who} {_outcome(split, event)}: took {labels(event[3])}")
            elif kind == "swap":
                target = event[2]
                lines.append(f"{who} {_outcome(split, event)}: took {labels(target.cards)}; "
                             f"seat {target.owner} acts next")
            else:
                lines.append(f"{who} kept {labels(bid.cards)}")
        elif kind == "refill":
            _, round_no, dealt1, dealt2, left = event
            lines.append(f"round {round_no} ends: refill side {SIDE_NAMES[0]} +{dealt1}, "
                         f"side {SIDE_NAMES[1]} +{dealt2}; {left} left in the deck")
        else:
            lines.append(_FIXED_LINES[kind])
    return tuple(lines)


def _reveal_lines(event: Event) -> list[str]:
    _, round_no, final_round, bids, withdrawn = event
    lines = [f"round {round_no}{' (final round)' if final_round else ''}: bids revealed"]
    by_slot = {(b.owner, b.slot): b for b in bids}
    for seat in sorted({*withdrawn, *(b.owner for b in bids)}):
        if seat in withdrawn:
            lines.append(f"seat {seat} bid only the bluff card: no turn")
            continue
        left, right = by_slot[seat, 0], by_slot.get((seat, 1))
        text = f"seat {seat} bid {labels(left.cards)} ({sum(map(_VALUE_OF, left.cards))})"
        if right is not None:
            text += f" and {labels(right.cards)} ({sum(map(_VALUE_OF, right.cards))})"
        lines.append(text)
    return lines


def make_view(state: MoneyState, seat: Seat | None) -> MoneyView:
    """What `seat` sees (None: a watcher): its own hand, every bid on the table, the log."""
    pending = state.pending
    over = state.phase == "over"
    hand = None if seat is None else state.hands[seat]
    if state.phase == "bid":
        to_act = tuple(range(state.n_players))
    elif pending:
        to_act = (pending[0].owner,)
    else:
        to_act = ()
    history = state.history
    shown = ()
    if pending:
        # The first bid acts: "next" when a swap with a bid just moved it into this place.
        moved = history[-1][0] == "swap"
        shown = (_bid_view(pending[0], "next" if moved else "acting"),) + tuple(
            _bid_view(bid, "pending") for bid in pending[1:])
    resolved, withdrawn = _round_bids(history)
    last_resolved, last_withdrawn = _round_bids(state.last_history)
    return MoneyView(
        seat, state.n_players, state.edition, state.removed, hand,
        tuple(map(len, state.hands)), state.market, len(state.deck), state.phase,
        state.round_no, state.final_round, resolved + shown + withdrawn,
        (pending[0].owner, pending[0].slot) if pending else None, to_act,
        _history_lines(state.last_history) + _history_lines(state.history),
        last_resolved + last_withdrawn,
        state.hands if over else None,
    )
