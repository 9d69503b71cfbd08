"""Ten's rules (ten.md): the draw phase, claims, busts, auctions, buying, the end and solo play."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from functools import lru_cache, partial
from typing import Any

from ..core import (
    Game,
    IllegalAction,
    InvalidOption,
    OptionSpec,
    Result,
    Rng,
    relabel,
    shuffle_or_stack,
)
from ..core.hidden import is_token
from .cards import (
    BUST_AT_CURRENCY,
    BUST_AT_TOTAL,
    BUST_TOKEN_VALUE,
    CARD_PAYMENT_VALUE,
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
from .events import ten_events
from .payment import PaymentSpace, check_payment, purchasing_power
from .scoring import collection_total, result_of
from .state import (
    ACTIONS,
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
    PricedLater,
    Skip,
    State,
    View,
    new_auction,
    new_buy,
    new_buy_wild,
    new_pay,
    new_state,
    new_turn_end,
    new_view,
)
from .view import prospects

MAX_PLAYERS = 5
_SEATS = tuple(frozenset({seat}) for seat in range(MAX_PLAYERS))
_NOBODY: frozenset[int] = frozenset()
_NO_GAINS = tuple((0,) * n for n in range(MAX_PLAYERS + 1))
_TURN_PHASES = frozenset({DRAW, CHOOSE, BUY, SOLO_WILD})
"""Phases in which the player whose turn it is acts."""
_BUY_PHASES = (BUY, FINAL_BUY)
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
_DRAW_ONLY = (DRAW_ACTION,)
_SKIP_ONLY = (SKIP_ACTION,)
_DISCARD_ONLY = (DISCARD_WILD_ACTION,)


def _bid(amount: int) -> Bid:
    return _BIDS[amount] if amount < len(_BIDS) else Bid(amount)


@lru_cache(maxsize=1024)
def _bid_choices(low: int, high: int) -> tuple[Pass | Bid, ...]:
    """Pass, then every bid from low to high (the legal actions of an auction)."""
    return (PASS_ACTION,) + tuple(_bid(x) for x in range(low, high + 1))


def _acting(state: State) -> int:
    """The seat that acts now, -1 once the game is over."""
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


def _gain(currency: tuple[int, ...], amount: int, seats) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Currency after `seats` each gain `amount` tokens (never above the cap), and the gains."""
    after = list(currency)
    gains = [0] * len(currency)
    for seat in seats:
        held = after[seat]
        if held < TOKEN_CAP:
            now = held + amount
            if now > TOKEN_CAP:
                now = TOKEN_CAP
            after[seat] = now
            gains[seat] = now - held
    return tuple(after), tuple(gains)


def _others(state: State) -> tuple[int, ...]:
    return _ROUND_FROM_LEFT[state.n_players][state.turn][:-1]


