"""Table clocks: parsing, the clock arithmetic, and a local seat played for when its time runs out."""

from __future__ import annotations

import pytest

from tui.app import GamenightApp
from tui.clock import ClockError, ClockSpec, SeatClocks
from tui.local_table import load_save
from tui.screens.new_game import GameSetup

from .helpers import screen_text, settle


class FakeTime:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


@pytest.mark.parametrize(
    ("text", "spec"),
    [
        ("off", ClockSpec()),
        ("move:30", ClockSpec("move", 30)),
        ("move:2m", ClockSpec("move", 120)),
        ("bank:10m+5s", ClockSpec("bank", 600, 5)),
        ("bank:300", ClockSpec("bank", 300, 0)),
    ],
)
def test_clock_settings_read_and_print_back(text, spec):
    assert ClockSpec.parse(text) == spec
    assert ClockSpec.parse(str(spec)) == spec


@pytest.mark.parametrize("text", ["fast", "move:", "move:0", "bank:ten+5", "move:99h"])
def test_a_bad_clock_setting_is_one_clear_line(text):
    with pytest.raises(ClockError) as caught:
        ClockSpec.parse(text)
    assert text in str(caught.value) and "\n" not in str(caught.value)


def test_a_move_limit_restarts_every_move_and_a_bank_keeps_its_increment():
    time = FakeTime()
    move = SeatClocks(ClockSpec("move", 30), 2, now=time)
    move.follow({0})
    time.now += 20
    assert move.left(0) == 10 and not move.expired(0)
    move.follow({1})  # seat 0 acted
    time.now += 31
    assert move.expired(1) and move.left(0) == 30
    bank = SeatClocks(ClockSpec("bank", 60, 5), 2, now=time)
    bank.follow({0, 1})  # a simultaneous step: both clocks run
    time.now += 20
    bank.follow({1})  # seat 0 chose after 20 s: 40 left, +5
    assert bank.left(0) == 45
    time.now += 50
    assert bank.left(1) == -10 and bank.expired(1)


async def _steps_grow(pilot, table, steps: int) -> bool:
    for _ in range(40):
        await pilot.pause(0.05)
        if len(table.game_log.steps) > steps:
            return True
    return False


async def test_a_run_out_plays_one_turn_then_waits_and_a_second_makes_the_seat_away(config):
    setup = GameSetup("ten", 2, 1, seed=3, names=["Ann"], bot_delay=0, clock=ClockSpec("move", 30))
    app = GamenightApp(start=setup, config=config)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        table = app.tables[0]
        assert "Ann" in screen_text(app) and "0:30" in screen_text(app)
        time = FakeTime()
        table.clocks._now = time
        table.clocks.running = dict.fromkeys(table.clocks.running, time.now)
        steps = len(table.game_log.steps)
        time.now += 31  # Ann's move time is over
        assert await _steps_grow(pilot, table, steps)  # the bot played Ann's turn
        # the log says why before it shows the bot's move for Ann
        assert "Ann's clock ran out: a bot plays this move" in table.log_lines[0] and table.log_lines[1:]
        for _ in range(100):  # Ann's next move (in this turn or after the bot seat's)
            await pilot.pause(0.05)
            if 0 in table.awaiting() and table.clocks.move != table.ran_out[0]:
                break
        steps = len(table.game_log.steps)
        time.now += 10
        assert not await _steps_grow(pilot, table, steps)  # a new move: the bot does not play it
        time.now += 21  # and it runs out too
        for _ in range(40):
            await pilot.pause(0.05)
            if table.away:
                break
        assert table.away == {0} and len(table.game_log.steps) == steps  # away: nobody plays Ann
        assert "Ann is away" in table.log_lines[-1] and "(away)" in table.clock_line()
        await pilot.press("x")  # any key
        await settle(pilot)
        assert table.away == set() and not table.ran_out
        assert any("took the seat back" in line for line in table.log_lines)
        table.flush_save()
        path = table.save_path
    assert load_save(path).seating.clock == ClockSpec("move", 30)  # the clock is part of the save


def test_a_spent_bank_holds_the_grace_after_the_bot_played_the_turn():
    from tui.table import RUN_OUT_GRACE

    time = FakeTime()
    bank = SeatClocks(ClockSpec("bank", 60, 0), 2, now=time)
    bank.follow({0})
    time.now += 61
    assert bank.expired(0)
    bank.grant(0, RUN_OUT_GRACE)
    bank.follow({1})  # the bot's move for seat 0 ends its turn
    assert bank.left(0) == RUN_OUT_GRACE
    bank.follow({0})
    time.now += 10
    bank.follow({1})
    assert bank.left(0) == RUN_OUT_GRACE - 10  # granted once, then spent as any bank


def test_play_refuses_a_bad_clock_with_one_line(capsys):
    from tui.cli import main

    code = main(["play", "money", "--players", "3", "--clock", "soon"])
    err = capsys.readouterr().err
    assert code == 2 and "clock 'soon'" in err and len(err.strip().splitlines()) == 1
