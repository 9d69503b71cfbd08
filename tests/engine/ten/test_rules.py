"""Ten's rules (ten.md §2-§7, §9, §11, §12), played through GAME.apply on stacked decks."""

from __future__ import annotations

from dataclasses import replace

import pytest

from engine.core import IllegalAction, InvalidOption, NotYourTurn, Rng
from engine.ten import GAME
from engine.ten.cards import deck_for
from engine.ten.state import (
    AUCTION,
    BUY,
    CHOOSE,
    DRAW,
    FINAL_BUY,
    OVER,
    PAY,
    SOLO_WILD,
    Bid,
    Buy,
    BuyWild,
    ClaimCurrency,
    ClaimNumbers,
    DiscardWild,
    Draw,
    Pass,
    Pay,
    Payment,
    Skip,
)

from .helpers import RULES_JSON, physical, play, start

DRAW_EXAMPLES = [ex for ex in RULES_JSON["examples"] if ex["what"] == "draw"]


def _types(cards):
    return sorted(c.rsplit("_", 1)[0] for c in cards)


# ---- setup -------------------------------------------------------------------------------
@pytest.mark.parametrize("players", [1, 2, 3, 4, 5])
def test_deck_size_and_tokens_by_player_count(players: int) -> None:
    state = GAME.setup(players, b"seed")
    assert len(state.deck) == RULES_JSON["deck_size_by_players"][str(players)]
    assert sorted(state.deck) == sorted(deck_for(players))
    assert state.currency == (5,) * players and state.busts == (0,) * players
    assert state.market == state.discard == () and state.collections == ((),) * players
    assert state.phase == DRAW


def test_player_count_marks_remove_the_right_copies() -> None:
    three, two, solo = set(deck_for(3)), set(deck_for(2)), set(deck_for(1))
    assert two == solo
    assert "red_1_c" not in three and "red_6_c" not in three and "red_1_b" in three
    assert "red_1_b" not in two and "red_4_b" in two and "red_wild_b" in two
    assert {c for c in deck_for(5) if c.startswith("currency")} <= two
    assert len(deck_for(5)) == 129


def test_first_player_is_drawn_after_the_shuffle() -> None:
    seed = b"who starts"
    rng = Rng(seed)
    deck, rng = rng.shuffle(deck_for(4))
    first, _ = rng.below(4)
    state = GAME.setup(4, seed)
    assert state.deck == deck and state.turn == first


def test_stacked_deck_and_first_player_options() -> None:
    state = start(3, ["red_4", "blue_3"], first_player=2)
    assert state.deck[:2] == ("red_4_a", "blue_3_a") and state.turn == 2


@pytest.mark.parametrize(
    "options, message",
    [
        ({"first_player": 3}, "first_player"),
        ({"first_player": True}, "first_player"),
        ({"deck": "red_1_a"}, "list of card ids"),
        ({"deck": list(deck_for(3))}, "not expected blue_1_b"),  # 3-player deck, 2 players
        ({"deck": list(deck_for(2))[1:]}, "missing"),
        ({"colour": "red"}, "no option"),
    ],
)
def test_bad_options_are_refused_clearly(options, message) -> None:
    with pytest.raises(InvalidOption, match=message):
        GAME.setup(2 if "deck" in options else 3, b"s", options)


def test_six_players_are_refused() -> None:
    with pytest.raises(InvalidOption, match="1-5 players"):
        GAME.setup(6, b"s")


