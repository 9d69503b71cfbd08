"""At 120x40 the panels use the room: the log is wider and taller than at 80x24 and shows more
of the game, the board shows its long forms, and no half of the screen stays empty."""

from __future__ import annotations

from engine.bots import make_bot
from engine.core import Stream
from tui.app import GamenightApp
from tui.screens.new_game import GameSetup
from tui.widgets import GameLogPanel

from .helpers import screen_text, settle

MOVES = 12  # moves of the human seat: the log holds more than a small panel shows


async def _played(config, size: tuple[int, int]) -> tuple[GamenightApp, dict]:
    """Sheriff (the game that logs most) with a seeded random player at the human's seat."""
    setup = GameSetup("sheriff", 4, 3, seed=7, names=["Ann"], bot_delay=0)
    app = GamenightApp(start=setup, config=config)
    seen: dict = {}
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        table = app.tables[0]
        bot = make_bot(table.game, 0, "random", Stream(b"big terminal".ljust(16, b".")))
        moves = 0
        while moves < MOVES and not table.is_over():
            if 0 in table.awaiting():
                await table.submit(0, bot.choose(table.view(0), table.legal_actions(0)))
                moves += 1
            await settle(pilot)
        log = app.screen.query_one("#game-log", GameLogPanel)
        region = log.content_region
        rows = screen_text(app).splitlines()
        seen["log"] = region
        seen["log rows"] = [row[region.x:region.right].rstrip() for row in rows[region.y:region.bottom]]
        seen["rows"] = rows
        seen["board width"] = app.screen.query_one("#board").region.width
    return app, seen


def _blank(rows: list[str], top: int, bottom: int, left: int, right: int) -> bool:
    return not any(row[left:right].strip() for row in rows[top:bottom])


async def test_at_120x40_the_log_grows_and_no_half_of_the_screen_stays_empty(config):
    _, small = await _played(config, (80, 24))
    _, big = await _played(config, (120, 40))
    assert big["log"].width >= 1.5 * small["log"].width, (small["log"], big["log"])
    assert big["log"].height >= 1.5 * small["log"].height, (small["log"], big["log"])
    shown_small = [row for row in small["log rows"] if row]
    shown_big = [row for row in big["log rows"] if row]
    assert len(shown_big) > len(shown_small)  # more of the game in sight, not only longer rows
    assert max(map(len, shown_big)) > max(map(len, shown_small))  # rows wrap later
    rows = big["rows"]
    assert len(rows) == 40
    for top, bottom in ((1, 20), (20, 38)):  # the upper and the lower half of the game body
        for left, right in ((0, 60), (60, 120)):  # its left and right half
            assert not _blank(rows, top, bottom, left, right), (
                f"rows {top}-{bottom}, columns {left}-{right} are empty:\n" + "\n".join(rows))
    assert big["board width"] >= 78  # the board keeps the width its long forms need


async def test_the_long_forms_show_when_they_fit():
    """7 Wonders' neighbour line names the wonder only where there is room for it."""
    from .test_snapshots import first_turn

    shown = {}
    for size in ((80, 24), (120, 40)):
        app = first_turn("seven_wonders")
        async with app.run_test(size=size) as pilot:
            await settle(pilot)
            shown[size] = screen_text(app).splitlines()[1]  # the left neighbour's line
    assert "Halikarnassos A" not in shown[80, 24] and "W0/3 ⚔0 3¢" in shown[80, 24]
    assert "Halikarnassos A W0/3 ⚔0 3¢" in shown[120, 40]


async def test_a_tall_terminal_shows_every_ten_collection_colour_by_colour():
    """Ten at 120x40: each other player's collection gets its colour lines, as yours does; back at
    80x24 (the terminal made smaller) it is one line a player again."""
    from .test_snapshots import first_turn

    app = first_turn("ten")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        tall = screen_text(app).splitlines()
        await pilot.resize_terminal(80, 24)
        await settle(pilot)
        small = screen_text(app).splitlines()
    for name in ("Bot 1", "Bot 2"):
        at = next(i for i, row in enumerate(tall) if row.startswith(f" {name} "))
        assert [tall[at + k][1:7].strip() for k in (1, 2, 3, 4)] == ["red", "blue", "green", "orange"]
        line = next(row for row in small if row.startswith(f" {name} "))
        assert " r" in line and " o" in line  # the run summary, one line
    assert sum(row.startswith(" red ") for row in tall) == 3 and sum(row.startswith(" red ") for row in small) == 1
