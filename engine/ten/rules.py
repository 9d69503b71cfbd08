"""Ten's rules (ten.md): the draw phase, claims, busts, auctions, buying, the end and solo play."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from functools import lru_cache
from operator import attrgetter
from typing import Any

from ..core import (
    Game,
    IllegalAction,
    InvalidOption,
    OptionSpec,
    Result,
    Rng,
    shuffle_or_stack,
)
from .cards import (
    BUST_AT_CURRENCY,
    BUST_AT_TOTAL,
    CARD_TYPES,
    CELL,
    CURRENCY,
    CURRENCY_VALUE,
    MIN_BID,
    NUMBER,
    NUMBER_VALUE,
    SOLO_WILD_PRICE,
    START_TOKENS,
    TOKEN_CAP,
    TYPE_OF,
    card_name,
    deck_for,
)
from .payment import PaymentSpace, check_payment, purchasing_power
from .scoring import collection_total, result_of
from .state import (
    AUCTION,
    BUST_CURRENCY,
    BUST_NUMBERS,
    BUY,
    CHOOSE,
    CLAIM_CURRENCY,
    CLAIM_NUMBERS,
    DRAW,
    FINAL_BUY,
    OVER,
    PAY,
    SOLO_WILD,
    Auction,
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
    PlayerView,
    Skip,
    State,
    TurnEnd,
    View,
)

MAX_PLAYERS = 5
_SEATS = tuple(frozenset({seat}) for seat in range(MAX_PLAYERS))
_NOBODY: frozenset[int] = frozenset()
_NO_GAINS = tuple((0,) * n for n in range(MAX_PLAYERS + 1))
_TURN_PHASES = frozenset({DRAW, CHOOSE, BUY, SOLO_WILD})
"""Phases in which the player whose turn it is acts."""
_ROUND_FROM_LEFT = {
    n: tuple(tuple((a + i) % n for i in range(1, n + 1)) for a in range(n))
    for n in range(1, MAX_PLAYERS + 1)
}
"""_ROUND_FROM_LEFT[n][a]: the player to a's left, then clockwise, a last."""

DRAW_ACTION = Draw()
CLAIM_NUMBERS_ACTION = ClaimNumbers()
CLAIM_CURRENCY_ACTION = ClaimCurrency()
PASS_ACTION = Pass()
SKIP_ACTION = Skip()
DISCARD_WILD_ACTION = DiscardWild()
_BIDS = tuple(Bid(x) for x in range(200))
_CHOICES_WITH_DRAW = (DRAW_ACTION, CLAIM_NUMBERS_ACTION, CLAIM_CURRENCY_ACTION)
_CHOICES_LAST_CARD = (CLAIM_NUMBERS_ACTION, CLAIM_CURRENCY_ACTION)


def _bid(amount: int) -> Bid:
    return _BIDS[amount] if amount < len(_BIDS) else Bid(amount)


def _gain(currency: tuple[int, ...], amount: int, seats) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Currency after `seats` each gain `amount` tokens (never above the cap), and the gains."""
    after = list(currency)
    for seat in seats:
        held = after[seat]
        if held < TOKEN_CAP:
            after[seat] = min(TOKEN_CAP, held + amount)
    return tuple(after), tuple(a - b for a, b in zip(after, currency, strict=True))


def _others(state: State) -> tuple[int, ...]:
    return _ROUND_FROM_LEFT[state.n_players][state.turn][:-1]


def _split_tableau(tableau: tuple[str, ...]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    numbers = tuple(card for card in tableau if card in NUMBER_VALUE)
    return numbers, tuple(card for card in tableau if card not in NUMBER_VALUE)


def _replace_at(values: tuple, seat: int, value: Any) -> tuple:
    return values[:seat] + (value,) + values[seat + 1 :]


_STATE_FIELDS = State.__slots__
_ALL_FIELDS = attrgetter(*_STATE_FIELDS)
_FIELD_INDEX = {name: i for i, name in enumerate(_STATE_FIELDS)}


def _evolve(state: State, **changes: Any) -> State:
    """The state with some fields changed (a faster dataclasses.replace: this is the hot path)."""
    values = list(_ALL_FIELDS(state))
    for name, value in changes.items():
        values[_FIELD_INDEX[name]] = value
    return State(*values)


def power_of(state: State, seat: int) -> int:
    return purchasing_power(state.currency[seat], state.busts[seat], len(state.collections[seat]))


def blocked_cells(collection: tuple[str, ...]) -> set[tuple[int, int]]:
    """Colour+number of the number cards held: identical market cards cannot be bought."""
    return {CELL[card] for card in collection if card in CELL}


@lru_cache(maxsize=256)
def unseen_counts(deck: tuple[str, ...]) -> tuple[tuple[str, int], ...]:
    """(type id, copies) of the cards nobody has seen: the deck's contents, not its order."""
    return tuple(sorted(Counter(map(TYPE_OF.__getitem__, deck)).items()))


