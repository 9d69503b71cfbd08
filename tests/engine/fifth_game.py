"""A fifth game as a newcomer would add it: the test game "Guess" with everything described.

tests/engine/test_descriptors.py registers it with one line (monkeypatched into the registry)
and checks that the bots, the self-play command and the score pad then work with no other code.
"""

from __future__ import annotations

from typing import Any

from engine.bots import Bot
from engine.core import InvalidOption, Result
from engine.core.descriptor import GameDescriptor, OptionDoc
from tests.net.fakegame import GAME, Bid

__all__ = ["DESCRIPTOR", "GAME", "HighBidder"]


class HighBidder(Bot):
    """Always bids 3 and always takes: enough to prove a game's own bot kind is wired in."""

    kind = "heuristic"

    def choose(self, view, actions):
        return Bid(3) if Bid(3) in actions else actions[0]


def template(n_players: int = 2) -> dict[str, Any]:
    return {"players": [{"name": f"Player {i + 1}", "points": 0} for i in range(n_players)]}


def score_pad(data: Any) -> tuple[list[str], Result]:
    try:
        players = [(str(p["name"]), int(p["points"])) for p in data["players"]]
    except (KeyError, TypeError, ValueError):
        raise InvalidOption("each player needs a name and points") from None
    return [name for name, _ in players], Result.from_breakdown([[("points", p)] for _, p in players])


DESCRIPTOR = GameDescriptor(
    game=GAME,
    options=(OptionDoc("rounds", "Rounds", "how many rounds are played", form=(1, 2, 3, 4, 5, 6, 20)),
             OptionDoc("deck", "Deck", "a stacked deck, top card first (tests and replays)")),
    bots={"heuristic": HighBidder},
    score_pad=score_pad,
    score_template=template,
    docs="tests/engine/fifth_game.md",
)
