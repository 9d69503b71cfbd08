"""The action spaces list exactly what validation accepts, each choice once, and sample evenly."""

from __future__ import annotations

import dataclasses
from collections import Counter
from itertools import product

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.core import IllegalAction, Stream
from engine.sheriff import GAME
from engine.sheriff.cards import GOODS, PAY_ORDER, counts_of
from engine.sheriff.common import pay_options
from engine.sheriff.state import Debt, PayGoods, SetAside

from .helpers import start, step

HANDS = [["apple"] * 6, ["cheese", "cheese", "chicken", "silk", "silk", "apple"],
         ["chicken"] * 6, ["bread"] * 6]


def test_set_aside_space_is_every_sub_multiset_of_at_most_five_once():
    state = start(HANDS)
    space = GAME.legal_actions(state, 1)
    listed = list(space)
    assert len(listed) == len(set(listed)) == len(space) == 3 * 2 * 3 * 2 - 1  # minus all six
    for action in listed:
        GAME.validate(state, 1, action)
    assert SetAside(("silk", "apple")) in space and SetAside(tuple(HANDS[1])) not in space


def test_set_aside_sampling_is_uniform():
    space = GAME.legal_actions(start(HANDS), 1)
    rng = Stream(b"uniform")
    counts = Counter(space.sample(rng) for _ in range(3300))
    assert len(counts) == 35 and min(counts.values()) > 50 and max(counts.values()) < 150


def test_discard_space_lists_each_distinct_order_on_each_pile():
    state = step(start(HANDS), 1, SetAside(("cheese", "silk", "silk")))
    while state.step == "draw":
        state = step(state, 1, GAME.legal_actions(state, 1)[-1])
    space = GAME.legal_actions(state, 1)
    listed = list(space)
    assert len(listed) == len(set(listed)) == len(space) == 2 * 3
    rng = Stream(b"orders")
    counts = Counter(space.sample(rng) for _ in range(1200))
    assert set(counts) == set(listed) and min(counts.values()) > 140


def _valid_payments(stand, owed):
    """Every set of cards from the stand that `validate` accepts, by brute force."""
    state = start(HANDS)
    state = dataclasses.replace(state, phase="inspect", step="pay", turn=1, stands=(
        state.stands[0], stand) + state.stands[2:], debt=Debt(1, 0, owed))
    out = set()
    present = [i for i in PAY_ORDER if stand[i]]
    for picked in product(*(range(stand[i] + 1) for i in present)):
        cards = tuple(GOODS[i] for i, k in zip(present, picked, strict=True) for _ in range(k))
        try:
            GAME.validate(state, 1, PayGoods(cards))
        except IllegalAction:
            continue
        out.add(PayGoods(cards))
    return out


@settings(max_examples=40, deadline=None)
@given(stand=st.lists(st.sampled_from(["apple", "cheese", "chicken", "pepper", "silk", "gouda_cheese"]),
                      min_size=1, max_size=7), owed=st.integers(1, 30))
def test_pay_options_are_exactly_the_valid_payments(stand, owed):
    counts = counts_of(stand)
    options = pay_options(counts, owed)
    assert len(options) == len(set(options))
    assert set(options) == _valid_payments(counts, owed)
    assert options  # a debt with goods on the stand can always be paid somehow


def test_offer_space_lists_valid_distinct_moves_and_no_offer_once():
    from engine.sheriff.state import Choose, NoOffer

    from .helpers import to_inspection

    hands = [["apple"] * 6, ["cheese"] * 6, ["chicken"] * 6, ["bread"] * 6]
    state = to_inspection(start(hands), {1: (["cheese"], "cheese"), 2: (["chicken"], "chicken"),
                                         3: (["bread"], "bread")})
    draw = list(state.draw_pile)
    draw.remove("apple")
    state = dataclasses.replace(state, gold=(148, 2, 50, 50), draw_pile=tuple(draw),
                                stands=(state.stands[0], counts_of(["apple"])) + state.stands[2:])
    state = step(state, 0, Choose(1))
    space = GAME.legal_actions(state, 1)
    listed = list(space)
    # gold 0-2, apple 0-1, bag claims of at most 1 card over 15 goods, 3 promises, 2 merchants
    assert len(listed) == len(space) == 3 * 2 * 16 * 3 * 3 * 3
    assert len(set(listed)) == len(listed) and listed.count(NoOffer()) == 1
    for action in listed:
        GAME.validate(state, 1, action)
