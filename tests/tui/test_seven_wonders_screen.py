"""The 7 Wonders screen driven through the real app with the Pilot, as a player would."""

from __future__ import annotations

from textual.widgets import DataTable, Static

from engine.core import final_state
from engine.seven_wonders import GAME
from engine.seven_wonders.cards import CARDS
from engine.seven_wonders.state import BuildFromDiscard, Decline, Pick
from tui.app import GamenightApp
from tui.games.seven_wonders import CitiesScreen, SevenWondersEndScreen, SevenWondersScreen
from tui.screens.new_game import GameSetup
from tui.screens.pass_to import PassToScreen
from tui.widgets import PickList

from .helpers import screen_text, settle


def keys_for(screen: SevenWondersScreen, *, stages: bool = False) -> tuple[str, ...]:
    """A plain strategy, played with the keys: Halikarnassos takes the first card it may;
    otherwise (stages first when asked) build the first card that can be built, with the
    cheapest payment; else a stage; else discard the highlighted card."""
    view = screen.view
    if screen.rebuilding:
        rows = screen.query_one("#sw-hand", PickList).rows
        first = next((i for i, row in enumerate(rows) if row.enabled), None)
        return ("n",) if first is None else ("down",) * first + ("enter",)
    stage = ("s", "enter") if len(view.stage_payments) > 1 else ("s",)
    if stages and view.stage_payments:
        return stage
    options = view.options
    first = next((i for i, o in enumerate(options) if o.build in ("free", "pay")), None)
    if first is None:
        return stage if view.stage_payments else ("d",)
    return ("down",) * first + (("b", "enter") if len(options[first].payments) > 1 else ("b",))


def no_error(app) -> None:
    message = app.screen.query_one("#message", Static)
    assert not message.has_class("error"), screen_text(app)


async def play_to_end(app, pilot, *, stages: bool = False, max_moves: int = 120) -> None:
    for _ in range(max_moves):
        screen = app.screen
        if isinstance(screen, SevenWondersEndScreen):
            return
        assert isinstance(screen, SevenWondersScreen), f"unexpected screen {screen!r}"
        if screen.my_turn:
            await pilot.press(*keys_for(screen, stages=stages))
        await settle(pilot)
        if isinstance(app.screen, SevenWondersScreen):
            no_error(app)
    raise AssertionError("the game did not end")


def new_app(config, seed: int = 3, options: dict | None = None, names=("Ann",), players: int = 3, bots: int = 2):
    setup = GameSetup("seven_wonders", players, bots, options=options or {}, seed=seed, names=list(names),
                      bot_delay=0)
    return GamenightApp(start=setup, config=config)


async def test_full_game_against_two_bots_ends_with_the_engine_result(config):
    app = new_app(config, seed=3)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, SevenWondersScreen)
        await play_to_end(app, pilot)
        table = app.tables[0]
        state = final_state(GAME, table.game_log)
        expected = GAME.result(state)
        end = app.screen
        grid = end.query_one("#end-table", DataTable)
        categories = ("military", "treasury", "wonder", "civilian", "science", "commercial", "guilds")
        for seat, rows in enumerate(expected.breakdown):
            assert tuple(c for c, _ in rows) == categories
            for category, points in rows:
                assert str(grid.get_row(category)[seat + 1]) == str(points)
        assert [int(str(cell)) for cell in grid.get_row("total")[1:]] == list(expected.scores)
        assert [int(str(cell)[:-2]) for cell in grid.get_row("place")[1:]] == list(expected.places)
        assert grid.region.bottom <= 24 and grid.region.right <= 80
        # The wildcards the scoring chose and Olympia's copy are named under the table.
        final = GAME.view(state, None).final
        text = screen_text(app)
        for seat, score in enumerate(final):
            if score.wildcards:
                assert f"{table.names[seat]}: science wildcard" in text
            if score.copied_guild:
                assert f"copies {CARDS[score.copied_guild].name}" in text
        # Every one of our picks was sent through the keys: 18 in all, plus any power steps.
        ours = [dict(step)[0] for step in table.game_log.steps if 0 in dict(step)]
        assert sum(isinstance(a, Pick) for a in ours) == 18


