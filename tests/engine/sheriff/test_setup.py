"""Setup (§3, §4): deck per player count, options, the deal, first Sheriff, 3-player removals."""

from __future__ import annotations

from collections import Counter

import pytest

from engine.core import InvalidOption
from engine.sheriff import GAME
from engine.sheriff.cards import GOODS, ids_of

from .helpers import SEED, stacked


def _all_cards(state) -> Counter:
    cards = Counter(state.draw_pile) + Counter(state.piles[0]) + Counter(state.piles[1])
    for hand in state.hands:
        cards += Counter(ids_of(hand))
    return cards


@pytest.mark.parametrize(("n", "royal", "deck", "draw"), [
    (3, True, 162, 134), (3, False, 156, 128), (4, True, 216, 182), (4, False, 204, 170),
    (5, True, 216, 176), (5, False, 204, 164),
])
def test_deck_and_draw_pile_sizes(n, royal, deck, draw):
    state = GAME.setup(n, SEED, {"royal_goods": royal})
    assert sum(_all_cards(state).values()) == deck
    assert len(state.draw_pile) == draw
    assert all(sum(hand) == 6 for hand in state.hands)
    assert [len(p) for p in state.piles] == [5, 5]
    assert state.gold == (50,) * n


def test_three_players_remove_the_4plus_cards():
    cards = _all_cards(GAME.setup(3, SEED))
    assert cards["bread"] == 0 and cards["pepper"] == 18 and cards["mead"] == 16
    assert cards["silk"] == 9 and cards["crossbow"] == 5 and cards["apple"] == 48
    assert cards["golden_apples"] == 1 and cards["bleu_cheese"] == 0 and cards["rye_bread"] == 0
    assert cards["pumpernickel_bread"] == 0 and cards["royal_rooster"] == 1
    assert cards["green_apples"] == 2 and cards["gouda_cheese"] == 2


def test_no_royal_goods_when_the_option_is_off():
    cards = _all_cards(GAME.setup(4, SEED, {"royal_goods": False}))
    assert not any(cards[g] for g in GOODS[8:])


def test_stacked_deck_deals_blocks_of_six_then_the_piles():
    top = ["silk"] * 6 + ["apple"] * 6 + ["cheese"] * 6 + ["chicken"] * 6 + \
          ["pepper", "apple", "apple", "mead", "cheese"] + ["mead"] * 5 + ["crossbow"]
    state = GAME.setup(4, SEED, {"deck": stacked(4, top), "first_sheriff": 2})
    assert ids_of(state.hands[0]) == ("silk",) * 6
    assert ids_of(state.hands[3]) == ("chicken",) * 6
    assert state.piles[0] == ("pepper", "apple", "apple", "mead", "cheese")  # bottom to top
    assert state.draw_pile[0] == "crossbow"
    assert state.sheriff == 2 and state.turn == 3
    view = GAME.view(state, 0)
    assert view.piles[0][0] == "cheese"  # the view lists the top card first


def test_first_sheriff_is_drawn_from_the_seed_and_covers_every_seat():
    sheriffs = {GAME.setup(4, bytes([k])).sheriff for k in range(40)}
    assert sheriffs == {0, 1, 2, 3}
    assert GAME.setup(4, b"same").sheriff == GAME.setup(4, b"same").sheriff


@pytest.mark.parametrize(("options", "message"), [
    ({"royal_goods": "yes"}, "royal_goods"),
    ({"royal_goods": 1}, "royal_goods"),
    ({"first_sheriff": 4}, "first_sheriff"),
    ({"first_sheriff": True}, "first_sheriff"),
    ({"deck": ["apple"] * 216}, "not the 216 cards"),
    ({"deck": "apple"}, "list of good ids"),
    ({"deck": [1, 2]}, "list of good ids"),
    ({"colour": "red"}, "no option"),
])
def test_bad_options_are_refused_with_a_clear_reason(options, message):
    with pytest.raises(InvalidOption, match=message):
        GAME.setup(4, SEED, options)


@pytest.mark.parametrize("n", [2, 6])
def test_player_count_is_three_to_five(n):
    with pytest.raises(InvalidOption, match="3-5 players"):
        GAME.setup(n, SEED)


def test_three_player_deck_must_lack_bread():
    with pytest.raises(InvalidOption, match="not expected bread"):
        GAME.setup(3, SEED, {"deck": stacked(4, [])[:162]})
