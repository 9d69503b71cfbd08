"""Sheriff of Nottingham (Arcane Wonders 2014), 3-5 players: bags, declarations and bribes."""

from .rules import GAME, Sheriff
from .scorepad import score_pad

__all__ = ["GAME", "Sheriff", "score_pad"]
