"""A heuristic Money! bot: collect strong currencies and sets, bid away what does not fit.

It reads only its view. A hand is judged by `potential`: the final score it would make now
plus part of the way to what it could become (a currency below 200, two cards of a set),
a part that shrinks as the deck runs out. In its turn it takes the option (a market side,
another bid, or its own bid back) that leaves the best hand. To bid it puts forward the
cards it needs least, as many as make the best trade against the best market side, with a
guess at how likely that side is still there when its turn comes.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..core import Action, ActionSpace
from ..money import make_bid
from ..money.cards import CURRENCY, KIND, VALUE
from ..money.scoring import currency_points
from ..money.state import Keep, MoneyView, SwapBid, SwapMarket
from .base import Bot

_AVERAGE_CARD = 27  # the mean face value of a money card (both editions), for bid guesses


def _terms(card: str, sets_of_kinds: bool) -> tuple[str | None, int, tuple[str, int] | None, int]:
    """What one card adds to `potential`: (its currency or None, its value to that currency,
    the set it counts toward or None, its face value as a non-currency card)."""
    kind = KIND[card]
    if kind == "currency":
        value = VALUE[card]
        return CURRENCY[card], value, (CURRENCY[card], value) if value <= 30 else None, 0
    if kind == "bluff":
        return None, 0, None, 0
    return None, 0, (kind, 0) if sets_of_kinds else None, VALUE[card]


_TERMS = {sets_of_kinds: {card: _terms(card, sets_of_kinds) for card in KIND} for sets_of_kinds in (False, True)}
"""Per card, its terms, for the classic edition (no sets of non-currency kinds) and the others:
`potential` reads one entry a card instead of three tables and a kind test (over half of a
normal bot's game was spent there)."""


def potential(cards: Sequence[str], edition: str, hope: float) -> float:
    """Final score of `cards` plus `hope` times what is within reach (0 <= hope <= 1)."""
    terms = _TERMS[edition != "classic"]
    totals: dict[str, int] = {}
    sets: dict[tuple[str, int], int] = {}
    extra = 0
    for card in cards:
        currency, value, in_set, face = terms[card]
        if currency is not None:
            totals[currency] = totals.get(currency, 0) + value
        if in_set is not None:
            sets[in_set] = sets.get(in_set, 0) + 1
        extra += face
    score = float(extra)
    for total in totals.values():
        points = currency_points(total)
        score += points + hope * 0.6 * (total - points)
    for count in sets.values():
        score += 100 * (count // 3) + hope * (45 if count % 3 == 2 else 12 if count % 3 == 1 else 0)
    return score


def _hope(view: MoneyView) -> float:
    """How much of what is within reach still counts: less as the deck runs out."""
    return min(1.0, view.deck_size / 30) * (0.0 if view.final_round else 1.0)


class MoneyBot(Bot):
    kind = "heuristic"

    def choose(self, view: MoneyView, actions: Sequence[Action] | ActionSpace) -> Action:
        hope = _hope(view)
        if view.phase == "bid":
            return self._bid(view, hope)
        return self._turn(view, actions, hope)

    def shortlist(self, view: MoneyView, actions: Sequence[Action] | ActionSpace) -> list[Action]:
        """In a turn every option, best hand first; to bid, the best bid of each size."""
        hope = _hope(view)
        if view.phase == "bid":
            best: dict[int, tuple[float, list[str]]] = {0: (potential(view.hand or (), view.edition, hope), [])}
            for offered, score in self._bid_scores(view, hope):
                if score > best.get(len(offered), (float("-inf"),))[0]:
                    best[len(offered)] = (score, offered)
            ranked = sorted(best.values(), key=lambda so: (-so[0], len(so[1])))
            return [make_bid(cards, (), view.n_players) for _, cards in ranked]
        scored = list(self._turn_scores(view, actions, hope))
        return [action for _, action in sorted(scored, key=lambda sa: -sa[0])]

    # ---- turns ----
    def _turn(self, view: MoneyView, actions: Sequence[Action], hope: float) -> Action:
        best, best_score = None, float("-inf")
        for score, action in self._turn_scores(view, actions, hope):
            if score > best_score:
                best, best_score = action, score
        return best if best is not None else actions[-1]

    def _turn_scores(self, view: MoneyView, actions: Sequence[Action], hope: float):
        """(the hand's potential after it, action) for each option of a turn, in order."""
        hand = view.hand or ()
        own = next(b for b in view.bids if (b.owner, b.slot) == view.acting)
        for action in actions:
            if isinstance(action, SwapMarket):
                gain = view.market[action.side]
            elif isinstance(action, SwapBid):
                gain = next(b.cards for b in view.bids
                            if b.owner == action.owner and b.slot == action.slot
                            and b.status in ("pending", "acting", "next"))
            elif isinstance(action, Keep):
                gain = own.cards
            else:
                continue
            score = potential(hand + tuple(gain), view.edition, hope)
            if isinstance(action, Keep):
                score += 0.5  # on equal hands, give nothing away
            yield score, action

    # ---- bids ----
    def _bid(self, view: MoneyView, hope: float) -> Action:
        best_cards: list[str] = []
        best_score = potential(view.hand or (), view.edition, hope)  # the bluff-only bid
        for offered, score in self._bid_scores(view, hope):
            if score > best_score + 1:
                best_cards, best_score = offered, score
        return make_bid(best_cards, (), view.n_players)

    def _bid_scores(self, view: MoneyView, hope: float):
        """(cards offered, expected potential) for each bid of the k cards needed least and
        each market side it could win, in order."""
        hand = view.hand or ()
        money = [c for c in hand if KIND[c] != "bluff"]
        edition = view.edition
        now = potential(hand, edition, hope)
        # Cards ordered by how little the hand loses without them (ties: higher value first,
        # a stronger bid for the same loss).
        loss = {}
        for card in money:
            rest = [c for c in hand if c != card]
            loss[card] = now - potential(rest, edition, hope)
        order = sorted(money, key=lambda c: (loss[c], -VALUE[c]))
        opponents = [
            max(0, size - 1) * _AVERAGE_CARD / 2
            for seat, size in enumerate(view.hand_sizes) if seat != view.seat
        ]
        for k in range(1, len(order) + 1):
            offered = order[:k]
            left = [c for c in hand if c not in offered]
            value = sum(VALUE[c] for c in offered)
            ahead = sum(1 for guess in opponents if guess > value)
            survive = 0.75 ** ahead
            for side in view.market:
                gained = potential(left + list(side), edition, hope)
                yield offered, survive * gained + (1 - survive) * now
