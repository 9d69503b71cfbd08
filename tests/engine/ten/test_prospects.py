"""The view prices the acting seat's choices (View.prospects): what a screen shows next to each
choice is what the engine then does — claims, wilds, purchases and every way to pay."""

from __future__ import annotations

from dataclasses import replace

from engine.core import Stream, canonical, decode, pick_uniform, seed_bytes
from engine.ten import GAME
from engine.ten.payment import payment_shapes
from engine.ten.scoring import collection_total
from engine.ten.state import (
    AUCTION,
    BUY,
    Bid,
    Buy,
    ClaimCurrency,
    ClaimNumbers,
    Draw,
    Pass,
    Pay,
    Skip,
)
from engine.ten.view import best_payment, card_losses, paying, priced_payments

from .helpers import physical, play, start


def _score(state, seat: int) -> int:
    return collection_total(state.collections[seat])


def _holding(state, seat: int, types: list[str], currency: int, busts: int = 0):
    """`seat` holds these cards (taken out of the deck) and tokens."""
    held = tuple(physical(types, state.n_players, set(state.deck[:4])))
    n = state.n_players
    return replace(
        state,
        deck=tuple(c for c in state.deck if c not in held),
        collections=tuple(held if s == seat else () for s in range(n)),
        currency=tuple(currency if s == seat else 5 for s in range(n)),
        busts=tuple(busts if s == seat else 0 for s in range(n)),
    )


def test_only_the_acting_seat_gets_prospects() -> None:
    state = play(start(3, ["red_4"]), (0, Draw()))
    assert GAME.view(state, 0).prospects is not None
    assert GAME.view(state, 1).prospects is None
    assert GAME.view(state, None).prospects is None
    view = GAME.view(state, 0)
    assert decode(canonical(view)) == view


def test_claim_gain_and_currency_are_what_the_claims_then_give() -> None:
    state = _holding(start(3, ["red_4", "red_5", "currency_2", "blue_1"]), 0, ["red_6", "wild_3"], 9)
    state = play(state, *[(0, Draw())] * 4)
    seen = GAME.view(state, 0).prospects
    before = _score(state, 0)
    claimed = play(state, (0, ClaimNumbers()))
    assert seen.claim_gain == _score(claimed, 0) - before > 0
    took = play(state, (0, ClaimCurrency()))
    assert seen.currency_takes == took.currency[0] - state.currency[0] == 1  # the cap of 10


def _won_auction():
    """Seat 0 wins a numbered wild 7 for 4 and must pay; it holds cards, tokens and a bust token."""
    state = _holding(start(3, ["red_3", "wild_7"]), 0, ["red_6", "red_8", "blue_1", "orange_9"], 2, 1)
    state = play(state, (0, Draw()), (0, Draw()))
    assert state.phase == AUCTION
    return play(state, (1, Pass()), (2, Pass()), (0, Bid(4)))


def test_every_way_to_pay_is_listed_legal_and_scores_as_announced() -> None:
    state = _won_auction()
    prospects = GAME.view(state, 0).prospects
    wild = prospects.paying
    assert (wild.card, wild.price) == ("wild_7_a", 4) and prospects.purchases == ()
    me = GAME.view(state, 0).players[0]
    shapes = payment_shapes(4, me.currency, me.busts, len(me.collection))
    assert sorted((p.payment.currency, p.payment.busts, len(p.payment.cards)) for p in wild.payments) == sorted(shapes)
    legal = GAME.legal_actions(state, 0)
    for option in wild.payments:
        assert Pay(option.payment) in legal
        paid = play(state, (0, Pay(option.payment)))
        assert _score(paid, 0) == option.score_after
        value = option.payment.currency + 3 * option.payment.busts + len(option.payment.cards)
        assert option.overpaid == value - 4
    best = wild.payments[0].score_after
    assert best == max(p.score_after for p in wild.payments)
    assert prospects.wild_gain == collection_total(me.collection + ("wild_7_a",)) - me.score
    assert wild.card_losses == card_losses(me.collection)


