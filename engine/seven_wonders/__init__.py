"""7 Wonders (first edition, base game, 3-7 players): rules in docs/seven_wonders.md."""

from .picks import card_options
from .rules import GAME, SevenWonders, view_context
from .scorepad import score_pad

__all__ = ["GAME", "SevenWonders", "card_options", "score_pad", "view_context"]
