"""A tiny game with simultaneous and sequential steps and hidden cards, so the net layer is
tested on its own, on the path every real network game takes: the deck protocol deals it.

The deck holds `players + rounds` cards worth 1 to 3 (each its own id: "2a" is worth 2).
Setup deals each seat one card face down (its owner sees it); the rest is the secrets' pile.
Each round: every seat bids 1-3 at once (hidden until revealed); then the top card of the pile
is turned face up (the round's secret number) and a bid equal to it scores 1. Then the round's
leader (round mod n) takes (scores the highest bid) or passes. Over after `rounds` rounds,
when every seat turns its own card over: it scores its value.

Over the network (`decks`, `seen`, `needs`, `scored_cards`): a seat's card is shown to its
owner alone, each secret is opened before the bids are scored, the seats' cards are turned
over for everyone at the end, and an end by vote scores the cards their owners show.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engine.core import (
    HIDDEN,
    Game,
    IllegalAction,
    OptionSpec,
    Result,
    Rng,
    plain,
    shuffle_or_stack,
)
from engine.core.hidden import is_token

DECK = "deck"
"""The label of the one deck a network table deals."""


def guess_cards(count: int) -> tuple[str, ...]:
    """The deck in setup order: values 1, 2, 3, 1, ... each card with its own id ("1a", "2a")."""
    return tuple(f"{k % 3 + 1}{chr(ord('a') + k // 3)}" for k in range(count))


def value(card: str) -> int:
    """What a card is worth; a card still face down (a token) is worth nothing."""
    return 0 if is_token(card) else int(card[0])


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
    hands: tuple[str, ...]  # one card per seat, face down: its owner sees it
    pile: tuple[str, ...]  # the secrets of the rounds to come, top first
    turned: tuple[str, ...]  # each past round's secret, face up

    @property
    def secret(self) -> str | None:
        """The card of the round's secret number (turned over once every seat has bid)."""
        return self.pile[0] if self.pile else None


@plain("nettest.View")
@dataclass(frozen=True, slots=True)
class View:
    round: int
    phase: str
    scores: tuple[int, ...]
    bids: tuple[int, ...]
    turned: tuple[str, ...]
    hands: tuple[str, ...]  # the seat's own card, every card once the game is over; else HIDDEN


class GuessGame(Game):
    id = "nettest"
    name = "Guess"
    min_players = 2
    max_players = 8
    options = (OptionSpec("rounds", 3, (1, 2, 3, 4, 5, 6, 20)),
               OptionSpec("deck", None, None, "a stacked deck, top card first (tests and replays)"))

    def _setup(self, n_players, seed, options):
        cards = guess_cards(n_players + options["rounds"])
        order, _ = shuffle_or_stack(cards, Rng(seed), options["deck"])
        return State(n_players, options["rounds"], 0, "bid", (0,) * n_players, (),
                     order[:n_players], order[n_players:], ())

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
            secret = value(state.pile[0])
            for s, b in enumerate(bids):
                if b == secret:
                    scores[s] += 1
            return State(state.n_players, state.rounds, state.round, "pick", tuple(scores), bids,
                         state.hands, state.pile[1:], state.turned + state.pile[:1])
        seat = state.round % state.n_players
        if actions[seat].take:
            scores[seat] += max(state.bids)
        return State(state.n_players, state.rounds, state.round + 1, "bid", tuple(scores), (),
                     state.hands, state.pile, state.turned)

    def _view(self, state, seat):
        over = self.is_over(state)
        hands = tuple(card if (over or s == seat) and not is_token(card) else HIDDEN
                      for s, card in enumerate(state.hands))
        return View(state.round, state.phase, state.scores, state.bids, state.turned, hands)

    def is_over(self, state):
        return state.round >= state.rounds

    def _result(self, state):
        return Result.from_breakdown([[("points", p), ("card", value(card))]
                                      for p, card in zip(state.scores, state.hands, strict=True)])

    # ---- over the network: one deck dealt face down ----
    def decks(self, n_players: int, options: Mapping[str, Any]) -> tuple[tuple[str, tuple[str, ...]], ...]:
        opts = self.check_options(options)
        self.check_players(n_players, opts)
        return ((DECK, guess_cards(n_players + opts["rounds"])),)

    def seen(self, state: State, seat: int | None) -> frozenset[str]:
        if self.is_over(state):  # every seat turns its card over to score it
            return frozenset(state.hands + state.turned)
        if seat is not None and 0 <= seat < state.n_players:
            return frozenset(state.turned + (state.hands[seat],))
        return frozenset(state.turned)

    def needs(self, state: State, actions: Mapping[int, Any]) -> frozenset[str]:
        # the bids are scored against the secret: its card is turned over first
        if state.phase == "bid" and state.pile and is_token(state.pile[0]):
            return frozenset(state.pile[:1])
        return frozenset()

    def scored_cards(self, state: State, seat: int) -> tuple[str, ...]:
        return state.hands[seat:seat + 1]  # a seat's card is scored face up


GAME = GuessGame()