# ---- draw phase --------------------------------------------------------------------------
@pytest.mark.parametrize("example", DRAW_EXAMPLES, ids=[ex["id"] for ex in DRAW_EXAMPLES])
def test_rules_json_draw_sequences(example) -> None:
    state = start(3, example["draws"])
    totals, sums = [], []
    for _ in example["draws"]:
        state = GAME.apply(state, {0: Draw()})
        if state.phase == CHOOSE:
            totals.append(state.total)
            sums.append(state.currency_sum)
    expected = example["expected"]
    bust = expected["bust"]
    if bust is None:
        assert totals == expected["running_totals"] and sums == expected["currency_sums"]
        assert state.phase == CHOOSE
    else:
        assert totals == expected["running_totals"][:-1]
        assert state.last_turn.outcome == f"bust_{bust}"
        assert state.last_turn.amount == expected["currency_sums"][-1]
        assert state.turn == 1 and state.phase == DRAW


def test_turn_starts_with_a_draw() -> None:
    state = start(3, ["red_4"])
    assert GAME.legal_actions(state, 0) == (Draw(),)
    with pytest.raises(IllegalAction, match="draw a card first"):
        GAME.apply(state, {0: ClaimNumbers()})
    with pytest.raises(NotYourTurn):
        GAME.apply(state, {1: Draw()})


def test_claim_numbers_gives_others_the_currency_and_a_buy_phase() -> None:
    # ten.md §12.2 row 1
    state = start(3, ["red_4", "blue_3", "currency_2", "green_5"])
    state = play(state, *[(0, Draw())] * 4)
    assert (state.total, state.currency_sum) == (10, 2)
    state = play(state, (0, ClaimNumbers()))
    assert _types(state.collections[0]) == ["blue_3", "green_5", "red_4"]
    assert state.currency == (5, 7, 7)
    assert state.discard == ("currency_2_a",)
    assert state.phase == BUY and GAME.active(state) == {0}
    state = play(state, (0, Skip()))
    assert state.turn == 1 and state.phase == DRAW and state.tableau == ()


def test_claim_currency_takes_the_currency_and_sends_numbers_to_market() -> None:
    state = start(3, ["red_4", "blue_3", "currency_2", "green_5"])
    state = play(state, *[(0, Draw())] * 4, (0, ClaimCurrency()))
    assert state.currency == (7, 5, 5)
    assert _types(state.market) == ["blue_3", "green_5", "red_4"]
    assert state.collections[0] == ()
    assert state.turn == 1 and state.phase == DRAW  # no buy phase


def test_claim_currency_with_nothing_shown_is_allowed() -> None:
    state = play(start(3, ["red_4"]), (0, Draw()), (0, ClaimCurrency()))
    assert state.currency == (5, 5, 5) and _types(state.market) == ["red_4"]


def test_bust_by_numbers_gives_others_the_currency() -> None:
    # ten.md §12.2 row 2
    state = start(3, ["orange_6", "red_3", "currency_1", "blue_2", "green_5"])
    state = play(state, *[(0, Draw())] * 5)
    assert _types(state.market) == ["blue_2", "green_5", "orange_6", "red_3"]
    assert state.busts == (1, 0, 0)
    assert state.currency == (5, 6, 6)
    assert state.discard == ("currency_1_a",)
    assert state.turn == 1 and state.phase == DRAW and state.tableau == ()


def test_bust_by_currency_gives_nobody_anything() -> None:
    # ten.md §12.2 row 3
    state = start(3, ["currency_5", "currency_4", "red_2", "currency_3"])
    state = play(state, *[(0, Draw())] * 4)
    assert _types(state.market) == ["red_2"]
    assert state.busts == (1, 0, 0) and state.currency == (5, 5, 5)
    assert len(state.discard) == 3
    assert state.last_turn.outcome == "bust_currency" and state.last_turn.gains == (0, 0, 0)


def test_bust_exactly_at_eleven_after_a_negative_total() -> None:
    # ten.md §12.2 row 4
    state = start(3, ["currency_3", "blue_9", "red_5"])
    state = play(state, *[(0, Draw())] * 3)
    assert state.last_turn.outcome == "bust_numbers"
    assert state.currency == (5, 8, 8)


def test_ten_is_not_a_bust() -> None:
    state = play(start(3, ["red_6", "blue_4"]), (0, Draw()), (0, Draw()))
    assert state.phase == CHOOSE and state.total == 10


