"""The game log panel tells the story: player names and card names, never seats or ids."""

from __future__ import annotations

from textual import events
from textual.app import App, ComposeResult

from engine.money import Keep, make_bid
from engine.registry import get_game
from engine.sheriff.cards import NAME
from engine.ten.cards import card_name
from tui.app import GamenightApp
from tui.local_table import LocalTable
from tui.screens.new_game import GameSetup
from tui.widgets import GameLogPanel

from .helpers import screen_text, settle


def _panel_text(app) -> str:
    panel = app.screen.query_one("#game-log")
    return "\n".join(strip.text for strip in panel.lines)


async def test_the_sheriff_log_names_players_and_goods_and_widens_at_120_by_40(config):
    setup = GameSetup("sheriff", 3, 2, seed=3, names=["Ann"], bot_delay=0)
    app = GamenightApp(start=setup, config=config)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        assert app.screen.mode == "choose"  # seed 3: Ann is the Sheriff, the merchants are done
        assert app.screen.query_one("#game-log").region.width >= 38
        text = _panel_text(app)
        assert "Bot 1 loads" in text and "Bot 2 declares" in text
        assert any(f"discards {name}" in text for name in NAME.values()), text
        assert "seat " not in text and "_" not in text, text  # no seat numbers, no good ids
        table = app.tables[0]
        assert table.log_lines[-1].replace(" ", "")[-20:] in text.replace("\n", "").replace(" ", "")
        await pilot.resize_terminal(80, 24)
        await settle(pilot)
        assert app.screen.query_one("#game-log").region.width < 30


async def test_the_ten_log_names_the_card_drawn():
    table = LocalTable.new("ten", 2, humans=0, seed=5, names=["Ann", "Bob"], bot_delay=0, save=False)
    deal = get_game("ten").setup(2, table.game_log.seed, table.game_log.options_dict())
    await table.start()
    assert table.log_lines[0] == f"{table.names[deal.turn]} drew {card_name(deal.deck[0])}"
    assert not any("seat " in line or "_" in line for line in table.log_lines)


async def test_money_bids_name_the_bid_a_swap_took(config):
    table = LocalTable.new("money", 3, humans=1, seed=4, names=["Ann"], bot_delay=0, save=False)
    await table.start()
    while not any(b.target for b in table.view(0).last_round):  # seed 4: a bot swaps with a bid
        view = table.view(0)
        await table.submit(0, make_bid([view.hand[0]], [], 3) if view.phase == "bid" else Keep())
    app = GamenightApp(start=table, config=config)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        bids = str(app.screen.query_one("#bids").render())
        assert "→ Bot 2's bid" in bids and "seat" not in bids, bids


def test_each_game_words_its_events_with_names():
    from engine.core import Event
    from tui.log_text import event_lines

    names = ["Ann", "Bob", "Cy"]
    assert event_lines("sheriff", [Event(1, "bag_opened", ("golden_apples", "apple", "apple"), ("apple",))],
                       names) == ["Bob's bag held Apples ×2, Golden Apples (declared Apples)"]
    assert event_lines("sheriff", [Event(0, "offer", (), ("silk",), 2, (5,), "soon"),
                                   Event(0, "promise_inspect", target=1)], names) == [
        'Ann offers Cy: 5 gold; Silk from the bag; "soon"; you inspect Bob']
    assert event_lines("money", [Event(2, "swap_market", ("gold_1", "euro_60_1"), ("silver_1",), amounts=(1, 0))],
                       names) == ["Cy took side II: Gold, Euro 60; left Silver"]
    assert event_lines("ten", [Event(0, "buy", ("red_5_a",), ("blue_1_a",), amounts=(2, 1))], names) == [
        "Ann buys red 5 for 2 currency + 1 bust token + blue 1"]
    assert event_lines("seven_wonders", [Event(1, "stage", amounts=(1, 0)), Event(2, "discard")], names) == [
        "Bob builds a wonder stage, paying 1 left and 0 right", "Cy discards a card for 3 coins"]
    assert event_lines("guess", [Event(0, "described", text="bid 3")], names) == ["Ann: bid 3"]


def _wheel(widget, kind):
    return kind(widget, 1, 1, 0, 1, 0, False, False, False)


class LogApp(App[None]):
    def compose(self) -> ComposeResult:
        yield GameLogPanel(id="game-log")


async def test_the_log_shows_its_newest_line_as_lines_arrive():
    app = LogApp()
    async with app.run_test(size=(30, 8)) as pilot:
        panel = app.query_one(GameLogPanel)
        panel.add_lines(f"early line {n}" for n in range(3))
        await pilot.pause()
        for batch in range(4):
            panel.add_lines([f"line {batch}.{n}" for n in range(3)] + [""])
            await pilot.pause()
            assert f"line {batch}.2" in screen_text(app)
        assert "early line 0" not in screen_text(app)  # the newest lines fill the panel
        assert "line 3.2" in screen_text(app).splitlines()[-1]
        panel.post_message(_wheel(panel, events.MouseScrollUp))  # the wheel scrolls back ...
        await pilot.pause()
        assert "line 3.2" not in screen_text(app)
        for _ in range(20):
            panel.post_message(_wheel(panel, events.MouseScrollUp))
        await pilot.pause()
        assert "early line 0" in screen_text(app).splitlines()[1]  # under the top border
        panel.add("news")  # ... and a new line scrolls to the newest
        await pilot.pause()
        assert "news" in screen_text(app).splitlines()[-1]


async def test_f3_shows_the_whole_log_full_width_from_its_first_line_and_esc_goes_back(config):
    from textual.widgets import RichLog

    from tui.games.base import GameScreen
    from tui.screens.log_view import GameLogScreen
    from tui.table import TableEvent

    setup = GameSetup("sheriff", 4, 3, seed=3, names=["Ann"], bot_delay=0)
    app = GamenightApp(start=setup, config=config)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        table = app.tables[0]
        for n in range(30):  # a long evening: more than the side panel shows at 80x24
            table.emit(TableEvent("notice", f"notice number {n} of a long game, wider than the side panel is"))
        first = table.log_lines[0]
        assert "f3 Log" in screen_text(app).splitlines()[-1]  # the key is in the footer
        await pilot.press("f3")
        await settle(pilot)
        assert isinstance(app.screen, GameLogScreen)
        log = app.screen.query_one("#game-log-all", RichLog)
        assert log.region.width == 80 and log.scroll_y == log.max_scroll_y > 0  # the newest first
        await pilot.press("home")
        await settle(pilot)
        assert log.scroll_y == 0 and first[:30] in screen_text(app)  # scrolled back to the start
        await pilot.press("escape")
        await settle(pilot)
        assert isinstance(app.screen, GameScreen)
