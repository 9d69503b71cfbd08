"""Ten's public log events: every card here is drawn, claimed, bought or paid face up. Kinds:

- "draw": cards = the card drawn (a wild opens an auction, or in the solo game a choice)
- "bust": cards = the numbers that go to the market, other = the currency cards discarded;
  amounts = (1 if currency caused it else 0, then each seat's currency gained)
- "claim_numbers" / "claim_currency": cards = numbers, other = currency cards;
  amounts = each seat's currency gained
- "bid": amounts = (amount,); "pass"; "wild_discarded" (table): cards = the unwanted wild
- "pay_wild" (auction) / "buy_wild" (solo): cards = the wild; other = collection cards paid;
  amounts = (currency tokens, bust tokens) paid
- "discard_wild": cards = the wild; "buy": cards = the card, other/amounts as for pay_wild
- "skip": buys nothing
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..core import Event
from .state import (
    BUST_CURRENCY,
    BUST_NUMBERS,
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
)


def ten_events(before: State, actions: Mapping[int, Any], after: State) -> tuple[Event, ...]:
    out: list[Event] = []
    for seat in sorted(actions):
        out.extend(_events(before, seat, actions[seat], after))
    return tuple(out)


def _events(before: State, seat: int, action: Any, after: State) -> list[Event]:
    kind = type(action)
    if kind is Draw:
        out = [Event(seat, "draw", (before.deck[0],))]
        end = after.last_turn
        if end is not None and end is not before.last_turn and end.outcome in (BUST_NUMBERS, BUST_CURRENCY):
            cause = 1 if end.outcome == BUST_CURRENCY else 0
            out.append(Event(seat, "bust", end.numbers, end.currency_cards, amounts=(cause, *end.gains)))
        return out
    if kind is ClaimNumbers or kind is ClaimCurrency:
        end = after.last_turn
        word = "claim_numbers" if kind is ClaimNumbers else "claim_currency"
        return [Event(seat, word, end.numbers, end.currency_cards, amounts=end.gains)]
    if kind is Bid:
        return [Event(seat, "bid", amounts=(action.amount,))]
    if kind is Pass:
        out = [Event(seat, "pass")]
        if after.auction is None:  # nobody bid: the wild goes to the discard pile
            out.append(Event(None, "wild_discarded", (before.auction.wild,)))
        return out
    if kind is Pay or kind is BuyWild:
        pay = action.payment
        word = "pay_wild" if kind is Pay else "buy_wild"
        return [Event(seat, word, (before.auction.wild,), pay.cards, amounts=(pay.currency, pay.busts))]
    if kind is DiscardWild:
        return [Event(seat, "discard_wild", (before.auction.wild,))]
    if kind is Buy:
        pay = action.payment
        return [Event(seat, "buy", (action.card,), pay.cards, amounts=(pay.currency, pay.busts))]
    if kind is Skip:
        return [Event(seat, "skip")]
    return [Event(seat, "described", text=str(action))]