def test_currency_tokens_stop_at_ten() -> None:
    # ten.json currency_cap: holding 8, gaining 4 -> 10, 2 not taken
    state = start(3, ["currency_4"])
    state = replace(state, currency=(8, 10, 9))
    state = play(state, (0, Draw()), (0, ClaimCurrency()))
    assert state.currency == (10, 10, 9)
    assert state.last_turn.gains == (2, 0, 0)
    state = start(3, ["currency_4"])
    state = replace(state, currency=(8, 10, 9))
    state = play(state, (0, Draw()), (0, ClaimNumbers()))
    assert state.currency == (8, 10, 10)
    assert state.last_turn.gains == (0, 0, 1)


def test_bust_tokens_have_no_limit() -> None:
    state = replace(start(3, ["red_6", "red_5"]), busts=(12, 0, 0), currency=(10, 5, 5))
    state = play(state, (0, Draw()), (0, Draw()))
    assert state.busts == (13, 0, 0) and state.currency == (10, 5, 5)


# ---- paying --------------------------------------------------------------------------------
def _with_market(state, seat, market, collection=(), currency=None, busts=None):
    """A state where `seat` has just claimed numbers and may buy."""
    n = state.n_players
    market = physical(market, n)
    collection = physical(collection, n, taken=set(market))
    moved = set(market) | set(collection)
    return replace(
        state,
        deck=tuple(c for c in state.deck if c not in moved),
        turn=seat,
        phase=BUY,
        market=tuple(market),
        collections=tuple(tuple(collection) if s == seat else () for s in range(n)),
        currency=tuple(currency if currency is not None and s == seat else 5 for s in range(n)),
        busts=tuple(busts if busts is not None and s == seat else 0 for s in range(n)),
    )


def test_buy_phase_example() -> None:
    # ten.md §12.5: B holds 2 tokens, 1 bust token, 5 cards among them green 5
    base = start(3, [])
    held = ["green_5", "red_7", "orange_1", "orange_2", "blue_9"]
    state = _with_market(base, 1, ["blue_6", "red_2", "green_5"], held, currency=2, busts=1)
    assert set(GAME.buyable(state, 1)) == {"blue_6_a", "red_2_a"}
    with pytest.raises(IllegalAction, match="identical"):
        GAME.validate(state, 1, Buy(state.market[2], Payment(2, 1, ())))
    orange = tuple(c for c in state.collections[1] if c.startswith("orange_1"))
    bought = play(state, (1, Buy("blue_6_a", Payment(2, 1, orange))))
    assert bought.currency[1] == 0 and bought.busts[1] == 0
    assert "blue_6_a" in bought.collections[1] and orange[0] not in bought.collections[1]
    assert orange[0] in bought.discard
    assert bought.phase == DRAW and bought.turn == 2  # only one card
    overpaid = play(state, (1, Buy("red_2_a", Payment(0, 1, ()))))
    assert overpaid.busts[1] == 0 and overpaid.currency[1] == 2  # 1 lost, no change


def test_identical_card_refused_even_if_paid_with() -> None:
    state = _with_market(start(3, []), 0, ["red_3"], ["red_3", "blue_1", "blue_2"], currency=0)
    with pytest.raises(IllegalAction, match="identical"):
        GAME.validate(state, 0, Buy(state.market[0], Payment(0, 0, tuple(sorted(state.collections[0])))))


def test_wild_in_collection_does_not_block_a_purchase() -> None:
    state = _with_market(start(3, []), 0, ["red_3"], ["red_wild", "wild_3"], currency=3)
    assert GAME.buyable(state, 0) == ("red_3_a",)
    state = play(state, (0, Buy("red_3_a", Payment(3, 0, ()))))
    assert "red_3_a" in state.collections[0]


