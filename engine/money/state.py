"""Money! state, actions and view: frozen plain dataclasses (they cross the wire as msgpack)."""

from __future__ import annotations

from dataclasses import dataclass, fields

from ..core import Rng, fast_maker, plain
from .cards import SORT_KEY

# ---- actions ---------------------------------------------------------------------------


@plain("money.Bid")
@dataclass(frozen=True, slots=True)
class Bid:
    """The money cards a player puts forward (never a bluff id), each group sorted by serial.

    3-5 players: one bid, `right` always (). 2 players (money.md §6): `left` alone is one bid;
    `left` and `right` both non-empty are two bids divided by the bluff card, `left` being the
    one that acts first (higher value; equal values: lower key serial). Empty `left` = the
    bluff card alone (no turn). Build it with `rules.make_bid` to get the canonical form.
    """

    left: tuple[str, ...]
    right: tuple[str, ...] = ()


@plain("money.SwapMarket")
@dataclass(frozen=True, slots=True)
class SwapMarket:
    """Exchange the acting bid for a market side: 0 = side I, 1 = side II."""

    side: int


@plain("money.SwapBid")
@dataclass(frozen=True, slots=True)
class SwapBid:
    """Exchange the acting bid for another player's pending bid (slot 1 = right bid, 2p only)."""

    owner: int
    slot: int = 0


@plain("money.Keep")
@dataclass(frozen=True, slots=True)
class Keep:
    """Take the acting bid's own cards back into hand."""


ACTIONS = (Bid, SwapMarket, SwapBid, Keep)
"""Every Money! action type (`Game.action_types`)."""


# ---- bids on the table -----------------------------------------------------------------

BID_STATUSES = ("pending", "next", "acting", "resolved", "withdrawn")


@plain("money.BidView")
@dataclass(frozen=True, slots=True)
class BidView:
    """One revealed bid of the round, as views show it.

    status: "pending" (waits for its turn), "acting" (acts now, by value/serial order),
    "next" (acts now because another player's bid was just swapped into this place),
    "resolved" (has acted; `cards` are the cards it held when it acted, `outcome` says what it
    did, `target` which bid it swapped with), "withdrawn" (its owner bid the bluff card alone:
    no cards, no turn).
    `value` is the sum of the cards' face values, `key_serial` the serial of the first card.
    """

    owner: int
    slot: int
    cards: tuple[str, ...]
    value: int
    key_serial: int
    status: str
    outcome: str = ""
    target: tuple[int, int] | None = None
    """A resolved bid that swapped with another bid: that bid's (owner, slot), for screens
    to name its owner (`outcome` words it with a seat number)."""


# ---- state -----------------------------------------------------------------------------


@plain("money.PendingBid")
@dataclass(frozen=True, slots=True)
class PendingBid:
    """A revealed bid that has not acted yet: whose place it is (owner, and slot 1 for the
    right bid of a 2-player split) and the cards it holds now (a swap with another bid moves
    the acting bid's cards into that place). Its value and key serial follow from the cards.
    """

    owner: int
    slot: int
    cards: tuple[str, ...]


Event = tuple
"""One entry of a round's log, kept compact in the state and worded only for views:
("reveal", round_no, final_round, the PendingBids in acting order, withdrawn seats),
("market", acting PendingBid, side, cards taken), ("swap", acting PendingBid, the
PendingBid swapped with), ("keep", acting PendingBid), ("refill", round_no, cards dealt to
side I, to side II, cards left in the deck), ("last_dealt",), ("deck_empty",), ("over",)."""


@plain("money.MoneySetup")
@dataclass(frozen=True, slots=True)
class MoneySetup:
    """What setup fixed for the whole game: one object every later state shares."""

    n_players: int
    edition: str
    removed: tuple[str, ...]
    box: tuple[str, ...]
    rng: Rng


