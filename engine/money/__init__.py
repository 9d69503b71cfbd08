"""Money! (Reiner Knizia): trade currency bids against the market; strong currencies score."""

from .rules import GAME, STALEMATE_ROUNDS, BidSpace, MoneyGame, make_bid
from .scorepad import score_pad
from .state import Bid, BidView, Keep, MoneyState, MoneyView, PendingBid, SwapBid, SwapMarket

__all__ = [
    "GAME", "STALEMATE_ROUNDS", "Bid", "BidSpace", "BidView", "Keep", "MoneyGame", "MoneyState",
    "MoneyView", "PendingBid", "SwapBid", "SwapMarket", "make_bid", "score_pad",
]
