"""Ten's rules (ten.md): the Game itself, what it shows and what it tells the network.

Its parts: setup.py (the deal), seats.py (who acts, what a seat can pay), checks.py (what is
legal now), steps.py (the transitions: draws, claims, busts, auctions, buying, the end),
deck.py (what the table knows of the deck), view.py (what a choice would give the acting seat).
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache, partial
from typing import Any

from ..core import (
    Game,
    IllegalAction,
    OptionSpec,
    Result,
    relabel,
)
from ..core.hidden import is_token
from .cards import MIN_BID, SOLO_WILD_PRICE, card_name, deck_for
from .checks import (
    CHECKS,
    CHOICES_LAST_CARD,
    CHOICES_WITH_DRAW,
    DISCARD_ONLY,
    DRAW_ONLY,
    SKIP_ONLY,
    bid_choices,
    buy_heads,
)
from .deck import bust_cards, deck_facts, off_deck, unseen_deck
from .events import ten_events
from .payment import PaymentSpace, purchasing_power
from .result import result_of
from .scoring import collection_total
from .seats import MAX_PLAYERS, TURN_PHASES, acting, power_of
from .setup import setup_state
from .state import (
    ACTIONS,
    AUCTION,
    BUY,
    CHOOSE,
    DRAW,
    FINAL_BUY,
    OVER,
    PAY,
    SOLO_WILD,
    Buy,
    BuyWild,
    Draw,
    Pay,
    Payment,
    PlayerView,
    PricedLater,
    State,
    View,
    new_buy_wild,
    new_pay,
    new_view,
)
from .steps import STEPS
from .view import prospects

_SEATS = tuple(frozenset({seat}) for seat in range(MAX_PLAYERS))
_NOBODY: frozenset[int] = frozenset()
_BUY_PHASES = (BUY, FINAL_BUY)


@lru_cache(maxsize=4096)
def _player_view(seat: int, collection: tuple[str, ...], currency: int, busts: int) -> PlayerView:
    """A seat's public holdings with its purchasing power and its score if the game ended now."""
    power = purchasing_power(currency, busts, len(collection))
    return PlayerView(seat, collection, currency, busts, power, collection_total(collection))


def describe_payment(payment: Payment) -> str:
    parts = []
    if payment.currency:
        parts.append(f"{payment.currency} token{'s' * (payment.currency != 1)}")
    if payment.busts:
        parts.append(f"{payment.busts} bust token{'s' * (payment.busts != 1)}")
    parts.extend(card_name(card) for card in payment.cards)
    return " + ".join(parts) or "nothing"


