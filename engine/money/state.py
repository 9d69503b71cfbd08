"""Money! state, actions and view: frozen plain dataclasses (they cross the wire as msgpack)."""

from __future__ import annotations

from dataclasses import dataclass

from ..core import Rng, plain

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


# ---- bids on the table -----------------------------------------------------------------

BID_STATUSES = ("pending", "next", "acting", "resolved", "withdrawn")


@plain("money.BidView")
@dataclass(frozen=True, slots=True)
class BidView:
    """One revealed bid of the round (the same value lives in the state and in views).

    status: "pending" (waits for its turn), "acting" (acts now, by value/serial order),
    "next" (acts now because another player's bid was just swapped into this place),
    "resolved" (has acted; `cards` are the cards it held when it acted, `outcome` says what it
    did), "withdrawn" (its owner bid the bluff card alone: no cards, no turn).
    """

    owner: int
    slot: int
    cards: tuple[str, ...]
    value: int
    key_serial: int
    status: str
    outcome: str = ""


# ---- state -----------------------------------------------------------------------------


@plain("money.MoneyState")
@dataclass(frozen=True, slots=True)
class MoneyState:
    """The whole table. Hands and market sides are sorted by serial (bluff card last).

    `pending` is in acting order: pending[0] is the bid that acts now. `done` holds this
    round's resolved bids in the order they acted, `withdrawn` the bluff-only bids.
    `unseen` = cards dealt into hands at setup that have never been shown face up (the only
    hand cards whose identity the other players cannot know).
    """

    n_players: int
    edition: str
    removed: tuple[str, ...]
    hands: tuple[tuple[str, ...], ...]
    market: tuple[tuple[str, ...], tuple[str, ...]]
    deck: tuple[str, ...]
    box: tuple[str, ...]
    phase: str  # "bid" | "turns" | "over"
    round_no: int
    final_round: bool
    pending: tuple[BidView, ...]
    done: tuple[BidView, ...]
    withdrawn: tuple[BidView, ...]
    last_round: tuple[BidView, ...]
    history: tuple[str, ...]
    last_history: tuple[str, ...]
    unseen: tuple[str, ...]
    rng: Rng


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
