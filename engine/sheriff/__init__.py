"""Sheriff of Nottingham (Arcane Wonders 2014), 3-5 players: bags, declarations and bribes."""

from ..core.descriptor import SEAT, GameDescriptor, OptionDoc, Rounds, bot_levels
from . import scorepad
from .game import GAME, Sheriff
from .scorepad import score_pad

__all__ = ["DESCRIPTOR", "GAME", "Sheriff", "score_pad"]

DESCRIPTOR = GameDescriptor(
    game=GAME,
    options=(
        OptionDoc("royal_goods", "Royal goods", "the 12 royal goods in the deck (off: the first-game setup)",
                  form=(True, False)),
        OptionDoc("first_sheriff", "First sheriff", "who is the first Sheriff", form=SEAT),
        OptionDoc("deck", "Deck", "a stacked deck of good ids, top card first (tests and replays); "
                  "card ids (good#k) stack a dealt game, as the network deals it"),
    ),
    bots=bot_levels("engine.bots.sheriff:SheriffBot", "engine.bots.samplers.sheriff:sample"),
    score_pad=scorepad.score_pad,
    score_template=scorepad.template,
    rounds=Rounds("round", lambda state: state.round + 1),  # 0-based in the state
    docs="docs/sheriff.md",
)
