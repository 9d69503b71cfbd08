"""7 Wonders (first edition, base game, 3-7 players): rules in docs/seven_wonders.md."""

from ..core.descriptor import GameDescriptor, OptionDoc, Rounds, bot_levels
from . import scorepad
from .picks import card_options
from .position import view_context
from .rules import GAME, SevenWonders
from .scorepad import score_pad

__all__ = ["DESCRIPTOR", "GAME", "SevenWonders", "card_options", "score_pad", "view_context"]

DESCRIPTOR = GameDescriptor(
    game=GAME,
    options=(
        OptionDoc("wonder_side", "Wonder side", "the side of every board (random: drawn per seat; "
                  "--option also takes a list, one side per seat)", form=("A", "B", "random")),
        OptionDoc("wonders", "Wonders", "each seat's board, a list of wonder ids (default: shuffled)"),
        OptionDoc("deck", "Deck", "stacked decks, {age: [card ids, top card first]} (tests and replays)"),
    ),
    bots=bot_levels("engine.bots.seven_wonders:SevenWondersBot", "engine.bots.samplers.seven_wonders:sample"),
    score_pad=scorepad.score_pad,
    score_template=scorepad.template,
    rounds=Rounds("age", lambda state: state.age),
    docs="docs/seven_wonders.md",
)