def bust_cards(total: int, currency_sum: int, unseen: tuple[tuple[str, int], ...]) -> int:
    """Unseen cards that would bust a player at this running total and currency total if drawn
    next (public: the deck holds exactly the cards nobody has seen)."""
    room_numbers = BUST_AT_TOTAL - total
    room_currency = BUST_AT_CURRENCY - currency_sum
    count = 0
    for card_type, copies in unseen:
        kind, number, value = _TYPE_FACTS[card_type]
        if kind == NUMBER and number >= room_numbers or kind == CURRENCY and value >= room_currency:
            count += copies
    return count


_TYPE_FACTS = {t.id: (t.kind, t.number, t.value) for t in CARD_TYPES.values()}


@lru_cache(maxsize=4096)
def _score_now(collection: tuple[str, ...]) -> int:
    return collection_total(collection)


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
    options = (
        OptionSpec("first_player", None, None, "first seat (null: drawn with the game RNG)"),
        OptionSpec("deck", None, None, "stacked deck, top card first (tests and replays)"),
    )

    # ---- setup ---------------------------------------------------------------------------
    def _setup(self, n_players: int, seed: bytes, options: dict[str, Any]) -> State:
        first = options["first_player"]
        if first is not None and (
            not isinstance(first, int) or isinstance(first, bool) or not 0 <= first < n_players
        ):
            raise InvalidOption(f"Ten: first_player must be a seat 0-{n_players - 1}, not {first!r}")
        stacked = options["deck"]
        if stacked is not None:
            if isinstance(stacked, (str, bytes)) or not isinstance(stacked, (list, tuple)):
                raise InvalidOption("Ten: the stacked deck must be a list of card ids")
            stacked = tuple(stacked)
        deck, rng = shuffle_or_stack(deck_for(n_players), Rng(seed), stacked, "Ten deck")
        if first is None:
            first, rng = rng.below(n_players)
        return State(
            n_players=n_players,
            rng=rng,
            deck=deck,
            turn=first,
            phase=DRAW,
            tableau=(),
            total=0,
            currency_sum=0,
            collections=((),) * n_players,
            currency=(START_TOKENS,) * n_players,
            busts=(0,) * n_players,
            market=(),
            discard=(),
            auction=None,
            buyers=(),
            last_turn=None,
        )

    # ---- who acts, and what they may do ----------------------------------------------------
    def is_over(self, state: State) -> bool:
        return state.phase == OVER

    def _acting(self, state: State) -> int:
        phase = state.phase
        if phase in _TURN_PHASES:
            return state.turn
        if phase == AUCTION:
            return state.auction.bidders[0]
        if phase == PAY:
            return state.auction.high_bidder
        if phase == FINAL_BUY:
            return state.buyers[0]
        if phase == OVER:
            return -1
        return state.turn

    def _active(self, state: State) -> frozenset[int]:
        seat = self._acting(state)
        return _SEATS[seat] if seat >= 0 else _NOBODY

    def _legal_actions(self, state: State, seat: int):
        phase = state.phase
        if phase == CHOOSE:
            return _CHOICES_WITH_DRAW if state.deck else _CHOICES_LAST_CARD
        if phase == DRAW:
            return (DRAW_ACTION,)
        if phase == AUCTION:
            low = max(MIN_BID, state.auction.high_bid + 1)
            high = power_of(state, seat)
            if high < len(_BIDS):
                return (PASS_ACTION,) + _BIDS[low : high + 1]
            return (PASS_ACTION,) + tuple(_bid(x) for x in range(low, high + 1))
        heads: list = []
        fixed: tuple = ()
        if phase == PAY:
            heads = [(state.auction.high_bid, Pay, None)]
        elif phase == SOLO_WILD:
            fixed = (DISCARD_WILD_ACTION,)
            if power_of(state, seat) >= SOLO_WILD_PRICE:
                heads = [(SOLO_WILD_PRICE, BuyWild, None)]
        else:  # BUY, FINAL_BUY
            fixed = (SKIP_ACTION,)
            heads = [(NUMBER_VALUE[card], Buy, card) for card in self.buyable(state, seat)]
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
        if state.phase not in (BUY, FINAL_BUY) or self._acting(state) != seat:
            return ()
        power = power_of(state, seat)
        blocked = blocked_cells(state.collections[seat])
        return tuple(
            card for card in state.market if NUMBER_VALUE[card] <= power and CELL[card] not in blocked
        )

    def _is_valid(self, state: State, seat: int, action: object) -> bool:
        try:
            self.validate(state, seat, action)
        except IllegalAction:
            return False
        return True

    # ---- validation ----------------------------------------------------------------------
    def _validate(self, state: State, seat: int, action: Any) -> None:
        phase = state.phase
        kind = type(action)
        who = f"seat {seat}"
        if kind is Draw:
            if phase not in (DRAW, CHOOSE):
                raise IllegalAction(f"{who} cannot draw now: {_PHASE_TEXT[phase]}")
            if not state.deck:
                raise IllegalAction(f"{who} cannot draw: the deck is empty, claim instead")
            return
        if kind is ClaimNumbers or kind is ClaimCurrency:
            if phase != CHOOSE:
                why = "draw a card first" if phase == DRAW else _PHASE_TEXT[phase]
                raise IllegalAction(f"{who} cannot claim now: {why}")
            return
        if kind is Bid or kind is Pass:
            if phase != AUCTION:
                raise IllegalAction(f"{who} cannot bid or pass now: {_PHASE_TEXT[phase]}")
            if kind is Bid:
                self._check_bid(state, seat, action.amount)
            return
        if kind is Pay:
            if phase != PAY:
                raise IllegalAction(f"{who} has no auction to pay for")
            price = state.auction.high_bid
            check_payment(who, price, action.payment, *self._holdings(state, seat))
            return
        if kind is BuyWild or kind is DiscardWild:
            if phase != SOLO_WILD:
                raise IllegalAction(f"{who} has no wild to buy or discard (solo game only)")
            if kind is BuyWild:
                check_payment(who, SOLO_WILD_PRICE, action.payment, *self._holdings(state, seat))
            return
        if kind is Buy or kind is Skip:
            if phase not in (BUY, FINAL_BUY):
                raise IllegalAction(f"{who} cannot buy now: {_PHASE_TEXT[phase]}")
            if kind is Buy:
                self._check_buy(state, seat, action)
            return
        raise IllegalAction(f"{who} sent {action!r}, which is not a Ten action")

    def _holdings(self, state: State, seat: int) -> tuple[int, int, tuple[str, ...]]:
        return state.currency[seat], state.busts[seat], state.collections[seat]

    def _check_bid(self, state: State, seat: int, amount: object) -> None:
        if not isinstance(amount, int) or isinstance(amount, bool):
            raise IllegalAction(f"seat {seat} must bid a whole number, not {amount!r}")
        low = max(MIN_BID, state.auction.high_bid + 1)
        if amount < low:
            raise IllegalAction(f"seat {seat} cannot bid {amount}: the bid must be at least {low}")
        power = power_of(state, seat)
        if amount > power:
            raise IllegalAction(
                f"seat {seat} cannot bid {amount}: purchasing power is only {power}"
            )

    def _check_buy(self, state: State, seat: int, action: Buy) -> None:
        card = action.card
        if not isinstance(card, str) or card not in state.market:
            raise IllegalAction(f"seat {seat} cannot buy {card!r}: it is not in the market")
        if CELL[card] in blocked_cells(state.collections[seat]):
            raise IllegalAction(
                f"seat {seat} cannot buy {card_name(card)}: they already hold an identical card"
            )
        check_payment(
            f"seat {seat}", NUMBER_VALUE[card], action.payment, *self._holdings(state, seat)
        )

    # ---- transitions ---------------------------------------------------------------------
    def _apply(self, state: State, actions: Mapping[int, Any]) -> State:
        ((seat, action),) = actions.items()
        return _APPLY[type(action)](state, seat, action)

    # ---- reading ---------------------------------------------------------------------------
    def _view(self, state: State, seat: int | None) -> View:
        price = state.auction.high_bid if state.phase == PAY else 0
        if state.phase == SOLO_WILD:
            price = SOLO_WILD_PRICE
        players = tuple(
            PlayerView(
                s,
                state.collections[s],
                state.currency[s],
                state.busts[s],
                power_of(state, s),
                _score_now(state.collections[s]),
            )
            for s in range(state.n_players)
        )
        unseen = unseen_counts(state.deck)
        active = self._acting(state)
        return View(
            seat=seat,
            n_players=state.n_players,
            turn=state.turn,
            phase=state.phase,
            active=(active,) if active >= 0 else (),
            deck_size=len(state.deck),
            tableau=state.tableau,
            total=state.total,
            currency_sum=state.currency_sum,
            bust_cards=bust_cards(state.total, state.currency_sum, unseen),
            unseen=unseen,
            players=players,
            market=state.market,
            discard=state.discard,
            auction=state.auction,
            price=price,
            buyers=state.buyers,
            buyable=self.buyable(state, seat) if seat is not None else (),
            last_turn=state.last_turn,
        )

    def _result(self, state: State) -> Result:
        return result_of(state.collections, state.currency)

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