@pytest.mark.parametrize(
    "payment, ok",
    [
        (Payment(2, 1, ("blue_1_a",)), True),  # pay_exact_mixed: 6
        (Payment(3, 1, ()), True),
        (Payment(0, 2, ()), True),  # 6 with two bust tokens, exact
        (Payment(1, 2, ()), False),  # 7: the token is not needed
        (Payment(0, 3, ()), False),  # 9: a bust token too many
        (Payment(4, 1, ()), False),  # 7
        (Payment(2, 1, ()), False),  # 5: short
        (Payment(2, 1, ("red_9_a",)), False),  # not in the collection
        (Payment(2, 1, ("blue_2_a", "blue_1_a")), False),  # not sorted
        (Payment(6, 0, ()), False),  # holds only 5 tokens
    ],
)
def test_payment_rules(payment, ok) -> None:
    state = _with_market(start(3, []), 0, ["blue_6"], ["blue_1", "blue_2"], currency=5, busts=3)
    action = Buy("blue_6_a", payment)
    if ok:
        GAME.validate(state, 0, action)
        assert action in GAME.legal_actions(state, 0)
    else:
        with pytest.raises(IllegalAction):
            GAME.validate(state, 0, action)
        assert action not in GAME.legal_actions(state, 0)


def test_too_expensive_cards_are_not_offered() -> None:
    state = _with_market(start(3, []), 0, ["blue_6", "red_2"], [], currency=2)
    assert GAME.buyable(state, 0) == ("red_2_a",)
    with pytest.raises(IllegalAction, match="does not cover"):
        GAME.validate(state, 0, Buy("blue_6_a", Payment(2, 0, ())))


def test_payment_space_counts_lists_and_samples_the_same_actions() -> None:
    from engine.core import Stream

    state = _with_market(
        start(3, []), 0, ["blue_4", "red_2"], ["green_1", "green_2", "orange_5"], currency=2, busts=1
    )
    space = GAME.legal_actions(state, 0)
    listed = list(space)
    assert len(listed) == len(space) == len(set(listed))
    assert Skip() in listed
    for action in listed:
        GAME.validate(state, 0, action)
    rng = Stream(b"sample")
    for _ in range(50):
        assert space.sample(rng) in listed


# ---- auctions ------------------------------------------------------------------------------
def test_auction_example() -> None:
    # ten.md §12.4: A draws numbered wild 7; B bids 2, C passes, D bids 3, A bids 4 and wins
    state = start(4, ["red_3", "wild_7"])
    state = replace(state, busts=(1, 0, 0, 0))
    state = play(state, (0, Draw()), (0, Draw()))
    assert state.phase == AUCTION and GAME.active(state) == {1}
    state = play(state, (1, Bid(2)), (2, Pass()), (3, Bid(3)))
    with pytest.raises(IllegalAction, match="at least 4"):
        GAME.validate(state, 0, Bid(3))
    state = play(state, (0, Bid(4)))
    assert state.phase == PAY and GAME.active(state) == {0}
    state = play(state, (0, Pay(Payment(1, 1, ()))))
    assert state.collections[0] == ("wild_7_a",)
    assert (state.currency[0], state.busts[0]) == (4, 0)
    assert state.tableau == ("red_3_a",) and state.total == 3  # unchanged
    assert state.phase == CHOOSE and state.turn == 0


def test_auction_winner_other_than_active_player_pays() -> None:
    state = play(start(3, ["wild_7"]), (0, Draw()), (1, Pass()), (2, Bid(3)), (0, Pass()))
    assert state.phase == PAY and GAME.active(state) == {2}
    state = play(state, (2, Pay(Payment(3, 0, ()))))
    assert state.collections[2] == ("wild_7_a",) and state.currency == (5, 5, 2)
    assert state.phase == CHOOSE and GAME.active(state) == {0}


