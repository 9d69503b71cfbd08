"""The hard bot: determinized Monte Carlo search over what its seat may know.

Each rollout samples a full state consistent with the seat's view alone (the game's sampler,
engine/bots/samplers/: hidden hands and decks re-dealt from the cards the view does not show,
the game RNG replaced by one from the bot's own stream), plays one candidate action there and
the rest of the game with the game's normal bot in every seat (each told what the bot's own
normal bot remembers of the table so far, `Bot.share_memory`), and scores the finish for the
seat. Every candidate is played on the same determinizations (common random numbers); the
normal bot's own choice is the first candidate and is kept unless another does clearly
better, so a small budget degrades towards normal play.

Budgets: `rollouts` bounds the work of one decision (reproducible: tests and benches use it);
`stopper`, set by the caller, returns a fresh `Budget` per decision, the time budget: asked
before every rollout (so the caller can time them) whether to begin another, obeyed once two
rollouts are done (a slow game's rollouts, Ten's, may not fit one per candidate), and asked at
every step of a rollout whether the time is up, which drops that rollout: the decision then
takes what the finished rollouts say (the normal bot's move if fewer than two finished).
The engine has no clock: tui/ and net/ build the stopper (net/bot_time.py).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Protocol

from ..core import Action, ActionSpace, Game, Result, Seat, State, Stream, View
from .base import Bot

BotFactory = Callable[[Game, Seat, Stream], Bot]
"""A bot maker, as a descriptor lists it (engine.core.descriptor imports this module lazily:
not imported back from there)."""

Sampler = Callable[[Game, View, Stream], State]
"""`(game, view, rng) -> a full state` that gives the view's seat exactly that view."""

ROLLOUTS = 120
"""Rollouts per decision when only the node budget applies (a test, a bench, no caller clock)."""
CANDIDATES = 6
"""At most this many actions are searched (the normal bot's and a sample of the others)."""
MARGIN = 0.02
"""How much better per rollout (rewards lie in 0..1) another action must do than the normal
bot's to replace it, beyond NOISE."""
NOISE = 0.5
"""... and beyond NOISE * sqrt(rounds): one rollout's outcome swings by up to 1, and a few
rounds on a high-variance game (Money!) must not replace a sound move by a lucky one."""


class Budget(Protocol):
    """One decision's time budget, from the caller (the engine has no clock: net/bot_time.py)."""

    def __call__(self) -> bool:
        """Asked before every rollout: true to begin no more."""

    def spent(self) -> bool:
        """Asked at every step of a rollout and before its final score: true once the time is
        up, or would be before the next piece of work ends (the rollout is dropped)."""


def reward(result: Result, seat: Seat) -> float:
    """A rollout's value for `seat`: a win (shared on a tie) counts most, then the place."""
    n = len(result.places)
    win = 1.0 / len(result.winners) if seat in result.winners else 0.0
    place = (n - result.places[seat]) / (n - 1) if n > 1 else 1.0
    return 0.75 * win + 0.25 * place


