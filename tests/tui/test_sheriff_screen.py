"""The Sheriff of Nottingham screen driven through the real app with the Pilot, as a player would."""

from __future__ import annotations

from textual.widgets import DataTable

from engine.core import HIDDEN, final_state
from engine.sheriff import GAME
from engine.sheriff.cards import LEGAL
from engine.sheriff.state import Accept, Demand, DrawDiscard, Load, Offer
from tui.app import GamenightApp
from tui.games.sheriff import SheriffScreen
from tui.games.sheriff.text import good_name
from tui.screens.dialogs import ConfirmDialog
from tui.screens.end import EndScreen
from tui.screens.new_game import GameSetup
from tui.screens.pass_to import PassToScreen
from tui.widgets import PickList

from .helpers import screen_text, settle

BRIBE = 9
"""Gold the scripted player offers: more than a bot Sheriff's estimate of any bag (1.4 a card)."""


def keys_for(screen: SheriffScreen) -> list[str]:
    """What a simple player presses in each step: bribe as a merchant, take offers as Sheriff."""
    view, mode = screen.view, screen.mode
    me = view.players[view.seat]
    if mode == "aside":
        return ["space", "enter"]  # swap the first card of the hand
    if mode == "draw":
        return ["1"] if DrawDiscard(1) in screen.legal else ["d"]
    if mode == "discard":
        return ["t", "2"]
    if mode == "load":
        return ["space", "space", "enter", "y"]  # y: the bag goes in (it asks first)
    if mode in ("declare", "choose", "pay"):
        return ["enter"]
    if mode == "offer":
        if view.exchange == 1 and me.gold >= BRIBE:
            return [*str(BRIBE), "enter"]
        return ["n"]
    if mode == "answer":
        return ["a"] if screen._answer_action("accept") is not None else ["i"]
    if mode == "confiscate":
        return ["1"]
    raise AssertionError(f"no keys for mode {mode!r}")


async def play_to_end(app, pilot, max_moves: int = 800, check=None, until=None, keys=keys_for) -> None:
    """Press a player's keys whenever it is our turn, until the end screen (or `until`)."""
    for _ in range(max_moves):
        screen = app.screen
        if isinstance(screen, EndScreen):
            return
        assert isinstance(screen, SheriffScreen), f"unexpected screen {screen!r}"
        assert "⚠" not in screen_text(app), screen_text(app)
        if screen.my_turn:
            if check is not None:
                check(screen)
            if until is not None and until(screen):
                return
            await pilot.press(*keys(screen))
        await settle(pilot)
    raise AssertionError("the game did not end")


def deals(game_log) -> list[tuple[int, int, Offer]]:
    """(merchant, sheriff, offer) of every accepted offer in a log."""
    out, last_offer = [], None
    for step in game_log.steps:
        for seat, action in step:
            if isinstance(action, Offer):
                last_offer = (seat, action)
            elif isinstance(action, Accept) and last_offer is not None:
                out.append((last_offer[0], seat, last_offer[1]))
    return out


def shows_the_engine_consequences(screen: SheriffScreen) -> None:
    """Each declaration row says what the engine says an inspection would then do."""
    if screen.mode != "declare":
        return
    rows = screen.query_one("#choices", PickList).rows
    outcomes = screen.view.consequences.declarations
    assert len(outcomes) == len(rows) == len(LEGAL)
    for row, outcome in zip(rows, outcomes, strict=True):
        words = str(row.text)
        if outcome.honest:
            assert f"honest: Sheriff pays you {outcome.fine}" in words, words
        else:
            assert f"lie: {len(outcome.kept)} kept, you pay {outcome.fine}" in words, words


async def test_full_game_through_the_keys_ends_with_the_engine_result(config):
    app = GamenightApp(start=GameSetup("sheriff", 3, 2, seed=3, names=["Ann"], bot_delay=0), config=config)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, SheriffScreen)
        await play_to_end(app, pilot, check=shows_the_engine_consequences)
        table = app.tables[0]
        state = final_state(GAME, table.game_log)
        expected = GAME.result(state)
        grid = app.screen.query_one("#end-table", DataTable)
        assert [int(str(c)) for c in grid.get_row("total")[1:]] == list(expected.scores)
        assert [int(str(c)[:-2]) for c in grid.get_row("place")[1:]] == list(expected.places)
        bonuses = 0
        for seat, rows in enumerate(expected.breakdown):
            for category, points in rows:
                assert str(grid.get_row(category)[seat + 1]) == str(points)
                bonuses += category.endswith(("_king", "_queen"))
        assert bonuses, "no King or Queen bonus on the end screen"
        assert any(key.value.endswith("_king") for key in grid.rows)
        # The human's bribe was taken by a bot Sheriff, and the human Sheriff took a bot's offer.
        accepted = deals(table.game_log)
        assert any(m == 0 and offer.gold == BRIBE for m, _, offer in accepted), accepted
        assert any(sheriff == 0 and m != 0 for m, sheriff, _ in accepted), accepted
        # Every human action of the log came from a key press, so nothing was sent twice.
        assert sum(1 for step in table.game_log.steps for seat, _ in step if seat == 0) > 20