def test_auction_with_no_bids_discards_the_wild() -> None:
    state = play(start(3, ["rainbow_wild"]), (0, Draw()), (1, Pass()), (2, Pass()), (0, Pass()))
    assert state.discard == ("rainbow_wild_a",)
    assert state.phase == CHOOSE and state.collections == ((), (), ())


def test_bids_are_bounded_by_purchasing_power() -> None:
    state = play(start(3, ["red_1", "wild_2"]), (0, Draw()), (0, Draw()))
    state = replace(state, currency=(5, 2, 5), busts=(0, 1, 0))
    legal = GAME.legal_actions(state, 1)
    assert legal == (Pass(), Bid(1), Bid(2), Bid(3), Bid(4), Bid(5))
    with pytest.raises(IllegalAction, match="purchasing power"):
        GAME.validate(state, 1, Bid(6))
    with pytest.raises(IllegalAction, match="at least 1"):
        GAME.validate(state, 1, Bid(0))


def test_player_with_nothing_can_only_pass() -> None:
    state = play(start(3, ["wild_2"]), (0, Draw()))
    state = replace(state, currency=(5, 0, 5))
    assert GAME.legal_actions(state, 1) == (Pass(),)


def test_first_card_wild_then_claim_with_empty_tableau() -> None:
    # ten.md §11.2: claim numbers gives nobody anything and A still buys
    state = play(start(3, ["wild_5"]), (0, Draw()), (1, Pass()), (2, Pass()), (0, Pass()))
    state = play(state, (0, ClaimNumbers()))
    assert state.currency == (5, 5, 5) and state.phase == BUY


def test_claim_numbers_with_only_currency_still_pays_the_others() -> None:
    state = play(start(3, ["currency_3"]), (0, Draw()), (0, ClaimNumbers()))
    assert state.currency == (5, 8, 8) and state.phase == BUY


# ---- end of game ---------------------------------------------------------------------------
def test_end_of_game_example() -> None:
    # ten.md §12.6: A holds red 3 and blue 4, draws the last card (currency 2) and claims
    state = start(3, ["red_3", "blue_4", "currency_2"], deck_left=3)
    state = play(state, (0, Draw()), (0, Draw()), (0, Draw()))
    assert state.deck == () and (state.total, state.currency_sum) == (5, 2)
    assert GAME.legal_actions(state, 0) == (ClaimNumbers(), ClaimCurrency())
    with pytest.raises(IllegalAction, match="deck is empty"):
        GAME.validate(state, 0, Draw())
    state = play(state, (0, ClaimNumbers()))
    assert state.currency == (5, 7, 7) and state.phase == BUY
    order = []
    state = play(state, (0, Skip()))
    while not GAME.is_over(state):
        assert state.phase == FINAL_BUY
        (seat,) = GAME.active(state)
        order.append(seat)
        state = play(state, (seat, Skip()))
    assert order == [1, 2, 0]
    assert state.phase == OVER
    assert GAME.result(state).scores == (2, 0, 0)  # red 3 and blue 4: a run of 1 each


def test_final_buys_happen_however_the_last_turn_ended() -> None:
    state = start(3, ["red_6", "blue_5"], first_player=1, deck_left=2)
    state = play(state, (1, Draw()), (1, Draw()))  # bust on the last card
    assert state.phase == FINAL_BUY and state.buyers == (2, 0, 1)
    assert _types(state.market) == ["blue_5", "red_6"]
    state = play(state, (2, Buy("blue_5_a", Payment(5, 0, ()))))
    state = play(state, (0, Skip()), (1, Buy("red_6_a", Payment(3, 1, ()))))
    assert GAME.is_over(state)
    assert state.busts == (0, 0, 0) and state.currency == (5, 2, 0)
    assert GAME.result(state).scores == (0, 1, 1)


