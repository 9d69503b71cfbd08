"""Money! rules (money.md): the simultaneous bid, the turns, round end; the Game itself.

Its parts: setup.py (the deal), bids.py (what a bid is), checks.py (what is legal now),
view.py (what a seat sees), dealt.py (the deck dealt face down over the network).

One `apply` step is either the whole BID step (every seat's bid at once; the reveal happens
inside) or one turn of the acting bid (the round end and the refill happen inside the last
turn). Hot path: validation is O(hand) through the precomputed dicts of `cards`.
"""

from __future__ import annotations

from collections.abc import Mapping
from itertools import filterfalse
from typing import Any

from ..core import (
    Game,
    OptionSpec,
    Result,
    Seat,
    draw,
    relabel,
)
from .bids import BidSpace
from .cards import (
    DEFAULT_EDITION,
    EDITIONS,
    KIND,
    MARKET_TARGET,
    PLAYER_RANGE,
    SERIAL,
    SORT_KEY,
    VALUE,
)
from .checks import check_action, check_bid, check_keep, check_market, check_swap, describe
from .dealt import DEALT, deal_options, dealt_cards, needs, seen, setup_dealt
from .events import money_events
from .scoring import score_hands
from .setup import setup_state
from .state import (
    ACTIONS,
    Bid,
    Event,
    Keep,
    MoneyState,
    MoneyView,
    SwapBid,
    SwapMarket,
    new_pending,
    new_state,
)
from .view import make_view

STALEMATE_ROUNDS = 200
"""The rules have no round limit (money.md §9.10); harnesses stop a game after this many."""
_SORT = SORT_KEY.__getitem__
_KEEP = Keep()
_SIDES = (SwapMarket(0), SwapMarket(1))
_SWAPS = tuple((SwapBid(owner, 0), SwapBid(owner, 1)) for owner in range(5))
_ALL_SEATS = {n: frozenset(range(n)) for n in range(1, 6)}
_ONE_SEAT = tuple(frozenset((seat,)) for seat in range(5))
_NOBODY: frozenset[int] = frozenset()
_VALUE_OF = VALUE.__getitem__
_OVER: Event = ("over",)
_DECK_EMPTY: Event = ("deck_empty",)
_LAST_DEALT: Event = ("last_dealt",)


def _reveal(state: MoneyState, bids: Mapping[Seat, Bid]) -> MoneyState:
    """§5.2: bids face up, bluff cards back, empty bids withdrawn, the rest ordered."""
    hands = list(state.hands)
    order: list[tuple[int, int, int, int, tuple[str, ...]]] = []
    withdrawn: list[int] = []
    shown: list[str] = []
    for seat, hand in enumerate(state.hands):
        bid = bids[seat]
        left = bid.left
        if not left:
            withdrawn.append(seat)
            continue
        order.append((-sum(map(_VALUE_OF, left)), SERIAL[left[0]], seat, 0, left))
        right = bid.right
        if right:
            order.append((-sum(map(_VALUE_OF, right)), SERIAL[right[0]], seat, 1, right))
            shown += right
        shown += left
        # A valid bid names cards of the hand, each once: removing them one by one keeps
        # the hand's order and is the fastest way to take a few cards out of a dozen.
        kept = list(hand)
        for card in left:
            kept.remove(card)
        for card in right:
            kept.remove(card)
        hands[seat] = tuple(kept)
    unseen = state.unseen
    if unseen and shown:
        unseen = tuple(filterfalse(set(shown).__contains__, unseen))
    order.sort()
    placed = []  # a loop, not a comprehension: one call fewer a reveal (its own frame)
    for _, _, seat, slot, cards in order:
        placed.append(new_pending(seat, slot, cards))
    pending = tuple(placed)
    history = (("reveal", state.round_no, state.final_round, pending, tuple(withdrawn)),)
    if not pending:
        return _end_round(state, tuple(hands), state.market, history, unseen)
    return new_state(
        state.setup, tuple(hands), state.market, state.deck, "turns", state.round_no,
        state.final_round, pending, history, state.last_history, unseen,
    )


