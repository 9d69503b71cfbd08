"""A light screen: a redraw that changes nothing repaints nothing, and the footer is rebuilt
only when the keys it shows change."""

from __future__ import annotations

from rich.text import Text
from textual.app import App, ComposeResult

from tui.app import GamenightApp
from tui.games.money.screen import MoneyScreen
from tui.screens.new_game import GameSetup
from tui.widgets.footer import GameFooter
from tui.widgets.panel import Panel

from .helpers import screen_text, settle


async def test_the_footer_changes_only_when_the_keys_change(config):
    app = GamenightApp(start=GameSetup("money", 4, 3, seed=3, names=["Ann"], bot_delay=0), config=config)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        footer = app.screen.query_one(GameFooter)
        changes = footer.rebuilds
        await pilot.press("space", "space", "down", "space")  # the bid changes; the keys do not
        await settle(pilot)
        assert footer.rebuilds == changes
        assert "Place bid" in screen_text(app)
        await pilot.press("enter")  # the bid goes in: the turn's keys replace the bid's
        await settle(pilot)
        assert footer.rebuilds > changes
        assert "Place bid" not in screen_text(app).splitlines()[-1]


async def test_the_footer_shows_the_screens_keys_main_key_first(config):
    """As the game moves on (bid, turns, other seats' turns) the last line shows the screen's
    shown keys, Enter's first and the frame's last, and a key that is off is dimmed."""
    app = GamenightApp(start=GameSetup("money", 4, 3, seed=5, names=["Ann"], bot_delay=0), config=config)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        footer = app.screen.query_one(GameFooter)
        seen = set()
        for _ in range(10):
            screen = app.screen
            if not isinstance(screen, MoneyScreen):
                break
            keys = ["space", "enter"] if screen.bidding else (["1"] if screen.choosing else [])
            await pilot.press(*keys)
            await settle(pilot)
            shown = [b for b in screen.active_bindings.values() if b.binding.show]
            descriptions = list(dict.fromkeys(b.binding.description for b in shown))
            line = screen_text(app).splitlines()[-1]
            positions = [line.find(f" {d} ") for d in descriptions if line.find(f" {d} ") >= 0]
            assert len(positions) == len(descriptions), (descriptions, line)
            assert line.index(" Help ") > max(line.find(f" {d} ") for d in ("Place bid", "Choose", "Add card", "Side I"))
            if screen.choosing or screen.bidding:
                assert line.startswith(" ⏎ "), line  # the main key first
            seen.add(line)
        assert len(seen) >= 2 and footer.rebuilds >= 2  # the keys changed on the way


async def test_a_click_on_a_footer_key_presses_it(config):
    app = GamenightApp(start=GameSetup("money", 4, 3, seed=3, names=["Ann"], bot_delay=0), config=config)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        line = screen_text(app).splitlines()[-1]
        await pilot.click(GameFooter, offset=(line.index("Help"), 0))
        await settle(pilot)
        assert type(app.screen).__name__ == "RulesScreen"


class PanelApp(App[None]):
    def compose(self) -> ComposeResult:
        yield Panel(Text("one"), id="panel")


async def test_a_panel_ignores_an_update_with_what_it_shows(monkeypatch):
    app = PanelApp()
    async with app.run_test(size=(40, 5)) as pilot:
        panel = app.query_one(Panel)
        calls: list[bool] = []
        original = type(panel).refresh

        def counting_refresh(self, *args, **kwargs):
            calls.append(kwargs.get("layout", False))
            return original(self, *args, **kwargs)

        monkeypatch.setattr(type(panel), "refresh", counting_refresh)
        panel.update(Text("one"))
        assert calls == []  # the same text: nothing to do
        panel.update(Text("two"))
        await pilot.pause()
        assert calls and "two" in str(panel.render())


async def test_the_money_board_keeps_its_place_from_step_to_step(config):
    """The bids panel keeps one height all game: the hand does not jump between bids and
    turns, and in the bid step the choices take no room (nor the focus)."""
    app = GamenightApp(start=GameSetup("money", 4, 3, seed=5, names=["Ann"], bot_delay=0), config=config)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = app.screen
        title_at = screen.query_one("#hand-title").region.y
        bid_steps = 0
        for _ in range(8):
            if not isinstance(app.screen, MoneyScreen):
                break
            if screen.bidding:
                bid_steps += 1
                assert screen.query_one("#hand-title").region.y == title_at
                assert screen.query_one("#choices").region.height == 0
                await pilot.press("tab")  # the focus stays on the hand: the choices are empty
                assert app.focused is screen.query_one("#hand")
                await pilot.press("space", "enter")
            elif screen.choosing:
                assert screen.query_one("#choices").region.height > 0
                await pilot.press("1")
            await settle(pilot)
        assert bid_steps >= 2


def test_the_scoreboard_draws_plain_cells_as_rich_lays_its_table_out():
    """Plain-text scoreboards skip rich's table layout: the same characters, bold where rich
    makes them bold, at every width (a long name is cut with an ellipsis)."""
    from rich.console import Console

    from tui.widgets.scoreboard import Scoreboard, _plain_lines

    console = Console(width=200, color_system="truecolor", force_terminal=True)
    header = ("Player", "Cards", "Score")
    rows = (("•Ann", "7", "10"), (" Bot 1", "13", "?"), (" A very long name", "1", "100"), ("▶日本語", "0", "+3"))
    for width in range(17, 45):  # from the narrowest that leaves the name a column
        lines = _plain_lines((header, rows, (0, 3)), width)
        assert lines is not None
        table = Scoreboard._make_table(header, rows, (0, 3))
        expected = console.render_lines(table, console.options.update_width(width), pad=True)
        assert len(lines) == len(expected)
        for ours, theirs in zip(lines, expected, strict=True):
            assert [(ch, bool(s.style and s.style.bold)) for s in ours for ch in s.text] == \
                [(ch, bool(s.style and s.style.bold)) for s in theirs for ch in s.text]
    assert _plain_lines((header, rows, ()), 8) is None  # too narrow: rich decides
