"""What each seat sees (§6): own cards in full, others' hidden cards as "?", public facts to all."""

from __future__ import annotations

from dataclasses import fields

from engine.core import HIDDEN, Stream, canonical, decode
from engine.sheriff import GAME
from engine.sheriff.state import (
    Choose,
    Declare,
    DrawDiscard,
    Load,
    NoOffer,
    Offer,
    Pass,
    SetAside,
    View,
)

from .helpers import skip_market, start, step

HANDS = [["apple"] * 6,
         ["cheese", "cheese", "chicken", "silk", "bread", "apple"],
         ["chicken"] * 6,
         ["bread"] * 5 + ["mead"]]


def test_view_carries_no_rng_and_no_draw_order():
    view = GAME.view(start(HANDS), 1)
    names = {f.name for f in fields(View)}
    assert "rng" not in names and "draw_pile" not in names and view.draw_size == 216 - 34
    assert decode(canonical(view)) == view


def test_own_hand_in_full_others_as_hidden_spectator_sees_no_hand():
    state = start(HANDS)
    view = GAME.view(state, 1)
    assert view.players[1].hand == ("apple", "cheese", "cheese", "bread", "chicken", "silk")
    assert view.players[2].hand == (HIDDEN,) * 6
    assert all(p.hand == (HIDDEN,) * 6 for p in GAME.view(state, None).players)


def test_set_aside_cards_are_counted_for_others_and_shown_to_the_owner():
    state = step(start(HANDS), 1, SetAside(("silk", "bread")))
    assert GAME.view(state, 1).players[1].set_aside == ("bread", "silk")
    assert GAME.view(state, 2).players[1].set_aside == (HIDDEN, HIDDEN)


def test_identified_hand_cards_are_forgotten_when_a_card_leaves_face_down():
    state = start(HANDS, pile1=["mead", "mead", "mead", "mead", "crossbow"])
    state = step(state, 1, SetAside(("bread",)))
    state = step(state, 1, DrawDiscard(1))
    assert GAME.view(state, 3).players[1].hand.count("crossbow") == 1
    state = step(state, 1, GAME.legal_actions(state, 1).sample(Stream(b"d")))
    state = skip_market(state)
    assert GAME.view(state, 3).players[1].hand.count("crossbow") == 1  # still known before LOAD
    state = GAME.apply(state, {1: Load(("cheese",)), 2: Load(("chicken",)), 3: Load(("bread",))})
    assert set(GAME.view(state, 3).players[1].hand) == {HIDDEN}


def test_negotiation_is_public():
    state = skip_market(start(HANDS))
    state = GAME.apply(state, {1: Load(("silk",)), 2: Load(("chicken",)), 3: Load(("mead",))})
    for seat in (1, 2, 3):
        state = step(state, seat, Declare("apple"))
    state = step(state, 0, Choose(3))
    state = step(state, 3, Offer(gold=3, promise="honest!"))
    for seat in (None, 0, 1, 2):
        view = GAME.view(state, seat)
        assert view.offer == Offer(gold=3, promise="honest!") and view.merchant == 3
        assert view.talk == ((3, Offer(gold=3, promise="honest!")),)
        assert [p.declared for p in view.players] == ["", "apple", "apple", "apple"]
        assert view.players[3].bag == (HIDDEN,)
    assert GAME.view(state, 3).players[3].bag == ("mead",)
    assert GAME.view(state, 0).active == (0,)
    state = step(state, 0, Pass())
    assert GAME.view(state, 0).players[3].stand_down == (HIDDEN,)
    assert GAME.view(state, 3).players[3].stand_down == ("mead",)
    assert NoOffer() in GAME.legal_actions(step(state, 0, Choose(1)), 1)


def test_an_offer_may_not_promise_the_opposite_of_an_accepted_condition() -> None:
    """§5.4.1: once the Sheriff accepted to pass seat 2, an offer may still promise nothing or
    that he passes seat 2 again, never that he inspects it; seat 3 is open either way."""
    from engine.sheriff.view import condition_kinds

    accepted = (("pass", 2),)
    assert condition_kinds(accepted, 2) == ("", "pass")
    assert condition_kinds(accepted, 3) == ("", "inspect", "pass")
    assert condition_kinds((("inspect", 3),), 3) == ("", "inspect")


def test_a_merchants_market_turn_is_over_once_a_later_merchant_acts() -> None:
    """§5.1: one merchant at a time, clockwise from the Sheriff's left (Sheriff 3 of 5: 4, 0, 1, 2)."""
    from engine.sheriff.view import market_turn_over

    assert market_turn_over(3, 5, acting=1, merchant=4) and market_turn_over(3, 5, acting=1, merchant=0)
    assert not market_turn_over(3, 5, acting=1, merchant=1)  # its own turn
    assert not market_turn_over(3, 5, acting=1, merchant=2)  # still to come
    assert not market_turn_over(3, 5, acting=1, merchant=3)  # the Sheriff has no market turn
