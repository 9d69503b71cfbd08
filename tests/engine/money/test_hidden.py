"""Money! on partial knowledge (issue #13): who sees which card when the table deals face down.

Played with the trusted dealer (engine/core/dealer.py): `public` is the state the table agrees
on, `known[seat]` the faces a seat was shown, `shown` the faces the whole table saw.
"""

from __future__ import annotations

import pytest

from engine.bots.registry import make_bot
from engine.core import Stream
from engine.core.dealer import HiddenPlay, PlainShadow, checked_bot_game
from engine.core.hidden import is_token, tokens_in
from engine.money import GAME, Bid, SwapMarket, make_bid
from engine.money.cards import BLUFFS, CURRENCIES, money_cards, sort_cards


def start(n_players: int = 3, **options) -> HiddenPlay:
    return HiddenPlay.start(GAME, n_players, b"hidden", options)


def checked_game(n_players: int, seed: int, **options) -> HiddenPlay:
    """A whole random-bot game on partial knowledge, checked against the plain game at every
    step (as tests/engine/test_hidden_play.py does, with options)."""
    root = Stream(seed.to_bytes(8, "big"))
    bots = [make_bot(GAME, s, "random", root.fork(f"bot{s}")) for s in range(n_players)]
    return checked_bot_game(GAME, n_players, seed.to_bytes(8, "big"), bots, options)


def test_each_hand_is_dealt_face_down_to_its_owner_and_the_market_face_up() -> None:
    play = start(3)
    public = play.public
    for seat, hand in enumerate(public.hands):
        dealt = hand[:-1]
        assert hand[-1] == BLUFFS[seat] and len(dealt) == 6 and all(map(is_token, dealt))
        assert set(play.known[seat]) == set(dealt)  # its owner sees it, in serial order
        assert play.mine(seat).hands[seat] == sort_cards(play.faces[t] for t in dealt) + hand[-1:]
        for other in range(3):
            assert other == seat or not set(play.known[other]) & set(dealt)
    market = public.market[0] + public.market[1]
    assert len(market) == 8 and not tokens_in(market)
    assert sorted(play.shown.values()) == sorted(market)
    assert public.market == tuple(map(sort_cards, public.market))
    assert len(public.deck) == 57 - 26 and all(map(is_token, public.deck))


def test_a_bid_is_shown_at_the_reveal_and_what_a_seat_takes_stays_face_up() -> None:
    play = start(3)
    hand = play.mine(0).hands[0]
    bid_cards = hand[:2]  # its two lowest serials (the bluff card sorts last)
    play.apply({0: make_bid(bid_cards), 1: Bid(()), 2: Bid(())})
    public = play.public
    assert public.pending[0].cards == bid_cards
    assert set(bid_cards) <= set(play.shown.values())
    # the rest of the hand stays face down: seat 0 alone knows it
    rest = [c for c in public.hands[0] if is_token(c)]
    assert len(rest) == 4 and all(t in play.known[0] and t not in play.shown for t in rest)
    assert not any(t in play.known[s] for s in (1, 2) for t in rest)

    side1, deck = public.market[0], public.deck
    play.apply({0: SwapMarket(0)})  # the only bid: the round ends, side I gets 2 cards
    public = play.public
    assert set(side1) <= set(public.hands[0])  # faces, for everyone
    dealt = tuple(play.faces[t] for t in deck[:2])
    assert all(t in play.shown for t in deck[:2])
    assert public.market[0] == sort_cards(bid_cards + dealt)
    assert public.deck == deck[2:] and not set(public.deck) & set(play.shown)


def test_a_bid_naming_a_card_of_another_hand_or_the_deck_shows_nothing() -> None:
    play = start(3)
    public = play.public
    others = {1: Bid(()), 2: Bid(())}
    mine = public.hands[0][0]
    assert GAME.needs(public, {0: Bid((mine,)), **others}) == {mine}
    assert GAME.needs(public, {0: Bid((public.deck[0],)), **others}) == frozenset()
    assert GAME.needs(public, {0: Bid((public.hands[1][0],)), **others}) == frozenset()
    assert GAME.needs(public, {0: Bid((mine, mine)), **others}) == frozenset()


def test_a_round_of_bluff_cards_only_turns_over_no_card() -> None:
    play = start(3)
    deck = play.public.deck
    play.apply({seat: Bid(()) for seat in range(3)})  # both sides hold 4: nothing to deal
    assert play.public.deck == deck and play.public.round_no == 2


@pytest.mark.parametrize(("n_players", "options"), [
    (3, {"edition": "classic"}),
    (4, {"edition": "classic", "removed_currencies": ["yen"]}),
    (2, {"removed_currencies": ["dollar"]}),
])
def test_whole_games_match_the_plain_game_and_end_with_every_hand_face_up(n_players, options) -> None:
    play = checked_game(n_players, 7, **options)
    assert GAME.is_over(play.public)
    assert not tokens_in(play.public)  # the deck ran out and the hands were scored face up
    assert GAME.result(play.public) == GAME.result(play.truth())


def test_the_dealt_deck_leaves_out_the_listed_currencies_else_the_last_ones() -> None:
    assert GAME.decks(4, {}) == (("deck", money_cards("gold_silver", CURRENCIES[:-1])),)
    assert GAME.decks(3, {"edition": "classic"}) == (
        ("deck", money_cards("classic", CURRENCIES[:-2])),)
    assert GAME.decks(5, {}) == (("deck", money_cards("gold_silver")),)
    play = start(4, removed_currencies=["dollar"])
    assert play.public.removed == ("dollar",)
    # the plain game stacked with the dealt deck reads the same currencies out of it (§3)
    assert PlainShadow(play).state.removed == ("dollar",)
    assert start(4).public.removed == ("euro",)