def _turn(state: MoneyState, seat: Seat, action: object) -> MoneyState:
    """§5.3: the acting bid (its owner is `seat`) swaps with a side or another bid, or is kept."""
    pending = state.pending
    acting = pending[0]
    rest = pending[1:]
    hands = list(state.hands)
    market = state.market
    kind = type(action)
    # Each branch merges what the player takes into the hand, kept in serial order.
    if kind is SwapMarket:
        side = action.side
        taken = market[side]
        hands[seat] = tuple(sorted(hands[seat] + taken, key=_SORT))
        market = (acting.cards, market[1]) if side == 0 else (market[0], acting.cards)
        event: Event = ("market", acting, side, taken)
    elif kind is SwapBid:
        owner, slot = action.owner, action.slot
        i = 0
        while rest[i].owner != owner or rest[i].slot != slot:  # validated: it is there
            i += 1
        target = rest[i]
        hands[seat] = tuple(sorted(hands[seat] + target.cards, key=_SORT))
        # The acting bid's cards take the target's place and act at once (§5.3).
        rest = (new_pending(owner, slot, acting.cards),) + rest[:i] + rest[i + 1:]
        event = ("swap", acting, target)
    else:
        hands[seat] = tuple(sorted(hands[seat] + acting.cards, key=_SORT))
        event = ("keep", acting)
    history = state.history + (event,)
    if not rest:
        return _end_round(state, tuple(hands), market, history, state.unseen)
    return new_state(
        state.setup, tuple(hands), market, state.deck, "turns", state.round_no,
        state.final_round, rest, history, state.last_history, state.unseen,
    )


def _end_round(state: MoneyState, hands, market, history, unseen) -> MoneyState:
    """§5.4: score after the final round; otherwise refill side I then side II up to 4."""
    if state.final_round:
        return new_state(
            state.setup, hands, market, state.deck, "over", state.round_no, True, (), (),
            history + (_OVER,), unseen,
        )
    deck = state.deck
    final = False
    if not deck:  # a safeguard: a refill that dealt the last card already made this final
        final = True
        history += (_DECK_EMPTY,)
    else:
        side1, side2 = market
        dealt1 = dealt2 = ()  # a side still full draws nothing (most refills leave one so)
        if len(side1) < MARKET_TARGET:
            dealt1, deck = draw(deck, MARKET_TARGET - len(side1))
        if len(side2) < MARKET_TARGET:
            dealt2, deck = draw(deck, MARKET_TARGET - len(side2))
        if dealt1:
            side1 = tuple(sorted(side1 + dealt1, key=_SORT))
        if dealt2:
            side2 = tuple(sorted(side2 + dealt2, key=_SORT))
        market = (side1, side2)
        history += (("refill", state.round_no, len(dealt1), len(dealt2), len(deck)),)
        if (dealt1 or dealt2) and not deck:
            final = True
            history += (_LAST_DEALT,)
    return new_state(
        state.setup, hands, market, deck, "bid", state.round_no + 1, final, (), (), history,
        unseen,
    )


