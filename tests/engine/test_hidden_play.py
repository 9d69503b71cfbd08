"""Every game with hidden cards plays on partial knowledge exactly as the plain game.

A trusted dealer in one process (engine/core/dealer.py) deals each deck, shows a face only
when the game's `seen`/`needs` say so, and masks each seat's choice back to the public form.
Checked at every step of whole bot games: the public state with every face written in equals
the plain game dealt the same way, every seat's view of what it knows equals its plain view,
and no seat (nor the table) learns a face its plain view does not show at that moment.
"""

from __future__ import annotations

import pytest

from engine.bots.registry import make_bot
from engine.core import Stream
from engine.core.dealer import HiddenPlay, Leak, checked_bot_game
from engine.core.hidden import is_token, tokens_in
from engine.registry import game_ids, get_game

HIDDEN_GAMES = [gid for gid in game_ids() if get_game(gid).decks(get_game(gid).min_players,
                get_game(gid).check_options({}))]


def bot_game(gid: str, n: int, seed: int, bots: str = "random") -> HiddenPlay:
    game = get_game(gid)
    root = Stream(seed.to_bytes(8, "big"))
    players = [make_bot(game, s, bots, root.fork(f"bot{s}")) for s in range(n)]
    return checked_bot_game(game, n, seed.to_bytes(8, "big"), players)


@pytest.mark.parametrize("gid", HIDDEN_GAMES)
def test_whole_bot_games_on_partial_knowledge_match_the_plain_game(gid: str) -> None:
    game = get_game(gid)
    for n in range(game.min_players, game.max_players + 1):
        play = bot_game(gid, n, n % 2)  # one game per table size, the seeds alternating
        assert play.steps > 0


@pytest.mark.parametrize("gid", HIDDEN_GAMES)
def test_the_table_starts_with_every_dealt_card_face_down(gid: str) -> None:
    game = get_game(gid)
    n = game.min_players
    play = HiddenPlay.start(game, n, b"seed", {})
    dealt = sum(len(cards) for _, cards in game.decks(n, game.check_options({})))
    # every dealt card is a token in the public state unless the rules showed it at once
    assert len(tokens_in(play.public)) + len(play.shown) == dealt


def test_a_leak_is_caught() -> None:
    """The check fails when a game shows the table more than its plain view shows."""
    if not HIDDEN_GAMES:
        pytest.skip("no game deals hidden cards yet")
    gid = HIDDEN_GAMES[0]
    game = get_game(gid)
    original = type(game).seen
    try:
        type(game).seen = lambda self, state, seat: tokens_in(state)  # every card face up
        with pytest.raises(Leak):
            bot_game(gid, game.min_players, 0)
    finally:
        type(game).seen = original


def test_tokens() -> None:
    from engine.core.hidden import mask, masked, parse_token, reveal
    deck = masked("age1", 3)
    assert deck == ("?age1:0", "?age1:1", "?age1:2") and all(map(is_token, deck))
    assert not is_token("?") and not is_token("gold")
    assert parse_token("?reshuffle:2:11") == ("reshuffle:2", 11)
    faces = {"?d:0": "loom", "?d:1": "loom", "?d:2": "glass"}
    assert reveal(("x", deck[0], (deck[2],)), {"?age1:0": "a"}) == ("x", "a", ("?age1:2",))
    # two copies of one face take two positions, in sorted order
    assert mask(("loom", "loom", "glass", "gold"), faces) == ("?d:0", "?d:1", "?d:2", "gold")