async def test_key_widgets_fit_at_80_by_24_and_the_hand_shows_costs_and_status(config):
    app = new_app(config, seed=3)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = app.screen
        for selector in ("#status", "#sw-neighbours", "#sw-city", "#sw-hand-title", "#sw-hand", "#sw-card",
                         "#scoreboard", "#game-log", "#waiting", "GameFooter"):
            region = screen.query_one(selector).region
            assert region.height > 0 and region.width > 0, f"{selector} is not visible"
            assert region.right <= 80 and region.bottom <= 24, f"{selector} is clipped: {region}"
        view = screen.view
        hand = screen.query_one("#sw-hand", PickList)
        assert len(hand.rows) == len(set(view.hand)) <= hand.region.height  # the whole first hand
        text = screen_text(app)
        names = app.tables[0].names
        assert f"◀ left  {names[1]}" in text and f"▶ right {names[2]}" in text
        for words in ("You · ", "Your hand", "Age I · turn 1/6", "Play", "Build", "Stage", "Discard"):
            assert words in text, f"{words!r} not on screen:\n{text}"
        # Each card's status is what the view says about it.
        statuses = {"free": "chain ✓", "owned": "✗ built", "too_expensive": "✗ coins", "impossible": "✗ no res."}
        for row, option in zip(hand.rows, view.options, strict=True):
            assert row.key == option.card
            line = row.text.line(hand.content_region.width - 2).plain  # as the list shows it
            if option.build == "pay":
                cheapest = option.coin_cost + min(p.pay_left + p.pay_right for p in option.payments)
                assert ("free ✓" if cheapest == 0 else f"pay {cheapest}") in line
            else:
                assert statuses[option.build] in line
        # The line under the hand describes the highlighted card, and follows the cursor.
        assert CARDS[view.options[0].card].name in str(screen.query_one("#sw-card", Static).render())
        await pilot.press("down")
        await settle(pilot)
        assert CARDS[view.options[1].card].name in str(screen.query_one("#sw-card", Static).render())
        # The waiting line says who has already picked (the bots chose with us, in secret).
        assert f"Your pick · picked: {names[1]}, {names[2]}" in text


async def test_enter_lists_exactly_the_legal_ways_to_play_a_card(config):
    app = new_app(config, seed=3)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = app.screen
        legal = set(screen.legal)
        for index, option in enumerate(screen.view.options):
            await pilot.press("home", *(("down",) * index), "enter")
            await settle(pilot)
            choices = screen.query_one("#sw-choices", PickList)
            assert choices.display and not screen.query_one("#sw-hand", PickList).display
            enabled = {row.key for row in choices.rows if row.enabled}
            assert enabled == {a for a in legal if a.card == option.card}
            assert choices.region.bottom <= 24
            await pilot.press("backspace")
            await settle(pilot)
            assert screen.card is None and screen.query_one("#sw-hand", PickList).highlighted == option.card
        # Enter on a listed way plays it: discard the first card (the list's last row).
        first = screen.view.options[0].card
        await pilot.press("home", "enter", "end", "enter")
        await settle(pilot)
        assert dict(app.tables[0].game_log.steps[0])[0] == Pick(first, "discard")


async def test_several_payments_are_offered_and_the_chosen_one_is_sent(config):
    app = new_app(config, seed=28)  # our third pick offers a build with two ways to pay
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        for _ in range(40):
            screen = app.screen
            assert isinstance(screen, SevenWondersScreen)
            option = next((o for o in screen.view.options if len(o.payments) > 1 and o.build == "pay"), None)
            if option is not None:
                break
            await pilot.press(*keys_for(screen))
            await settle(pilot)
        else:
            raise AssertionError("no build with two ways to pay came up")
        index = [o.card for o in screen.view.options].index(option.card)
        await pilot.press("home", *(("down",) * index), "b")
        await settle(pilot)
        assert "ways to pay" in screen_text(app)
        choices = screen.query_one("#sw-choices", PickList)
        second = option.payments[1]
        expected = Pick(option.card, "build", second.pay_left, second.pay_right)
        assert choices.highlighted == Pick(option.card, "build", option.payments[0].pay_left,
                                           option.payments[0].pay_right)
        steps = len(app.tables[0].game_log.steps)
        await pilot.press("down", "enter")
        await settle(pilot)
        assert dict(app.tables[0].game_log.steps[steps])[0] == expected


