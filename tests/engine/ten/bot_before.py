"""Ten's heuristic bot as it was before its decisions were cached (engine/bots/ten.py at
89c6b63), kept verbatim as the reference that the faster bot must match decision for decision
(tests/engine/ten/test_bot_reference.py) and that bench/ten_bots.py times it against."""

from __future__ import annotations

from collections.abc import Sequence

from engine.bots.base import Bot
from engine.core import Action, ActionSpace, pick_uniform
from engine.ten.cards import CELL, NUMBER_VALUE, TOKEN_CAP, TYPE_OF
from engine.ten.payment import payment_shapes
from engine.ten.scoring import collection_total
from engine.ten.state import (
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

TOKEN_POINTS = 0.3
"""What one currency token is worth to the bot, in points (a card of price n costs n tokens)."""
BUST_TOKEN_POINTS = 0.75
CELL_POINTS = 0.2
"""Credit for each distinct colour+number held: cards outside the longest run may join it later."""
PUSH_GAIN = 0.6
"""What one more card is expected to add, in points, when deciding to draw again."""


def value(cards: Sequence[str]) -> float:
    """Score now plus a little for breadth (distinct spots held) and for wilds."""
    cells = {CELL[c] for c in cards if c in CELL}
    return collection_total(cards) + CELL_POINTS * len(cells)


class TenBotBefore(Bot):
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
        held = self._mine(view).collection
        return value(held + tuple(cards)) - value(held)

    def _cheapest(self, view: View, price: int) -> tuple[float, Payment]:
        """The payment that costs the bot least (tokens, bust tokens, then its least useful
        cards), with that cost in points."""
        me = self._mine(view)
        held = me.collection
        base = value(held)
        losses = sorted(
            (base - value(held[:i] + held[i + 1 :]), card) for i, card in enumerate(held)
        )
        best: tuple[float, Payment] | None = None
        for c, b, k in payment_shapes(price, me.currency, me.busts, len(held)):
            cards = [card for _, card in losses[:k]]
            cost = c * TOKEN_POINTS + b * BUST_TOKEN_POINTS + sum(loss for loss, _ in losses[:k])
            cost += k * TOKEN_POINTS  # a card paid is also purchasing power gone
            if best is None or cost < best[0]:
                best = (cost, Payment.of(c, b, cards))
        if best is None:
            return float("inf"), Payment()
        return best

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
