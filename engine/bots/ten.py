"""Ten heuristic bot: stops by the risk of busting, bids what a wild adds to its runs, buys to
extend runs, and pays with what it misses least. It reads only its view (everything in Ten is
public except the deck order, and the view carries the unseen card counts).

Its sums are pure functions of a collection (and a price and the tokens held), so they are
cached: a collection changes seldom while the bot prices the same cards turn after turn, and
each price asks what every card held is worth keeping. The cached functions compute exactly
what the uncached bot did, float for float, so every decision is the same
(tests/engine/ten/test_bot_reference.py holds the bot before the caches and compares).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from ..core import Action, ActionSpace, pick_uniform
from ..ten.cards import CELL, NUMBER_VALUE, TOKEN_CAP, TYPE_OF
from ..ten.payment import payment_shapes
from ..ten.scoring import collection_total
from ..ten.state import (
    AUCTION,
    BUY,
    CHOOSE,
    FINAL_BUY,
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
    Payment,
    Skip,
    View,
)
from .base import Bot

TOKEN_POINTS = 0.3
"""What one currency token is worth to the bot, in points (a card of price n costs n tokens)."""
BUST_TOKEN_POINTS = 0.75
CELL_POINTS = 0.2
"""Credit for each distinct colour+number held: cards outside the longest run may join it later."""
PUSH_GAIN = 0.6
"""What one more card is expected to add, in points, when deciding to draw again."""


def value(cards: Sequence[str]) -> float:
    """Score now plus a little for breadth (distinct spots held) and for wilds."""
    return _value(tuple(cards))


@lru_cache(maxsize=1 << 14)
def _value(cards: tuple[str, ...]) -> float:
    cells = {CELL[c] for c in cards if c in CELL}
    return collection_total(cards) + CELL_POINTS * len(cells)


@lru_cache(maxsize=1 << 12)
def _losses(held: tuple[str, ...]) -> tuple[tuple[float, str], ...]:
    """(value lost by giving it alone, card) for each card held, the least missed first."""
    base = _value(held)
    return tuple(sorted((base - _value(held[:i] + held[i + 1 :]), card) for i, card in enumerate(held)))


@lru_cache(maxsize=1 << 14)
def cheapest(price: int, currency: int, busts: int, held: tuple[str, ...]) -> tuple[float, Payment]:
    """The payment that costs a holder least (tokens, bust tokens, then its least useful
    cards), with that cost in points; (inf, an empty payment) if it cannot pay."""
    losses = _losses(held)
    best: tuple[float, Payment] | None = None
    for c, b, k in payment_shapes(price, currency, busts, len(held)):
        cards = [card for _, card in losses[:k]]
        cost = c * TOKEN_POINTS + b * BUST_TOKEN_POINTS + sum(loss for loss, _ in losses[:k])
        cost += k * TOKEN_POINTS  # a card paid is also purchasing power gone
        if best is None or cost < best[0]:
            best = (cost, Payment.of(c, b, cards))
    if best is None:
        return float("inf"), Payment()
    return best


class TenBot(Bot):
    kind = "heuristic"

    def choose(self, view: View, actions: Sequence[Action] | ActionSpace) -> Action:
        phase = view.phase
        if phase == CHOOSE:
            action = self._draw_or_claim(view)
        elif phase == AUCTION:
            action = self._bid(view)
        elif phase == PAY:
            action = Pay(self._cheapest(view, view.price)[1])
        elif phase == SOLO_WILD:
            action = self._solo_wild(view)
        elif phase in (BUY, FINAL_BUY):
            action = self._buy(view)
        else:
            action = Draw()
        if action in actions:
            return action
        return pick_uniform(actions, self.rng)

    # ---- helpers --------------------------------------------------------------------------
    def _mine(self, view: View):
        return view.players[self.seat]

    def _gain(self, view: View, cards: Sequence[str]) -> float:
        held = tuple(self._mine(view).collection)
        return _value(held + tuple(cards)) - _value(held)

    def _cheapest(self, view: View, price: int) -> tuple[float, Payment]:
        me = self._mine(view)
        return cheapest(price, me.currency, me.busts, tuple(me.collection))

    # ---- decisions --------------------------------------------------------------------------
    def _draw_or_claim(self, view: View) -> Action:
        me = self._mine(view)
        numbers = [c for c in view.tableau if c in NUMBER_VALUE]
        numbers_value = self._gain(view, numbers)
        if view.n_players > 1:  # the currency shown goes to the others: half a loss to us
            numbers_value -= view.currency_sum * TOKEN_POINTS * 0.5
        if view.market:  # claiming numbers comes with a buy phase
            numbers_value += 0.5
        currency_value = min(view.currency_sum, TOKEN_CAP - me.currency) * TOKEN_POINTS
        stake = max(numbers_value, currency_value)
        if view.deck_size:
            risk = view.bust_cards / view.deck_size
            if risk * (stake + 1.0) < (1 - risk) * PUSH_GAIN:
                return Draw()
        return ClaimNumbers() if numbers_value >= currency_value else ClaimCurrency()

    def _bid(self, view: View) -> Action:
        auction = view.auction
        me = self._mine(view)
        gain = self._gain(view, [auction.wild])
        ceiling = min(int(gain / TOKEN_POINTS), me.currency + 3 * me.busts, me.power)
        low = auction.high_bid + 1
        if ceiling < low:
            return Pass()
        last = len(auction.bidders) == 1
        return Bid(low if last else max(low, (ceiling + low) // 2))

    def _solo_wild(self, view: View) -> Action:
        cost, payment = self._cheapest(view, view.price)
        if self._gain(view, [view.auction.wild]) > cost:
            return BuyWild(payment)
        return DiscardWild()

    def _buy(self, view: View) -> Action:
        best: tuple[float, Action] = (0.0, Skip())
        seen: set[str] = set()
        for card in view.buyable:
            if TYPE_OF[card] in seen:
                continue
            seen.add(TYPE_OF[card])
            cost, payment = self._cheapest(view, NUMBER_VALUE[card])
            net = self._gain(view, [card]) - cost
            if net > best[0]:
                best = (net, Buy(card, payment))
        return best[1]