async def test_an_impossible_stage_says_why_and_plays_nothing(config):
    app = new_app(config, seed=3)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = app.screen
        assert screen.view.stage_payments == ()  # Ephesos A cannot build its first stage now
        await pilot.press("s")
        await settle(pilot)
        text = " ".join(screen_text(app).split())
        assert "You cannot build a stage with Lumber Yard: stage 1 needs 2 stone." in text
        assert len(app.tables[0].game_log.steps) == 0
        assert isinstance(app.screen, SevenWondersScreen) and screen.my_turn


async def test_age_end_conflicts_are_shown_at_the_next_age(config):
    app = new_app(config, seed=3)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = app.screen
        while screen.view.age == 1:
            await pilot.press(*keys_for(screen))
            await settle(pilot)
        view = screen.view
        assert (view.age, view.turn) == (2, 1)
        text = screen_text(app)
        assert "Age I war: " in text
        # The log gives every seat the tokens it received: at Age II, all it holds.
        log = screen.query_one("#game-log")
        logged = " ".join(" ".join(strip.text for strip in log.lines).split())
        parts = []
        for seat, name in enumerate(app.tables[0].names):
            parts.append(f"{name} " + (" ".join(f"{t:+d}".replace("-", "−") for t in view.tokens[seat]) or "0"))
        assert "Age I conflicts: " + " · ".join(parts) in logged
        assert logged.count("Age I conflicts") == 1
        # Our own result against each neighbour, with the shields compared: in this seed we
        # won both conflicts (the engine dealt +1 +1) with 1 shield against none.
        assert view.tokens[0] == (1, 1)
        names = app.tables[0].names
        assert f"Age I war: +1 vs {names[1]} (1⚔:0), +1 vs {names[2]} (1⚔:0)" in text
        # One more pick: the result is no longer on the city panel (the log keeps it).
        await pilot.press(*keys_for(screen))
        await settle(pilot)
        assert "Age I war: " not in screen_text(app)


async def test_halikarnassos_builds_from_the_pile_or_declines(config):
    options = {"wonders": ["halikarnassos", "babylon", "olympia"], "wonder_side": "B"}
    app = new_app(config, seed=5, options=options)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = app.screen
        for _ in range(40):
            if screen.rebuilding:
                break
            await pilot.press(*keys_for(screen, stages=True))
            await settle(pilot)
        else:
            raise AssertionError("Halikarnassos never built a stage")
        view = screen.view
        rows = screen.query_one("#sw-hand", PickList).rows
        assert [r.key for r in rows] == list(dict.fromkeys(view.discard_pile))
        assert {BuildFromDiscard(r.key) for r in rows if r.enabled} | {Decline()} == set(screen.legal)
        text = screen_text(app)
        assert "Halikarnassos: take one card free" in text and "Decline" in text
        steps = len(app.tables[0].game_log.steps)
        await pilot.press("n")
        await settle(pilot)
        assert dict(app.tables[0].game_log.steps[steps]) == {0: Decline()}


async def test_babylon_plays_its_kept_card(config):
    options = {"wonders": ["babylon", "halikarnassos", "olympia"], "wonder_side": "B"}
    app = new_app(config, seed=5, options=options)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = app.screen
        for _ in range(60):
            if screen.view.phase == "babylon" and screen.my_turn:
                break
            await pilot.press(*keys_for(screen, stages=True))
            await settle(pilot)
        else:
            raise AssertionError("Babylon never kept a card")
        kept = screen.view.kept
        assert [r.key for r in screen.query_one("#sw-hand", PickList).rows] == [kept]
        assert "Babylon: play your kept card" in screen_text(app)
        steps = len(app.tables[0].game_log.steps)
        await pilot.press("d")
        await settle(pilot)
        assert dict(app.tables[0].game_log.steps[steps]) == {0: Pick(kept, "discard")}


