"""7 Wonders (first edition, base game, 3-7 players): rules in docs/seven_wonders.md."""

from .rules import GAME, SevenWonders, card_options, view_context
from .scorepad import score_pad

__all__ = ["GAME", "SevenWonders", "card_options", "score_pad", "view_context"]
