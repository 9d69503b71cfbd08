"""7 Wonders on partial knowledge: what each seat is shown, and when (seven_wonders.md §5, §8).

Played on the core's trusted dealer (engine/core/dealer.py), checked at every step against the
plain game: a guild slot of the Age III deck opens straight to its guild (as the network's
pool pass makes it), and a seat's choice is masked with the cards in its reach
(`SevenWonders.in_reach`), in that order, so a copy of a card elsewhere is never confused.
"""

from __future__ import annotations

from typing import Any

import pytest

from engine.bots.registry import make_bot
from engine.core import Stream
from engine.core.dealer import HiddenPlay, PlainShadow
from engine.core.hidden import is_token, masked, tokens_in
from engine.seven_wonders import GAME
from engine.seven_wonders.cards import GUILDS, HAND_SIZE, guild_count
from engine.seven_wonders.state import (
    BABYLON,
    DISCARD,
    HALIKARNASSOS,
    STAGE,
    BuildFromDiscard,
    Pick,
)


def bot_game(n: int, seed: int, options: dict[str, Any] | None = None,
             watch=None) -> HiddenPlay:
    """Random bots on partial knowledge, every step checked against the plain game as
    tests/engine/test_hidden_play.py does; `watch(play, public_actions)` before each step."""
    root = Stream(seed.to_bytes(8, "big"))
    bots = [make_bot(GAME, s, "random", root.fork(f"bot{s}")) for s in range(n)]
    play = HiddenPlay.start(GAME, n, seed.to_bytes(8, "big"), options)
    shadow = PlainShadow(play)
    history: list[dict] = []
    shadow.check(play, history)
    while GAME.active(play.public):
        chosen = {s: bots[s].choose(play.view(s), play.legal_actions(s)) for s in sorted(GAME.active(play.public))}
        if watch is not None:
            watch(play, {s: play.public_action(s, a) for s, a in chosen.items()})
        history.append(chosen)
        play.apply(chosen)
        shadow.check(play, history)
    assert GAME.is_over(play.public)
    return play


@pytest.mark.parametrize("n", range(3, 8))
def test_whole_games_on_partial_knowledge_match_the_plain_game(n: int) -> None:
    for seed in range(2):
        bot_game(n, seed)
    bot_game(n, 7, {"wonder_side": "B"})


def test_every_card_is_dealt_face_down_and_a_seat_sees_only_its_hand() -> None:
    n = 4
    play = HiddenPlay.start(GAME, n, b"deal")
    age = HAND_SIZE * n
    assert len(tokens_in(play.public)) == 3 * age + len(GUILDS)
    assert play.shown == {}  # the table has seen nothing
    assert play.public.guilds == masked("guilds", len(GUILDS))
    for seat in range(n):
        hand = play.public.hands[seat]
        assert all(map(is_token, hand)) and set(play.known[seat]) == set(hand)
        assert play.view(seat).hand == GAME.view(play.truth(), seat).hand  # in rank order


def test_built_cards_are_shown_to_all_and_sold_or_tucked_cards_stay_face_down() -> None:
    steps = []

    def watch(play: HiddenPlay, public: dict) -> None:
        if play.public.phase == "pick" and play.public.turn < 6:
            steps.append(public)

    play = bot_game(4, 3, {"wonder_side": "B"}, watch)
    cities = {c for city in play.public.cities for c in city}
    assert cities and not any(map(is_token, cities))  # every built card face up
    face_down = [c for tucked in play.public.tucked for c in tucked] + [c for _, c in play.public.discard]
    assert face_down and all(map(is_token, face_down))
    assert not set(face_down) & set(play.shown)  # the table never saw them...
    for seat in range(4):  # ...the seat that put one there did
        mine = set(play.public.tucked[seat]) | {c for who, c in play.public.discard if who == seat}
        assert mine <= set(play.known[seat])
    assert any(a.kind in (STAGE, DISCARD) and is_token(a.card) for s in steps for a in s.values())


def test_a_passed_hand_is_shown_to_the_neighbour_only() -> None:
    n = 5
    play = HiddenPlay.start(GAME, n, b"pass")
    first = [set(h) for h in play.public.hands]
    play.apply({s: GAME.legal_actions(play.mine(s), s)[-1] for s in range(n)})  # every seat sells
    for seat in range(n):
        held = set(play.public.hands[seat])
        giver = (seat - 1) % n  # Age I passes to the left (seat + 1)
        assert held <= first[giver] and held <= set(play.known[seat])
        others = set(range(n)) - {seat, giver}
        assert all(not held & set(play.known[o]) for o in others)


def test_the_last_card_of_an_age_goes_face_down_and_guilds_left_out_are_never_shown() -> None:
    play = bot_game(3, 5)
    dealt_guilds = masked("guilds", len(GUILDS))
    assert play.public.guilds == dealt_guilds  # the guild deck stays face down to the end
    for known in (play.shown, *play.known):
        assert not set(known) & set(dealt_guilds)
    in_play = {play.faces[t] for t in dealt_guilds[: guild_count(3)]}
    seen = {f for known in (play.shown, *play.known) for f in known.values()}
    assert not (set(GUILDS) - in_play) & seen  # nobody learnt a guild of the box
    last = [c for who, c in play.public.discard if is_token(c)]
    assert len(last) >= 3 * 3  # at least the last card of every hand of every Age


def test_halikarnassos_sees_the_pile_during_its_step_and_babylon_keeps_its_card_secret() -> None:
    events = {"hali": 0, "babylon": 0}

    def watch(play: HiddenPlay, public: dict) -> None:
        state = play.public
        if state.phase == HALIKARNASSOS:
            events["hali"] += 1
            seat = state.halikarnassos
            assert {c for _, c in state.discard} <= set(play.known[seat]) | set(play.shown)
            action = public[seat]
            if isinstance(action, BuildFromDiscard):  # the oldest copy, as the plain rules take
                face = play.faces.get(action.card, action.card)
                oldest = next(c for _, c in state.discard if play.faces.get(c, c) == face)
                assert action.card == oldest
        if state.phase == BABYLON:
            events["babylon"] += 1
            kept = state.babylon.card
            assert is_token(kept) and kept in play.known[state.babylon.seat]
            assert kept not in play.shown  # (the neighbour who passed that hand knew it too)
            action = public[state.babylon.seat]
            assert isinstance(action, Pick) and action.card == kept

    options = {"wonders": ["halikarnassos", "babylon", "gizah", "rhodos"], "wonder_side": "B"}
    for seed in range(12):
        bot_game(4, seed, options, watch)
    assert events["hali"] and events["babylon"]
