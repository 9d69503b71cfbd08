"""Ten's state, actions and view: frozen plain data (ints, strings, tuples).

Phases of the state machine (ten.md §5):
  "draw"      start of a turn: the active player must draw
  "choose"    after a card (or an auction): draw again, claim numbers or claim currency
  "auction"   a wild is up for bids; `auction.bidders[0]` acts (bid or pass)
  "pay"       the auction winner `auction.high_bidder` pays `auction.high_bid`
  "solo_wild" solo game: buy the wild drawn for 1 or discard it
  "buy"       the active player's buy phase after claiming numbers
  "final_buy" the final buy phases; `buyers[0]` acts
  "over"      scored
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..core import Rng, fast_maker, plain

DRAW = "draw"
CHOOSE = "choose"
AUCTION = "auction"
PAY = "pay"
SOLO_WILD = "solo_wild"
BUY = "buy"
FINAL_BUY = "final_buy"
OVER = "over"

CLAIM_NUMBERS = "claim_numbers"
CLAIM_CURRENCY = "claim_currency"
BUST_NUMBERS = "bust_numbers"
BUST_CURRENCY = "bust_currency"


@plain("ten.Payment")
@dataclass(frozen=True, slots=True)
class Payment:
    """Currency tokens, bust tokens and collection cards (ids, sorted ascending) given to pay."""

    currency: int = 0
    busts: int = 0
    cards: tuple[str, ...] = ()

    @staticmethod
    def of(currency: int = 0, busts: int = 0, cards: tuple[str, ...] | list[str] = ()) -> Payment:
        """A payment with its cards in the canonical (sorted) order."""
        return Payment(currency, busts, tuple(sorted(cards)))


@plain("ten.Draw")
@dataclass(frozen=True, slots=True)
class Draw:
    def __str__(self) -> str:
        return "draw"


@plain("ten.ClaimNumbers")
@dataclass(frozen=True, slots=True)
class ClaimNumbers:
    def __str__(self) -> str:
        return "claim numbers"


@plain("ten.ClaimCurrency")
@dataclass(frozen=True, slots=True)
class ClaimCurrency:
    def __str__(self) -> str:
        return "claim currency"


@plain("ten.Bid")
@dataclass(frozen=True, slots=True)
class Bid:
    amount: int

    def __str__(self) -> str:
        return f"bid {self.amount}"


@plain("ten.Pass")
@dataclass(frozen=True, slots=True)
class Pass:
    def __str__(self) -> str:
        return "pass"


@plain("ten.Pay")
@dataclass(frozen=True, slots=True)
class Pay:
    """The auction winner pays their bid."""

    payment: Payment


@plain("ten.Buy")
@dataclass(frozen=True, slots=True)
class Buy:
    """Buy one market card (price = its number)."""

    card: str
    payment: Payment


@plain("ten.Skip")
@dataclass(frozen=True, slots=True)
class Skip:
    def __str__(self) -> str:
        return "buy nothing"


@plain("ten.BuyWild")
@dataclass(frozen=True, slots=True)
class BuyWild:
    """Solo game: keep the wild just drawn for the solo price."""

    payment: Payment


@plain("ten.DiscardWild")
@dataclass(frozen=True, slots=True)
class DiscardWild:
    def __str__(self) -> str:
        return "discard the wild"


ACTIONS = (Draw, ClaimNumbers, ClaimCurrency, Bid, Pass, Pay, Buy, Skip, BuyWild, DiscardWild)
"""Every Ten action type (`Game.action_types`)."""


@plain("ten.TurnEnd")
@dataclass(frozen=True, slots=True)
class TurnEnd:
    """How the last finished turn ended, for the log and the screen.

    outcome: claim_numbers, claim_currency, bust_numbers or bust_currency. `numbers` and
    `currency_cards` are the tableau's cards; `gains[s]` the currency tokens seat s actually
    took (after the cap of 10).
    """

    seat: int
    outcome: str
    numbers: tuple[str, ...]
    currency_cards: tuple[str, ...]
    amount: int
    gains: tuple[int, ...]


@plain("ten.Auction")
@dataclass(frozen=True, slots=True)
class Auction:
    """A wild drawn this turn and its auction (in the solo game only `wild` is used)."""

    wild: str
    bidders: tuple[int, ...]
    """Seats still to act, in order (the first acts now)."""
    bids: tuple[tuple[int, int], ...]
    """(seat, amount) so far; amount 0 = passed."""
    high_bid: int
    high_bidder: int
    """-1 while nobody has bid."""


@plain("ten.State")
@dataclass(frozen=True, slots=True)
class State:
    n_players: int
    rng: Rng
    deck: tuple[str, ...]
    turn: int
    """The seat whose turn it is (the active player A of ten.md)."""
    phase: str
    tableau: tuple[str, ...]
    total: int
    """Running total T: numbers add, currency subtracts."""
    currency_sum: int
    """K: the currency shown in the tableau."""
    collections: tuple[tuple[str, ...], ...]
    currency: tuple[int, ...]
    busts: tuple[int, ...]
    market: tuple[str, ...]
    discard: tuple[str, ...]
    auction: Auction | None
    """The wild being auctioned, paid for, or (solo) bought or discarded."""
    buyers: tuple[int, ...]
    """Seats still to have their final buy phase, in order."""
    last_turn: TurnEnd | None


@plain("ten.PlayerView")
@dataclass(frozen=True, slots=True)
class PlayerView:
    seat: int
    collection: tuple[str, ...]
    currency: int
    busts: int
    power: int
    """Purchasing power: currency + 3 x bust tokens + collection cards."""
    score: int
    """Score if the game ended now (best wild assignment)."""


@plain("ten.PricedPayment")
@dataclass(frozen=True, slots=True)
class PricedPayment:
    """One way to pay a price, with what the payer's collection scores afterwards."""

    payment: Payment
    score_after: int
    """The collection's score after paying, with the card paid for (a market card or the wild)."""
    overpaid: int
    """Value given above the price: bust tokens (worth 3) give no change."""


