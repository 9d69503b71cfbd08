"""Options, player counts and the order of the setup draws (§3, §4)."""

from __future__ import annotations

import pytest

from engine.core import InvalidOption, Rng
from engine.seven_wonders import GAME
from engine.seven_wonders.cards import CARD_RANK, GUILDS, WONDER_ORDER, age_cards


@pytest.mark.parametrize("n", [1, 2, 8])
def test_player_count_outside_three_to_seven_is_refused(n: int) -> None:
    with pytest.raises(InvalidOption, match="3-7 players"):
        GAME.setup(n, b"s", {})


@pytest.mark.parametrize(
    "options, message",
    [
        ({"colour": 1}, "no option"),
        ({"wonder_side": "C"}, "wonder_side"),
        ({"wonder_side": ["A", "B"]}, "3 values"),
        ({"wonder_side": ["A", "B", "X"]}, '"A" or "B"'),
        ({"wonders": ["gizah", "rhodos"]}, "name 3 boards"),
        ({"wonders": ["gizah", "rhodos", "atlantis"]}, "unknown wonder"),
        ({"wonders": ["gizah", "gizah", "rhodos"]}, "twice"),
        ({"wonders": "gizah"}, "list"),
        ({"deck": {4: []}}, "not an Age"),
        ({"deck": {1: ["age1_lumber_yard"]}}, "missing"),
        ({"deck": [1, 2]}, "map an Age"),
        ({"deck": {3: list(age_cards(3, 3)) + list(GUILDS[:4])}}, "5 different guilds"),
        ({"deck": {2: list(age_cards(2, 3))[:-1] + ["age1_altar"]}}, "not expected age1_altar"),
    ],
)
def test_bad_options_are_refused_with_a_clear_message(options: dict, message: str) -> None:
    with pytest.raises(InvalidOption, match=message):
        GAME.setup(3, b"s", options)


def test_setup_draws_wonders_then_sides_then_guilds_in_that_order() -> None:
    seed = b"order"
    state = GAME.setup(4, seed, {"wonder_side": "random"})
    rng = Rng(seed)
    order, rng = rng.shuffle(WONDER_ORDER)
    assert state.wonders == order[:4]
    sides = []
    for _ in range(4):
        k, rng = rng.below(2)
        sides.append("AB"[k])
    assert list(state.sides) == sides
    guilds, rng = rng.shuffle(GUILDS)
    assert state.guilds == tuple(sorted(guilds[:6], key=CARD_RANK.__getitem__))
    deck, _ = rng.shuffle(age_cards(1, 4))
    assert state.hands[0] == tuple(sorted(deck[:7], key=CARD_RANK.__getitem__))
    assert state.coins == (3, 3, 3, 3)


def test_explicit_wonders_and_sides_skip_their_draws() -> None:
    state = GAME.setup(3, b"x", {"wonders": ["gizah", "babylon", "rhodos"], "wonder_side": ["B", "A", "B"]})
    assert state.wonders == ("gizah", "babylon", "rhodos")
    assert state.sides == ("B", "A", "B")
    rng = Rng(b"x")
    guilds, _ = rng.shuffle(GUILDS)
    assert state.guilds == tuple(sorted(guilds[:5], key=CARD_RANK.__getitem__))


def test_stacked_deck_deals_top_cards_to_seat_zero_first() -> None:
    deck = list(reversed(age_cards(1, 3)))
    state = GAME.setup(3, b"s", {"deck": {"1": deck}})
    for seat in range(3):
        assert sorted(state.hands[seat]) == sorted(deck[7 * seat: 7 * seat + 7])


def test_stacked_age_three_fixes_the_guilds_in_play() -> None:
    chosen = ["age3_spies_guild", "age3_builders_guild", "age3_workers_guild", "age3_traders_guild",
              "age3_scientists_guild"]
    deck = chosen + list(age_cards(3, 3))
    state = GAME.setup(3, b"s", {"deck": {3: deck}})
    assert set(state.guilds) == set(chosen)
    assert set(GAME.zones(state)["box"]) == {f"{g}#1" for g in GUILDS if g not in chosen}


def test_same_seed_same_game_and_option_defaults() -> None:
    assert GAME.setup(5, b"same", {}) == GAME.setup(5, b"same", {})
    assert GAME.setup(5, b"same", {}) != GAME.setup(5, b"other", {})
    assert GAME.setup(3, b"s", {}).sides == ("A", "A", "A")
    assert GAME.setup(3, b"s", {"wonder_side": "B"}).sides == ("B", "B", "B")


def test_options_survive_the_log_and_replay() -> None:
    from engine.core import Stream, new_log, pick_uniform, replay_hashes, state_hash

    options = GAME.check_options({"wonders": ["gizah", "babylon", "rhodos"], "wonder_side": ["B", "A", "B"],
                                  "deck": {1: list(age_cards(1, 3)), "3": list(GUILDS[:5]) + list(age_cards(3, 3))}})
    state = GAME.setup(3, b"log", options)
    log = new_log(GAME, 3, b"log", options)
    hashes = [state_hash(state)]
    rng = Stream(b"log")
    while not GAME.is_over(state):
        chosen = {s: pick_uniform(GAME.legal_actions(state, s), rng) for s in GAME.active(state)}
        state = GAME.apply(state, chosen)
        log = log.append(chosen)
        hashes.append(state_hash(state))
    assert replay_hashes(GAME, log) == hashes
    assert set(state.guilds) == set(GUILDS[:5])


def test_describe_gives_one_readable_line() -> None:
    from engine.seven_wonders.state import BuildFromDiscard, Decline, Pick

    assert GAME.describe(Pick("age1_lumber_yard", "build")) == "builds Lumber Yard"
    assert GAME.describe(Pick("age2_statue", "build", 0, 2)) == "builds Statue, paying 0 left and 2 right"
    assert GAME.describe(Pick("age1_altar", "stage", 1, 0)) == "builds a wonder stage, paying 1 left and 0 right"
    assert GAME.describe(Pick("age1_altar", "discard")) == "discards a card for 3 coins"
    assert GAME.describe(Pick("age1_altar", "build_free")) == "builds for free Altar"
    assert GAME.describe(BuildFromDiscard("age1_altar")) == "builds Altar from the discard pile"
    assert GAME.describe(Decline()) == "builds nothing from the discard pile"
