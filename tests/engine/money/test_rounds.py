"""Rounds: reveal, turn order, swaps, refill and the end (money.md §5, §6, §9, §10.4-10.7)."""

from __future__ import annotations

import dataclasses

import pytest

from engine.core import IllegalAction, NotYourTurn
from engine.money import GAME, Bid, Keep, SwapBid, SwapMarket
from engine.money.cards import sort_cards

from .helpers import all_bluff, table

# ---- §10.4 turn order with equal bids ----------------------------------------------------


def test_turn_order_with_equal_bids() -> None:
    # A, B, C, D = seats 0..3 (gold_silver, 4 players, Krona removed).
    hands = [["pound_20_1", "krona_30_1"], ["dollar_50_1"], ["euro_60_1"], []]
    state = table(_fill(hands), [], [], removed=("rouble",))
    state = GAME.apply(state, {0: Bid(("pound_20_1", "krona_30_1")), 1: Bid(("dollar_50_1",)),
                               2: Bid(("euro_60_1",)), 3: Bid(())})
    view = GAME.view(state, None)
    assert [(b.owner, b.value, b.key_serial) for b in view.bids if b.status != "withdrawn"] == [
        (2, 60, 63), (1, 50, 8), (0, 50, 10)]
    assert [b.owner for b in view.bids if b.status == "withdrawn"] == [3]
    order = []
    while state.phase == "turns":
        (seat,) = GAME.active(state)
        order.append(seat)
        state = GAME.apply(state, {seat: Keep()})
    assert order == [2, 1, 0]  # C, then B (serial 8), then A (serial 10); D has no turn


def _fill(hands, exclude=()):
    """Complete each hand to 6 cards with cards the scenario does not use otherwise."""
    spare = ["franc_20_1", "franc_20_2", "franc_20_3", "franc_30_1", "franc_30_2", "franc_30_3",
             "franc_40_1", "franc_50_1", "franc_60_1", "silver_2", "silver_3", "silver_4",
             "silver_5", "silver_6", "dollar_20_1", "dollar_20_2", "dollar_20_3", "dollar_40_1",
             "euro_20_1", "euro_20_2", "euro_20_3", "euro_30_1"]
    used = {c for h in hands for c in h} | set(exclude)
    spare = [c for c in spare if c not in used]
    out = []
    for hand in hands:
        need = 6 - len(hand)
        out.append([*hand, *spare[:need]])
        spare = spare[need:]
    return out


# ---- §10.5 a round with a swap chain -----------------------------------------------------

SIDE_I = ["pound_30_1", "yen_20_1", "euro_40_1", "silver_1"]
SIDE_II = ["dollar_60_1", "gold_2", "rouble_20_1", "franc_30_1"]


def _chain_table():
    hands = _fill([["yen_50_1", "gold_1"], ["dollar_30_1", "pound_40_1"], ["rouble_40_1"], []],
                  exclude=SIDE_I + SIDE_II)
    return table(hands, SIDE_I, SIDE_II, removed=("krona",), top=["euro_50_1", "euro_60_1",
                                                                   "pound_50_1", "pound_60_1"],
                 removed_currencies=["krona"])


