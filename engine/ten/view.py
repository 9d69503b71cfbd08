"""What the acting seat's choices would give it (ten.md §6-8), computed from public facts only.

A screen shows each choice with its consequence: claiming numbers adds so many points, a wild
so many, a market card so many, and each way to pay leaves the collection at a score. These are
rules (scoring, payment shapes, the token cap, what may be bought), so they are computed here,
by pure functions over the seat's own holdings and the table, and carried in the view as
`View.prospects`. `paying` is public so that a screen can price the market card a player
picked and the cards a player marked to give, which no view can know.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from .cards import CELL, NUMBER_VALUE, TOKEN_CAP, TYPE_OF
from .payment import payment_shapes, worth
from .scoring import collection_total
from .state import (
    AUCTION,
    BUY,
    CHOOSE,
    DRAW,
    FINAL_BUY,
    PAY,
    SOLO_WILD,
    Auction,
    Paying,
    Payment,
    PlayerView,
    PricedPayment,
    Prospects,
    Purchase,
)

_PAYING = (PAY, SOLO_WILD)
_BUYING = (BUY, FINAL_BUY)


def gain_of(me: PlayerView, cards: Sequence[str]) -> int:
    """Points that adding `cards` adds to the seat's collection (wilds placed at their best)."""
    if not cards:
        return 0
    return _score_after(me.collection, (), tuple(cards)) - me.score


@lru_cache(maxsize=8192)
def _score_after(collection: tuple[str, ...], given: tuple[str, ...], gained: tuple[str, ...]) -> int:
    """The collection's score without `given` and with `gained`. Cached: a collection changes
    seldom while the same market cards and ways to pay are priced turn after turn."""
    if given:
        collection = tuple(card for card in collection if card not in given)
    return collection_total(collection + gained)


@lru_cache(maxsize=1024)
def card_losses(collection: tuple[str, ...]) -> tuple[tuple[str, int], ...]:
    """(card, points lost by giving it alone) for each card, the cards missed least first."""
    base = collection_total(collection)
    losses = [
        (base - collection_total(collection[:i] + collection[i + 1:]), card)
        for i, card in enumerate(collection)
    ]
    return tuple((card, loss) for loss, card in sorted(losses))


@lru_cache(maxsize=4096)
def priced_payments(
    price: int,
    collection: tuple[str, ...],
    currency: int,
    busts: int,
    gained: str | None = None,
    marked: tuple[str, ...] = (),
) -> tuple[PricedPayment, ...]:
    """Every valid shape of payment for `price`, with the score after paying (and gaining
    `gained`). The cards given are the `marked` ones where a shape needs exactly that many,
    else the ones the collection misses least. Most points kept first; then fewer cards,
    fewer bust tokens (worth 3, no change), more currency."""
    cheapest = [card for card, _ in card_losses(collection)]
    chosen = sorted(card for card in marked if card in collection)
    extra = (gained,) if gained else ()
    options = []
    for tokens, bust_tokens, n_cards in payment_shapes(price, currency, busts, len(collection)):
        cards = chosen if n_cards and len(chosen) == n_cards else cheapest[:n_cards]
        payment = Payment.of(tokens, bust_tokens, cards)
        score = _score_after(collection, payment.cards, extra)  # tokens do not score
        overpaid = worth(tokens, bust_tokens, n_cards) - price
        options.append(PricedPayment(payment, score, overpaid))
    options.sort(key=lambda o: (-o.score_after, len(o.payment.cards), o.payment.busts,
                                -o.payment.currency))
    return tuple(options)


def best_payment(
    price: int, collection: tuple[str, ...], currency: int, busts: int, gained: str | None = None
) -> PricedPayment | None:
    """The first of `priced_payments` without pricing the others: giving a card never raises
    a collection's score, so the ways with the fewest cards keep most points; among them, the
    fewest bust tokens, then the most currency."""
    shapes = payment_shapes(price, currency, busts, len(collection))
    if not shapes:
        return None
    tokens, bust_tokens, n_cards = min(shapes, key=lambda shape: (shape[2], shape[1], -shape[0]))
    cards = [card for card, _ in card_losses(collection)[:n_cards]] if n_cards else ()
    payment = Payment.of(tokens, bust_tokens, cards)
    score = _score_after(collection, payment.cards, (gained,) if gained else ())
    return PricedPayment(payment, score, worth(tokens, bust_tokens, n_cards) - price)


def paying(me: PlayerView, card: str, price: int, marked: tuple[str, ...] = ()) -> Paying:
    """`card` for `price` as `me` would pay for it: every way, with the cards `marked` to give
    where they fit (the screen's choice), and what each collection card is worth keeping."""
    marked = tuple(sorted(marked))
    payments = priced_payments(price, me.collection, me.currency, me.busts, card, marked)
    return Paying(card, price, payments, card_losses(me.collection))


def purchase(me: PlayerView, card: str, price: int) -> Purchase:
    """A market card for `me`: what it adds and the best way to pay for it."""
    best = best_payment(price, me.collection, me.currency, me.busts, card)
    return Purchase(card, price, gain_of(me, (card,)), best)


def _market_purchases(
    me: PlayerView, market: Sequence[str], buyable: Sequence[str]
) -> tuple[tuple[Purchase, ...], tuple[tuple[str, str], ...]]:
    """One purchase per buyable card type, best score after paying first; and the card types
    that may not be bought, with why (a held identical number card, or the price)."""
    held = {CELL[card] for card in me.collection if card in CELL}
    can_buy = set(buyable)
    seen: set[str] = set()
    offers, blocked = [], []
    for card in market:
        if TYPE_OF[card] in seen:
            continue
        seen.add(TYPE_OF[card])
        if card in can_buy:
            offers.append(purchase(me, card, NUMBER_VALUE[card]))
        else:
            blocked.append((card, "held" if CELL[card] in held else "price"))
    offers.sort(key=lambda p: (-(p.best.score_after if p.best else me.score), -p.gain, p.price, p.card))
    return tuple(offers), tuple(blocked)


def prospects(
    phase: str,
    me: PlayerView,
    tableau: Sequence[str],
    currency_sum: int,
    auction: Auction | None,
    price: int,
    market: Sequence[str],
    buyable: Sequence[str],
) -> Prospects:
    """The acting seat's choices in this phase, priced (the other fields stay empty)."""
    claim_gain = currency_takes = wild_gain = 0
    priced: Paying | None = None
    purchases: tuple[Purchase, ...] = ()
    blocked: tuple[tuple[str, str], ...] = ()
    if phase in (DRAW, CHOOSE):
        claim_gain = gain_of(me, [card for card in tableau if card in NUMBER_VALUE])
        currency_takes = max(0, min(currency_sum, TOKEN_CAP - me.currency))
    elif auction is not None and phase in (AUCTION, *_PAYING):
        wild_gain = gain_of(me, (auction.wild,))
        if phase in _PAYING:
            priced = paying(me, auction.wild, price)
    elif phase in _BUYING:
        purchases, blocked = _market_purchases(me, market, buyable)
    return Prospects(claim_gain, currency_takes, wild_gain, priced, purchases, blocked)
