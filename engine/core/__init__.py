"""engine.core: the Game contract, deterministic RNG, plain data, decks, results and logs."""

from .deck import check_stacked, draw, remove, shuffle_or_stack
from .errors import (
    DecodeError,
    GameError,
    GameOver,
    IllegalAction,
    InvalidOption,
    NotYourTurn,
    ReplayError,
)
from .events import DESCRIBED, Event
from .game import (
    HIDDEN,
    Action,
    ActionSpace,
    Game,
    OptionSpec,
    Result,
    Seat,
    State,
    View,
    pick_uniform,
)
from .hashing import canonical, state_hash
from .log import GameLog, final_state, new_log, replay, replay_hashes
from .plain import (
    decode,
    fast_maker,
    from_plain,
    plain,
    relabel,
    to_plain,
)
from .rng import Rng, Stream, seed_bytes

__all__ = [
    "Action", "ActionSpace", "DESCRIBED", "DecodeError", "Event", "Game", "GameError", "GameLog", "GameOver", "HIDDEN",
    "IllegalAction", "InvalidOption", "NotYourTurn", "OptionSpec", "ReplayError", "Result", "Rng",
    "Seat", "State", "Stream", "View", "canonical", "check_stacked", "decode", "draw",
    "fast_maker", "final_state", "from_plain", "new_log", "pick_uniform", "plain", "relabel",
    "remove", "replay",
    "replay_hashes", "seed_bytes", "shuffle_or_stack", "state_hash", "to_plain",
]
