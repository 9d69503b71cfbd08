"""Bot levels at a local table and on the command line: one per bot seat, a time budget for
hard bots, and a one-line error for a level that does not exist."""

from __future__ import annotations

import pytest

from engine.core import GameError
from tui.cli import main
from tui.cli_args import CliError, parse_bot_time, parse_bots
from tui.local_table import LocalTable, load_save


def test_bots_take_one_level_each_in_seat_order_and_a_save_keeps_them():
    table = LocalTable.new("money", 4, humans=1, seed=3, bot_kind="hard,normal,easy", bot_delay=0)
    assert [table._bots[s].kind for s in (1, 2, 3)] == ["hard", "heuristic", "easy"]
    table.flush_save()
    again = load_save(table.save_path, bot_delay=0)
    assert [again._bots[s].kind for s in (1, 2, 3)] == ["hard", "heuristic", "easy"]


def _hard_table(monkeypatch, seconds: float, clock):
    """A 7 Wonders table of hard bots, `seconds` a decision on the fake monotonic `clock`, and
    its first bot (only the clock stops its search, never the node budget)."""
    from net import bot_time

    monkeypatch.setattr(bot_time.time, "monotonic", clock)
    table = LocalTable.new("seven_wonders", 3, humans=0, seed=5, bot_kind="hard", bot_delay=0,
                           save=False, bot_time=seconds)
    bot = table._bots[0]
    bot.rollouts = 100_000
    return table, bot


def test_a_hard_bot_at_a_table_stops_at_its_time_budget(monkeypatch):
    """A fake monotonic clock, 0.05 s a reading: 0.2 s are over after four readings."""
    now = [0.0]

    def tick() -> float:
        now[0] += 0.05
        return now[0]

    table, bot = _hard_table(monkeypatch, 0.2, tick)
    rollouts = []
    sampler = bot.sampler
    bot.sampler = lambda *args: rollouts.append(1) or sampler(*args)
    table._bot_choice(0)
    # the clock is read before each rollout and at each of its steps: the 0.2 s are over
    # within the first rollouts (never the node budget)
    assert 1 <= len(rollouts) <= 4
    assert now[0] <= 0.2 + 0.05 + 0.05  # its start, then at most one reading past the end


def test_a_hard_bot_plays_no_rollout_that_would_end_past_its_budget(monkeypatch):
    """A fake clock that only rollouts move, 0.3 s each, and a 1 s budget: three rollouts end
    at 0.9 s and a fourth would end at 1.2 s, so the decision ends at 0.9 s, within budget."""
    now = [0.0]
    table, bot = _hard_table(monkeypatch, 1.0, lambda: now[0])
    sampler = bot.sampler

    def slow_sampler(*args):
        now[0] += 0.3
        return sampler(*args)

    bot.sampler = slow_sampler
    table._bot_choice(0)
    assert now[0] == pytest.approx(0.9)


def test_a_hard_bot_drops_a_rollout_still_playing_when_its_budget_is_over(monkeypatch):
    """A fake clock that each step of a game moves by 0.05 s, and a 1 s budget: a 7 Wonders
    rollout (18 steps) takes 0.9 s, so the second is still playing at 1 s. It is dropped and the
    decision ends there, within a step of its budget, with the normal bot's move."""
    from engine.registry import get_game

    now = [0.0]
    table, bot = _hard_table(monkeypatch, 1.0, lambda: now[0])
    game = get_game("seven_wonders")
    apply = game.apply

    def slow_apply(state, actions):
        now[0] += 0.05
        return apply(state, actions)

    view, legal = table.view(0), table.legal_actions(0)
    expected = bot.normal.choose(view, legal)
    monkeypatch.setattr(game, "apply", slow_apply)
    assert bot.choose(view, legal) == expected
    assert now[0] <= 1.0 + 0.05


