"""What each seat sees (money.md §7): own hand only, everything public, nothing pending."""

from __future__ import annotations

import dataclasses

from engine.core import canonical, decode, to_plain
from engine.money import GAME, Bid, Keep, SwapMarket
from engine.money.cards import sort_cards
from engine.money.scoring import hand_total

from ..strings import strings_in
from .helpers import all_bluff


def test_a_seat_sees_its_own_hand_and_only_the_sizes_of_the_others() -> None:
    state = GAME.setup(4, b"view", {})
    view = GAME.view(state, 1)
    assert view.hand == state.hands[1] and view.seat == 1
    assert view.hand_sizes == (7, 7, 7, 7)
    seen = strings_in(to_plain(view))
    for seat in (0, 2, 3):
        assert not seen & set(state.hands[seat])
    assert not seen & set(state.deck)
    assert view.market == state.market and view.deck_size == len(state.deck)
    assert view.removed == state.removed and view.edition == "gold_silver"
    assert view.phase == "bid" and view.to_act == (0, 1, 2, 3) and view.acting is None
    assert view.own_score == hand_total(state.hands[1], "gold_silver")
    assert decode(canonical(view)) == view
    spectator = GAME.view(state, None)
    assert spectator.hand is None and spectator.own_score is None
    assert not strings_in(to_plain(spectator)) & {c for h in state.hands for c in h}


def test_views_are_equal_when_states_differ_only_in_what_the_seat_cannot_see() -> None:
    state = GAME.setup(3, b"same", {})
    hidden = state.hands[2][0]
    top = state.deck[0]
    swapped_hand = sort_cards((*state.hands[2][1:], top))
    other = dataclasses.replace(
        state,
        hands=state.hands[:2] + (swapped_hand,),
        deck=(hidden,) + state.deck[1:],
        unseen=tuple(top if c == hidden else c for c in state.unseen),
    )
    assert GAME.view(other, 0) == GAME.view(state, 0)
    assert GAME.view(other, 2) != GAME.view(state, 2)


def test_revealed_bids_are_public_and_secret_from_keeps_only_unseen_cards() -> None:
    state = GAME.setup(3, b"reveal", {})
    bid0 = state.hands[0][:2]
    state = GAME.apply(state, {0: Bid(bid0), 1: Bid(()), 2: Bid(state.hands[2][:1])})
    view = GAME.view(state, 1)
    shown = [b for b in view.bids if b.status != "withdrawn"]
    assert {b.cards for b in shown} == {bid0, state.pending[-1].cards} | {state.pending[0].cards}
    assert view.acting == (state.pending[0].owner, 0)
    assert any("bid only the bluff card" in line for line in view.history)
    # Take every bid back: the bid cards are in hands again but their identity is public.
    while state.phase == "turns":
        (seat,) = GAME.active(state)
        state = GAME.apply(state, {seat: Keep()})
    secret = GAME.secret_from(state, 1)
    assert not secret & set(bid0)
    assert set(state.hands[0]) - set(bid0) <= secret  # never shown: still secret
    last = GAME.view(state, 1).last_round
    assert [b.status for b in last].count("resolved") == 2
    assert all(b.outcome == "kept" for b in last if b.status == "resolved")


def test_history_tells_where_cards_went() -> None:
    state = GAME.setup(4, b"story", {})
    state = GAME.apply(state, {0: Bid(state.hands[0][:1]), 1: Bid(()), 2: Bid(()), 3: Bid(())})
    state = GAME.apply(state, {0: SwapMarket(1)})
    history = GAME.view(state, 2).history
    assert any(line.startswith("seat 0 swapped with side II: took ") for line in history)
    assert any("round 1 ends" in line for line in history)


def test_final_hands_are_shown_when_the_game_is_over() -> None:
    state = GAME.setup(3, b"end", {})
    state = dataclasses.replace(state, deck=(), final_round=True,
                                hands=(state.hands[0] + state.deck,) + state.hands[1:])
    assert GAME.view(state, 1).final_hands is None
    state = GAME.apply(state, all_bluff(3))
    view = GAME.view(state, 1)
    assert view.phase == "over" and view.final_hands == state.hands
    assert GAME.secret_from(state, 1) == frozenset()


def test_a_bid_that_swapped_with_a_bid_names_that_bid_by_seat_and_slot():
    from engine.core import Stream, pick_uniform

    game = GAME
    state = game.setup(3, b"target" * 3)
    rng = Stream(b"swaps")
    seen = 0
    while not game.is_over(state) and state.round_no < 30:
        actions = {s: pick_uniform(game.legal_actions(state, s), rng) for s in game.active(state)}
        state = game.apply(state, actions)
        for bid in game.view(state, None).bids + game.view(state, None).last_round:
            if bid.status == "resolved" and bid.outcome.startswith("swapped with seat"):
                seen += 1
                assert bid.target is not None and bid.outcome.startswith(f"swapped with seat {bid.target[0]}")
            else:
                assert bid.target is None
    assert seen