def assert_fits(app, screen: SheriffScreen) -> None:
    for selector in ("#status", "#piles", "#stands", "#prompt", "#hand-line", "#scoreboard", "#waiting", "GameFooter"):
        region = screen.query_one(selector).region
        assert region.height > 0 and region.width > 0, f"{selector} is not visible in {screen.mode}"
        assert region.right <= 80 and region.bottom <= 24, f"{selector} is clipped in {screen.mode}: {region}"
    stands = screen.query_one("#stands").region
    assert stands.height >= screen.view.n_players, "a stand line is missing"
    choices = screen.query_one("#choices", PickList)
    region = choices.region
    assert region.height >= 3 and region.bottom <= 23, f"choices do not fit in {screen.mode}: {region}"
    assert choices.cursor - choices.top < region.height, "the highlighted choice is off screen"
    text = screen_text(app)
    assert "Your turn" in text
    main_key = {"aside": "Set aside", "load": "Load bag", "offer": "Make offer", "draw": "Draw pile",
                "discard": "Pile 1", "confiscate": "Pile 1", "answer": "Inspect"}.get(screen.mode)
    if main_key and (screen.mode != "answer" or screen._answer_action("inspect") is not None):
        assert main_key in text, f"{main_key!r} not in the footer:\n{text}"


async def test_every_step_fits_at_80_by_24_with_five_players(config):
    app = GamenightApp(start=GameSetup("sheriff", 5, 4, seed=5, names=["Ann"], bot_delay=0), config=config)
    seen: set[str] = set()

    def check(screen: SheriffScreen) -> None:
        if screen.view.round >= 6 or screen.mode not in seen:  # late rounds: full stands
            seen.add(screen.mode)
            assert_fits(app, screen)

    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await play_to_end(app, pilot, check=check, until=lambda screen: screen.view.round >= 8)
    assert {"aside", "draw", "discard", "load", "declare", "choose", "offer", "answer"} <= seen


async def test_an_illegal_action_shows_the_engine_reason(config):
    app = GamenightApp(start=GameSetup("sheriff", 3, 2, seed=3, names=["Ann"], bot_delay=0), config=config)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = app.screen
        assert screen.mode == "choose"  # seed 3: Ann is the first Sheriff
        screen._send(Load(("apple",)))
        await settle(pilot)
        text = screen_text(app)
        assert "Ann cannot do that now: choose the next merchant" in text
        assert isinstance(app.screen, SheriffScreen)


async def test_the_sheriff_types_a_demand_and_sees_the_bag_opened_card_by_card(config):
    app = GamenightApp(start=GameSetup("sheriff", 3, 2, seed=3, names=["Ann"], bot_delay=0), config=config)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = app.screen
        await pilot.press("enter")  # deal with the first merchant
        await settle(pilot)
        assert screen.mode == "answer"
        merchant = screen.view.merchant
        await pilot.press("d")  # the demand box opens; letters are text, not keys
        await pilot.press(*"pay up", "enter")
        await settle(pilot)
        table = app.tables[0]
        assert (0, Demand("pay up")) in [pair for step in table.game_log.steps for pair in step]
        assert 'You: demands "pay up"' in screen_text(app)
        # Esc in the box closes it and leaves the game alone.
        if screen.mode != "answer":  # the bot made its next offer
            await settle(pilot)
        assert screen.mode == "answer"
        await pilot.press("d", "x", "escape")
        await settle(pilot)
        assert not isinstance(app.screen, ConfirmDialog) and screen.mode == "answer"
        assert not screen.query_one("#text-entry").display
        honest = screen.view.consequences.honest_fine
        assert honest > 0 and f"honest: you pay {honest}; lie: they pay fines" in screen_text(app)
        await pilot.press("i")
        await settle(pilot)
        name = screen.player_name(merchant)
        assert f"{name}'s bag: " in screen_text(app)
        assert "▮" in screen_text(app)  # still face down: turned over one by one
        for _ in range(100):  # the cards turn over one by one on a timer
            line = screen_text(app).split(f"{name}'s bag: ")[1].splitlines()[0]
            if "▮" not in line:
                break
            await pilot.pause(0.1)
        assert "▮" not in line
        opened = screen.view.players[merchant]
        kinds = {card for card in opened.revealed}  # once all are turned: one mark per good
        assert line.count("✓") == (opened.declared in kinds)
        assert line.count("✓") + line.count("✗") == len(kinds)
        assert all(good_name(card) in line for card in kinds)  # names, never ids
        verdict = "honest: paid" if opened.inspection.honest else "lie: fine"
        assert f"{verdict} {opened.inspection.fine}" in line


