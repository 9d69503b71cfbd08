"""Views (everything public except the deck order; bust risk from unseen cards) and payments."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

import pytest

from engine.core import canonical, decode, to_plain
from engine.ten import GAME
from engine.ten.payment import payment_shapes, shape_problem
from engine.ten.state import AUCTION, Bid, ClaimCurrency, ClaimNumbers, Draw, Payment

from ..strings import strings_in
from .helpers import RULES_JSON, play, start

PAYMENT_EXAMPLES = [ex for ex in RULES_JSON["examples"] if ex["what"] == "payment"]


def test_view_hides_the_deck_order_but_shows_what_is_left() -> None:
    state = play(start(3, ["red_6", "blue_3"]), (0, Draw()), (0, Draw()))
    for seat in (None, 0, 1, 2):
        view = GAME.view(state, seat)
        assert not strings_in(to_plain(view)) & set(state.deck)
        assert sum(n for _, n in view.unseen) == view.deck_size == len(state.deck)
        assert dict(view.unseen) == Counter(c.rsplit("_", 1)[0] for c in state.deck)
        assert decode(canonical(view)) == view


def test_views_equal_when_only_the_deck_order_differs() -> None:
    state = play(start(3, ["red_6", "blue_3"]), (0, Draw()))
    shuffled = replace(state, deck=tuple(reversed(state.deck)))
    for seat in (None, 0, 1, 2):
        assert GAME.view(state, seat) == GAME.view(shuffled, seat)


def test_the_facts_of_a_drawn_deck_are_those_of_a_deck_counted_anew() -> None:
    # the deck's facts after a draw come from the deck before, less its top card: every deck a
    # game goes through, asked in the order play asks and out of it, counts like a fresh deck
    from engine.ten import deck as ten_deck

    state = start(4, [])
    decks = [state.deck[k:] for k in range(len(state.deck) + 1)]
    ten_deck.deck_facts.cache_clear()
    in_play = [ten_deck.deck_facts(d) for d in decks]
    ten_deck.deck_facts.cache_clear()
    backwards = [ten_deck.deck_facts(d) for d in reversed(decks)][::-1]
    fresh = [ten_deck._counted(d) for d in decks]
    assert in_play == backwards == fresh
    assert fresh[-1] == ((), (0,) * len(fresh[-1][1]), (0,) * len(fresh[-1][2]))


def test_bust_cards_counts_the_unseen_cards_that_would_bust() -> None:
    # T = 9 after red 6 + blue 3: a number 2 or more busts; K = 0: no currency card busts
    state = play(start(3, ["red_6", "blue_3"]), (0, Draw()), (0, Draw()))
    view = GAME.view(state, 1)
    busting = sum(1 for c in state.deck if c.split("_")[0] in {"red", "blue", "green", "orange"}
                  and c.split("_")[1].isdigit() and int(c.split("_")[1]) >= 2)
    assert view.total == 9 and view.bust_cards == busting
    # currency: K = 9 after currency 5 + 4: a currency card of 2 or more busts; T = -9
    state = play(start(3, ["currency_5", "currency_4"]), (0, Draw()), (0, Draw()))
    view = GAME.view(state, 0)
    assert view.bust_cards == sum(1 for c in state.deck if c[:9] == "currency_" and int(c[9]) >= 2)


def test_view_shows_the_auction_and_the_price_to_pay() -> None:
    state = play(start(3, ["wild_3"]), (0, Draw()), (1, Bid(2)))
    view = GAME.view(state, 2)
    assert view.phase == AUCTION and view.active == (2,)
    assert view.auction.wild == "wild_3_a" and view.auction.high_bid == 2
    assert view.auction.bidders == (2, 0) and view.auction.bids == ((1, 2),)
    state = play(state, (2, Bid(4)), (0, Bid(5)))
    view = GAME.view(state, 0)
    assert view.phase == "pay" and view.price == 5 and view.active == (0,)


def test_view_lists_what_the_viewer_may_buy() -> None:
    state = start(3, ["red_2", "blue_3"])
    state = play(state, (0, Draw()), (0, ClaimCurrency()), (1, Draw()), (1, ClaimNumbers()))
    assert GAME.view(state, 1).buyable == ("red_2_a",)
    assert GAME.view(state, 0).buyable == () and GAME.view(state, None).buyable == ()
    assert GAME.view(state, 0).players[1].score == 1
    assert GAME.view(state, 0).last_turn.outcome == "claim_numbers"


@pytest.mark.parametrize("example", PAYMENT_EXAMPLES, ids=[ex["id"] for ex in PAYMENT_EXAMPLES])
def test_rules_json_payment_examples(example) -> None:
    p = example["payment"]
    problem = shape_problem(example["price"], p["currency"], p["bust"], p["cards"])
    assert (problem is None) == example["expected"]["valid"]


def test_payment_shapes_are_exactly_the_valid_payments() -> None:
    for price in range(1, 12):
        for currency in range(0, 6):
            for busts in range(0, 4):
                for cards in range(0, 5):
                    valid = {
                        (c, b, k)
                        for c in range(currency + 1)
                        for b in range(busts + 1)
                        for k in range(cards + 1)
                        if shape_problem(price, c, b, k) is None
                    }
                    assert set(payment_shapes(price, currency, busts, cards)) == valid


def test_payment_helper_sorts_cards() -> None:
    assert Payment.of(1, 0, ["b", "a"]) == Payment(1, 0, ("a", "b"))


def test_a_valid_payment_exists_whenever_the_price_is_within_purchasing_power() -> None:
    # ten.md §6: "Whenever a price does not exceed a player's purchasing power, a valid
    # payment exists" (so an auction winner can always pay and affordable cards are buyable)
    for price in range(1, 30):
        for currency in range(0, 11):
            for busts in range(0, 5):
                for cards in range(0, 8):
                    power = currency + 3 * busts + cards
                    assert bool(payment_shapes(price, currency, busts, cards)) == (price <= power)