class MoneyGame(Game):
    id = "money"
    name = "Money!"
    min_players = 2
    max_players = 5
    action_types = ACTIONS
    options = (
        OptionSpec("edition", DEFAULT_EDITION, EDITIONS,
                   "gold_silver (Gold and Silver cards, 2-5 players) or classic (coins, 3-5)"),
        OptionSpec("removed_currencies", None, None,
                   "currencies returned to the box (null: chosen by the seeded shuffle)"),
        OptionSpec("deck", None, None, "stacked deck for tests and replays, top card first"),
    )

    def player_range(self, options: Mapping[str, Any]) -> tuple[int, int]:
        return PLAYER_RANGE.get(options.get("edition", DEFAULT_EDITION), (2, 5))

    def _setup(self, n_players: int, seed: bytes, options: dict[str, Any]) -> MoneyState:
        return setup_state(n_players, seed, options)

    # ---- whose turn ----
    def is_over(self, state: MoneyState) -> bool:
        return state.phase == "over"

    def _active(self, state: MoneyState) -> frozenset[Seat]:
        phase = state.phase
        if phase == "turns":
            return _ONE_SEAT[state.pending[0].owner]
        return _ALL_SEATS[state.setup.n_players] if phase == "bid" else _NOBODY

    def _legal_actions(self, state: MoneyState, seat: Seat):
        if state.phase == "bid":
            hand = state.hands[seat]
            # The money cards: all but the bluff card, which always sorts last.
            money = hand[:-1] if KIND[hand[-1]] == "bluff" else hand
            return BidSpace(money, state.setup.n_players == 2)
        # A turn: the market sides that hold cards, the other players' pending bids, then
        # keep (written out here: the random bots of every benchmark ask this at each turn).
        pending = state.pending
        owner = pending[0].owner
        side1, side2 = state.market
        actions = [_SIDES[0]] if side1 else []
        if side2:
            actions.append(_SIDES[1])
        for bid in pending[1:]:
            if bid.owner != owner:
                actions.append(_SWAPS[bid.owner][bid.slot])
        actions.append(_KEEP)
        return tuple(actions)

    def _validate(self, state: MoneyState, seat: Seat, action: object) -> None:
        check_action(state, seat, action)

    def _apply(self, state: MoneyState, actions: Mapping[Seat, Any]) -> MoneyState:
        if state.phase == "bid":
            return _reveal(state, actions)
        ((seat, action),) = actions.items()
        return _turn(state, seat, action)

    # ---- what a seat sees ----
    def _view(self, state: MoneyState, seat: Seat | None) -> MoneyView:
        return make_view(state, seat)

    def _result(self, state: MoneyState) -> Result:
        return score_hands(state.hands, state.edition)

    # ---- presentation and test hooks ----
    def events(self, before: MoneyState, actions: Mapping[Seat, object], after: MoneyState) -> tuple:
        """The round log's new entries: bids once revealed, what each swap took (events.py)."""
        return money_events(before, after)

    def describe(self, action: object) -> str:
        return describe(action)

    def zones(self, state: MoneyState) -> dict[str, tuple[str, ...]]:
        out = {f"hand{seat}": hand for seat, hand in enumerate(state.hands)}
        out["market_I"] = state.market[0]
        out["market_II"] = state.market[1]
        out["deck"] = state.deck
        out["bids"] = tuple(c for bid in state.pending for c in bid.cards)
        out["box"] = state.box
        return out

    def secret_from(self, state: MoneyState, seat: Seat | None) -> frozenset[str]:
        """The deck, and the cards of other hands never shown face up (§7: every revealed
        card's path is public, so a card once bid or seen in the market is no secret)."""
        if state.phase == "over":
            return frozenset(state.deck)
        unseen = set(state.unseen)
        others = (
            c for s, hand in enumerate(state.hands) if s != seat for c in hand if c in unseen
        )
        return frozenset(state.deck).union(others)

    def swap_cards(self, state: MoneyState, card: str, other: str) -> MoneyState | None:
        # every card has the same back and its own id: two ids trade places everywhere, each
        # keeping the other's place (built field by field: `MoneyState(...)` would sort them)
        if card == other:
            return None
        return new_state(*(relabel(value, card, other) for value in new_state.values(state)))

    def stalemate(self, state: MoneyState) -> bool:
        return state.round_no > STALEMATE_ROUNDS

    # ---- over the network: one deck dealt face down (issue #13) ----
    def decks(self, n_players: int, options: Mapping[str, Any]) -> tuple[tuple[str, tuple[str, ...]], ...]:
        opts = self.check_options(options)
        self.check_players(n_players, opts)
        return ((DEALT, dealt_cards(n_players, opts)),)

    def _setup_dealt(self, n_players: int, seed: bytes, options: dict[str, Any]) -> MoneyState:
        return setup_dealt(n_players, seed, options)

    def seen(self, state: MoneyState, seat: Seat | None) -> frozenset[str]:
        return frozenset(seen(state, seat))

    def needs(self, state: MoneyState, actions: Mapping[Seat, Any]) -> frozenset[str]:
        return needs(state, actions)

    def scored_cards(self, state: MoneyState, seat: Seat) -> tuple[str, ...]:
        return state.hands[seat]  # a hand is scored face up (§8)

    def deal_options(self, n_players: int, seed: bytes, options: Mapping[str, Any]) -> dict[str, Any]:
        return deal_options(n_players, seed, options)


MoneyGame._checks = {Bid: check_bid, Keep: check_keep, SwapMarket: check_market,
                     SwapBid: check_swap}
MoneyGame._steps = {kind: _turn for kind in (Keep, SwapMarket, SwapBid)}

GAME = MoneyGame()