async def test_a_typed_promise_goes_with_the_offer(config):
    app = GamenightApp(start=GameSetup("sheriff", 3, 2, seed=3, names=["Ann"], bot_delay=0), config=config)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = app.screen
        for _ in range(200):
            if screen.mode == "offer":
                break
            if screen.my_turn:
                await pilot.press(*keys_for(screen))
            await settle(pilot)
        assert screen.mode == "offer"
        await pilot.press("t", *"honest bag", "enter")
        await settle(pilot)
        assert 'Your offer: "honest bag"' in screen_text(app)
        await pilot.press("enter")
        await settle(pilot)
        sent = [a for step in app.tables[0].game_log.steps for seat, a in step if seat == 0]
        assert any(isinstance(a, Offer) and a.promise == "honest bag" and a.gold == 0 for a in sent)


async def test_hot_seat_pass_screen_hides_the_previous_hand(config):
    app = GamenightApp(start=GameSetup("sheriff", 3, 1, seed=4, names=["Ann", "Bob"], bot_delay=0), config=config)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        for _ in range(60):
            if isinstance(app.screen, PassToScreen):
                break
            screen = app.screen
            if screen.my_turn:
                await pilot.press(*keys_for(screen))
            await settle(pilot)
        assert isinstance(app.screen, PassToScreen)
        assert "Your hand" not in screen_text(app)
        game_screen = app.screen_stack[-2]
        assert isinstance(game_screen, SheriffScreen) and game_screen.seat is None
        assert "Your hand" not in str(game_screen.query_one("#hand-line").render())
        assert game_screen.query_one("#choices", PickList).rows == []
        await pilot.press("enter")
        await settle(pilot)
        assert app.screen is game_screen and game_screen.seat is not None
        hand = game_screen.view.players[game_screen.seat].hand
        assert hand and HIDDEN not in hand
        rows = game_screen.query_one("#choices", PickList).rows
        assert game_screen.mode == "aside" and len(rows) == len(hand)
        assert "[ ]" in screen_text(app)


async def test_a_merchant_without_gold_pays_the_fine_in_goods(config):
    """Bribe away all the gold (the bag passes onto the stand), then lie and get inspected."""
    # a deal where a Sheriff bot opens the broke liar's bag (the bots inspect on a mixed strategy)
    app = GamenightApp(start=GameSetup("sheriff", 3, 2, seed=11, names=["Ann"], bot_delay=0), config=config)

    def keys(screen: SheriffScreen) -> list[str]:
        view = screen.view
        me = view.players[0]
        if screen.mode == "offer" and me.gold:
            return ["9", "9", "9", "enter"]  # clamped to all the gold we have
        if screen.mode == "offer":
            return ["n"]
        if screen.mode == "declare" and me.gold == 0:
            return ["down", "down", "enter"]  # bread: there is none with 3 players
        return keys_for(screen)

    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await play_to_end(app, pilot, keys=keys, until=lambda screen: screen.mode == "pay")
        screen = app.screen
        assert screen.mode == "pay", "the pay step never came"
        debt = screen.view.debt
        assert debt is not None and debt.payer == 0 and screen.view.players[0].gold == 0
        assert f"Pay your debt with goods: {debt.amount} still owed" in screen_text(app)
        rows = screen.query_one("#choices", PickList).rows
        assert [row.key for row in rows] == list(screen.legal)
        await pilot.press("enter")
        await settle(pilot)
        steps = [pair for step in app.tables[0].game_log.steps for pair in step]
        assert (0, rows[0].key) in steps
        assert any(seat == 0 and isinstance(a, Offer) and 10 <= a.gold < 999 for seat, a in steps)