_PHASE_TEXT = {
    DRAW: "the turn starts with a draw",
    CHOOSE: "draw again or claim",
    AUCTION: "a wild is being auctioned",
    PAY: "the auction winner is paying",
    SOLO_WILD: "the wild just drawn must be bought or discarded",
    BUY: "it is the buy phase",
    FINAL_BUY: "it is the final buy round",
    OVER: "the game is over",
}


# ---- transition functions (seat, action already validated) -------------------------------
# They build each new State in one call: this is the engine's hot path (see bench/ten_speed.py).
def _draw(s: State, seat: int, action: Draw) -> State:
    card = s.deck[0]
    deck = s.deck[1:]
    number = NUMBER_VALUE.get(card)
    if number is not None:
        total = s.total + number
        tableau = s.tableau + (card,)
        if total >= BUST_AT_TOTAL:
            return _bust(s, deck, tableau, s.currency_sum, BUST_NUMBERS)
        return _drawn(s, deck, tableau, total, s.currency_sum)
    value = CURRENCY_VALUE.get(card)
    if value is not None:
        currency_sum = s.currency_sum + value
        tableau = s.tableau + (card,)
        if currency_sum >= BUST_AT_CURRENCY:
            return _bust(s, deck, tableau, currency_sum, BUST_CURRENCY)
        return _drawn(s, deck, tableau, s.total - value, currency_sum)
    if s.n_players == 1:
        return _evolve(s, deck=deck, phase=SOLO_WILD, auction=Auction(card, (), (), 0, -1))
    bidders = _ROUND_FROM_LEFT[s.n_players][s.turn]
    return _evolve(s, deck=deck, phase=AUCTION, auction=Auction(card, bidders, (), 0, -1))