def test_swap_chain_round() -> None:
    state = _chain_table()
    hand_a = state.hands[0]
    hand_c = tuple(c for c in state.hands[2] if c != "rouble_40_1")
    deck_before = len(state.deck)
    state = GAME.apply(state, {0: Bid(("yen_50_1", "gold_1")),
                               1: Bid(("dollar_30_1", "pound_40_1")),
                               2: Bid(("rouble_40_1",)), 3: Bid(())})
    bids = {b.owner: b for b in GAME.view(state, None).bids}
    assert (bids[0].value, bids[0].key_serial) == (70, 44)
    assert (bids[1].value, bids[1].key_serial) == (70, 4)
    assert (bids[2].value, bids[2].key_serial) == (40, 34)
    assert bids[3].status == "withdrawn"
    # 1. B acts first (70, key 4 beats key 44) and swaps with C's bid.
    assert GAME.active(state) == {1} and bids[1].status == "acting"
    assert SwapBid(3) not in GAME.legal_actions(state, 1)  # D bid only the bluff card
    state = GAME.apply(state, {1: SwapBid(2)})
    assert "rouble_40_1" in state.hands[1]
    view = GAME.view(state, 2)
    assert view.history[-1] == "seat 1 swapped with seat 2's bid: took Rouble 40; seat 2 acts next"
    assert view.acting == (2, 0)
    moved = next(b for b in view.bids if b.owner == 2 and b.status == "next")
    assert moved.cards == ("dollar_30_1", "pound_40_1") and moved.value == 70
    # 2. C acts at once and swaps with side II.
    assert GAME.active(state) == {2}
    state = GAME.apply(state, {2: SwapMarket(1)})
    assert state.hands[2] == sort_cards([*hand_c, *SIDE_II]) and "rouble_40_1" not in hand_c
    assert state.market[1] == ("dollar_30_1", "pound_40_1")
    # 3. A: the only pending bid; B and C hold no bid, so only the market or keep.
    assert GAME.active(state) == {0}
    assert tuple(GAME.legal_actions(state, 0)) == (SwapMarket(0), SwapMarket(1), Keep())
    with pytest.raises(IllegalAction, match="no such bid"):
        GAME.validate(state, 0, SwapBid(1))
    state = GAME.apply(state, {0: SwapMarket(0)})
    assert set(SIDE_I) <= set(state.hands[0]) and "yen_50_1" not in state.hands[0]
    assert len(state.hands[0]) == len(hand_a) - 2 + 4
    # 4. Round end: side I gets 2 cards from the deck, then side II gets 2.
    assert state.phase == "bid" and state.round_no == 2
    # The deck's top cards were Euro 50, Euro 60, Pound 50, Pound 60 (sides sorted by serial).
    assert state.market[0] == ("yen_50_1", "euro_50_1", "euro_60_1", "gold_1")
    assert state.market[1] == ("dollar_30_1", "pound_40_1", "pound_50_1", "pound_60_1")
    assert len(state.deck) == deck_before - 4
    assert not state.final_round


# ---- §10.6 a 2-player round --------------------------------------------------------------


def test_two_player_round() -> None:
    hands = [["yen_60_1", "yen_20_1", "pound_20_2", "dollar_20_1", "dollar_20_2", "gold_1"],
             ["franc_50_1", "franc_20_2", "euro_20_1", "euro_20_2", "silver_1", "silver_2"]]
    state = table(hands, ["gold_2", "gold_3", "gold_4", "gold_5"],
                  ["silver_3", "silver_4", "silver_5", "silver_6"])
    a_bid = Bid(("yen_60_1",), ("pound_20_2", "yen_20_1"))
    assert a_bid in GAME.legal_actions(state, 0)
    state = GAME.apply(state, {0: a_bid, 1: Bid(("franc_20_2", "franc_50_1"))})
    view = GAME.view(state, 0)
    assert [(b.owner, b.slot, b.value) for b in view.bids] == [(1, 0, 70), (0, 0, 60),
                                                                (0, 1, 40)]
    assert view.bids[2].key_serial == 11
    turns = []
    # 1. B (70) swaps with A-left.
    assert GAME.active(state) == {1}
    state = GAME.apply(state, {1: SwapBid(0, 0)})
    turns.append(1)
    assert "yen_60_1" in state.hands[1]
    assert GAME.view(state, 1).history[-1] == (
        "seat 1 swapped with seat 0's left bid: took Yen 60; seat 0 acts next")
    # 2. A-left now holds the two Francs (70) and acts next: no bid of B to swap with, and
    #    never A's own right bid.
    assert GAME.view(state, 0).acting == (0, 0)
    assert tuple(GAME.legal_actions(state, 0)) == (SwapMarket(0), SwapMarket(1), Keep())
    with pytest.raises(IllegalAction, match="your own bid"):
        GAME.validate(state, 0, SwapBid(0, 1))
    state = GAME.apply(state, {0: Keep()})
    turns.append(0)
    assert {"franc_20_2", "franc_50_1"} <= set(state.hands[0])
    # 3. A-right (40): market or keep.
    assert GAME.view(state, 0).acting == (0, 1)
    assert tuple(GAME.legal_actions(state, 0)) == (SwapMarket(0), SwapMarket(1), Keep())
    state = GAME.apply(state, {0: SwapMarket(1)})
    turns.append(0)
    assert turns == [1, 0, 0] and state.phase == "bid"
    # Round end: side I still holds 4, side II (2 cards) gets the 2 top cards of the deck.
    assert state.market[0] == ("gold_2", "gold_3", "gold_4", "gold_5")
    assert state.market[1] == ("dollar_20_3", "dollar_30_1", "pound_20_2", "yen_20_1")


