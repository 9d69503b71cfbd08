"""Bids as actions: canonical form, BidSpace (money.md §5.1, §6) and random-play properties."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.core import IllegalAction, Stream
from engine.money import GAME, Bid, BidSpace, make_bid
from engine.money.bids import bid_problem

from .helpers import table

HAND = ("dollar_20_1", "dollar_60_1", "pound_30_1", "yen_20_1", "gold_1", "silver_1", "bluff_1")


def test_make_bid_drops_bluff_sorts_and_orients() -> None:
    assert make_bid(["yen_20_1", "bluff_1", "dollar_20_1"], [], 4) == Bid(
        ("dollar_20_1", "yen_20_1"))
    assert make_bid(["yen_20_1"], ["dollar_60_1"], 3) == Bid(("dollar_60_1", "yen_20_1"))
    assert make_bid([], ["yen_20_1"], 2) == Bid(("yen_20_1",))
    assert make_bid(["yen_20_1"], ["dollar_60_1"], 2) == Bid(("dollar_60_1",), ("yen_20_1",))
    assert make_bid(["pound_30_1"], ["dollar_20_1", "silver_1"], 2) == Bid(
        ("dollar_20_1", "silver_1"), ("pound_30_1",))  # 30 = 30: serial 1 acts first
    assert make_bid(["bluff_2"], [], 2) == Bid(())


@pytest.mark.parametrize(("m", "three", "two"), [(0, 1, 1), (1, 2, 2), (2, 4, 5), (3, 8, 14),
                                                 (6, 64, 365)])
def test_bidspace_counts(m: int, three: int, two: int) -> None:
    cards = HAND[:m]
    for players, want in ((3, three), (2, two)):
        space = BidSpace(cards, players == 2)
        listed = list(space)
        assert len(space) == want == len(listed) == len(set(listed))
        assert all(bid in space for bid in listed)
        assert all(make_bid(b.left, b.right, players) == b for b in listed)
        assert space.size == want


def test_bidspace_of_a_huge_two_player_hand_still_has_a_length() -> None:
    from engine.money.cards import money_cards

    space = BidSpace(money_cards("gold_silver")[:45], True)
    assert space.size > 3**44 and len(space) > 2**62
    assert space.sample(Stream(b"big")) in space


@pytest.mark.parametrize("two_player", [False, True])
def test_bidspace_samples_uniformly(two_player: bool) -> None:
    space = BidSpace(HAND[:3], two_player)
    rng = Stream(b"uniform")
    n = len(space) * 300
    counts = Counter(space.sample(rng) for _ in range(n))
    assert set(counts) == set(space)
    # Every bid near 300 draws (a chi-square bound, far from any flaky edge).
    chi2 = sum((c - 300) ** 2 / 300 for c in counts.values())
    assert chi2 < 3 * len(space) + 30


def test_bids_name_only_money_cards_from_the_hand() -> None:
    state = GAME.setup(3, b"v", {})
    hand = state.hands[0]
    other = state.hands[1][0]
    for bid, reason in [
        (Bid((other,)), "is not in your hand"),
        (Bid(("bluff_1",)), "bluff card"),
        (Bid((hand[1], hand[0])), "serial order"),
        (Bid((hand[0], hand[0])), "serial order"),
        (Bid(("zloty_10",)), "is not a card"),
        (Bid((hand[0],), (hand[1],)), "does not split a bid"),
        (Bid([hand[0]]), r"left is \[.*\], which is not a tuple of texts"),
    ]:
        with pytest.raises(IllegalAction, match=reason):
            GAME.validate(state, 0, bid)
        assert bid not in GAME.legal_actions(state, 0)
    with pytest.raises(IllegalAction, match=f"seat 0 cannot bid .*{other} is not in your hand"):
        GAME.validate(state, 0, Bid((other,)))


def test_two_player_bid_forms() -> None:
    hands = [["dollar_20_1", "dollar_60_1", "pound_30_1", "yen_20_1", "gold_1", "silver_1"],
             ["franc_20_1", "franc_20_2", "franc_20_3", "euro_20_1", "euro_20_2", "euro_20_3"]]
    state = table(hands, [], [])
    legal = GAME.legal_actions(state, 0)
    assert Bid(("dollar_60_1",), ("yen_20_1",)) in legal
    assert Bid(("yen_20_1",), ("dollar_60_1",)) not in legal  # left must act first
    assert Bid((), ("yen_20_1",)) not in legal
    assert Bid(("dollar_60_1",), ("dollar_60_1",)) not in legal
    with pytest.raises(IllegalAction, match="acts first goes in `left`"):
        GAME.validate(state, 0, Bid(("yen_20_1",), ("dollar_60_1",)))
    with pytest.raises(IllegalAction, match="single group goes in `left`"):
        GAME.validate(state, 0, Bid((), ("yen_20_1",)))


# ---- properties --------------------------------------------------------------------------

cards_strategy = st.lists(st.sampled_from(
    ["dollar_20_1", "dollar_60_1", "pound_30_1", "yen_20_1", "gold_1", "silver_1", "euro_40_1",
     "bluff_1", "coin_1", "nope"]), max_size=5)


@settings(max_examples=300, deadline=None)
@given(left=cards_strategy, right=cards_strategy, two=st.booleans(), m=st.integers(0, 6))
def test_bidspace_membership_equals_validation(left, right, two, m) -> None:
    hand = HAND[:m]
    space = BidSpace(hand, two)
    bid = Bid(tuple(left), tuple(right))
    valid = bid_problem(frozenset(hand + ("bluff_1",)), two, bid) is None
    assert (bid in space) == valid
    if valid:
        assert bid in set(space)
    canonical = make_bid([c for c in left if c in hand], [c for c in right if c in hand],
                         2 if two else 3)
    assert canonical in space


@settings(max_examples=25, deadline=None)
@given(seed=st.binary(min_size=1, max_size=8), players=st.integers(2, 5),
       classic=st.booleans())
def test_random_play_never_takes_the_bluff_card_from_a_hand(seed, players, classic) -> None:
    options = {"edition": "classic" if classic and players > 2 else "gold_silver"}
    state = GAME.setup(players, seed, options)
    rng = Stream(seed)
    steps = 0
    while not GAME.is_over(state) and steps < 400:
        chosen = {}
        for seat in sorted(GAME.active(state)):
            legal = GAME.legal_actions(state, seat)
            action = legal.sample(rng) if isinstance(legal, BidSpace) else rng.choice(legal)
            assert action in legal
            chosen[seat] = action
        state = GAME.apply(state, chosen)
        steps += 1
        for seat, hand in enumerate(state.hands):
            assert f"bluff_{seat + 1}" in hand and hand
            assert [c for c in hand if c.startswith("bluff")] == [f"bluff_{seat + 1}"]
        assert state.market[0] and state.market[1]


@settings(max_examples=150, deadline=None)
@given(seed=st.binary(min_size=1, max_size=4), players=st.integers(2, 5), data=st.data())
def test_legal_bid_space_agrees_with_validate_on_real_tables(seed, players, data) -> None:
    state = GAME.setup(players, seed, {})
    seat = data.draw(st.integers(0, players - 1))
    pool = sorted({*state.hands[seat], *state.hands[(seat + 1) % players][:2], state.deck[0]})
    left = tuple(data.draw(st.lists(st.sampled_from(pool), max_size=4)))
    right = tuple(data.draw(st.lists(st.sampled_from(pool), max_size=3)))
    bid = Bid(left, right)
    if data.draw(st.booleans(), label="canonical"):  # so that legal bids are drawn often too
        hand = state.hands[seat]
        bid = make_bid([c for c in left if c in hand], [c for c in right if c in hand], players)
    try:
        GAME.validate(state, seat, bid)
        valid = True
    except IllegalAction:
        valid = False
    assert (bid in GAME.legal_actions(state, seat)) == valid