def _drawn(s: State, deck, tableau, total: int, currency_sum: int) -> State:
    return State(
        s.n_players, s.rng, deck, s.turn, CHOOSE, tableau, total, currency_sum, s.collections,
        s.currency, s.busts, s.market, s.discard, s.auction, s.buyers, s.last_turn,
    )


def _bust(s: State, deck, tableau, currency_sum: int, cause: str) -> State:
    numbers, currency_cards = _split_tableau(tableau)
    currency, gains = s.currency, _NO_GAINS[s.n_players]
    if cause == BUST_NUMBERS and currency_sum:
        currency, gains = _gain(currency, currency_sum, _others(s))
    busts = _replace_at(s.busts, s.turn, s.busts[s.turn] + 1)
    summary = TurnEnd(s.turn, cause, numbers, currency_cards, currency_sum, gains)
    return _end_turn(
        s, deck, s.collections, currency, busts, s.market + numbers, s.discard + currency_cards,
        summary,
    )


def _end_turn(s: State, deck, collections, currency, busts, market, discard, summary) -> State:
    """Clear the tableau; next player's turn, or the final buy round once the deck is empty."""
    if deck:
        turn, phase, buyers = (s.turn + 1) % s.n_players, DRAW, ()
    else:
        turn, phase, buyers = s.turn, FINAL_BUY, _ROUND_FROM_LEFT[s.n_players][s.turn]
    return State(
        s.n_players, s.rng, deck, turn, phase, (), 0, 0, collections, currency, busts, market,
        discard, None, buyers, summary,
    )