# ---- §10.7 end-of-game timing ------------------------------------------------------------


def _late_table(deck_size: int, side1: int, side2: int):
    """A 3-player table with the deck and the market sides cut to the given sizes (the other
    cards moved into seat 0's hand)."""
    state = GAME.setup(3, b"late", {})
    pool = [*state.deck, *state.market[0], *state.market[1]]
    deck, rest = tuple(pool[:deck_size]), pool[deck_size:]
    market = (tuple(rest[:side1]), tuple(rest[side1:side1 + side2]))
    extra = rest[side1 + side2:]
    hands = (sort_cards([*state.hands[0], *extra]),) + state.hands[1:]
    return dataclasses.replace(state, deck=deck, market=market, hands=hands)


def test_refill_that_deals_the_last_card_makes_the_next_round_final() -> None:
    state = _late_table(3, 1, 2)
    top = state.deck
    state = GAME.apply(state, all_bluff(3))
    assert len(state.market[0]) == 4 and set(top) <= set(state.market[0])
    assert len(state.market[1]) == 2 and state.deck == ()
    assert state.final_round and state.phase == "bid" and GAME.view(state, 0).final_round
    state = GAME.apply(state, {0: Bid((state.hands[0][0],)), 1: Bid(()), 2: Bid(())})
    assert state.phase == "turns"
    state = GAME.apply(state, {0: SwapMarket(1)})
    assert GAME.is_over(state) and state.phase == "over"
    assert len(state.market[1]) == 1  # no refill after the final round
    result = GAME.result(state)
    assert result.scores == tuple(sum(p for _, p in rows) for rows in result.breakdown)
    with pytest.raises(IllegalAction, match="over"):
        GAME.apply(state, all_bluff(3))


def test_refill_that_leaves_cards_in_the_deck_goes_on() -> None:
    state = _late_table(5, 2, 5)
    state = GAME.apply(state, all_bluff(3))
    assert (len(state.market[0]), len(state.market[1]), len(state.deck)) == (4, 5, 3)
    assert not state.final_round and state.phase == "bid"


def test_deck_running_out_fills_side_I_first_and_side_II_may_get_nothing() -> None:
    state = _late_table(2, 1, 1)
    state = GAME.apply(state, all_bluff(3))
    assert (len(state.market[0]), len(state.market[1]), len(state.deck)) == (3, 1, 0)
    assert state.final_round
    state = _late_table(4, 1, 1)
    state = GAME.apply(state, all_bluff(3))
    assert (len(state.market[0]), len(state.market[1]), len(state.deck)) == (4, 2, 0)
    assert state.final_round


def test_empty_deck_at_a_refill_makes_the_next_round_final_as_a_safeguard() -> None:
    state = _late_table(0, 4, 4)
    state = GAME.apply(state, all_bluff(3))
    assert state.final_round and state.phase == "bid"
    state = GAME.apply(state, all_bluff(3))
    assert GAME.is_over(state)


