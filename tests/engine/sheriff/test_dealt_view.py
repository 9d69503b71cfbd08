"""A dealt Sheriff game's views name goods, as the plain game's do (one view shape for screens
and bots), while its legal actions name the seat's cards (engine/sheriff/dealt_view.py): a
player that thinks in goods picks among them in goods and plays the pick with its cards."""

from __future__ import annotations

from dataclasses import replace
from itertools import islice

import pytest

from engine.bots.registry import make_bot
from engine.core import HIDDEN, Stream, to_plain
from engine.core.dealer import HiddenPlay, checked_bot_game
from engine.core.hidden import is_token
from engine.core.plain import map_plain_strings, strings_in
from engine.sheriff import GAME
from engine.sheriff.cards import CARD_GOOD, GOOD_NAME, GOODS
from engine.sheriff.dealt import in_goods
from engine.sheriff.dealt_legal import CardActions
from engine.sheriff.dealt_view import legal_in_goods, names_cards, to_cards
from engine.sheriff.state import PayGoods, SeatView


def _sizes(p: SeatView) -> tuple[int, ...]:
    return len(p.hand), len(p.set_aside), len(p.bag), len(p.stand_up) + len(p.stand_down)


@pytest.mark.parametrize(("players", "bots"), [(3, "normal"), (4, "normal"), (5, "normal"), (4, "random")])
def test_every_view_of_a_dealt_game_names_goods_and_no_card(players: int, bots: str) -> None:
    """Every seat's and the table's view at every step of whole games on partial knowledge,
    as the network plays them: no card id and no token, each zone its state's size, and a
    seat's own cards listed as their goods. (The dealer checks each view against the game
    dealt alike with every face known, and that a face a seat learnt shows in its view.)"""
    seen = {"views": 0, "goods": 0, "card steps": 0}

    def compare(play: HiddenPlay) -> None:
        for seat in (*range(players), None):
            view = play.view(seat)
            named = strings_in(to_plain(view))
            assert not {s for s in named if s in CARD_GOOD or is_token(s)}, "a view names a card"
            state = play.public if seat is None else play.mine(seat)
            for p in view.players:
                assert _sizes(p) == (len(state.hands[p.seat]), len(p.set_aside), len(state.bags[p.seat]),
                                     len(state.stands[p.seat]))
            if seat is not None:
                mine = view.players[seat]
                hand = state.hands[seat]
                assert mine.hand == tuple(sorted((GOOD_NAME[c] for c in hand), key=GOODS.index))
                seen["card steps"] += names_cards(play.legal_actions(seat))
            seen["views"] += 1
            seen["goods"] += bool(named & set(GOODS))

    seed = f"goods-{players}-{bots}".encode()
    root = Stream(seed)
    seats = [make_bot(GAME, s, bots, root.fork(f"bot{s}")) for s in range(players)]
    play = checked_bot_game(GAME, players, seed, seats, also=compare)
    assert GAME.is_over(play.public)
    assert seen["views"] > 150 * (players + 1)  # a whole game, every seat and the table
    assert seen["goods"] > seen["views"] // 2
    assert seen["card steps"] > 10 * players  # markets, loads, discards: their actions name cards


def test_a_card_dealt_to_a_seat_but_not_arrived_is_shown_hidden() -> None:
    play = HiddenPlay.start(GAME, 4, b"goods-on-its-way")
    mine = play.mine(0)
    on_its_way = replace(mine, hands=(play.public.hands[0][:1] + mine.hands[0][1:], *mine.hands[1:]))
    hand = GAME.view(on_its_way, 0).players[0].hand
    assert is_token(on_its_way.hands[0][0])
    assert hand.count(HIDDEN) == 1 and hand[-1] == HIDDEN
    assert sorted(hand[:-1]) == sorted(GOOD_NAME[c] for c in mine.hands[0][1:])


def test_actions_in_goods_name_goods_and_keep_the_rest() -> None:
    play = HiddenPlay.start(GAME, 4, b"goods-actions")
    walked = 0
    for seat in range(4):
        for action in islice(play.legal_actions(seat), 50):  # the first market's set-asides
            plain = map_plain_strings(to_plain(action), lambda s: GOOD_NAME.get(s, s))
            assert to_plain(in_goods(action)) == plain
            walked += any(s in CARD_GOOD for s in strings_in(to_plain(action)))
    assert walked > 10


def test_a_payment_chosen_in_goods_is_played_with_the_seats_own_cards() -> None:
    """A debt paid in goods from the stand: the legal actions name the stand's cards, the
    choice names goods, and `to_cards` plays the legal action that reads so."""
    payments = (PayGoods(("apple#0",)), PayGoods(("cheese#0",)), PayGoods(("apple#0", "apple#1")))
    legal = CardActions(payments)
    assert names_cards(legal) and not names_cards(tuple(legal))
    in_goods_legal = legal_in_goods(legal)
    assert PayGoods(("cheese",)) in in_goods_legal
    assert to_cards(legal, PayGoods(("apple", "apple"))) == PayGoods(("apple#0", "apple#1"))
    assert to_cards(legal, PayGoods(("pepper",))) is None
