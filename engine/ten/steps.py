"""The steps of Ten (ten.md §5): one transition per action type, the action already checked.

They build each new State in one positional call: this is the engine's hot path (see
bench/ten_speed.py).
"""

from __future__ import annotations

from typing import Any

from .cards import BUST_AT_CURRENCY, BUST_AT_TOTAL, CURRENCY_VALUE, NUMBER_VALUE, TOKEN_CAP
from .seats import MAX_PLAYERS, ROUND_FROM_LEFT
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
    State,
    new_auction,
    new_state,
    new_turn_end,
)

_NO_GAINS = tuple((0,) * n for n in range(MAX_PLAYERS + 1))


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
    return ROUND_FROM_LEFT[state.n_players][state.turn][:-1]


def _split_tableau(tableau: tuple[str, ...]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    numbers = tuple([card for card in tableau if card in NUMBER_VALUE])
    if len(numbers) == len(tableau):
        return numbers, ()
    return numbers, tuple([card for card in tableau if card not in NUMBER_VALUE])


def _replace_at(values: tuple, seat: int, value: Any) -> tuple:
    changed = list(values)
    changed[seat] = value
    return tuple(changed)


# ---- transition functions (seat, action already validated) -------------------------------
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
        phase, auction = AUCTION, new_auction(card, ROUND_FROM_LEFT[n][s.turn], (), 0, -1)
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
        turn, phase, buyers = s.turn, FINAL_BUY, ROUND_FROM_LEFT[n][s.turn]
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


STEPS = {
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
