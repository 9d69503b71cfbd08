"""Reusable widgets: a keyboard pick list, the game log panel and the scoreboard."""

from .game_log import GameLogPanel
from .pick_list import PickList, PickRow
from .scoreboard import Scoreboard

__all__ = ["GameLogPanel", "PickList", "PickRow", "Scoreboard"]
