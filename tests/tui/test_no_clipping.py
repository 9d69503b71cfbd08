"""Nothing is cut at 80x24: seeded games played to the end, every screen the player sees read.

A cut shows in two ways: an ellipsis that the text itself does not hold (Rich and Textual end
a line that does not fit with "…"), or text cropped silently at a panel's edge (a panel asked
for more lines, or a longer line, than it has room for). Both are looked for on every screen
between two moves of a random player, from the first deal to the end screen.
"""

from __future__ import annotations

import pytest
from textual.widgets import Static

from engine.bots import make_bot
from engine.core import Stream
from tests.tui.helpers import screen_text, settle
from tui.app import GamenightApp
from tui.screens.new_game import GameSetup
from tui.widgets import GameLogPanel, PickList
from tui.widgets.flow import Fit, Forms
from tui.widgets.footer import GameFooter

PLAYERS = {"money": 4, "ten": 3, "seven_wonders": 3, "sheriff": 4}
SEEDS = (1, 5)
MAX_STEPS = 400  # a step is one move of the human seat or one settle: far more than a game

ELLIPSIS_IN_TEXT = ("shuffle…", "Demand…")
"""Texts that end in an ellipsis of their own (a wait in progress, a choice that asks for more
typing), not a cut."""

SCROLLED = (GameLogPanel,)
"""Panels that scroll (keys in the footer): what is out of sight is not cut."""

GAMES = ["money", "ten", "seven_wonders", "sheriff"]


def ellipsis_cuts(text: str) -> list[str]:
    """Screen lines with an "…" that is not part of the text itself."""
    cuts = []
    for line in text.splitlines():
        plain = line
        for phrase in ELLIPSIS_IN_TEXT:
            plain = plain.replace(phrase, "")
        if "…" in plain:
            cuts.append(line.rstrip())
    return cuts


def _inside_scrolled(widget) -> bool:
    return any(isinstance(node, SCROLLED) for node in widget.ancestors_with_self)


def cropped_panels(screen) -> list[str]:
    """Panels whose text needs more lines, or a wider line, than the room they are given."""
    cuts = []
    for widget in screen.query(Static):
        if not widget.display or not widget.region.area or _inside_scrolled(widget):
            continue
        size = widget.content_region.size
        height = widget.get_content_height(size, screen.size, size.width)
        if height > size.height:
            cuts.append(f"#{widget.id}: {height} lines in {size.height}: {_shown(screen, widget)}")
        if widget.styles.text_wrap == "nowrap":
            width = widget.get_content_width(size, screen.size)
            if width > size.width:
                cuts.append(f"#{widget.id}: {width} columns in {size.width}: {_shown(screen, widget)}")
    for footer in screen.query(GameFooter):  # draws its keys itself, cropped at its edge
        keys = footer.render().plain.rstrip()
        if footer.display and footer.size.width and len(keys) > footer.size.width:
            cuts.append(f"footer: {len(keys)} columns in {footer.size.width}: {keys}")
    for pick_list in screen.query(PickList):
        if pick_list.display and pick_list.region.area:
            cuts += [f"#{pick_list.id}: {row}" for row in _long_rows(pick_list)]
    return cuts


def _shown(screen, widget) -> str:
    """The widget's lines as the screen shows them."""
    region = widget.content_region
    lines = [strip.text for strip in screen._compositor.render_strips()]
    return " / ".join(line[region.x:region.right].rstrip() for line in lines[region.y:region.bottom])


def _long_rows(pick_list: PickList) -> list[str]:
    width = pick_list.content_region.width
    marker = 2  # "▶ " before every row
    texts = [row.text.line(width - marker) if isinstance(row.text, (Fit, Forms)) else row.text for row in pick_list.rows]
    return [str(text) for text in texts if _cells(text) + marker > width]


def _cells(text) -> int:
    return text.cell_len if hasattr(text, "cell_len") else len(str(text))


async def play_and_read(game: str, seed: int, config) -> list[str]:
    """Play a seeded game at 80x24 (a random bot at the human's keys); every cut seen, once."""
    players = PLAYERS[game]
    setup = GameSetup(game, players, players - 1, seed=seed, names=["Ann"], bot_delay=0)
    app = GamenightApp(start=setup, config=config)
    seen: dict[str, None] = {}
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        table = app.tables[0]
        game_screen = app.screen
        bot = make_bot(table.game, 0, "random", Stream(seed.to_bytes(16, "big")))
        for _ in range(MAX_STEPS):
            for cut in ellipsis_cuts(screen_text(app)) + cropped_panels(game_screen):
                seen.setdefault(cut)
            if table.is_over():
                break
            if 0 in table.awaiting():
                await table.submit(0, bot.choose(table.view(0), table.legal_actions(0)))
            await settle(pilot)
        assert table.is_over(), "the game did not end"
        await settle(pilot)
        assert app.screen is not game_screen, "no end screen"
        for cut in ellipsis_cuts(screen_text(app)) + cropped_panels(app.screen) + cropped_panels(game_screen):
            seen.setdefault(cut)
    return list(seen)


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("game", GAMES)
async def test_no_screen_line_is_cut_at_80x24(game, seed, config):
    cuts = await play_and_read(game, seed, config)
    assert not cuts, f"{len(cuts)} cut lines, the first ones:\n" + "\n".join(cuts[:30])


def test_the_detectors_see_a_cut():
    assert ellipsis_cuts("Bot 2  90 [→ side I] Pound 20, Eu…\nDeal: replaying every shuffle…") == [
        "Bot 2  90 [→ side I] Pound 20, Eu…"]
