"""The terminal's title says "▶ Your turn" when a turn comes and goes back when it passes
(ui.title): what the app writes to its terminal driver, read in a Pilot run."""

from __future__ import annotations

import re

from textual.drivers.headless_driver import HeadlessDriver

from engine.bots import make_bot
from engine.core import Stream
from tui.app import GamenightApp
from tui.config import Config, UiConfig
from tui.screens.new_game import GameSetup
from tui.title import POP_TITLE, PUSH_TITLE, title_sequence

from .helpers import settle

OSC_TITLE = re.compile(r"\x1b\]2;([^\x07]*)\x07")
MINE = "▶ Your turn · Ten · gamenight"
OTHERS = "Ten · gamenight"


def _written(monkeypatch) -> list[str]:
    """Everything the app writes to its (headless) terminal driver, in order."""
    written: list[str] = []
    monkeypatch.setattr(HeadlessDriver, "write", lambda self, data: written.append(data))
    return written


def _titles(written: list[str]) -> list[str]:
    return [m for data in written for m in OSC_TITLE.findall(data)]


async def _play(config: Config, moves: int) -> GamenightApp:
    """Ten, 3 seats, 2 bots: turns come and pass; a seeded random player at the human's keys."""
    setup = GameSetup("ten", 3, 2, seed=4, names=["Ann"], bot_delay=0)
    app = GamenightApp(start=setup, config=config)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        table = app.tables[0]
        bot = make_bot(table.game, 0, "random", Stream(bytes(16)))
        for _ in range(moves):
            if table.is_over():
                break
            if 0 in table.awaiting():
                await table.submit(0, bot.choose(table.view(0), table.legal_actions(0)))
            await settle(pilot)
        await app.quit_now()
    return app


async def test_the_title_says_your_turn_and_goes_back_when_it_passes(monkeypatch):
    written = _written(monkeypatch)
    await _play(Config(ui=UiConfig(bell=False, bot_delay=0.0)), moves=20)
    titles = _titles(written)
    assert MINE in titles and OTHERS in titles, titles
    turns = [t for t in titles if t in (MINE, OTHERS)]
    assert all(a != b for a, b in zip(turns, turns[1:], strict=False)), "written only when it changes"
    # the terminal's own title is pushed before the first, popped after the last (a plain one
    # where the terminal keeps no stack)
    sequences = [d for d in written if d in (PUSH_TITLE, POP_TITLE) or OSC_TITLE.fullmatch(d)]
    assert sequences[0] == PUSH_TITLE and written.count(PUSH_TITLE) == 1
    assert sequences[-2:] == [title_sequence("gamenight"), POP_TITLE]


async def test_ui_title_false_leaves_the_title_alone(monkeypatch):
    written = _written(monkeypatch)
    await _play(Config(ui=UiConfig(bell=False, title=False, bot_delay=0.0)), moves=6)
    assert not _titles(written) and PUSH_TITLE not in written and POP_TITLE not in written


def test_a_title_holds_no_control_character():
    assert title_sequence("Ann\x07\x1b]2;evil") == "\x1b]2;Ann]2;evil\x07"