def test_card_losses_say_what_giving_each_card_alone_costs() -> None:
    held = tuple(physical(["red_6", "red_7", "red_8", "blue_1"], 3))
    losses = dict(card_losses(held))
    for i, card in enumerate(held):
        assert losses[card] == collection_total(held) - collection_total(held[:i] + held[i + 1:])
    assert [loss for _, loss in card_losses(held)] == sorted(losses.values())


def test_marked_cards_are_used_where_a_way_to_pay_needs_that_many() -> None:
    held = tuple(physical(["red_6", "red_7", "red_8", "blue_1"], 3))
    red_7 = held[1]
    options = priced_payments(1, held, 0, 0, None, (red_7,))
    assert [o.payment.cards for o in options] == [(red_7,)]
    assert options[0].score_after == collection_total(held[:1] + held[2:])
    cheapest = priced_payments(1, held, 0, 0)
    assert cheapest[0].payment.cards == (card_losses(held)[0][0],)


def test_buy_phase_prices_each_buyable_card_and_says_why_the_others_are_not() -> None:
    state = start(3, [])
    market = physical(["blue_6", "red_2", "green_5", "orange_9"], 3)
    held = physical(["green_5", "red_7", "orange_1"], 3, set(market))
    state = replace(
        state, deck=tuple(c for c in state.deck if c not in set(market) | set(held)), turn=0, phase=BUY,
        market=tuple(market), collections=(tuple(held), (), ()), currency=(2, 5, 5), busts=(1, 0, 0),
    )
    prospects = GAME.view(state, 0).prospects
    assert {p.card for p in prospects.purchases} == set(GAME.buyable(state, 0)) == {"blue_6_a", "red_2_a"}
    assert dict(prospects.not_buyable) == {"green_5_a": "held", "orange_9_a": "price"}
    bests = [p.best.score_after for p in prospects.purchases]
    assert bests == sorted(bests, reverse=True)
    me = GAME.view(state, 0).players[0]
    for purchase in prospects.purchases:
        assert purchase.best == paying(me, purchase.card, purchase.price).payments[0]
        bought = play(state, (0, Buy(purchase.card, purchase.best.payment)))
        assert _score(bought, 0) == purchase.best.score_after
        assert purchase.gain == collection_total(me.collection + (purchase.card,)) - me.score
    assert GAME.view(play(state, (0, Skip())), 0).prospects is None  # seat 1 acts now


def test_the_best_way_to_pay_is_the_first_of_every_way_in_random_games() -> None:
    checked = 0
    for game in range(12):
        seed = seed_bytes(f"best-payment-{game}")
        rng, state = Stream(seed), GAME.setup(3, seed)
        while not GAME.is_over(state):
            (seat,) = GAME.active(state)
            me = GAME.view(state, seat).players[seat]
            for price in range(1, 10):
                every = priced_payments(price, me.collection, me.currency, me.busts, "red_1_a")
                best = best_payment(price, me.collection, me.currency, me.busts, "red_1_a")
                assert best == (every[0] if every else None)
                checked += 1
            state = GAME.apply(state, {seat: pick_uniform(GAME.legal_actions(state, seat), rng)})
    assert checked > 1000


def test_prospects_priced_on_the_first_read_are_the_ones_the_view_priced_at_once() -> None:
    """A view keeps its prospects unpriced until read (a bot never reads them): every way of
    reading them — the field, equality, canonical bytes — gives what pricing at once gave."""
    from engine.ten.state import PricedLater, View
    from engine.ten.view import prospects as price_now

    rng = Stream(seed_bytes("ten-priced-later"))
    for game in range(6):
        state = GAME.setup(2 + game % 3, seed_bytes(f"ten-priced-later-{game}"), None)
        while not GAME.is_over(state):
            (seat,) = GAME.active(state)
            fresh, read = GAME.view(state, seat), GAME.view(state, seat)
            assert type(View.prospects.slot.__get__(fresh)) is PricedLater
            priced = read.prospects
            assert type(View.prospects.slot.__get__(read)) is not PricedLater
            assert canonical(fresh) == canonical(read) and fresh == read
            assert priced == price_now(read.phase, read.players[seat], read.tableau,
                                       read.currency_sum, read.auction, read.price, read.market,
                                       read.buyable)
            state = GAME.apply(state, {seat: pick_uniform(GAME.legal_actions(state, seat), rng)})
        assert GAME.view(state, 0).prospects is None
