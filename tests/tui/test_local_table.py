"""LocalTable without a screen: bots, hot seat bookkeeping, saves and deterministic resume."""

from __future__ import annotations

import pytest

from engine.core import IllegalAction, final_state
from engine.money import GAME, Keep, SwapMarket, make_bid
from engine.money import cards as money_cards
from tui.local_table import LocalTable, load_save


async def test_a_resumed_bot_game_plays_on_exactly_as_the_uninterrupted_one():
    whole = LocalTable.new("money", 4, humans=0, seed=99, bot_delay=0, save=False)
    await whole.start()
    assert whole.is_over()

    first = LocalTable.new("money", 4, humans=0, seed=99, bot_delay=0)
    first._closed = True  # stop after the first steps, like quitting mid-game
    for _ in range(5):
        first._pending = {s: first._bot_choice(s) for s in first.active()}
        first._step()
    first.flush_save()
    resumed = load_save(first.save_path, bot_delay=0)
    assert resumed.game_log == first.game_log
    await resumed.start()
    assert resumed.game_log == whole.game_log
    assert resumed.result() == whole.result() == GAME.result(final_state(GAME, whole.game_log))


async def test_humans_submit_only_for_their_own_seats_and_only_once():
    table = LocalTable.new("money", 3, humans=2, seed=4, bot_delay=0, save=False)
    await table.start()
    assert table.awaiting() == frozenset({0, 1})  # the bot has chosen already, hidden
    with pytest.raises(IllegalAction, match="not played at this terminal"):
        await table.submit(2, make_bid([], [], 3))
    with pytest.raises(IllegalAction, match="not in your hand"):
        await table.submit(0, make_bid(["euro_60_1", "dollar_60_1"], [], 3))
    hand = table.view(0).hand
    await table.submit(0, make_bid([hand[0]], [], 3))
    assert table.awaiting() == frozenset({1})
    with pytest.raises(IllegalAction, match="already chosen"):
        await table.submit(0, make_bid([hand[0]], [], 3))
    await table.submit(1, make_bid([table.view(1).hand[0]], [], 3))
    bid_step = dict(table.game_log.steps[0])
    assert sorted(bid_step) == [0, 1, 2]  # the bid step was applied with all three bids
    assert bid_step[0] == make_bid([hand[0]], [], 3)


async def test_log_lines_name_the_players():
    table = LocalTable.new("money", 3, humans=1, seed=8, names=["Ann"], bot_delay=0, save=False)
    await table.start()
    hand = table.view(0).hand
    await table.submit(0, make_bid([hand[0]], [], 3))
    while not table.is_over() and 0 in table.awaiting() and table.view(0).phase == "turns":
        await table.submit(0, Keep())
    label = money_cards.label(hand[0])
    assert table.log_lines[0] == "Round 1: bids revealed"
    assert f"Ann bid {label} ({money_cards.VALUE[hand[0]]})" in table.log_lines
    assert not any("seat " in line or "_" in line for line in table.log_lines)
    assert any(line.startswith("Bot 1 ") for line in table.log_lines)


async def test_a_money_swap_names_the_cards_it_took():
    table = LocalTable.new("money", 3, humans=1, seed=8, names=["Ann"], bot_delay=0, save=False)
    await table.start()
    while not table.is_over():
        view = table.view(0)
        if view.phase == "bid":
            await table.submit(0, make_bid([view.hand[0]], [], 3))
        elif view.market[0]:
            market = view.market[0]
            await table.submit(0, SwapMarket(0))
            took = f"Ann took side I: {money_cards.labels(market)}; left "
            assert any(line.startswith(took) for line in table.log_lines), table.log_lines
            return
        else:
            await table.submit(0, Keep())
    pytest.fail("Ann never had side I to swap with")


def test_names_must_fit_the_table():
    with pytest.raises(IllegalAction, match="names"):
        LocalTable.new("money", 3, humans=1, names=["A", "B"], save=False)
    with pytest.raises(IllegalAction, match="different name"):
        LocalTable.new("money", 3, humans=3, names=["A", "A", "B"], save=False)
