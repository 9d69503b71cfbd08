"""Which Money! actions are legal now, and the words of a refusal (money.md §5)."""

from __future__ import annotations

from ..core import (
    IllegalAction,
    Seat,
)
from .bids import bid_problem
from .cards import (
    KIND,
    SERIAL,
    SIDE_NAMES,
    labels,
)
from .state import (
    Bid,
    Keep,
    MoneyState,
    SwapBid,
    SwapMarket,
)

_MONEY_SERIAL = {c: SERIAL[c] for c in SERIAL if KIND[c] != "bluff"}


def check_action(state: MoneyState, seat: Seat, action: object) -> None:
    """Raise IllegalAction unless the acting `seat` may play `action` now."""
    if state.phase == "bid":
        if type(action) is Bid:  # the fast lane's check: the usual bid at once, else its fault
            check_bid(state, seat, action)
            return
        problem = bid_problem(frozenset(state.hands[seat]), state.setup.n_players == 2, action)
    elif type(action) is Keep:  # always open to the acting bid
        return
    else:
        problem = _turn_problem(state, seat, action)
    if problem:
        raise _refusal(seat, action, problem)


def _refusal(seat: Seat, action: object, problem: str) -> IllegalAction:
    return IllegalAction(f"seat {seat} cannot {describe(action)}: {problem}")


def _turn_problem(state: MoneyState, seat: Seat, action: object) -> str | None:
    kind = type(action)
    if kind is Keep:
        return None
    if kind is SwapMarket:
        side = action.side
        if type(side) is not int or side not in (0, 1):
            return f"there is no market side {side!r} (0 = side I, 1 = side II)"
        if not state.market[side]:
            return f"market side {SIDE_NAMES[side]} is empty"
        return None
    if kind is SwapBid:
        owner, slot = action.owner, action.slot
        if type(owner) is not int or type(slot) is not int:
            return "a bid is named by its owner's seat and its slot (0 or 1)"
        if owner == seat:
            return "you cannot swap with your own bid"
        for bid in state.pending:
            if bid.owner == owner and bid.slot == slot:
                return None
        return f"seat {owner} has no such bid on the table (it has acted, or bid only the bluff card)"
    if kind is Bid:
        return "the bids are revealed: it is your turn to swap or keep"
    return "choose swap with a market side, swap with a bid, or keep"


def describe(action: object) -> str:
    """One log line for an action (also the wording of its IllegalAction)."""
    kind = type(action)
    if kind is Bid:
        if not action.left and not action.right:
            return "bid only the bluff card"
        if action.right:
            return f"bid {_cards_text(action.left)} | {_cards_text(action.right)}"
        return f"bid {_cards_text(action.left)}"
    if kind is SwapMarket:
        side = action.side
        name = SIDE_NAMES[side] if type(side) is int and side in (0, 1) else repr(side)
        return f"swap with market side {name}"
    if kind is SwapBid:
        slot = action.slot  # a value of any type (this words refusals too): no dict look-up
        words = _SLOT_WORDS[slot] if type(slot) is int and 0 <= slot <= 1 else f" (slot {slot!r})"
        return f"swap with seat {action.owner}'s bid{words}"
    if kind is Keep:
        return "keep the bid"
    return f"play {action!r}"


_SLOT_WORDS = ("", " (right bid)")


def _cards_text(cards: tuple[str, ...]) -> str:
    if not isinstance(cards, tuple) or not all(isinstance(c, str) and c in KIND for c in cards):
        return repr(cards)
    return labels(cards) if cards else "nothing"


# ---- the fast lane: each action type's usual legal case accepted in one call ----------
# Game.apply calls these by the action's type. Each accepts its usual case at once and hands
# everything else to `check_action` (or, for a bid, to `bid_problem`), so the errors and their
# wording are `check_action`'s; `check_action` itself takes a bid through `check_bid`.


def check_bid(state: MoneyState, seat: Seat, bid: Bid) -> None:
    """A bid in the bid step: the usual one (one group of money cards listed in hand order)
    accepted at once, any other through `bid_problem`.

    The hand is sorted by serial, so a group that walks through it in order names each card
    once, in serial order (what `bid_problem` asks); its bluff card sorts last, hence the test
    of the group's last card only.
    """
    if state.phase != "bid":
        check_action(state, seat, bid)
        return
    left = bid.left
    if bid.right == () and type(left) is tuple:
        cards = iter(state.hands[seat])
        for card in left:
            if type(card) is not str or card not in cards:  # `in` consumes up to card
                break
        else:
            if not left or left[-1] in _MONEY_SERIAL:
                return
    problem = bid_problem(frozenset(state.hands[seat]), state.setup.n_players == 2, bid)
    if problem:
        raise _refusal(seat, bid, problem)


def check_keep(state: MoneyState, seat: Seat, action: Keep) -> None:
    """Keep is open to the acting bid in every turn; in the bid step it is no bid."""
    if state.phase != "turns":
        check_action(state, seat, action)


def check_market(state: MoneyState, seat: Seat, action: SwapMarket) -> None:
    """A swap with a market side (0 or 1) that holds cards."""
    side = action.side
    if state.phase != "turns" or type(side) is not int or not 0 <= side <= 1 or not state.market[side]:
        check_action(state, seat, action)


def check_swap(state: MoneyState, seat: Seat, action: SwapBid) -> None:
    """A swap with another seat's bid still pending."""
    owner, slot = action.owner, action.slot
    if state.phase == "turns" and type(owner) is int and type(slot) is int and owner != seat:
        for bid in state.pending:
            if bid.owner == owner and bid.slot == slot:
                return
    check_action(state, seat, action)
