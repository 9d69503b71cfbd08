"""Ten (AEG, 2021): push-your-luck with auctions, 1-5 players. Rules: ten.md."""

from .rules import GAME, Ten
from .scorepad import score_pad
from .scoring import CollectionScore, ColourRun, RunCell, WildUse, score_collection

__all__ = [
    "GAME", "CollectionScore", "ColourRun", "RunCell", "Ten", "WildUse", "score_collection",
    "score_pad",
]
