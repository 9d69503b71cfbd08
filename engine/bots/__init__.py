"""Bots: they see only their seat's view and pick from the legal actions."""

from .base import Bot, RandomBot
from .registry import bot_kinds, make_bot
from .selfplay import Played, play_game

__all__ = ["Bot", "RandomBot", "Played", "bot_kinds", "make_bot", "play_game"]