async def test_cities_screen_and_a_wide_terminal_show_every_city(config):
    app = new_app(config, seed=3)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        screen = app.screen
        for _ in range(4):
            await pilot.press(*keys_for(screen))
            await settle(pilot)
        view = screen.view
        neighbours = screen.query_one("#sw-neighbours", Static)
        assert neighbours.content_region.height == 4  # a summary line and a line of cards each
        shown = screen_text(app)
        for seat in (1, 2):
            assert view.cities[seat]
            for card in view.cities[seat]:
                assert CARDS[card].name in shown
        await pilot.press("c")
        await settle(pilot)
        assert isinstance(app.screen, CitiesScreen)
        text = screen_text(app)
        for name in app.tables[0].names:
            assert name in text
        assert "stage 1" in text and "you discarded" not in text  # we built every card so far
        await pilot.press("escape")
        await settle(pilot)
        assert app.screen is screen


async def test_narrow_terminal_collapses_neighbours_to_summary_lines(config):
    app = new_app(config, seed=3)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert app.screen.query_one("#sw-neighbours", Static).content_region.height == 2


async def test_waiting_line_names_who_has_picked_on_a_slow_table(config):
    app = new_app(config, seed=3)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = app.screen
        table = app.tables[0]
        table.awaiting = lambda: frozenset({1})  # as a network table would: we and Bot 2 are in
        assert screen.waiting_text(frozenset({1})) == f"waiting for: {table.names[1]} · picked: you and {table.names[2]}"


async def test_hot_seat_passes_before_the_second_hand(config):
    app = new_app(config, seed=3, names=("Ann", "Bob"), bots=1)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, PassToScreen)
        await pilot.press("enter")
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, SevenWondersScreen) and screen.seat == 0
        ann_hand = screen.view.hand
        await pilot.press("d")
        await settle(pilot)
        assert isinstance(app.screen, PassToScreen)
        assert "Your hand" not in screen_text(app)
        await pilot.press("enter")
        await settle(pilot)
        assert app.screen is screen and screen.seat == 1 and screen.view.hand != ann_hand


async def test_olympia_builds_free_with_f(config):
    options = {"wonders": ["olympia", "rhodos", "gizah"], "wonder_side": "A"}
    app = new_app(config, seed=1, options=options)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = app.screen
        for _ in range(60):
            if screen.view.free_build and screen.my_turn:
                break
            await pilot.press(*keys_for(screen, stages=True))
            await settle(pilot)
        else:
            raise AssertionError("Olympia never had her free build")
        assert "f Free" in screen_text(app)
        index, option = next((i, o) for i, o in enumerate(screen.view.options) if o.free_build)
        steps = len(app.tables[0].game_log.steps)
        await pilot.press("home", *(("down",) * index), "f")
        await settle(pilot)
        assert dict(app.tables[0].game_log.steps[steps])[0] == Pick(option.card, "build_free")
        assert not screen.view.free_build  # once per Age


async def test_a_resumed_game_logs_the_conflicts_of_the_ages_already_played(config):
    app = new_app(config, seed=3)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = app.screen
        while (screen.view.age, screen.view.turn) < (2, 2):  # past the turn that shows the war
            await pilot.press(*keys_for(screen))
            await settle(pilot)
        await pilot.press("escape", "y")
        await settle(pilot)
    resumed = GamenightApp(start="resume", config=config)
    async with resumed.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = resumed.screen
        assert isinstance(screen, SevenWondersScreen) and (screen.view.age, screen.view.turn) == (2, 2)
        log = screen.query_one("#game-log")
        logged = " ".join(" ".join(strip.text for strip in log.lines).split())
        names = resumed.tables[0].names
        # the engine kept Age I's results in the state: +1 +1 for us, as the live game showed
        assert screen.view.conflicts[0].results[0] == (1, 1)
        assert f"Age I conflicts: {names[0]} +1 +1 · " in logged
        assert logged.count("Age I conflicts") == 1, "logged once, live or resumed"
