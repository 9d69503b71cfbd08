"""Ten heuristic bot: stops by the risk of busting, bids what a wild adds to its runs, buys to
extend runs, and pays with what it misses least. It reads only its view (everything in Ten is
public except the deck order, and the view carries the unseen card counts). What it reckons
cards worth, lost, gained and paid: engine/bots/ten_values.py.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..core import Action, ActionSpace, pick_uniform
from ..ten.cards import MIN_BID, NUMBER_VALUE, TOKEN_CAP, TYPE_OF
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
from .ten_values import (
    SURELY_ABOVE,
    TOKEN_POINTS,
    cheapest,
    cost_floor,
    gain,
    gain_ceiling,
    gain_floor,
    wild_gain_ceiling,
)

PUSH_GAIN = 0.6
"""What one more card is expected to add, in points, when deciding to draw again."""


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

    # ---- for the hard bot (engine/bots/search.py) ---------------------------------------
    def shortlist(self, view: View, actions: Sequence[Action] | ActionSpace) -> list[Action]:
        """What a search may change, best first: claim or draw while a draw can bust; the bids
        from the lowest to the wild's whole worth, and passing; each market card at its
        cheapest price, and skipping; the solo wild or not. Empty (the normal bot's move
        stands) where nothing is at stake that a rollout could show: a draw that risks
        nothing, a forced draw, the choice of cards to pay with (the cheapest loss). Without
        it the search sampled the thousands of payments and buys, nearly all poor."""
        phase = view.phase
        if phase == CHOOSE and view.deck_size and view.bust_cards:
            return [action for action in (Draw(), ClaimNumbers(), ClaimCurrency()) if action in actions]
        if phase == AUCTION:
            return [action for action in self._bids_worth_trying(view) if action in actions]
        if phase == SOLO_WILD:
            return [action for action in (BuyWild(self._cheapest(view, view.price)[1]), DiscardWild())
                    if action in actions]
        if phase in (BUY, FINAL_BUY):
            return [action for _, action in sorted(self._buys(view), key=lambda na: -na[0])]
        return []

    def _bids_worth_trying(self, view: View) -> list[Action]:
        me = self._mine(view)
        low = max(MIN_BID, view.auction.high_bid + 1)  # the lowest bid the rules allow now
        means = min(me.currency + 3 * me.busts, me.power)
        worth = min(int(self._gain(view, [view.auction.wild]) / TOKEN_POINTS), means)
        return [Pass(), *(Bid(amount) for amount in sorted({low, (low + worth) // 2, worth}) if amount >= low)]

    def _buys(self, view: View) -> list[tuple[float, Action]]:
        """(what it adds less what it costs, the buy) for one card of each type on sale, and
        (0, skip)."""
        out: list[tuple[float, Action]] = [(0.0, Skip())]
        seen: set[str] = set()
        for card in view.buyable:
            if TYPE_OF[card] not in seen:
                seen.add(TYPE_OF[card])
                cost, payment = self._cheapest(view, NUMBER_VALUE[card])
                out.append((self._gain(view, [card]) - cost, Buy(card, payment)))
        return out

    # ---- helpers --------------------------------------------------------------------------
    def _mine(self, view: View):
        return view.players[self.seat]

    def _gain(self, view: View, cards: Sequence[str]) -> float:
        return gain(tuple(self._mine(view).collection), tuple(cards))

    def _cheapest(self, view: View, price: int) -> tuple[float, Payment]:
        me = self._mine(view)
        return cheapest(price, me.currency, me.busts, tuple(me.collection))

    def _cost_floor(self, view: View, price: int) -> float:
        me = self._mine(view)
        return cost_floor(price, me.currency, me.busts, len(me.collection))

    # ---- decisions --------------------------------------------------------------------------
    def _draw_or_claim(self, view: View) -> Action:
        if view.deck_size and not view.bust_cards:
            return Draw()  # no risk: drawing wins whatever the stake (0 × (stake + 1) < 0.6)
        me = self._mine(view)
        numbers = [c for c in view.tableau if c in NUMBER_VALUE]
        currency_value = min(view.currency_sum, TOKEN_CAP - me.currency) * TOKEN_POINTS
        risk = view.bust_cards / view.deck_size if view.deck_size else 0.0
        # first the claim at its ceiling (no search): when the decision holds for any value up
        # to it, the value itself is not needed
        ceiling = self._claim_value(view, gain_ceiling(tuple(me.collection), tuple(numbers)))
        if view.deck_size and risk * (max(ceiling, currency_value) + 1.0) < (1 - risk) * PUSH_GAIN - 1e-9:
            return Draw()  # it draws even at the highest stake the claim could have
        if ceiling < currency_value - SURELY_ABOVE:  # surely below: the stake is the currency's
            if view.deck_size and risk * (currency_value + 1.0) < (1 - risk) * PUSH_GAIN:
                return Draw()
            return ClaimCurrency()
        floor = self._claim_value(view, gain_floor(tuple(me.collection), tuple(numbers)))
        if floor >= currency_value + SURELY_ABOVE and (
            not view.deck_size or risk * (floor + 1.0) >= (1 - risk) * PUSH_GAIN + 1e-9
        ):  # the numbers surely above the currency, and no draw even at their lowest stake
            return ClaimNumbers()
        numbers_value = self._claim_value(view, self._gain(view, numbers))
        stake = max(numbers_value, currency_value)
        if view.deck_size:
            if risk * (stake + 1.0) < (1 - risk) * PUSH_GAIN:
                return Draw()
        return ClaimNumbers() if numbers_value >= currency_value else ClaimCurrency()

    @staticmethod
    def _claim_value(view: View, gain: float) -> float:
        """What claiming the numbers is worth to the bot, for what they add to its value."""
        if view.n_players > 1:  # the currency shown goes to the others: half a loss to us
            gain -= view.currency_sum * TOKEN_POINTS * 0.5
        if view.market:  # claiming numbers comes with a buy phase
            gain += 0.5
        return gain

    def _bid(self, view: View) -> Action:
        auction = view.auction
        me = self._mine(view)
        low = auction.high_bid + 1
        means = min(me.currency + 3 * me.busts, me.power)
        if means < low:
            return Pass()  # the ceiling is at most its means: it passes whatever the wild adds
        if int((wild_gain_ceiling(tuple(me.collection), auction.wild) + SURELY_ABOVE) / TOKEN_POINTS) < low:
            return Pass()  # even at what the wild can add at most, it would not bid this high
        last = len(auction.bidders) == 1
        # at the least the wild adds, the tokens it is worth (never above the real figure)
        least = int((gain_floor(tuple(me.collection), (auction.wild,)) - SURELY_ABOVE) / TOKEN_POINTS)
        if least >= means:  # its ceiling is its means, whatever more the wild adds
            return Bid(low if last else max(low, (means + low) // 2))
        if last and least >= low:  # the last bidder bids just enough once it can
            return Bid(low)
        gain = self._gain(view, [auction.wild])
        ceiling = min(int(gain / TOKEN_POINTS), means)
        if ceiling < low:
            return Pass()
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
            floor = self._cost_floor(view, NUMBER_VALUE[card])
            held = tuple(self._mine(view).collection)
            if gain_ceiling(held, (card,)) - floor <= best[0] - SURELY_ABOVE:
                continue  # surely no more than the best even at its ceiling: spare its search
            gain = self._gain(view, [card])
            if gain - floor <= best[0]:
                continue  # it cannot beat the best so far: spare pricing the cards it would cost
            cost, payment = self._cheapest(view, NUMBER_VALUE[card])
            net = gain - cost
            if net > best[0]:
                best = (net, Buy(card, payment))
        return best[1]
