"""The Ten screen driven through the real app with the Pilot, as a player would."""

from __future__ import annotations

from textual.widgets import DataTable, Static

from engine.core import final_state
from engine.ten import GAME, score_collection
from engine.ten.cards import card_name, deck_for
from engine.ten.state import Bid, Buy, BuyWild, Draw, Pay, Payment, Skip
from tui.app import GamenightApp
from tui.games.ten import CollectionsScreen, TenEndScreen, TenScreen
from tui.games.ten.text import points as points_text
from tui.screens.menu import MenuScreen
from tui.screens.new_game import GameSetup, NewGameScreen
from tui.screens.rules import RulesScreen
from tui.widgets import PickList

from .helpers import screen_text, settle


def keys_for(screen: TenScreen) -> tuple[str, ...]:
    """A plain strategy, played with the keys: draw to a total of 5, claim numbers (currency
    when there are no numbers), bid the lowest bid, keep solo wilds, buy the best card shown."""
    view = screen.view
    phase = view.phase
    if phase == "draw":
        return ("d",)
    if phase == "choose":
        if view.deck_size and view.total <= 5 and view.currency_sum <= 6:
            return ("d",)
        return ("n",) if any(not c.startswith("currency") for c in view.tableau) else ("c",)
    if phase == "auction":
        me = view.players[view.seat]
        return ("enter",) if me.power > view.auction.high_bid else ("p",)
    if phase in ("pay", "solo_wild"):
        return ("enter",)
    if phase in ("buy", "final_buy"):
        if not view.buyable:
            return ("s",)
        return ("down", "enter", "enter")  # the first market row, then the first way to pay
    raise AssertionError(f"no key for phase {phase}")


async def play_to_end(app, pilot, max_moves: int = 1500) -> None:
    for _ in range(max_moves):
        screen = app.screen
        if isinstance(screen, TenEndScreen):
            return
        assert isinstance(screen, TenScreen), f"unexpected screen {screen!r}"
        if screen.my_turn:
            await pilot.press(*keys_for(screen))
        await settle(pilot, rounds=1)
        assert not screen.query_one("#message", Static).has_class("error"), screen_text(app)
    raise AssertionError("the game did not end")


def check_end_screen(app, table) -> None:
    expected = GAME.result(final_state(GAME, table.game_log))
    end = app.screen
    assert isinstance(end, TenEndScreen)
    grid = end.query_one("#end-table", DataTable)
    assert [int(str(cell)) for cell in grid.get_row("total")[1:]] == list(expected.scores)
    for seat, rows in enumerate(expected.breakdown):
        for colour, points in rows:
            assert str(grid.get_row(colour)[seat + 1]) == str(points)
    runs = str(end.query_one("#ten-runs", Static).render())
    view = table.view(None)
    for player in view.players:
        score = score_collection(player.collection)
        assert f"{table.names[player.seat]}  {expected.scores[player.seat]} points" in runs
        for run in score.runs:
            if run.low:
                assert f"run {run.low}-{run.high}" in runs
        for use in score.wilds:
            if use.colour:
                assert f"{card_name(use.card)} as {use.number}" in runs, runs


async def test_solo_game_from_the_main_menu_to_the_end(config):
    app = GamenightApp(config=config)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, MenuScreen)
        await pilot.press("n")
        await settle(pilot)
        form = app.screen
        assert isinstance(form, NewGameScreen)
        for _ in form.games:
            if form.game.id == "ten":
                break
            await pilot.press("right")
        assert form.game.id == "ten"
        await pilot.press("down")
        while form.players != 1:
            await pilot.press("left")
        assert form.bots == 0
        await pilot.press("tab", "3", "enter")
        await settle(pilot)
        assert isinstance(app.screen, TenScreen)
        table = app.tables[0]
        assert table.n_players == 1 and table.local_seats == (0,)
        await play_to_end(app, pilot)
        check_end_screen(app, table)
        assert "Solo:" in screen_text(app)
        played = {type(action).__name__ for action in steps_of(table, 0)}
        assert {"Draw", "ClaimNumbers", "BuyWild", "Buy"} <= played, played


async def test_three_players_against_two_bots_to_the_end(config):
    app = GamenightApp(start=GameSetup("ten", 3, 2, seed=7, names=["Ann"], bot_delay=0), config=config)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, TenScreen)
        await play_to_end(app, pilot)
        table = app.tables[0]
        check_end_screen(app, table)
        played = {type(action).__name__ for action in steps_of(table, 0)}
        assert {"Draw", "ClaimNumbers", "Bid", "Pay", "Buy"} <= played, played


def stacked(n_players: int, *top: str) -> list[str]:
    """The deck for n players with these cards on top (first drawn first)."""
    rest = [card for card in deck_for(n_players) if card not in top]
    return [*top, *rest]


def steps_of(table, seat: int) -> list:
    return [dict(step)[seat] for step in table.game_log.steps if seat in dict(step)]


