"""The Sheriff screen on a dealt game (one id per physical card, as the network deals it):
it reads like the plain game, plays the player's choices with the seat's own cards, and
empties a passed bag for the merchant when that is the only way."""

from __future__ import annotations

import random
import re

from engine.core import final_state
from engine.sheriff import GAME
from engine.sheriff.cards import card_deck
from engine.sheriff.state import Unpack
from tui.app import GamenightApp
from tui.games.sheriff import SheriffScreen
from tui.screens.end import EndScreen
from tui.screens.new_game import GameSetup
from tui.widgets import GameLogPanel

from .helpers import screen_text, settle
from .test_sheriff_screen import keys_for

CARD_ID = re.compile(r"[a-z_]+#\d+|\?[a-z0-9]+:\d+")
"""A card id (`apple#3`) or a token (`?deck:12`): never on a player's screen."""


def dealt_setup(seed: int) -> GameSetup:
    deck = list(card_deck(3, True))
    random.Random(seed).shuffle(deck)
    return GameSetup("sheriff", 3, 2, options={"deck": deck}, seed=seed, names=["Ann"], bot_delay=0)


def dealt_keys(screen: SheriffScreen) -> list[str]:
    if screen.mode == "unpack":
        return []  # played for the player: nothing to press
    return keys_for(screen)


async def test_a_dealt_game_plays_to_the_end_through_the_keys_and_shows_goods_never_ids(config):
    app = GamenightApp(start=dealt_setup(3), config=config)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, SheriffScreen)
        for _ in range(800):
            screen = app.screen
            if isinstance(screen, EndScreen):
                break
            text = screen_text(app)
            assert "⚠" not in text and not CARD_ID.search(text), text
            if screen.my_turn:
                await pilot.press(*dealt_keys(screen))
            await settle(pilot)
        else:
            raise AssertionError("the game did not end")
        table = app.tables[0]
        state = final_state(GAME, table.game_log)
        assert GAME.is_over(state)
        mine = [a for step in table.game_log.steps for seat, a in step if seat == 0]
        assert sum(isinstance(a, Unpack) for a in mine) >= 1, "the bribed Sheriff let no bag of Ann through"
        # chosen in goods on the screen, played with Ann's own cards
        assert sum(bool(CARD_ID.search(str(a))) for a in mine) >= 5
        assert sum(1 for a in mine if not isinstance(a, Unpack)) > 20


async def test_the_only_way_to_empty_a_bag_is_played_and_said_in_the_log(config):
    app = GamenightApp(start=dealt_setup(3), config=config)
    added: list[str] = []
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = app.screen
        log = screen.query_one("#game-log", GameLogPanel)
        add = log.add

        def spy(line: str) -> None:
            added.append(line)
            add(line)

        log.add = spy  # type: ignore[method-assign]
        table = app.tables[0]
        for _ in range(400):
            if any(isinstance(a, Unpack) for step in table.game_log.steps for s, a in step if s == 0):
                break
            if app.screen.my_turn:
                await pilot.press(*dealt_keys(app.screen))
            await settle(pilot)
        else:
            raise AssertionError("Ann's bag was never let through")
        said = [line for line in added if line.startswith("You empty your bag (the only way)")]
        assert len(said) == 1, added
        assert not CARD_ID.search(said[0]) and ("face up" in said[0] or "face down" in said[0]
                                               or "to the Sheriff" in said[0])


async def test_a_network_game_dealt_face_down_plays_through_the_screen(config):
    """Seat 0 at the screen, two bots: cards arrive as tokens are revealed; the screen shows
    goods and hidden cards only, and the whole game ends verified."""
    from net.session import host_game, join_game
    from net.transport import MemoryBroker, MemoryTransport
    from tests.net.helpers import until
    from tui.net_table import NetTable

    broker = MemoryBroker()
    transports = [MemoryTransport(broker) for _ in range(3)]
    for t in transports:
        await t.start()
    from net.identity import Identity

    peers = [await host_game(GAME, transports[0], Identity.generate(), players=3, persist=False, name="Ann")]
    for s in (1, 2):
        peers.append(await join_game(transports[s], Identity.generate(), peers[0].lockstep.gid,
                                     name=f"Bot{s}", persist=False, bot="best", game=GAME))
    await until(lambda: all(p.lockstep.phase == "play" for p in peers), timeout=20)
    assert peers[0].lockstep.steps.dealing.on, "a network Sheriff table deals face down"
    app = GamenightApp(config=config)
    modes: set[str] = set()
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            app.open_table(NetTable(peers[0]))
            await settle(pilot)
            for _ in range(3000):
                screen = app.screen
                if isinstance(screen, EndScreen) or peers[0].lockstep.phase == "over":
                    break
                text = screen_text(app)
                assert "⚠" not in text and not CARD_ID.search(text), text
                if isinstance(screen, SheriffScreen) and screen.my_turn and screen.view is not None:
                    modes.add(screen.mode)
                    await pilot.press(*dealt_keys(screen))
                await pilot.pause(0.01)
            else:
                raise AssertionError(f"the game did not end: {peers[0].lockstep.phase}")
            await until(lambda: all(p.lockstep.steps.dealing.verdict for p in peers), timeout=20)
            assert {p.lockstep.steps.dealing.verdict for p in peers} == {"verified"}
            assert {p.lockstep.hash for p in peers} == {peers[0].lockstep.hash}
            # the end screen says what the audit found of the deal
            for _ in range(100):
                if isinstance(app.screen, EndScreen) and "Deal: verified" in screen_text(app):
                    break
                await pilot.pause(0.1)
            assert "Deal: verified" in screen_text(app), screen_text(app)
            mine = [a for step in peers[0].lockstep.game_log.steps for seat, a in step if seat == 0]
            assert any(isinstance(a, Unpack) for a in mine), "Ann's bag was never let through"
    finally:
        for p in peers:
            await p.stop(clean=False)
    assert {"aside", "load", "declare", "offer"} <= modes, modes


def test_a_card_still_on_its_way_reads_as_the_hidden_card_and_a_token_never_as_text():
    """The public state at a peer holds tokens for the seat's own cards until their keys
    arrive: the screen's view of it shows hidden cards, goods for the faces on the piles."""
    from engine.core import HIDDEN
    from engine.core.dealer import HiddenPlay
    from engine.sheriff.cards import GOODS
    from tui.games.sheriff.text import good_name, goods_text

    play = HiddenPlay.start(GAME, 3, b"on-its-way", {"first_sheriff": 0})
    shown = GAME.view(play.public, 1)  # seat 1 before any of its cards was shown to it
    assert shown.players[1].hand == (HIDDEN,) * 6
    assert all(card in GOODS for pile in shown.piles for card in pile)
    assert good_name("?deck:3") == "?" and str(goods_text(("apple", "?deck:3"))) == "Apples 1 · ? 1"