# ---- §9 edge cases -----------------------------------------------------------------------


def test_whole_hand_bid_leaves_the_bluff_card_in_hand() -> None:
    state = GAME.setup(3, b"whole", {})
    money = state.hands[0][:-1]
    state = GAME.apply(state, {0: Bid(money), 1: Bid(()), 2: Bid(())})
    assert state.hands[0] == ("bluff_1",)
    assert GAME.view(state, 1).hand_sizes[0] == 1
    state = GAME.apply(state, {0: Keep()})
    assert state.hands[0][-1] == "bluff_1" and len(state.hands[0]) == 7


def test_bluff_only_bid_takes_no_turn_and_cannot_be_swapped_with() -> None:
    state = GAME.setup(3, b"bluff", {})
    state = GAME.apply(state, {0: Bid(state.hands[0][:2]), 1: Bid(()),
                               2: Bid(state.hands[2][:1])})
    assert GAME.active(state) <= {0, 2}
    for seat in sorted(GAME.active(state)):
        assert SwapBid(1) not in GAME.legal_actions(state, seat)
        with pytest.raises(IllegalAction, match="seat 1 has no such bid"):
            GAME.validate(state, seat, SwapBid(1))
    acted = set()
    while state.phase == "turns":
        (seat,) = GAME.active(state)
        acted.add(seat)
        state = GAME.apply(state, {seat: Keep()})
    assert 1 not in acted


def test_all_bluff_round_has_no_turns_and_deals_nothing() -> None:
    state = GAME.setup(4, b"quiet", {})
    after = GAME.apply(state, all_bluff(4))
    assert after.phase == "bid" and after.round_no == 2
    assert after.deck == state.deck and after.market == state.market
    assert after.hands == state.hands and not after.final_round


def test_hand_of_only_the_bluff_card_may_bid_the_bluff_card() -> None:
    state = GAME.setup(3, b"poor", {})
    state = dataclasses.replace(state, hands=(("bluff_1",),) + state.hands[1:],
                                deck=state.deck + state.hands[0][:-1])
    actions = GAME.legal_actions(state, 0)
    assert len(actions) == 1 and list(actions) == [Bid(())] and Bid(()) in actions
    state = GAME.apply(state, all_bluff(3))
    assert state.hands[0] == ("bluff_1",)


def test_big_bid_for_a_small_side_and_the_reverse() -> None:
    state = _late_table(10, 1, 4)
    big = state.hands[0][:-1]
    state = GAME.apply(state, {0: Bid(big), 1: Bid(()), 2: Bid(())})
    small_side = state.market[0]
    state = GAME.apply(state, {0: SwapMarket(0)})
    assert len(state.hands[0]) == 1 + len(small_side)
    assert state.market[0] == big  # a side may hold more than 4 cards; it is never reduced
    assert len(GAME.view(state, 1).market[0]) == len(big) > 4


def test_swapping_with_a_lower_bid_makes_that_player_act_next() -> None:
    hands = _fill([["euro_60_1", "euro_50_1"], ["dollar_20_1"], ["pound_30_1"]],
                  exclude=["yen_20_1"])
    state = table(hands, [], [], removed=("krona", "rouble"))
    state = GAME.apply(state, {0: Bid(("euro_50_1", "euro_60_1")), 1: Bid(("dollar_20_1",)),
                               2: Bid(("pound_30_1",))})
    assert GAME.active(state) == {0}
    state = GAME.apply(state, {0: SwapBid(1)})  # seat 1's 20, lower than seat 2's 30
    assert GAME.active(state) == {1}  # seat 1 now holds 110 and acts at once
    view = GAME.view(state, 2)
    assert view.acting == (1, 0) and view.bids[1].status == "next" and view.bids[1].value == 110
    # A player who has acted holds no bid: seat 1 cannot swap with seat 0.
    assert SwapBid(0) not in GAME.legal_actions(state, 1)
    assert SwapBid(2) in GAME.legal_actions(state, 1)
    state = GAME.apply(state, {1: SwapBid(2)})  # chains: seat 2 now acts with 110
    assert GAME.active(state) == {2}
    assert tuple(GAME.legal_actions(state, 2)) == (SwapMarket(0), SwapMarket(1), Keep())


