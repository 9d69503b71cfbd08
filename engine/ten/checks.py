"""Which Ten actions are legal now, and the words of a refusal: the fixed choices of each
phase and the heads of its PaymentSpace (for `legal_actions`), then one check per action type
(the phase, then the action's own rule) for `validate` and the fast lane."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from ..core import IllegalAction
from .cards import CELL, MIN_BID, NUMBER_VALUE, SOLO_WILD_PRICE, card_name
from .payment import check_payment
from .seats import power_of
from .state import (
    AUCTION,
    BUY,
    CHOOSE,
    DRAW,
    FINAL_BUY,
    OVER,
    PAY,
    SOLO_WILD,
    Bid,
    Buy,
    BuyWild,
    ClaimCurrency,
    ClaimNumbers,
    DiscardWild,
    Draw,
    Pass,
    Pay,
    Skip,
    State,
    new_buy,
)

DRAW_ACTION = Draw()
CLAIM_NUMBERS_ACTION = ClaimNumbers()
CLAIM_CURRENCY_ACTION = ClaimCurrency()
PASS_ACTION = Pass()
SKIP_ACTION = Skip()
DISCARD_WILD_ACTION = DiscardWild()
_BIDS = tuple(Bid(x) for x in range(200))
CHOICES_WITH_DRAW = (DRAW_ACTION, CLAIM_NUMBERS_ACTION, CLAIM_CURRENCY_ACTION)
CHOICES_LAST_CARD = (CLAIM_NUMBERS_ACTION, CLAIM_CURRENCY_ACTION)
DRAW_ONLY = (DRAW_ACTION,)
SKIP_ONLY = (SKIP_ACTION,)
DISCARD_ONLY = (DISCARD_WILD_ACTION,)


def _bid(amount: int) -> Bid:
    return _BIDS[amount] if amount < len(_BIDS) else Bid(amount)


@lru_cache(maxsize=1024)
def bid_choices(low: int, high: int) -> tuple[Pass | Bid, ...]:
    """Pass, then every bid from low to high (the legal actions of an auction)."""
    return (PASS_ACTION,) + tuple(_bid(x) for x in range(low, high + 1))


_CELL_BIT = {card: 1 << (10 * colour + number) for card, (colour, number) in CELL.items()}
"""One bit per colour+number (numbers are 1-9): a collection's number cards as one int."""
_OFFER = {
    card: (price, _CELL_BIT[card], (price, new_buy, card)) for card, price in NUMBER_VALUE.items()
}
"""Per market card: its price, its cell bit and its PaymentSpace head (price, maker, card)."""


def buy_heads(state: State, seat: int) -> list[tuple[int, Any, str]]:
    """The PaymentSpace head of each market card `seat` could buy now: affordable and not
    identical to a number card it holds."""
    power = power_of(state, seat)
    held = 0
    for card in state.collections[seat]:
        held |= _CELL_BIT.get(card, 0)
    return [
        head
        for price, bit, head in map(_OFFER.__getitem__, state.market)
        if price <= power and not held & bit
    ]



_PHASE_TEXT = {
    DRAW: "the turn starts with a draw",
    CHOOSE: "draw again or claim",
    AUCTION: "a wild is being auctioned",
    PAY: "the auction winner is paying",
    SOLO_WILD: "the wild just drawn must be bought or discarded",
    BUY: "it is the buy phase",
    FINAL_BUY: "it is the final buy round",
    OVER: "the game is over",
}


# ---- validation, one check per action type (the phase, then the action's own rule) -------
def _check_draw(s: State, seat: int, action: Draw) -> None:
    phase = s.phase
    if phase != DRAW and phase != CHOOSE:
        raise IllegalAction(f"seat {seat} cannot draw now: {_PHASE_TEXT[phase]}")
    if not s.deck:
        raise IllegalAction(f"seat {seat} cannot draw: the deck is empty, claim instead")


def _check_claim(s: State, seat: int, action: ClaimNumbers | ClaimCurrency) -> None:
    phase = s.phase
    if phase != CHOOSE:
        why = "draw a card first" if phase == DRAW else _PHASE_TEXT[phase]
        raise IllegalAction(f"seat {seat} cannot claim now: {why}")


def _check_pass(s: State, seat: int, action: Pass) -> None:
    if s.phase != AUCTION:
        raise IllegalAction(f"seat {seat} cannot bid or pass now: {_PHASE_TEXT[s.phase]}")


def _check_bid(s: State, seat: int, action: Bid) -> None:
    if s.phase != AUCTION:
        raise IllegalAction(f"seat {seat} cannot bid or pass now: {_PHASE_TEXT[s.phase]}")
    amount = action.amount
    if type(amount) is not int and (not isinstance(amount, int) or isinstance(amount, bool)):
        raise IllegalAction(f"seat {seat} must bid a whole number, not {amount!r}")
    low = max(MIN_BID, s.auction.high_bid + 1)
    if amount < low:
        raise IllegalAction(f"seat {seat} cannot bid {amount}: the bid must be at least {low}")
    power = power_of(s, seat)
    if amount > power:
        raise IllegalAction(f"seat {seat} cannot bid {amount}: purchasing power is only {power}")


def _check_pay(s: State, seat: int, action: Pay) -> None:
    if s.phase != PAY:
        raise IllegalAction(f"seat {seat} has no auction to pay for")
    check_payment(
        seat, s.auction.high_bid, action.payment, s.currency[seat], s.busts[seat],
        s.collections[seat],
    )


def _check_buy_wild(s: State, seat: int, action: BuyWild) -> None:
    if s.phase != SOLO_WILD:
        raise IllegalAction(f"seat {seat} has no wild to buy or discard (solo game only)")
    check_payment(
        seat, SOLO_WILD_PRICE, action.payment, s.currency[seat], s.busts[seat],
        s.collections[seat],
    )


def _check_discard_wild(s: State, seat: int, action: DiscardWild) -> None:
    if s.phase != SOLO_WILD:
        raise IllegalAction(f"seat {seat} has no wild to buy or discard (solo game only)")


def _check_skip(s: State, seat: int, action: Skip) -> None:
    phase = s.phase
    if phase != BUY and phase != FINAL_BUY:
        raise IllegalAction(f"seat {seat} cannot buy now: {_PHASE_TEXT[phase]}")


def _check_buy(s: State, seat: int, action: Buy) -> None:
    phase = s.phase
    if phase != BUY and phase != FINAL_BUY:
        raise IllegalAction(f"seat {seat} cannot buy now: {_PHASE_TEXT[phase]}")
    card = action.card
    if not isinstance(card, str) or card not in s.market:
        raise IllegalAction(f"seat {seat} cannot buy {card!r}: it is not in the market")
    collection = s.collections[seat]
    cell = CELL[card]
    for held in collection:
        if CELL.get(held) == cell:
            raise IllegalAction(
                f"seat {seat} cannot buy {card_name(card)}: they already hold an identical card"
            )
    check_payment(
        seat, NUMBER_VALUE[card], action.payment, s.currency[seat], s.busts[seat], collection
    )


CHECKS = {
    Draw: _check_draw,
    ClaimNumbers: _check_claim,
    ClaimCurrency: _check_claim,
    Bid: _check_bid,
    Pass: _check_pass,
    Pay: _check_pay,
    BuyWild: _check_buy_wild,
    DiscardWild: _check_discard_wild,
    Buy: _check_buy,
    Skip: _check_skip,
}

