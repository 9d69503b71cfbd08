"""Every game's screen as a player first sees it, at the smallest supported size and a large one.

The SVGs under `__snapshots__/` were looked at by a person; a change in what a player sees
fails here until it is looked at again (`pytest tests/tui/test_snapshots.py --snapshot-update`).
"""

from __future__ import annotations

import pytest
from textual.widgets import Input

from tui.app import GamenightApp
from tui.config import Config, PlayerConfig, UiConfig
from tui.screens.new_game import GameSetup

from .helpers import settle

PLAYERS = {"money": 4, "ten": 3, "sheriff": 4, "seven_wonders": 3}
SIZES = {"80x24": (80, 24), "120x40": (120, 40)}


def first_turn(game: str) -> GamenightApp:
    """A game against bots, seeded, at the human's first decision."""
    players = PLAYERS[game]
    config = Config(ui=UiConfig(bell=False, bot_delay=0.0))
    return GamenightApp(start=GameSetup(game, players, players - 1, seed=5, names=["Ann"], bot_delay=0),
                        config=config)


@pytest.mark.parametrize("size", SIZES, ids=list(SIZES))
@pytest.mark.parametrize("game", PLAYERS)
def test_each_game_screen_looks_as_approved(snap_compare, game, size):
    assert snap_compare(first_turn(game), terminal_size=SIZES[size], run_before=settle)


@pytest.mark.parametrize("size", SIZES, ids=list(SIZES))
def test_the_main_menu_looks_as_approved(snap_compare, size):
    config = Config(ui=UiConfig(bell=False, bot_delay=0.0))
    assert snap_compare(GamenightApp(config=config), terminal_size=SIZES[size], run_before=settle)


# ---- behind a door (SSH or browser): the first visit, the menu, the table list, the host form ----
DOOR_SCREENS = {"first-visit": (), "menu": (), "tables": ("t",), "no-tables": ("t",), "host": ("h",)}


@pytest.mark.parametrize("shown", DOOR_SCREENS)
def test_the_screens_behind_a_door_look_as_approved(snap_compare, monkeypatch, tmp_path, gamenight_home, shown):
    from net.doors.tables import write_entry
    from tui.config import save_player_name

    from ..net.helpers import listed_entry

    monkeypatch.setenv("GAMENIGHT_DOOR", str(tmp_path / "door"))
    monkeypatch.setenv("GAMENIGHT_DOOR_BROKER", "mqtt://127.0.0.1:1")
    if shown != "first-visit":
        save_player_name("Ann")
    if shown == "tables":
        for gid, seats, started in (("money-0000000a", ("Bo", "", "", ""), False),
                                    ("sheriff-0000000b", ("Zed", "Al", ""), False),
                                    ("seven_wonders-0000000c", ("Cy", "Di", "Ed"), True)):
            write_entry(tmp_path / "door" / "tables",
                        listed_entry(gid, seats, started=started, broker="mqtt://127.0.0.1:1"))

    async def show(pilot) -> None:
        await settle(pilot)
        await pilot.press(*DOOR_SCREENS[shown])
        for field in pilot.app.screen.query(Input):
            field.cursor_blink = False  # a blinking cursor is caught on or off by chance
        await settle(pilot)

    config = Config(player=PlayerConfig("Ann"), ui=UiConfig(bell=False, bot_delay=0.0))
    assert snap_compare(GamenightApp(config=config), terminal_size=(80, 24), run_before=show)