def _split_tableau(tableau: tuple[str, ...]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    numbers = tuple([card for card in tableau if card in NUMBER_VALUE])
    if len(numbers) == len(tableau):
        return numbers, ()
    return numbers, tuple([card for card in tableau if card not in NUMBER_VALUE])


def _replace_at(values: tuple, seat: int, value: Any) -> tuple:
    changed = list(values)
    changed[seat] = value
    return tuple(changed)


def power_of(state: State, seat: int) -> int:
    return (
        state.currency[seat]
        + BUST_TOKEN_VALUE * state.busts[seat]
        + CARD_PAYMENT_VALUE * len(state.collections[seat])
    )


_CELL_BIT = {card: 1 << (10 * colour + number) for card, (colour, number) in CELL.items()}
"""One bit per colour+number (numbers are 1-9): a collection's number cards as one int."""
_OFFER = {
    card: (price, _CELL_BIT[card], (price, new_buy, card)) for card, price in NUMBER_VALUE.items()
}
"""Per market card: its price, its cell bit and its PaymentSpace head (price, maker, card)."""


def _buy_heads(state: State, seat: int) -> list[tuple[int, Any, str]]:
    """The PaymentSpace head of each market card `seat` could buy now: affordable and not
    identical to a number card it holds."""
    power = power_of(state, seat)
    held = 0
    for card in state.collections[seat]:
        held |= _CELL_BIT.get(card, 0)
    return [
        head
        for price, bit, head in map(_OFFER.__getitem__, state.market)
        if price <= power and not held & bit
    ]


Unseen = tuple[tuple[str, int], ...]


def unseen_counts(deck: tuple[str, ...]) -> Unseen:
    """(type id, copies) of the cards nobody has seen: the deck's contents, not its order."""
    return tuple(sorted(Counter(map(TYPE_OF.__getitem__, deck)).items()))


_TYPE_FACTS = {t.id: (t.kind, t.number, t.value) for t in CARD_TYPES.values()}


@lru_cache(maxsize=4096)
def _player_view(seat: int, collection: tuple[str, ...], currency: int, busts: int) -> PlayerView:
    """A seat's public holdings with its purchasing power and its score if the game ended now."""
    power = purchasing_power(currency, busts, len(collection))
    return PlayerView(seat, collection, currency, busts, power, collection_total(collection))


@lru_cache(maxsize=256)
def _deck_facts(deck: tuple[str, ...]) -> tuple[Unseen, tuple[int, ...], tuple[int, ...]]:
    """The deck's public facts: `unseen_counts`, and for k = 0, 1, ... the unseen number
    cards of k or more and the unseen currency cards of value k or more (the last entry of
    each is 0: no card is that high)."""
    unseen = unseen_counts(deck)
    numbers = [0] * (max(NUMBER_VALUE.values()) + 2)
    currency = [0] * (max(CURRENCY_VALUE.values()) + 2)
    for card_type, copies in unseen:
        kind, number, value = _TYPE_FACTS[card_type]
        if kind == NUMBER:
            numbers[number] += copies
        elif kind == CURRENCY:
            currency[value] += copies
    for counts in (numbers, currency):
        for k in range(len(counts) - 2, -1, -1):
            counts[k] += counts[k + 1]
    return unseen, tuple(numbers), tuple(currency)


def _at_least(counts_from: tuple[int, ...], k: int) -> int:
    return counts_from[min(max(k, 0), len(counts_from) - 1)]


def unseen_deck(state: State) -> tuple[str, ...]:
    """The deck's cards (faces, any order): the deck itself, or over the network, where its
    faces are tokens until drawn, every card of the game that lies nowhere else face up."""
    deck = state.deck
    if not deck or not is_token(deck[0]):
        return deck
    return tuple(sorted((Counter(deck_for(state.n_players)) - Counter(off_deck(state))).elements()))


def off_deck(state: State) -> tuple[str, ...]:
    """Every card that has left the deck: all of them face up for the whole table."""
    wild = (state.auction.wild,) if state.auction is not None else ()
    return (state.tableau + state.market + state.discard + wild
            + tuple(c for cards in state.collections for c in cards))


def bust_cards(total: int, currency_sum: int, deck: tuple[str, ...]) -> int:
    """Unseen cards that would bust a player at this running total and currency total if drawn
    next (public: the deck holds exactly the cards nobody has seen)."""
    _, numbers_from, currency_from = _deck_facts(deck)
    return _at_least(numbers_from, BUST_AT_TOTAL - total) + _at_least(
        currency_from, BUST_AT_CURRENCY - currency_sum
    )


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

    def _active(self, state: State) -> frozenset[int]:
        # the turn phases first, read inline: this is asked by every public method
        seat = state.turn if state.phase in _TURN_PHASES else _acting(state)
        return _SEATS[seat] if seat >= 0 else _NOBODY

    def _legal_actions(self, state: State, seat: int):
        phase = state.phase
        if phase == CHOOSE:
            return _CHOICES_WITH_DRAW if state.deck else _CHOICES_LAST_CARD
        if phase == DRAW:
            return _DRAW_ONLY
        if phase == AUCTION:
            return _bid_choices(max(MIN_BID, state.auction.high_bid + 1), power_of(state, seat))
        fixed: tuple = _SKIP_ONLY
        if phase == PAY:
            fixed, heads = (), ((state.auction.high_bid, new_pay, None),)
        elif phase == SOLO_WILD:
            fixed, heads = _DISCARD_ONLY, ()
            if power_of(state, seat) >= SOLO_WILD_PRICE:
                heads = ((SOLO_WILD_PRICE, new_buy_wild, None),)
        else:  # BUY, FINAL_BUY
            heads = tuple(_buy_heads(state, seat))
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
        if state.phase not in _BUY_PHASES or _acting(state) != seat:
            return ()
        return tuple([card for _, _, card in _buy_heads(state, seat)])

    def _is_valid(self, state: State, seat: int, action: object) -> bool:
        try:
            self.validate(state, seat, action)
        except IllegalAction:
            return False
        return True

    # ---- transitions ---------------------------------------------------------------------
    def _apply(self, state: State, actions: Mapping[int, Any]) -> State:
        ((seat, action),) = actions.items()
        return _APPLY[type(action)](state, seat, action)

    # ---- reading ---------------------------------------------------------------------------
    def _view(self, state: State, seat: int | None) -> View:
        phase = state.phase
        price = state.auction.high_bid if phase == PAY else 0
        if phase == SOLO_WILD:
            price = SOLO_WILD_PRICE
        collections, currency, busts = state.collections, state.currency, state.busts
        players = tuple([
            _player_view(s, collections[s], currency[s], busts[s]) for s in range(state.n_players)
        ])
        deck = unseen_deck(state)
        total, currency_sum = state.total, state.currency_sum
        active = _acting(state)
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
            bust_cards(total, currency_sum, deck),
            _deck_facts(deck)[0],
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


# ---- validation, one check per action type (the phase, then the action's own rule) -------
def _check_draw(s: State, seat: int, action: Draw) -> None:
    phase = s.phase
    if phase != DRAW and phase != CHOOSE:
        raise IllegalAction(f"seat {seat} cannot draw now: {_PHASE_TEXT[phase]}")
    if not s.deck:
        raise IllegalAction(f"seat {seat} cannot draw: the deck is empty, claim instead")


def _check_claim(s: State, seat: int, action: ClaimNumbers | ClaimCurrency) -> None:
    phase = s.phase
    if phase != CHOOSE:
        why = "draw a card first" if phase == DRAW else _PHASE_TEXT[phase]
        raise IllegalAction(f"seat {seat} cannot claim now: {why}")


def _check_pass(s: State, seat: int, action: Pass) -> None:
    if s.phase != AUCTION:
        raise IllegalAction(f"seat {seat} cannot bid or pass now: {_PHASE_TEXT[s.phase]}")


def _check_bid(s: State, seat: int, action: Bid) -> None:
    if s.phase != AUCTION:
        raise IllegalAction(f"seat {seat} cannot bid or pass now: {_PHASE_TEXT[s.phase]}")
    amount = action.amount
    if type(amount) is not int and (not isinstance(amount, int) or isinstance(amount, bool)):
        raise IllegalAction(f"seat {seat} must bid a whole number, not {amount!r}")
    low = max(MIN_BID, s.auction.high_bid + 1)
    if amount < low:
        raise IllegalAction(f"seat {seat} cannot bid {amount}: the bid must be at least {low}")
    power = power_of(s, seat)
    if amount > power:
        raise IllegalAction(f"seat {seat} cannot bid {amount}: purchasing power is only {power}")


def _check_pay(s: State, seat: int, action: Pay) -> None:
    if s.phase != PAY:
        raise IllegalAction(f"seat {seat} has no auction to pay for")
    check_payment(
        seat, s.auction.high_bid, action.payment, s.currency[seat], s.busts[seat],
        s.collections[seat],
    )


def _check_buy_wild(s: State, seat: int, action: BuyWild) -> None:
    if s.phase != SOLO_WILD:
        raise IllegalAction(f"seat {seat} has no wild to buy or discard (solo game only)")
    check_payment(
        seat, SOLO_WILD_PRICE, action.payment, s.currency[seat], s.busts[seat],
        s.collections[seat],
    )


def _check_discard_wild(s: State, seat: int, action: DiscardWild) -> None:
    if s.phase != SOLO_WILD:
        raise IllegalAction(f"seat {seat} has no wild to buy or discard (solo game only)")


def _check_skip(s: State, seat: int, action: Skip) -> None:
    phase = s.phase
    if phase != BUY and phase != FINAL_BUY:
        raise IllegalAction(f"seat {seat} cannot buy now: {_PHASE_TEXT[phase]}")


def _check_buy(s: State, seat: int, action: Buy) -> None:
    phase = s.phase
    if phase != BUY and phase != FINAL_BUY:
        raise IllegalAction(f"seat {seat} cannot buy now: {_PHASE_TEXT[phase]}")
    card = action.card
    if not isinstance(card, str) or card not in s.market:
        raise IllegalAction(f"seat {seat} cannot buy {card!r}: it is not in the market")
    collection = s.collections[seat]
    cell = CELL[card]
    for held in collection:
        if CELL.get(held) == cell:
            raise IllegalAction(
                f"seat {seat} cannot buy {card_name(card)}: they already hold an identical card"
            )
    check_payment(
        seat, NUMBER_VALUE[card], action.payment, s.currency[seat], s.busts[seat], collection
    )


_CHECKS = {
    Draw: _check_draw,
    ClaimNumbers: _check_claim,
    ClaimCurrency: _check_claim,
    Bid: _check_bid,
    Pass: _check_pass,
    Pay: _check_pay,
    BuyWild: _check_buy_wild,
    DiscardWild: _check_discard_wild,
    Buy: _check_buy,
    Skip: _check_skip,
}


# ---- transition functions (seat, action already validated) -------------------------------
# They build each new State in one positional call: this is the engine's hot path (see
# bench/ten_speed.py).
def _draw(s: State, seat: int, action: Draw) -> State:
    deck = s.deck
    card = deck[0]
    number = NUMBER_VALUE.get(card)
    if number is not None:
        total = s.total + number
        if total >= BUST_AT_TOTAL:
            return _bust(s, deck[1:], s.tableau + (card,), s.currency_sum, BUST_NUMBERS)
        return new_state(
            s.n_players, s.rng, deck[1:], s.turn, CHOOSE, s.tableau + (card,), total,
            s.currency_sum, s.collections, s.currency, s.busts, s.market, s.discard, s.auction,
            s.buyers, s.last_turn,
        )
    value = CURRENCY_VALUE.get(card)
    if value is not None:
        currency_sum = s.currency_sum + value
        if currency_sum >= BUST_AT_CURRENCY:
            return _bust(s, deck[1:], s.tableau + (card,), currency_sum, BUST_CURRENCY)
        return new_state(
            s.n_players, s.rng, deck[1:], s.turn, CHOOSE, s.tableau + (card,),
            s.total - value, currency_sum, s.collections, s.currency, s.busts, s.market,
            s.discard, s.auction, s.buyers, s.last_turn,
        )
    n = s.n_players
    if n == 1:
        phase, auction = SOLO_WILD, new_auction(card, (), (), 0, -1)
    else:
        phase, auction = AUCTION, new_auction(card, _ROUND_FROM_LEFT[n][s.turn], (), 0, -1)
    return new_state(
        n, s.rng, deck[1:], s.turn, phase, s.tableau, s.total, s.currency_sum, s.collections,
        s.currency, s.busts, s.market, s.discard, auction, s.buyers, s.last_turn,
    )


def _bust(s: State, deck, tableau, currency_sum: int, cause: str) -> State:
    numbers, currency_cards = _split_tableau(tableau)
    currency, gains = s.currency, _NO_GAINS[s.n_players]
    if cause == BUST_NUMBERS and currency_sum:
        currency, gains = _gain(currency, currency_sum, _others(s))
    turn = s.turn
    busts = _replace_at(s.busts, turn, s.busts[turn] + 1)
    summary = new_turn_end(turn, cause, numbers, currency_cards, currency_sum, gains)
    return _end_turn(
        s, deck, s.collections, currency, busts, s.market + numbers, s.discard + currency_cards,
        summary,
    )


def _end_turn(s: State, deck, collections, currency, busts, market, discard, summary) -> State:
    """Clear the tableau; next player's turn, or the final buy round once the deck is empty."""
    n = s.n_players
    if deck:
        turn, phase, buyers = (s.turn + 1) % n, DRAW, ()
    else:
        turn, phase, buyers = s.turn, FINAL_BUY, _ROUND_FROM_LEFT[n][s.turn]
    return new_state(
        n, s.rng, deck, turn, phase, (), 0, 0, collections, currency, busts, market, discard,
        None, buyers, summary,
    )


def _claim_numbers(s: State, seat: int, action: ClaimNumbers) -> State:
    numbers, currency_cards = _split_tableau(s.tableau)
    currency_sum = s.currency_sum
    currency, gains = s.currency, _NO_GAINS[s.n_players]
    if currency_sum:
        currency, gains = _gain(currency, currency_sum, _others(s))
    summary = new_turn_end(seat, CLAIM_NUMBERS, numbers, currency_cards, currency_sum, gains)
    collections = _replace_at(s.collections, seat, s.collections[seat] + numbers)
    return new_state(
        s.n_players, s.rng, s.deck, s.turn, BUY, (), 0, 0, collections, currency, s.busts,
        s.market, s.discard + currency_cards if currency_cards else s.discard, None, (), summary,
    )


def _claim_currency(s: State, seat: int, action: ClaimCurrency) -> State:
    numbers, currency_cards = _split_tableau(s.tableau)
    currency_sum = s.currency_sum
    currency, gains = s.currency, _NO_GAINS[s.n_players]
    if currency_sum:
        currency, gains = _gain(currency, currency_sum, (seat,))
    summary = new_turn_end(seat, CLAIM_CURRENCY, numbers, currency_cards, currency_sum, gains)
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
        auction = new_auction(auction.wild, bidders, bids, high_bid, high_bidder)
        discard = s.discard
    else:
        phase, auction, discard = CHOOSE, None, s.discard + (auction.wild,)
    return new_state(
        s.n_players, s.rng, s.deck, s.turn, phase, s.tableau, s.total, s.currency_sum,
        s.collections, s.currency, s.busts, s.market, discard, auction, s.buyers, s.last_turn,
    )


def _paid(
    s: State, seat: int, payment: Payment, gained: str
) -> tuple[tuple, tuple[int, ...], tuple[int, ...], tuple[str, ...]]:
    """(collections, currency, busts, discard) after `seat` pays `payment` and puts `gained`
    into the collection."""
    kept = s.collections[seat]
    spent = payment.cards
    if spent:
        kept = tuple([card for card in kept if card not in spent])
    paid_currency, paid_busts = payment.currency, payment.busts
    return (
        _replace_at(s.collections, seat, kept + (gained,)),
        _replace_at(s.currency, seat, s.currency[seat] - paid_currency)
        if paid_currency else s.currency,
        _replace_at(s.busts, seat, s.busts[seat] - paid_busts) if paid_busts else s.busts,
        s.discard + spent if spent else s.discard,
    )


def _pay(s: State, seat: int, action: Pay | BuyWild) -> State:
    collections, currency, busts, discard = _paid(s, seat, action.payment, s.auction.wild)
    return new_state(
        s.n_players, s.rng, s.deck, s.turn, CHOOSE, s.tableau, s.total, s.currency_sum,
        collections, currency, busts, s.market, discard, None, s.buyers, s.last_turn,
    )


def _discard_wild(s: State, seat: int, action: DiscardWild) -> State:
    return new_state(
        s.n_players, s.rng, s.deck, s.turn, CHOOSE, s.tableau, s.total, s.currency_sum,
        s.collections, s.currency, s.busts, s.market, s.discard + (s.auction.wild,), None,
        s.buyers, s.last_turn,
    )


def _buy(s: State, seat: int, action: Buy) -> State:
    market = list(s.market)
    market.remove(action.card)
    return _after_buy(s, tuple(market), *_paid(s, seat, action.payment, action.card))


def _skip(s: State, seat: int, action: Skip) -> State:
    return _after_buy(s, s.market, s.collections, s.currency, s.busts, s.discard)


def _after_buy(s: State, market, collections, currency, busts, discard) -> State:
    if s.phase == BUY:
        return _end_turn(s, s.deck, collections, currency, busts, market, discard, s.last_turn)
    buyers = s.buyers[1:]
    return new_state(
        s.n_players, s.rng, s.deck, s.turn, FINAL_BUY if buyers else OVER, s.tableau, s.total,
        s.currency_sum, collections, currency, busts, market, discard, s.auction, buyers,
        s.last_turn,
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

# Game's fast lane: every action type's check and transition, called directly (its
# `_validate` is the check table's, which names any other type as "not a Ten action")
Ten._checks = _CHECKS
Ten._steps = _APPLY

GAME = Ten()