@plain("ten.Purchase")
@dataclass(frozen=True, slots=True)
class Purchase:
    """A market card the viewing seat may buy now, with its best way to pay."""

    card: str
    price: int
    gain: int
    """Points the card adds to the collection as it is now (before paying)."""
    best: PricedPayment | None
    """The way to pay that keeps most points (then fewest cards, fewest bust tokens, most
    currency): the first of `Paying.payments` (None: no way to pay)."""


@plain("ten.Paying")
@dataclass(frozen=True, slots=True)
class Paying:
    """A card being paid for, with every way to pay it."""

    card: str
    price: int
    payments: tuple[PricedPayment, ...]
    """Every valid shape of payment, most points kept first (then fewer cards, fewer bust
    tokens, more currency); the collection cards given are the ones missed least, or the ones
    the player marked where a shape needs exactly that many (`engine.ten.view.paying`)."""
    card_losses: tuple[tuple[str, int], ...]
    """(collection card, points lost by giving it alone), the cards missed least first."""


@plain("ten.Prospects")
@dataclass(frozen=True, slots=True)
class Prospects:
    """What each choice open to the viewing seat would give it, priced by the engine so that a
    screen or a bot reads it instead of re-deriving the rules. Filled for the seat that acts."""

    claim_gain: int
    """Draw / choose: points that claiming the tableau's numbers adds to the collection."""
    currency_takes: int
    """Draw / choose: tokens that claiming the currency gives (after the cap of 10)."""
    wild_gain: int
    """Auction, pay, solo wild: points the wild adds to the collection (0 when none)."""
    paying: Paying | None
    """Pay / solo wild: the wild at the price. (In a buy phase the card is the player's pick:
    `engine.ten.view.paying` prices it.)"""
    purchases: tuple[Purchase, ...]
    """Buy phases: one per buyable market card type, the best score after paying first."""
    not_buyable: tuple[tuple[str, str], ...]
    """Buy phases: (market card, "held" | "price") once per card type this seat may not buy:
    it holds an identical number card, or the price is above its purchasing power."""


@plain("ten.View")
@dataclass(frozen=True, slots=True)
class View:
    seat: int | None
    n_players: int
    turn: int
    phase: str
    active: tuple[int, ...]
    deck_size: int
    tableau: tuple[str, ...]
    total: int
    currency_sum: int
    bust_cards: int
    """Unseen cards that would bust the turn player if drawn next (out of deck_size)."""
    unseen: tuple[tuple[str, int], ...]
    """(type id, copies) of the cards not seen yet: exactly the deck's contents, not its order."""
    players: tuple[PlayerView, ...]
    market: tuple[str, ...]
    discard: tuple[str, ...]
    auction: Auction | None
    """The wild on sale and its bids (None when no wild is pending)."""
    price: int
    """What the acting seat must pay now in the pay / solo_wild phases (else 0)."""
    buyers: tuple[int, ...]
    buyable: tuple[str, ...]
    """Market cards the viewing seat may buy now (empty unless it is in a buy phase)."""
    last_turn: TurnEnd | None
    prospects: Prospects | None
    """The viewing seat's choices priced (engine/ten/view.py); None unless it acts now.
    Priced on the first read (`PricedLater`): a bot never pays for it."""


class PricedLater:
    """A view's prospects before anyone has read them: the call that prices them.

    Pricing (every way to pay, every market card) is most of what a view costs, and a bot
    reads none of it. `View.prospects` keeps this in its slot and prices on the first read,
    so every reader (screens, equality, repr, msgpack, hashes) sees the very same values."""

    __slots__ = ("price",)

    def __init__(self, price: Callable[[], Prospects | None]) -> None:
        self.price = price


class _ProspectsOnRead:
    """`View.prospects`'s descriptor: the slot's own, plus pricing a `PricedLater` once."""

    def __init__(self, slot: Any) -> None:
        self.slot = slot

    def __get__(self, view: View | None, owner: type | None = None) -> Any:
        if view is None:
            return self
        value = self.slot.__get__(view, owner)
        if type(value) is PricedLater:
            value = value.price()
            self.slot.__set__(view, value)  # the view is frozen to its users, not to its slot
        return value

    def __set__(self, view: View, value: Any) -> None:
        self.slot.__set__(view, value)

    def __delete__(self, view: View) -> None:
        self.slot.__delete__(view)


View.prospects = _ProspectsOnRead(View.prospects)  # type: ignore[assignment]

# The rules build these once or more per step; elsewhere the plain constructors read better.
new_state = fast_maker(State)
new_auction = fast_maker(Auction)
new_turn_end = fast_maker(TurnEnd)
new_payment = fast_maker(Payment)
new_buy = fast_maker(Buy)
new_pay = fast_maker(Pay)
new_buy_wild = fast_maker(BuyWild)
new_view = fast_maker(View)