async def play(pilot, *keys: str) -> None:
    """Press keys one at a time, letting the table (and any bot) answer each."""
    for key in keys:
        await pilot.press(key)
        await settle(pilot)


def fits(app, selectors: tuple[str, ...]) -> None:
    screen = app.screen
    for selector in selectors:
        widget = screen.query_one(selector)
        region = widget.region
        assert region.height > 0 and region.width > 0, f"{selector} is not visible"
        assert region.right <= 80 and region.bottom <= 24, f"{selector} is clipped: {region}"


BOARD = ("#status", "#tableau", "#market", "#mine", "#prompt", "#choices", "#scoreboard", "#game-log",
         "#waiting", "GameFooter")


async def test_five_players_and_an_auction_fit_at_80_by_24(config):
    options = {"deck": stacked(5, "red_4_a", "wild_5_a"), "first_player": 0}
    setup = GameSetup("ten", 5, 4, options=options, seed=1, names=["Ann"], bot_delay=0)
    app = GamenightApp(start=setup, config=config)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = app.screen
        fits(app, BOARD + ("#others",))
        text = screen_text(app)
        for words in ("Tableau", "bust risk 0/129", "Market", "You 5 tokens", "red ", "orange",
                      "Bot 4", "Draw", "Your turn"):
            assert words in text, f"{words!r} not on screen:\n{text}"
        # Before the first draw there is nothing to claim: the menu and the footer offer Draw only.
        assert [row.key for row in screen.query_one("#choices", PickList).rows] == [("act", Draw())]
        assert "Claim" not in text and "Numbers" not in text
        await pilot.press("d")
        await settle(pilot)
        text = screen_text(app)
        assert "Tableau red 4" in text and "Total 4/11" in text
        assert "Claim numbers" in text and "Claim currency" in text
        # The wild: the four bots bid first (Ann bids last), then Ann's bid row shows.
        await pilot.press("d")
        await settle(pilot)
        assert screen.view.phase == "auction" and screen.my_turn
        fits(app, BOARD + ("#others",))
        choices = screen.query_one("#choices", PickList)
        assert choices.region.height >= 2
        text = screen_text(app)
        assert "Auction wild 5 drawn by Ann" in text and "Bid ◀" in text and "p Pass" in text
        # Every other collection is summarised on its own line.
        others = str(screen.query_one("#others", Static).render())
        assert all(f"Bot {n}" in others for n in range(1, 5))


async def test_bid_with_the_arrows_then_pay(config):
    options = {"deck": stacked(3, "wild_5_a"), "first_player": 0}
    app = GamenightApp(start=GameSetup("ten", 3, 2, options=options, seed=1, names=["Ann"], bot_delay=0), config=config)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = app.screen
        await pilot.press("d")
        await settle(pilot)
        view = screen.view
        assert view.phase == "auction" and screen.my_turn
        low = view.auction.high_bid + 1
        assert view.players[0].power >= low + 1, "the scenario needs room to raise"
        await pilot.press("right", "left")
        await settle(pilot)
        assert f"Bid ◀ {low} ▶" in screen_text(app)
        await pilot.press(str(low + 1))  # or type the amount
        await settle(pilot)
        assert f"Bid ◀ {low + 1} ▶" in screen_text(app)
        await pilot.press("enter")
        await settle(pilot)
        table = app.tables[0]
        assert Bid(low + 1) in steps_of(table, 0)
        assert screen.view.phase == "pay" and "choose how to pay" in screen_text(app)
        await pilot.press("enter")
        await settle(pilot)
        paid = steps_of(table, 0)[-1]
        assert isinstance(paid, Pay) and paid.payment.currency == low + 1
        assert screen.view.players[0].collection == ("wild_5_a",)
        assert screen.view.phase == "choose"


async def test_pay_for_the_solo_wild_with_a_marked_card(config):
    options = {"deck": stacked(1, "red_4_a", "blue_6_a", "wild_5_a")}
    app = GamenightApp(start=GameSetup("ten", 1, 0, options=options, seed=1, names=["Ann"], bot_delay=0), config=config)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = app.screen
        await play(pilot, "d", "d")
        await settle(pilot)
        assert "Total 10/11" in screen_text(app)
        await pilot.press("n")
        await settle(pilot)
        assert screen.view.phase == "buy"
        await pilot.press("s")
        await settle(pilot)
        await pilot.press("d")
        await settle(pilot)
        assert screen.view.phase == "solo_wild"
        assert "You drew wild 5" in screen_text(app)
        choices = screen.query_one("#choices", PickList)
        wild = screen.view.prospects.paying  # the engine's ways to pay, in its order
        assert [row.key[1].payment for row in choices.rows if row.key[0] == "pay"] == [
            option.payment for option in wild.payments]
        best = wild.payments[0].score_after
        assert f"→{points_text(best):>7}" in screen_text(app)
        keys = [row.key for row in choices.rows]
        await pilot.press("home", *["down"] * keys.index(("mark", "red_4_a")), "space")
        await settle(pilot)
        assert screen.marked == {"red_4_a"}
        at = [row.key for row in choices.rows].index(("mark", "red_4_a"))
        assert choices.cursor == min(at + 1, len(choices.rows) - 1)  # Space marks, then moves on
        wanted = ("pay", BuyWild(Payment.of(0, 0, ["red_4_a"])))
        keys = [row.key for row in choices.rows]
        assert wanted in keys, keys
        await pilot.press("home", *["down"] * keys.index(wanted), "enter")
        await settle(pilot)
        assert steps_of(app.tables[0], 0)[-1] == wanted[1]
        assert sorted(screen.view.players[0].collection) == ["blue_6_a", "wild_5_a"]