def test_equal_bids_of_one_player_in_the_2_player_game_use_the_key_serial() -> None:
    hands = [["dollar_30_1", "pound_30_1", "euro_20_1", "euro_20_2", "gold_1", "silver_1"],
             ["franc_20_1", "franc_20_2", "franc_20_3", "yen_20_1", "yen_20_2", "yen_20_3"]]
    state = table(hands, [], [])
    bid = Bid(("dollar_30_1",), ("pound_30_1",))  # both 30: Dollar (serial 4) acts first
    assert bid in GAME.legal_actions(state, 0)
    assert Bid(("pound_30_1",), ("dollar_30_1",)) not in GAME.legal_actions(state, 0)
    state = GAME.apply(state, {0: bid, 1: Bid(())})
    order = []
    while state.phase == "turns":
        view = GAME.view(state, 0)
        order.append(view.acting)
        state = GAME.apply(state, {0: Keep()})
    assert order == [(0, 0), (0, 1)]


def test_set_bonus_does_not_change_bid_values() -> None:
    hands = [["euro_20_1", "euro_20_2", "euro_20_3"], ["dollar_60_1"], ["pound_50_1", "silver_1"]]
    state = table(_fill(hands), [], [], removed=("krona", "rouble"))
    state = GAME.apply(state, {0: Bid(("euro_20_1", "euro_20_2", "euro_20_3")),
                               1: Bid(("dollar_60_1",)), 2: Bid(("pound_50_1", "silver_1"))})
    assert [(b.owner, b.value) for b in GAME.view(state, 0).bids] == [(1, 60), (2, 60), (0, 60)]


def test_removed_currencies_never_appear_in_play() -> None:
    from engine.bots import play_game
    from engine.money.cards import CURRENCY

    played = play_game(GAME, 3, 7, options={"removed_currencies": ["yen", "euro"]})
    zones = GAME.zones(played.state)
    assert not any(CURRENCY[c] in ("yen", "euro") for cards in zones.values() for c in cards)


def test_stalemate_cap_and_no_round_limit_in_the_rules() -> None:
    state = GAME.setup(3, b"cap", {})
    for _ in range(5):
        state = GAME.apply(state, all_bluff(3))
    assert not GAME.stalemate(state) and not GAME.is_over(state)
    state = dataclasses.replace(state, round_no=200)
    assert not GAME.stalemate(state)
    state = GAME.apply(state, all_bluff(3))
    assert state.round_no == 201 and GAME.stalemate(state) and not GAME.is_over(state)


def test_out_of_turn_and_wrong_step_actions_are_refused() -> None:
    state = GAME.setup(3, b"turns", {})
    with pytest.raises(IllegalAction, match="choose a bid"):
        GAME.validate(state, 0, Keep())
    with pytest.raises(IllegalAction, match="every active seat"):
        GAME.apply(state, {0: Bid(())})
    state = GAME.apply(state, {0: Bid(state.hands[0][:1]), 1: Bid(()), 2: Bid(())})
    with pytest.raises(NotYourTurn):
        GAME.apply(state, {1: Keep()})
    with pytest.raises(IllegalAction, match="swap or keep"):
        GAME.validate(state, 0, Bid(()))
    with pytest.raises(IllegalAction, match="no market side 2"):
        GAME.validate(state, 0, SwapMarket(2))
    with pytest.raises(IllegalAction, match="side is True, which is not a whole number"):
        GAME.validate(state, 0, SwapMarket(True))
