"""Ten (AEG, 2021): push-your-luck with auctions, 1-5 players. Rules: ten.md."""

from ..core.descriptor import SEAT, GameDescriptor, OptionDoc, bot_levels
from . import scorepad
from .result import CollectionScore, ColourRun, RunCell, WildUse, score_collection
from .rules import GAME, Ten
from .scorepad import score_pad

__all__ = [
    "DESCRIPTOR", "GAME", "CollectionScore", "ColourRun", "RunCell", "Ten", "WildUse",
    "score_collection", "score_pad",
]

DESCRIPTOR = GameDescriptor(
    game=GAME,
    options=(
        OptionDoc("first_player", "First player", "who plays first", form=SEAT),
        OptionDoc("deck", "Deck", "a stacked deck, top card first (tests and replays)"),
    ),
    bots=bot_levels("engine.bots.ten:TenBot", "engine.bots.samplers.ten:sample"),
    score_pad=scorepad.score_pad,
    score_template=scorepad.template,
    docs="docs/ten.md",
)
