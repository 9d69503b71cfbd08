"""The card data shipped in the package still holds the counts of the rules page (§2)."""

from __future__ import annotations

from collections import Counter

import pytest

from engine.seven_wonders import GAME
from engine.seven_wonders.cards import (
    BOARDS,
    CARDS,
    DATA,
    GUILDS,
    WONDER_ORDER,
    age_cards,
    guild_count,
)

DECK = {3: (21, 21, 16), 4: (28, 28, 22), 5: (35, 35, 28), 6: (42, 42, 34), 7: (49, 49, 40)}


@pytest.mark.parametrize("n", sorted(DECK))
def test_deck_sizes_per_age_and_player_count(n: int) -> None:
    sizes = tuple(len(age_cards(age, n)) for age in (1, 2, 3))
    assert sizes == DECK[n]
    assert guild_count(n) == n + 2
    assert sizes[2] + guild_count(n) == 7 * n


def test_physical_totals() -> None:
    physical = Counter(c.age for c in CARDS.values() if not c.is_guild for _ in c.copies_min_players)
    assert physical == {1: 49, 2: 49, 3: 40}
    assert len(GUILDS) == 10 and len(CARDS) == 78


def test_eight_copies_of_each_science_symbol() -> None:
    symbols = Counter(c.effects.science for c in CARDS.values()
                      if c.color == "green" for _ in c.copies_min_players)
    assert symbols == {"compass": 8, "gear": 8, "tablet": 8}


def test_chains_point_to_the_next_age_and_back() -> None:
    by_name = {(c.name, c.age): c for c in CARDS.values()}
    for card in CARDS.values():
        for target in card.chain_to:
            assert card.name in by_name[(target, card.age + 1)].chain_from
        for source in card.chain_from:
            assert card.name in by_name[(source, card.age - 1)].chain_to


def test_wonders_and_stage_counts() -> None:
    assert WONDER_ORDER == ("rhodos", "alexandria", "ephesos", "babylon", "olympia", "halikarnassos", "gizah")
    b_stages = {w: len(BOARDS[(w, "B")].stages) for w in WONDER_ORDER}
    assert b_stages == {"rhodos": 2, "alexandria": 3, "ephesos": 3, "babylon": 3, "olympia": 3,
                        "halikarnassos": 3, "gizah": 4}
    assert all(len(BOARDS[(w, "A")].stages) == 3 for w in WONDER_ORDER)
    assert sorted(BOARDS[(w, "A")].starting_resource for w in WONDER_ORDER) == list(range(7))


def test_package_data_is_the_schema_the_rules_page_describes() -> None:
    assert DATA["schema_version"] == 1
    assert set(DATA["options"]) == {"wonder_side", "wonders", "deck"}


@pytest.mark.parametrize("n", sorted(DECK))
def test_engine_deals_seven_cards_per_player_every_age(n: int) -> None:
    state = GAME.setup(n, b"deal", {})
    for age in (1, 2, 3):
        assert state.age == age
        assert [len(h) for h in state.hands] == [7] * n
        dealt = Counter(c for h in state.hands for c in h)
        if age < 3:
            assert dealt == Counter(age_cards(age, n))
        else:
            guilds = [c for c in dealt if CARDS[c].is_guild]
            assert len(guilds) == n + 2
            assert dealt - Counter(guilds) == Counter(age_cards(3, n))
        while state.age == age and not GAME.is_over(state):
            state = GAME.apply(state, {s: next(a for a in GAME.legal_actions(state, s) if a.kind == "discard")
                                       for s in GAME.active(state)})