async def test_a_claim_is_not_offered_before_drawing(config):
    app = GamenightApp(start=GameSetup("ten", 1, 0, seed=4, names=["Ann"], bot_delay=0), config=config)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert "Numbers" not in screen_text(app) and "Claim" not in screen_text(app)
        await pilot.press("n")  # not offered: the key does nothing
        await settle(pilot)
        assert isinstance(app.screen, TenScreen)
        assert app.tables[0].game_log.steps == ()
        assert "⚠" not in screen_text(app)


async def test_f1_shows_the_ten_rules_and_keys(config):
    app = GamenightApp(start=GameSetup("ten", 2, 1, seed=2, names=["Ann"], bot_delay=0), config=config)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("f1")
        await settle(pilot)
        assert isinstance(app.screen, RulesScreen)
        text = screen_text(app)
        assert "Ten — rules in brief" in text and "longest run" in text
        await pilot.press("escape")
        await settle(pilot)
        assert isinstance(app.screen, TenScreen)


async def test_watching_two_bots_play_to_the_end(config):
    app = GamenightApp(start=GameSetup("ten", 2, 2, seed=5, bot_delay=0), config=config)
    async with app.run_test(size=(80, 24)) as pilot:
        for _ in range(200):
            await settle(pilot)
            if isinstance(app.screen, TenEndScreen):
                break
        table = app.tables[0]
        assert table.local_seats == ()
        check_end_screen(app, table)


async def test_buy_phase_explains_a_blocked_card_and_goes_back_from_paying(config):
    deck = stacked(1, "red_4_a", "red_4_b", "blue_9_a", "red_1_a")
    app = GamenightApp(start=GameSetup("ten", 1, 0, options={"deck": deck}, seed=1, names=["Ann"], bot_delay=0),
                       config=config)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = app.screen
        await play(pilot, "d", "n")  # red 4 claimed; the market is empty
        await settle(pilot)
        assert "the market is empty" in screen_text(app)
        await play(pilot, "s", "d", "d")  # red 4 and blue 9: 13, a bust
        await settle(pilot)
        assert "Ann bust on numbers" in screen_text(app)
        assert screen.view.players[0].busts == 1
        await play(pilot, "d", "n")  # red 1 claimed: buy phase with red 4 and blue 9 in the market
        await settle(pilot)
        assert screen.view.phase == "buy" and screen.view.buyable == ("blue_9_a",)
        choices = screen.query_one("#choices", PickList)
        keys = [row.key for row in choices.rows]
        assert keys[0] == ("act", Skip())
        # Only the card Ann may buy is offered; the other is named with the reason.
        assert ("market", "red_4_b") not in keys and ("market", "blue_9_a") in keys
        assert "Not for you: red 4 (you hold one)" in screen_text(app)
        await pilot.press("home", *["down"] * keys.index(("market", "blue_9_a")), "enter")
        await settle(pilot)
        assert screen.buy_card == "blue_9_a" and "Buy blue 9 for 9" in screen_text(app)
        enabled = [row.key[1] for row in choices.rows if row.key[0] == "pay" and row.enabled]
        assert enabled and all(isinstance(a, Buy) and a.card == "blue_9_a" for a in enabled)
        await pilot.press("b")
        await settle(pilot)
        assert screen.buy_card is None and "Buy phase" in screen_text(app)
        await pilot.press("s")
        await settle(pilot)
        assert steps_of(app.tables[0], 0)[-1] == Skip()


async def test_v_shows_every_collection(config):
    options = {"deck": stacked(3, "wild_5_a"), "first_player": 0}
    app = GamenightApp(start=GameSetup("ten", 3, 2, options=options, seed=1, names=["Ann"], bot_delay=0), config=config)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await play(pilot, "d", "p")  # the wild goes to the highest bot bid
        await settle(pilot)
        game_screen = app.screen
        await pilot.press("v")
        await settle(pilot)
        assert isinstance(app.screen, CollectionsScreen)
        text = screen_text(app)
        assert all(name in text for name in ("Ann", "Bot 1", "Bot 2"))
        assert "wild 5 as" in text
        await pilot.press("escape")
        await settle(pilot)
        assert app.screen is game_screen
