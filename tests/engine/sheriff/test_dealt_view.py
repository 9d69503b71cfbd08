"""A dealt Sheriff view read in goods (engine/sheriff/dealt.py `in_goods`, dealt_view.py
`shown_in_goods`): the bots and the screen read every card id as its good. The fast form walks
only the view's fields that name cards and remembers seats; here it is proved the same as the
whole plain-form walk (every string of the view renamed) on every view of dealt games played
on partial knowledge, as the network plays them."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from engine.bots.registry import make_bot
from engine.core import HIDDEN, Stream, from_plain, to_plain
from engine.core.dealer import HiddenPlay, checked_bot_game
from engine.core.hidden import is_token
from engine.core.plain import map_plain_strings, strings_in
from engine.sheriff import GAME
from engine.sheriff.cards import GOOD_NAME
from engine.sheriff.dealt import in_goods
from engine.sheriff.dealt_view import shown_in_goods


def _walked(value: Any, tokens_hidden: bool = False) -> Any:
    """The whole walk: every string of the plain form renamed (a token HIDDEN, if asked)."""

    def rename(text: str) -> str:
        if tokens_hidden and is_token(text):
            return HIDDEN
        return GOOD_NAME.get(text, text)

    return from_plain(map_plain_strings(to_plain(value), rename))


@pytest.mark.parametrize(("players", "bots"), [(3, "normal"), (4, "normal"), (5, "normal"), (4, "random")])
def test_a_dealt_view_in_goods_is_every_card_id_read_as_its_good(players: int, bots: str) -> None:
    """Random bots offer any goods of their stands (the talk names cards), normal bots bribe."""
    seen = {"views": 0, "card ids": 0}

    def compare(play: HiddenPlay) -> None:
        for seat in (*range(players), None):
            view = play.view(seat)
            assert in_goods(view) == _walked(view)
            assert shown_in_goods(view) == _walked(view, tokens_hidden=True)
            seen["views"] += 1
            seen["card ids"] += any(s in GOOD_NAME for s in strings_in(to_plain(view)))

    seed = f"goods-{players}-{bots}".encode()
    root = Stream(seed)
    seats = [make_bot(GAME, s, bots, root.fork(f"bot{s}")) for s in range(players)]
    checked_bot_game(GAME, players, seed, seats, also=compare)
    assert seen["views"] > 150 * (players + 1)  # a whole game, every seat and the table
    assert seen["card ids"] > seen["views"] // 2


def test_actions_in_goods_name_goods_and_keep_the_rest() -> None:
    play = HiddenPlay.start(GAME, 4, b"goods-actions")
    for seat in range(4):
        for action in list(play.legal_actions(seat))[:50] if isinstance(play.legal_actions(seat), tuple) else ():
            assert in_goods(action) == _walked(action)
    view = play.view(0)
    hand = view.players[0].hand
    assert any(card in GOOD_NAME for card in hand)
    assert in_goods(view).players[0].hand == tuple(GOOD_NAME.get(card, card) for card in hand)
    # a card dealt to the seat but not arrived at its peer yet: a token, shown as a hidden card
    on_its_way = replace(view.players[0], hand=(play.public.hands[0][0], *hand[1:]))
    waiting = replace(view, players=(on_its_way, *view.players[1:]))
    assert is_token(waiting.players[0].hand[0])
    assert shown_in_goods(waiting).players[0].hand[0] == HIDDEN
    assert shown_in_goods(waiting) == _walked(waiting, tokens_hidden=True)

