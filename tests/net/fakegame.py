"""A tiny game with simultaneous and sequential steps, so the net layer is tested on its own.

Each round: every seat bids 1-3 at once (hidden until revealed), then the round's leader
(round mod n) takes or passes. A bid equal to the round's secret number (from the seed) scores
it; taking scores the highest bid. Over after `rounds` rounds.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.core import Game, IllegalAction, OptionSpec, Result, Rng, plain


@plain("nettest.Bid")
@dataclass(frozen=True, slots=True)
class Bid:
    value: int

    def __str__(self) -> str:
        return f"bid {self.value}"


@plain("nettest.Pick")
@dataclass(frozen=True, slots=True)
class Pick:
    take: bool


@plain("nettest.State")
@dataclass(frozen=True, slots=True)
class State:
    n_players: int
    rounds: int
    round: int
    phase: str
    scores: tuple[int, ...]
    bids: tuple[int, ...]
    secret: int
    rng: Rng


@plain("nettest.View")
@dataclass(frozen=True, slots=True)
class View:
    round: int
    phase: str
    scores: tuple[int, ...]
    bids: tuple[int, ...]


class GuessGame(Game):
    id = "nettest"
    name = "Guess"
    min_players = 2
    max_players = 8
    options = (OptionSpec("rounds", 3, (1, 2, 3, 4, 5, 6, 20)),)

    def _setup(self, n_players, seed, options):
        rng = Rng(seed)
        secret, rng = rng.below(3)
        return State(n_players, options["rounds"], 0, "bid", (0,) * n_players, (), secret + 1, rng)

    def _active(self, state):
        if self.is_over(state):  # the contract: nobody acts once the game is over
            return frozenset()
        if state.phase == "bid":
            return frozenset(range(state.n_players))
        return frozenset({state.round % state.n_players})

    def _legal_actions(self, state, seat):
        if state.phase == "bid":
            return (Bid(1), Bid(2), Bid(3))
        return (Pick(True), Pick(False))

    def _validate(self, state, seat, action):
        if state.phase == "bid":
            if not isinstance(action, Bid) or action.value not in (1, 2, 3):
                raise IllegalAction(f"seat {seat} must bid 1, 2 or 3, not {action}")
        elif not isinstance(action, Pick):
            raise IllegalAction(f"seat {seat} must take or pass")

    def _apply(self, state, actions):
        scores = list(state.scores)
        if state.phase == "bid":
            bids = tuple(actions[s].value for s in range(state.n_players))
            for s, b in enumerate(bids):
                if b == state.secret:
                    scores[s] += 1
            return State(state.n_players, state.rounds, state.round, "pick", tuple(scores), bids, state.secret, state.rng)
        seat = state.round % state.n_players
        if actions[seat].take:
            scores[seat] += max(state.bids)
        secret, rng = state.rng.below(3)
        return State(state.n_players, state.rounds, state.round + 1, "bid", tuple(scores), (), secret + 1, rng)

    def _view(self, state, seat):
        return View(state.round, state.phase, state.scores, state.bids)

    def is_over(self, state):
        return state.round >= state.rounds

    def _result(self, state):
        return Result.from_breakdown([[("points", p)] for p in state.scores])


GAME = GuessGame()