def test_last_card_wild_is_auctioned_then_the_player_must_claim() -> None:
    state = start(3, ["red_2", "wild_4"], deck_left=2)
    state = play(state, (0, Draw()), (0, Draw()))
    assert state.phase == AUCTION
    state = play(state, (1, Bid(1)), (2, Pass()), (0, Pass()), (1, Pay(Payment(1, 0, ()))))
    assert GAME.legal_actions(state, 0) == (ClaimNumbers(), ClaimCurrency())
    state = play(state, (0, ClaimCurrency()))
    assert state.phase == FINAL_BUY and state.buyers == (1, 2, 0)


def test_player_who_drew_last_can_buy_twice() -> None:
    state = start(3, ["red_2", "red_3", "blue_5"], deck_left=3)
    state = play(state, (0, Draw()), (0, ClaimCurrency()))  # red 2 to the market
    state = play(state, (1, Draw()), (1, ClaimCurrency()))  # red 3 to the market
    state = play(state, (2, Draw()), (2, ClaimNumbers()))  # the last card: blue 5
    state = play(state, (2, Buy("red_2_a", Payment(2, 0, ()))))
    assert state.phase == FINAL_BUY and state.buyers == (0, 1, 2)
    state = play(state, (0, Skip()), (1, Skip()), (2, Buy("red_3_a", Payment(3, 0, ()))))
    assert _types(state.collections[2]) == ["blue_5", "red_2", "red_3"]
    assert GAME.result(state).scores == (0, 0, 3)


# ---- solo ----------------------------------------------------------------------------------
def test_solo_game() -> None:
    state = start(1, ["red_4", "wild_5", "currency_3", "red_6"])
    assert len(state.deck) == 93
    state = play(state, (0, Draw()), (0, Draw()))
    assert state.phase == SOLO_WILD  # no auction
    assert DiscardWild() in GAME.legal_actions(state, 0)
    with pytest.raises(IllegalAction):
        GAME.validate(state, 0, BuyWild(Payment(2, 0, ())))  # the price is 1
    state = play(state, (0, BuyWild(Payment(1, 0, ()))))
    assert state.collections[0] == ("wild_5_a",) and state.currency == (4,)
    state = play(state, (0, Draw()), (0, ClaimNumbers()))  # nobody else to pay
    assert state.currency == (4,) and _types(state.collections[0]) == ["red_4", "wild_5"]
    state = play(state, (0, Skip()), (0, Draw()))  # red 6: 6, next turn
    assert state.phase == CHOOSE


def test_solo_discarded_wild_and_final_buy() -> None:
    state = start(1, ["wild_9", "blue_8", "blue_9"], deck_left=3)
    state = play(state, (0, Draw()), (0, DiscardWild()), (0, ClaimCurrency()))
    assert state.discard[-1] == "wild_9_a"
    state = play(state, (0, Draw()), (0, Draw()))  # 17: bust on the last card
    assert state.phase == FINAL_BUY and state.buyers == (0,) and state.busts == (1,)
    state = play(state, (0, Buy("blue_8_a", Payment(5, 1, ()))))  # 8: exact
    assert GAME.is_over(state)
    result = GAME.result(state)
    assert result.scores == (1,) and result.winners == (0,)


def test_a_log_with_a_stacked_deck_replays() -> None:
    from engine.core import new_log, replay_hashes, state_hash

    from .helpers import stacked

    options = {"deck": stacked(3, ["red_4", "wild_2"]), "first_player": 1}
    state = GAME.setup(3, b"log", options)
    log = new_log(GAME, 3, b"log", options)
    hashes = [state_hash(state)]
    for seat, action in [(1, Draw()), (1, Draw()), (2, Bid(2)), (0, Pass()), (1, Pass()),
                         (2, Pay(Payment(2, 0, ()))), (1, ClaimNumbers()), (1, Skip())]:
        state = GAME.apply(state, {seat: action})
        log = log.append({seat: action})
        hashes.append(state_hash(state))
    assert replay_hashes(GAME, log) == hashes
    assert state.collections[1] == ("red_4_a",) and state.collections[2] == ("wild_2_a",)
