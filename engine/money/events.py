"""Money!'s public log events, read from the round log the state keeps (`MoneyState.history`).

Bids are hidden until every seat has bid; the step that takes the last bid reveals them all,
so a bid's cards appear only in that step's events. Kinds:

- "round" (table): amounts = (round number, 1 if it is the final round)
- "bid": cards = the bid's cards; amounts = (value, slot: 0 or 1 = the right bid of a
  2-player split)
- "bluff_only": the seat bid only its bluff card (no turn this round)
- "swap_market": cards = taken from the side, other = the bid's cards left there;
  amounts = (side: 0 = I, 1 = II, the acting bid's slot)
- "swap_bid": cards = taken from `target`'s bid, other = the cards that now act in its
  place; amounts = (the acting bid's slot, the target bid's slot)
- "keep": cards = the bid's cards taken back; amounts = (slot,)
- "refill" (table): amounts = (cards dealt to side I, to side II, cards left in the deck)
- "last_dealt", "deck_empty", "over" (table): the final round is next / the game ended
"""

from __future__ import annotations

from collections.abc import Iterable

from ..core import Event
from .cards import VALUE
from .state import MoneyState

FINAL_NEXT = ("last_dealt", "deck_empty")


def new_entries(before: MoneyState, after: MoneyState) -> tuple[tuple, ...]:
    """The round-log entries the step `before` -> `after` added (across a round's end)."""
    done = len(before.history)
    if after.phase != "over" and after.round_no == before.round_no:
        return after.history[done:]
    # the round ended: its whole log moved to last_history (the new round's log is empty)
    return after.last_history[done:] + after.history


def money_events(before: MoneyState, after: MoneyState) -> tuple[Event, ...]:
    out: list[Event] = []
    for entry in new_entries(before, after):
        out.extend(_events_of(entry))
    return tuple(out)


def _value(cards: Iterable[str]) -> int:
    return sum(VALUE[c] for c in cards)


def _events_of(entry: tuple) -> list[Event]:
    kind = entry[0]
    if kind == "reveal":
        _, round_no, final, bids, withdrawn = entry
        out = [Event(None, "round", amounts=(round_no, int(final)))]
        out += [Event(b.owner, "bid", b.cards, amounts=(_value(b.cards), b.slot))
                for b in sorted(bids, key=lambda b: (b.owner, b.slot))]
        out += [Event(seat, "bluff_only") for seat in sorted(withdrawn)]
        return out
    if kind == "market":
        _, acting, side, taken = entry
        return [Event(acting.owner, "swap_market", taken, acting.cards, amounts=(side, acting.slot))]
    if kind == "swap":
        _, acting, target = entry
        return [Event(acting.owner, "swap_bid", target.cards, acting.cards, target.owner,
                      (acting.slot, target.slot))]
    if kind == "keep":
        acting = entry[1]
        return [Event(acting.owner, "keep", acting.cards, amounts=(acting.slot,))]
    if kind == "refill":
        _, _round_no, dealt1, dealt2, left = entry
        return [Event(None, "refill", amounts=(dealt1, dealt2, left))]
    return [Event(None, kind)]
