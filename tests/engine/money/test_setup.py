"""Options, player counts and setup (money.md §3, §4)."""

from __future__ import annotations

import pytest

from engine.core import (
    InvalidOption,
    Stream,
    canonical,
    decode,
    new_log,
    replay_hashes,
    state_hash,
)
from engine.money import GAME
from engine.money.cards import CURRENCIES, CURRENCY, money_cards

from .helpers import stacked_deck

# §4.2 "Resulting sizes": edition, players, currencies out, deck, dealt, market, left in deck.
SIZES = [
    ("gold_silver", 2, 1, 66, 12, 8, 46),
    ("gold_silver", 3, 2, 57, 18, 8, 31),
    ("gold_silver", 4, 1, 66, 24, 8, 34),
    ("gold_silver", 5, 0, 75, 30, 8, 37),
    ("classic", 3, 2, 51, 18, 8, 25),
    ("classic", 4, 1, 60, 24, 8, 28),
    ("classic", 5, 0, 69, 30, 8, 31),
]


@pytest.mark.parametrize(("edition", "players", "out", "deck", "dealt", "market", "left"), SIZES)
def test_setup_sizes(edition, players, out, deck, dealt, market, left) -> None:
    state = GAME.setup(players, b"sizes", {"edition": edition})
    assert len(state.removed) == out
    in_hands = sum(len(h) - 1 for h in state.hands)
    assert in_hands == dealt and all(len(h) == 7 for h in state.hands)
    assert len(state.market[0]) == len(state.market[1]) == 4
    assert len(state.market[0]) + len(state.market[1]) == market
    assert len(state.deck) == left
    assert in_hands + market + left == deck
    cards = [c for h in state.hands for c in h if not c.startswith("bluff")]
    cards += [*state.market[0], *state.market[1], *state.deck]
    assert not any(CURRENCY[c] in state.removed for c in cards)
    assert state.phase == "bid" and state.round_no == 1 and not state.final_round
    view = GAME.view(state, 0)
    assert view.deck_size == left and view.hand_sizes == (7,) * players


def test_every_hand_holds_its_own_bluff_card_and_the_rest_stay_in_the_box() -> None:
    state = GAME.setup(3, b"x", {})
    assert [h[-1] for h in state.hands] == ["bluff_1", "bluff_2", "bluff_3"]
    assert state.box == ("bluff_4", "bluff_5")
    zones = GAME.zones(state)
    assert sorted(c for cards in zones.values() for c in cards) == sorted(
        [*money_cards("gold_silver", tuple(c for c in CURRENCIES if c not in state.removed)),
         "bluff_1", "bluff_2", "bluff_3", "bluff_4", "bluff_5"])


def test_stacked_deck_deals_top_first_seat_0_first_then_side_I_then_side_II() -> None:
    hands = [["dollar_20_1", "dollar_20_2", "dollar_20_3", "dollar_30_1", "dollar_30_2", "gold_1"],
             ["euro_60_1", "euro_50_1", "euro_40_1", "silver_1", "silver_2", "silver_3"]]
    side1 = ["yen_20_1", "yen_20_2", "yen_20_3", "gold_2"]
    side2 = ["pound_60_1", "franc_60_1", "rouble_60_1", "gold_3"]
    deck = stacked_deck(hands, side1, side2, removed=("krona",))
    state = GAME.setup(2, b"ignored", {"deck": deck})
    assert state.removed == ("krona",)
    assert state.hands[0] == ("dollar_20_1", "dollar_20_2", "dollar_20_3", "dollar_30_1",
                              "dollar_30_2", "gold_1", "bluff_1")
    assert state.hands[1] == ("euro_40_1", "euro_50_1", "euro_60_1", "silver_1", "silver_2",
                              "silver_3", "bluff_2")
    assert state.market == (("yen_20_1", "yen_20_2", "yen_20_3", "gold_2"),
                            ("pound_60_1", "rouble_60_1", "franc_60_1", "gold_3"))
    assert state.deck == tuple(deck[20:])
    # With a stacked deck setup draws no random number: another seed deals the same table.
    other = GAME.setup(2, b"other seed", {"deck": deck})
    assert (other.hands, other.market, other.deck) == (state.hands, state.market, state.deck)
    assert other.rng.counter == state.rng.counter == 0


def test_stacked_deck_with_agreeing_removed_currencies() -> None:
    deck = stacked_deck([], [], [], removed=("krona",))
    state = GAME.setup(4, b"s", {"deck": deck, "removed_currencies": ["krona"]})
    assert state.removed == ("krona",)


