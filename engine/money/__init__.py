"""Money! (Reiner Knizia): trade currency bids against the market; strong currencies score."""

from ..core.descriptor import GameDescriptor, OptionDoc, Rounds, bot_levels
from . import scorepad
from .bids import BidSpace, make_bid
from .cards import EDITIONS
from .rules import GAME, STALEMATE_ROUNDS, MoneyGame
from .scorepad import score_pad
from .state import Bid, BidView, Keep, MoneyState, MoneyView, PendingBid, SwapBid, SwapMarket

__all__ = [
    "DESCRIPTOR", "GAME", "STALEMATE_ROUNDS", "Bid", "BidSpace", "BidView", "Keep", "MoneyGame",
    "MoneyState", "MoneyView", "PendingBid", "SwapBid", "SwapMarket", "make_bid", "score_pad",
]

DESCRIPTOR = GameDescriptor(
    game=GAME,
    options=(
        OptionDoc("edition", "Edition", "Gold and Silver cards for 2-5 players, or the classic "
                  "coins for 3-5", form=EDITIONS),
        OptionDoc("removed_currencies", "Removed currencies",
                  "the currencies returned to the box (default: chosen by the seeded shuffle)"),
        OptionDoc("deck", "Deck", "a stacked deck, top card first (tests and replays)"),
    ),
    bots=bot_levels("engine.bots.money:MoneyBot", "engine.bots.samplers.money:sample"),
    score_pad=scorepad.score_pad,
    score_template=scorepad.template,
    rounds=Rounds("round", lambda state: state.round_no),
    docs="docs/money.md",
)