@plain("money.MoneyState")
@dataclass(frozen=True, slots=True)
class MoneyState:
    """The whole table. Hands and market sides are sorted by serial (bluff card last; over
    the network a card token, whose serial nobody knows, first).

    `pending` is in acting order: pending[0] is the bid that acts now (a bid swapped into
    its place if the last turn was a swap with a bid). `history` is this round's log
    (`Event`s: the reveal, then one per turn, then the refill), which is also the record of
    the resolved and the withdrawn bids; `last_history` is the previous round's.
    `unseen` = cards dealt into hands at setup that have never been shown face up (the only
    hand cards whose identity the other players cannot know).
    """

    setup: MoneySetup
    hands: tuple[tuple[str, ...], ...]
    market: tuple[tuple[str, ...], tuple[str, ...]]
    deck: tuple[str, ...]
    phase: str  # "bid" | "turns" | "over"
    round_no: int
    final_round: bool
    pending: tuple[PendingBid, ...]
    history: tuple[Event, ...]
    last_history: tuple[Event, ...]
    unseen: tuple[str, ...]

    def __init__(
        self, setup: MoneySetup, hands: tuple[tuple[str, ...], ...],
        market: tuple[tuple[str, ...], tuple[str, ...]], deck: tuple[str, ...], phase: str,
        round_no: int, final_round: bool, pending: tuple[PendingBid, ...],
        history: tuple[Event, ...], last_history: tuple[Event, ...], unseen: tuple[str, ...],
    ) -> None:
        # Over the network a state holds card tokens (engine/core/hidden.py), and nobody can
        # put a card in serial order before its face is known; `reveal` writes faces in
        # where the tokens lay and builds the state through here, so a zone kept in serial
        # order is sorted here once it holds faces only. Transitions never come here (they
        # build states with `new_state`); a plain state's zones are sorted already.
        hands = _each_in_order(hands)
        market = _each_in_order(market)
        unseen = _in_order(unseen)
        for name, value in zip(_STATE_FIELDS, (
            setup, hands, market, deck, phase, round_no, final_round, pending, history,
            last_history, unseen,
        ), strict=True):
            object.__setattr__(self, name, value)

    @property
    def n_players(self) -> int:
        return self.setup.n_players

    @property
    def edition(self) -> str:
        return self.setup.edition

    @property
    def removed(self) -> tuple[str, ...]:
        """The currencies returned to the box at setup."""
        return self.setup.removed

    @property
    def box(self) -> tuple[str, ...]:
        """The bluff cards no seat uses."""
        return self.setup.box

    @property
    def rng(self) -> Rng:
        return self.setup.rng


_STATE_FIELDS = tuple(f.name for f in fields(MoneyState))


def _in_order(zone: tuple[str, ...]) -> tuple[str, ...]:
    """`zone` in serial order if every card in it is a face (a token's place stays as it is)."""
    if isinstance(zone, tuple) and all(type(c) is str and c in SORT_KEY for c in zone):
        return tuple(sorted(zone, key=SORT_KEY.__getitem__))
    return zone


def _each_in_order(zones: tuple[tuple[str, ...], ...]) -> tuple[tuple[str, ...], ...]:
    return tuple(map(_in_order, zones)) if isinstance(zones, tuple) else zones


# ---- view ------------------------------------------------------------------------------


@plain("money.MoneyView")
@dataclass(frozen=True, slots=True)
class MoneyView:
    """What one seat (None = spectator) may know: everything public plus its own hand.

    `bids` = this round's revealed bids in acting order (resolved first, in the order they
    acted; then the acting bid; then the pending ones in the order they will act; then the
    withdrawn ones). `last_round` = the previous round's bids the same way. `history` = log
    lines of the previous and the current round. `final_hands` is filled only when the game
    is over (hands are shown for scoring). `own_score` is a property (computed on demand).
    """

    seat: int | None
    n_players: int
    edition: str
    removed: tuple[str, ...]
    hand: tuple[str, ...] | None
    hand_sizes: tuple[int, ...]
    market: tuple[tuple[str, ...], tuple[str, ...]]
    deck_size: int
    phase: str
    round_no: int
    final_round: bool
    bids: tuple[BidView, ...]
    acting: tuple[int, int] | None
    to_act: tuple[int, ...]
    history: tuple[str, ...]
    last_round: tuple[BidView, ...]
    final_hands: tuple[tuple[str, ...], ...] | None = None

    @property
    def own_score(self) -> int | None:
        """The score the seat's hand would make now (None for a spectator)."""
        if self.hand is None:
            return None
        from .scoring import hand_total  # scoring imports nothing from here; lazy for speed

        return hand_total(self.hand, self.edition)


# The rules build these once or more per step; elsewhere the plain constructors read better.
new_bid = fast_maker(Bid)
new_pending = fast_maker(PendingBid)
new_state = fast_maker(MoneyState)