class SearchBot(Bot):
    """Flat UCB1 over a few candidate actions, each rollout on a fresh determinization."""

    kind = "hard"

    def __init__(self, game: Game, seat: Seat, rng: Stream, normal: BotFactory, sampler: Sampler,
                 rollouts: int = ROLLOUTS, max_steps: int = 2_000) -> None:
        super().__init__(game, seat, rng)
        self.rollout_factory = normal
        """The rollout policy: the normal bot in every seat (a test may give a cheaper one)."""
        self.normal = normal(game, seat, rng.fork("normal"))
        self.sampler = sampler
        self.rollouts = rollouts
        self.max_steps = max_steps
        self.stopper: Callable[[], Budget] | None = None
        """Set by the caller (net/bot_time.py): a fresh `Budget` for each decision."""

    def choose(self, view: View, actions: Sequence[Action] | ActionSpace) -> Action:
        # in the normal bot's terms, which are the sampler's: a dealt Sheriff game's cards are
        # searched as goods, on plain sampled states, and the pick is played with the cards
        return self.normal.in_own_terms(self._search, view, actions)

    def _search(self, view: View, actions: Sequence[Action] | ActionSpace) -> Action:
        budget = self.stopper() if self.stopper is not None else None  # it covers the whole decision
        first = self.normal.choose(view, actions)
        # A draw from the bot's own stream (its private secret over the network): equal views
        # need not be searched alike, and a seeded stream replays exactly.
        rng = self.rng.fork(f"decision{self.rng.below(1 << 32)}")
        candidates = self._candidates(view, first, actions, rng)
        if len(candidates) == 1 or self.rollouts < 2 * len(candidates):
            return first
        totals = [0.0] * len(candidates)
        rounds = 0
        # Every candidate is played out on the same determinization with the same bots'
        # streams (common random numbers): the comparison sees the action, not the deal.
        while (rounds + 1) * len(candidates) <= self.rollouts:
            sample_rng = rng.fork(f"round{rounds}")
            values = []
            for action in candidates:
                # asked before every rollout: the caller's clock learns how long one takes
                out_of_time = budget is not None and budget()
                if out_of_time and (rounds or len(values) >= 2):
                    return _so_far(candidates, values, totals, rounds)
                value = self._rollout(view, action, sample_rng, budget)
                if value is None:  # the time ran out inside it: dropped
                    return _so_far(candidates, values, totals, rounds)
                values.append(value)
            totals = [t + v for t, v in zip(totals, values, strict=True)]
            rounds += 1
        return candidates[_best(totals, rounds)]

    def _candidates(self, view: View, first: Action, actions: Sequence[Action] | ActionSpace,
                    rng: Stream) -> list[Action]:
        """The normal bot's choice, then up to CANDIDATES - 1 others: those the normal bot
        rates next best where it ranks them (`Bot.shortlist`; none where it says nothing is
        worth a search), else a sample of the legal ones (a random bid of Money!'s thousands
        is rarely worth a rollout)."""
        ranked = self.normal.shortlist(view, actions)
        if ranked is not None:
            pool = ranked
        elif isinstance(actions, ActionSpace):
            pool = [actions.sample(rng) for _ in range(4 * CANDIDATES)]
        else:
            pool = list(actions)
            if len(pool) > CANDIDATES:
                pool = rng.shuffle(pool)
        out = [first]
        for action in pool:
            if len(out) >= CANDIDATES:
                break
            if action not in out:
                out.append(action)
        return out

    def _rollout(self, view: View, action: Action, rng: Stream, budget: Budget | None = None) -> float | None:
        """One determinization: `action` for this seat, normal bots for everything else; None
        if the budget is spent before the game ends."""
        game = self.game
        state = self.sampler(game, view, rng.fork("sample"))
        bots = [self.rollout_factory(game, s, rng.fork(f"bot{s}")) for s in range(view.n_players)]
        for bot in bots:
            self.normal.share_memory(bot)
        mine: Action | None = action
        for _ in range(self.max_steps):
            if budget is not None and budget.spent():
                return None
            active = game.active(state)
            if not active:
                break
            chosen = {}
            for seat in sorted(active):
                if seat == self.seat and mine is not None:
                    chosen[seat] = mine
                else:
                    chosen[seat] = bots[seat].choose(game.view(state, seat), game.legal_actions(state, seat))
            mine = None
            state = game.apply(state, chosen)
        if not game.is_over(state):
            return 0.0
        if budget is not None and budget.spent():  # a final score can take a while (Ten's: ~50 ms)
            return None
        return reward(game.result(state), self.seat)


def _so_far(candidates: list[Action], values: list[float], totals: list[float], rounds: int) -> Action:
    """Out of time: the rounds played decide (a round cut short is dropped: each total covers
    the same deals); in the first round, the candidates played so far, if two are; else the
    normal bot's move."""
    if rounds:
        return candidates[_best(totals, rounds)]
    return candidates[_best(values, 1)] if len(values) >= 2 else candidates[0]


def _best(totals: list[float], rounds: int) -> int:
    """The candidate with the best total; the normal bot's (index 0) unless another beats it
    by more than the noise of `rounds` paired rollouts could (MARGIN, NOISE)."""
    best = max(range(len(totals)), key=lambda i: (totals[i], -i))
    return best if totals[best] - totals[0] > MARGIN * rounds + NOISE * math.sqrt(rounds) else 0