def test_removed_currencies_option_and_seeded_choice() -> None:
    state = GAME.setup(3, b"s", {"removed_currencies": ["euro", "dollar"]})
    assert state.removed == ("dollar", "euro")
    assert GAME.setup(5, b"s", {"removed_currencies": []}).removed == ()
    a, b = GAME.setup(4, b"same", {}), GAME.setup(4, b"same", {})
    assert a == b and len(a.removed) == 1
    removed = {GAME.setup(4, bytes([i]), {}).removed for i in range(40)}
    assert len(removed) > 3  # the seeded shuffle picks different currencies


def test_state_round_trips_through_msgpack() -> None:
    state = GAME.setup(4, b"rt", {"edition": "classic"})
    assert decode(canonical(state)) == state


@pytest.mark.parametrize(
    ("players", "options", "message"),
    [
        (4, {"edition": "deluxe"}, "edition must be one of"),
        (2, {"edition": "classic"}, "3-5 players, not 2"),
        (6, {}, "2-5 players, not 6"),
        (1, {}, "2-5 players, not 1"),
        (6, {"edition": "classic"}, "3-5 players, not 6"),
        (4, {"colour": "red"}, "no option 'colour'"),
        (4, {"removed_currencies": ["peso"]}, "unknown currency 'peso'"),
        (4, {"removed_currencies": ["euro", "euro"]}, "names a currency twice"),
        (3, {"removed_currencies": ["euro"]}, "must name 2 currencies for 3 players, not 1"),
        (4, {"removed_currencies": []}, "must name 1 currency for 4 players, not 0"),
        (5, {"removed_currencies": ["euro"]}, "must name 0 currencies for 5 players, not 1"),
        (4, {"removed_currencies": "euro"}, "must be a list"),
        (4, {"deck": "dollar_20_1"}, "must be a list"),
        (4, {"deck": ["nope"]}, "'nope', which is not a card"),
        (4, {"deck": ["bluff_1"]}, "may not hold a bluff card"),
        (4, {"deck": ["coin_1"]}, "not in the gold_silver edition"),
    ],
)
def test_option_errors(players, options, message) -> None:
    with pytest.raises(InvalidOption, match=message):
        GAME.setup(players, b"s", options)


def test_bad_stacked_decks() -> None:
    full = stacked_deck([], [], [], removed=("krona",))
    with pytest.raises(InvalidOption, match="missing gold_1"):
        GAME.setup(4, b"s", {"deck": [c for c in full if c != "gold_1"]})
    with pytest.raises(InvalidOption, match="not expected dollar_20_1"):
        GAME.setup(4, b"s", {"deck": [*full, "dollar_20_1"]})
    with pytest.raises(InvalidOption, match="leaves out 1 currencies .*3 players remove 2"):
        GAME.setup(3, b"s", {"deck": full})
    without_dollar = [c for c in full if CURRENCY[c] != "dollar"]
    with pytest.raises(InvalidOption, match="leaves out 2 currencies"):
        GAME.setup(4, b"s", {"deck": without_dollar})
    partial = [c for c in full if c != "euro_60_1"]  # a currency half there is not removed
    with pytest.raises(InvalidOption, match="missing euro_60_1"):
        GAME.setup(4, b"s", {"deck": partial})
    with pytest.raises(InvalidOption, match="disagrees with the stacked deck"):
        GAME.setup(4, b"s", {"deck": full, "removed_currencies": ["euro"]})
    classic = stacked_deck([], [], [], removed=("krona",), edition="classic")
    with pytest.raises(InvalidOption, match="silver_1, which is not in the classic edition"):
        GAME.setup(4, b"s", {"edition": "classic", "deck": [*classic, "silver_1"]})
    assert GAME.setup(4, b"s", {"edition": "classic", "deck": classic}).removed == ("krona",)


def test_player_range_follows_the_edition() -> None:
    assert GAME.player_range({"edition": "classic"}) == (3, 5)
    assert GAME.player_range({"edition": "gold_silver"}) == (2, 5)
    assert GAME.check_options({}) == {"edition": "gold_silver", "removed_currencies": None,
                                      "deck": None}


def test_a_game_with_list_options_replays_from_its_log() -> None:
    deck = stacked_deck([], [], [], removed=("krona",))
    options = GAME.check_options({"deck": deck, "removed_currencies": ["krona"]})
    state = GAME.setup(4, b"log", options)
    log = new_log(GAME, 4, b"log", options)
    hashes = [state_hash(state)]
    rng = Stream(b"replay")
    for _ in range(30):
        chosen = {}
        for seat in sorted(GAME.active(state)):
            legal = GAME.legal_actions(state, seat)
            chosen[seat] = legal.sample(rng) if hasattr(legal, "sample") else rng.choice(legal)
        state = GAME.apply(state, chosen)
        log = log.append(chosen)
        hashes.append(state_hash(state))
    assert replay_hashes(GAME, log) == hashes