def _claim_numbers(s: State, seat: int, action: ClaimNumbers) -> State:
    numbers, currency_cards = _split_tableau(s.tableau)
    currency, gains = s.currency, _NO_GAINS[s.n_players]
    if s.currency_sum:
        currency, gains = _gain(currency, s.currency_sum, _others(s))
    summary = TurnEnd(seat, CLAIM_NUMBERS, numbers, currency_cards, s.currency_sum, gains)
    collections = _replace_at(s.collections, seat, s.collections[seat] + numbers)
    return State(
        s.n_players, s.rng, s.deck, s.turn, BUY, (), 0, 0, collections, currency, s.busts,
        s.market, s.discard + currency_cards, None, (), summary,
    )


def _claim_currency(s: State, seat: int, action: ClaimCurrency) -> State:
    numbers, currency_cards = _split_tableau(s.tableau)
    currency, gains = s.currency, _NO_GAINS[s.n_players]
    if s.currency_sum:
        currency, gains = _gain(currency, s.currency_sum, (seat,))
    summary = TurnEnd(seat, CLAIM_CURRENCY, numbers, currency_cards, s.currency_sum, gains)
    return _end_turn(
        s, s.deck, s.collections, currency, s.busts, s.market + numbers,
        s.discard + currency_cards, summary,
    )


def _bid_or_pass(s: State, seat: int, action: Bid | Pass) -> State:
    auction = s.auction
    amount = action.amount if type(action) is Bid else 0
    bids = auction.bids + ((seat, amount),)
    high_bid, high_bidder = (amount, seat) if amount else (auction.high_bid, auction.high_bidder)
    bidders = auction.bidders[1:]
    if bidders or high_bidder >= 0:
        phase = AUCTION if bidders else PAY
        auction = Auction(auction.wild, bidders, bids, high_bid, high_bidder)
        return _evolve(s, phase=phase, auction=auction)
    return _evolve(s, phase=CHOOSE, auction=None, discard=s.discard + (auction.wild,))


def _paid(s: State, seat: int, payment: Payment, gained: str) -> dict[str, Any]:
    """The changes of `seat` paying `payment` and putting `gained` into the collection."""
    kept = s.collections[seat]
    if payment.cards:
        spent = set(payment.cards)
        kept = tuple(card for card in kept if card not in spent)
    return dict(
        currency=_replace_at(s.currency, seat, s.currency[seat] - payment.currency)
        if payment.currency else s.currency,
        busts=_replace_at(s.busts, seat, s.busts[seat] - payment.busts)
        if payment.busts else s.busts,
        collections=_replace_at(s.collections, seat, kept + (gained,)),
        discard=s.discard + payment.cards,
    )


def _pay(s: State, seat: int, action: Pay | BuyWild) -> State:
    return _evolve(s, phase=CHOOSE, auction=None, **_paid(s, seat, action.payment, s.auction.wild))


def _discard_wild(s: State, seat: int, action: DiscardWild) -> State:
    return _evolve(s, phase=CHOOSE, auction=None, discard=s.discard + (s.auction.wild,))


def _buy(s: State, seat: int, action: Buy) -> State:
    market = list(s.market)
    market.remove(action.card)
    return _after_buy(s, tuple(market), **_paid(s, seat, action.payment, action.card))


def _skip(s: State, seat: int, action: Skip) -> State:
    return _after_buy(s, s.market, s.collections, s.currency, s.busts, s.discard)


def _after_buy(s: State, market, collections, currency, busts, discard) -> State:
    if s.phase == BUY:
        return _end_turn(s, s.deck, collections, currency, busts, market, discard, s.last_turn)
    buyers = s.buyers[1:]
    return _evolve(
        s, phase=FINAL_BUY if buyers else OVER, buyers=buyers, market=market,
        collections=collections, currency=currency, busts=busts, discard=discard,
    )


_APPLY = {
    Draw: _draw,
    ClaimNumbers: _claim_numbers,
    ClaimCurrency: _claim_currency,
    Bid: _bid_or_pass,
    Pass: _bid_or_pass,
    Pay: _pay,
    BuyWild: _pay,
    DiscardWild: _discard_wild,
    Buy: _buy,
    Skip: _skip,
}

GAME = Ten()
