"""A screen that fits: below 80x24 one clear line instead of a clipped board; bigger terminals
grow the panels; the footer starts with the screen's main key."""

from __future__ import annotations

import pytest

from tui.app import GamenightApp
from tui.local_table import LocalTable
from tui.screens.dialogs import ConfirmDialog
from tui.screens.new_game import GameSetup
from tui.table import TableSupports
from tui.widgets.footer import GameFooter

from .helpers import screen_text, settle

PLAYERS = {"money": 4, "ten": 3, "sheriff": 4, "seven_wonders": 3}
MAIN_KEY = {"money": "⏎ Place bid", "ten": "⏎ Choose", "sheriff": "⏎ ", "seven_wonders": "⏎ Play"}


def setup(game: str) -> GameSetup:
    return GameSetup(game, PLAYERS[game], PLAYERS[game] - 1, seed=2, names=["Ann"], bot_delay=0)


@pytest.mark.parametrize("game", sorted(PLAYERS))
async def test_below_80_by_24_the_screen_asks_for_a_bigger_terminal(config, game):
    app = GamenightApp(start=setup(game), config=config)
    async with app.run_test(size=(79, 30)) as pilot:
        await settle(pilot)
        text = screen_text(app)
        assert "Enlarge the terminal to 80×24" in text and "79×30" in text
        assert not app.screen.query_one("#game-body").display
        await pilot.resize_terminal(100, 23)
        await settle(pilot)
        assert "100×23" in screen_text(app)
        await pilot.resize_terminal(80, 24)
        await settle(pilot)
        text = screen_text(app)
        assert "Enlarge" not in text
        assert app.screen.query_one("#game-body").region.height > 10
        assert text.splitlines()[-1].lstrip().startswith(MAIN_KEY[game]), text.splitlines()[-1]


async def test_the_main_key_leads_the_footer_on_a_network_table_at_80_columns(config):
    table = LocalTable.new("money", 4, humans=1, seed=1, bot_delay=0)
    table.supports = TableSupports(chat=True)  # what a network table adds: the chat key
    table.invite = "mqtt://192.168.1.20:1883/money-1a2b3c4d"
    app = GamenightApp(start=table, config=config)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        footer = screen_text(app).splitlines()[-1]
        assert footer.lstrip().startswith("⏎ Place bid"), footer
        assert "Chat" in footer


async def test_at_120_by_40_the_log_widens_and_seven_wonders_shows_the_neighbours_cities(config):
    app = GamenightApp(start=setup("seven_wonders"), config=config)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        assert app.screen.query_one("#game-log").region.width >= 38
        await pilot.press("enter", "enter")  # build the first card: the neighbours build too
        await settle(pilot)
        neighbours = str(app.screen.query_one("#sw-neighbours").render())
        assert neighbours.count("makes") == 2 and neighbours.count("science") == 2
        await pilot.resize_terminal(80, 24)
        await settle(pilot)
        assert app.screen.query_one("#game-log").region.width < 30
        assert "makes" not in str(app.screen.query_one("#sw-neighbours").render())


def test_a_long_invite_code_breaks_only_between_its_parts_and_reads_back_whole() -> None:
    from net.invite import parse_invite
    from tui.widgets.invite_code import code_lines

    code = ("mqtts://192.168.100.200:8884/seven_wonders-1a2b3c4d/owdx-xna5-he5v-7ocf-aeaq-caib-aeaq-caib/"
            "ambq-gayd-ambq-gayd-ambq-gayd-ambq-gayd-ambq-gayd-ambq-gayd-ambq")
    for width in (80, 60, 40):
        lines = code_lines(code, width)
        assert all(len(line) <= width for line in lines) and "".join(lines) == code
        assert all(line.endswith(("/", "-")) for line in lines[:-1])  # never inside a group
        assert parse_invite("\n".join(lines)) == parse_invite(code)
    broker_and_game, pin, cert = code_lines(code, 80)  # each part whole, on a line of its own
    assert broker_and_game.endswith("seven_wonders-1a2b3c4d/") and pin.startswith("owdx") and cert.startswith("ambq")


@pytest.mark.parametrize(("game", "keys"), [("seven_wonders", ("b",)), ("money", ("space", "enter")),
                                            ("ten", ("enter",)), ("sheriff", ("enter",))])
async def test_below_80_by_24_no_game_key_acts_and_esc_still_asks(config, game, keys):
    app = GamenightApp(start=setup(game), config=config)
    async with app.run_test(size=(79, 30)) as pilot:
        await settle(pilot)
        table = app.screen.table
        assert 0 in table.awaiting()
        footer = screen_text(app).splitlines()[-1]
        await pilot.press(*keys, "down", "tab", *keys)
        await settle(pilot)
        assert played_by_ann(table) == 0 and 0 in table.awaiting(), "a key played below 80x24"
        assert "Enlarge the terminal" in screen_text(app)
        assert screen_text(app).splitlines()[-1] == footer, "the footer keeps showing the keys"
        lit = {description for _, _, description, enabled, _ in app.screen.query_one(GameFooter).shown if enabled}
        assert lit == {"Help", "Menu", "Quit"}, "only the keys that act are lit"
        await pilot.press("escape")
        await settle(pilot)
        assert isinstance(app.screen, ConfirmDialog)
        await pilot.press("n")
        await pilot.resize_terminal(80, 24)
        await settle(pilot)
        assert not [k for k in app.screen.query_one(GameFooter).shown if not k[3]], "every key lit again"
        await pilot.press(*keys)  # the same keys play once the board shows
        await settle(pilot)
        assert played_by_ann(table) == 1


def played_by_ann(table) -> int:
    """Steps in which seat 0 (the human) acted."""
    return sum(1 for step in table.game_log.steps if any(seat == 0 for seat, _ in step))