def test_a_budget_stops_before_a_step_that_would_end_past_it(monkeypatch):
    """Pieces of work of 0.3 s (a slow final score, say) read the clock at 0.3 and 0.6 s of a
    1 s budget; at 0.75 s the next one would end at 1.05 s, so the budget is spent there (a
    check that waited for the second to pass ran the decision 50 ms over)."""
    from net import bot_time

    now = [0.0]
    monkeypatch.setattr(bot_time.time, "monotonic", lambda: now[0])
    budget = bot_time.Deadline(1.0)
    answers = []
    for at in (0.3, 0.6, 0.75):
        now[0] = at
        answers.append(budget.spent())
    assert answers == [False, False, True]
    now[0] = 0.75
    assert budget()  # nor may another rollout begin


def test_a_hard_bot_thinks_with_the_heap_frozen_and_leaves_it_collectable():
    """No collection may land inside a decision (a full one ran 200 ms Ten decisions to 546
    ms; those of the decision's own objects took 21-29 ms of 100): the collector is off and
    the objects alive when a decision begins are frozen until it returns, and the decision is
    the one the bot makes without that."""
    import gc

    from engine.bots import make_bot
    from engine.core import Stream
    from engine.registry import get_game
    from net.bot_time import give_time

    game = get_game("seven_wonders")
    state = game.setup(3, b"frozen")
    seat = 0
    view, legal = game.view(state, seat), game.legal_actions(state, seat)
    plain = make_bot(game, seat, "hard", Stream(b"frozen"))
    plain.rollouts = 12
    timed = give_time(make_bot(game, seat, "hard", Stream(b"frozen")), 60.0)
    timed.rollouts = 12
    frozen_during, collecting_during = [], []
    sampler = timed.sampler

    def watched(*args):
        frozen_during.append(gc.get_freeze_count())
        collecting_during.append(gc.isenabled())
        return sampler(*args)

    timed.sampler = watched
    assert gc.isenabled()
    assert timed.choose(view, legal) == plain.choose(view, legal)
    assert frozen_during and min(frozen_during) > 0
    assert collecting_during and not any(collecting_during)  # no pause lands in a rollout
    assert gc.get_freeze_count() == 0 and gc.isenabled()  # all of it collectable again


def test_the_heap_stays_frozen_until_the_last_of_two_overlapping_decisions_ends():
    """A relay's bots may think at once (threads): one ending must not thaw the other's heap."""
    import gc

    from net.bot_time import without_collections

    other = without_collections(lambda view, actions: None)
    frozen_after_the_other = []

    def choose(view, actions):
        other(view, actions)  # another decision begins and ends while this one goes on
        frozen_after_the_other.append(gc.get_freeze_count())

    without_collections(choose)(None, None)
    assert frozen_after_the_other[0] > 0
    assert gc.get_freeze_count() == 0 and gc.isenabled()


def test_a_collector_the_caller_turned_off_stays_off_after_a_decision():
    import gc

    from net.bot_time import without_collections

    gc.disable()
    try:
        without_collections(lambda view, actions: None)(None, None)
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_an_unknown_level_or_a_wrong_count_is_a_clear_error():
    with pytest.raises(GameError, match="no 'expert' bot for money"):
        LocalTable.new("money", 3, humans=1, seed=1, bot_kind="expert", save=False)
    with pytest.raises(GameError, match="3 bot levels"):
        LocalTable.new("money", 3, humans=1, seed=1, bot_kind="hard,easy,normal", save=False)


def test_the_bots_argument_reads_a_count_a_level_or_one_level_per_seat():
    assert parse_bots(None, 4) == (3, "best")
    assert parse_bots("2", 4) == (2, "best")
    assert parse_bots("hard", 4) == (3, "hard")
    assert parse_bots("hard, normal", 4) == (2, "hard,normal")
    with pytest.raises(CliError):
        parse_bots("hard,,easy", 4)
    assert parse_bot_time(None) == 1.0
    with pytest.raises(CliError, match="--bot-time"):
        parse_bot_time(-1)


def test_play_with_an_unknown_level_says_so_in_one_line(capsys):
    assert main(["play", "money", "--players", "3", "--bots", "hard,wizard"]) == 2
    err = capsys.readouterr().err
    assert err.strip().count("\n") == 0 and "no 'wizard' bot for money" in err and "Traceback" not in err