class Ten(Game):
    id = "ten"
    name = "Ten"
    min_players = 1
    max_players = MAX_PLAYERS
    action_types = ACTIONS
    options = (
        OptionSpec("first_player", None, None, "first seat (null: drawn with the game RNG)"),
        OptionSpec("deck", None, None, "stacked deck, top card first (tests and replays)"),
    )
    # Game's fast lane: every action type's check and transition, called directly (its
    # `_validate` is the check table's, which names any other type as "not a Ten action")
    _checks = CHECKS
    _steps = STEPS

    # ---- setup ---------------------------------------------------------------------------
    def _setup(self, n_players: int, seed: bytes, options: dict[str, Any]) -> State:
        return setup_state(n_players, seed, options)

    # ---- who acts, and what they may do ----------------------------------------------------
    def is_over(self, state: State) -> bool:
        return state.phase == OVER

    def _active(self, state: State) -> frozenset[int]:
        # the turn phases first, read inline: this is asked by every public method
        seat = state.turn if state.phase in TURN_PHASES else acting(state)
        return _SEATS[seat] if seat >= 0 else _NOBODY

    def _legal_actions(self, state: State, seat: int):
        phase = state.phase
        if phase == CHOOSE:
            return CHOICES_WITH_DRAW if state.deck else CHOICES_LAST_CARD
        if phase == DRAW:
            return DRAW_ONLY
        if phase == AUCTION:
            return bid_choices(max(MIN_BID, state.auction.high_bid + 1), power_of(state, seat))
        fixed: tuple = SKIP_ONLY
        if phase == PAY:
            fixed, heads = (), ((state.auction.high_bid, new_pay, None),)
        elif phase == SOLO_WILD:
            fixed, heads = DISCARD_ONLY, ()
            if power_of(state, seat) >= SOLO_WILD_PRICE:
                heads = ((SOLO_WILD_PRICE, new_buy_wild, None),)
        else:  # BUY, FINAL_BUY
            heads = tuple(buy_heads(state, seat))
        return PaymentSpace(
            fixed,
            heads,
            state.currency[seat],
            state.busts[seat],
            state.collections[seat],
            lambda action: self._is_valid(state, seat, action),
        )

    def buyable(self, state: State, seat: int) -> tuple[str, ...]:
        """Market cards `seat` could buy now: affordable and not identical to one it holds."""
        if state.phase not in _BUY_PHASES or acting(state) != seat:
            return ()
        return tuple([card for _, _, card in buy_heads(state, seat)])

    def _is_valid(self, state: State, seat: int, action: object) -> bool:
        try:
            self.validate(state, seat, action)
        except IllegalAction:
            return False
        return True

    # ---- transitions ---------------------------------------------------------------------
    def _apply(self, state: State, actions: Mapping[int, Any]) -> State:
        ((seat, action),) = actions.items()
        return STEPS[type(action)](state, seat, action)

    # ---- reading ---------------------------------------------------------------------------
    def _view(self, state: State, seat: int | None) -> View:
        phase = state.phase
        price = state.auction.high_bid if phase == PAY else 0
        if phase == SOLO_WILD:
            price = SOLO_WILD_PRICE
        collections, currency, busts = state.collections, state.currency, state.busts
        players = tuple(map(_player_view, range(state.n_players), collections, currency, busts))
        deck = unseen_deck(state)
        facts = deck_facts(deck)
        total, currency_sum = state.total, state.currency_sum
        active = acting(state)
        buyable = self.buyable(state, seat) if seat is not None else ()
        priced = None
        if seat is not None and seat == active:
            priced = PricedLater(partial(prospects, phase, players[seat], state.tableau,
                                         currency_sum, state.auction, price, state.market, buyable))
        return new_view(
            seat,
            state.n_players,
            state.turn,
            phase,
            (active,) if active >= 0 else (),
            len(deck),
            state.tableau,
            total,
            currency_sum,
            bust_cards(total, currency_sum, facts),
            facts[0],
            players,
            state.market,
            state.discard,
            state.auction,
            price,
            state.buyers,
            buyable,
            state.last_turn,
            priced,
        )

    def _result(self, state: State) -> Result:
        return result_of(state.collections, state.currency)

    def events(self, before: State, actions: Mapping[int, Any], after: State) -> tuple:
        """The cards the table saw this step: drawn, claimed, bought, paid (events.py)."""
        return ten_events(before, actions, after)

    def describe(self, action: Any) -> str:
        kind = type(action)
        if kind is Pay:
            return f"pays {describe_payment(action.payment)}"
        if kind is BuyWild:
            return f"keeps the wild, paying {describe_payment(action.payment)}"
        if kind is Buy:
            return f"buys {card_name(action.card)} for {describe_payment(action.payment)}"
        return str(action)

    def zones(self, state: State) -> dict[str, tuple[str, ...]]:
        zones = {
            "deck": state.deck,
            "tableau": state.tableau,
            "market": state.market,
            "discard": state.discard,
            "wild": (state.auction.wild,) if state.auction is not None else (),
        }
        for seat, cards in enumerate(state.collections):
            zones[f"collection_{seat}"] = cards
        return zones

    def secret_from(self, state: State, seat: int | None) -> frozenset[str]:
        return frozenset(state.deck)

    # ---- over the network: one deck, every draw turned over for the whole table -----------
    def decks(self, n_players: int, options: Mapping[str, Any]) -> tuple[tuple[str, tuple[str, ...]], ...]:
        return (("deck", deck_for(n_players)),)

    def seen(self, state: State, seat: int | None) -> frozenset[str]:
        # every card off the deck lies face up (a draw is turned over before it is placed)
        return frozenset(off_deck(state))

    def needs(self, state: State, actions: Mapping[int, Any]) -> frozenset[str]:
        # a draw reads the top card's face (a bust is decided by it)
        if state.deck and any(type(a) is Draw for a in actions.values()):
            return frozenset(filter(is_token, state.deck[:1]))
        return frozenset()

    def swap_cards(self, state: State, card: str, other: str) -> State | None:
        # every card has the same back and its own id: two ids trade places everywhere
        return None if card == other else relabel(state, card, other)


GAME = Ten()
