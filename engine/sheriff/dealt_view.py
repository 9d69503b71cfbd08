"""Players that think in goods, on a dealt game (its rules: rules.py and checks.py on
`dealt.Carded`; its views: view.py, in goods as the plain game's).

A dealt game's view names goods, as the plain game's does (a card not known at this peer is
hidden), but its legal actions name the seat's own cards (`dealt_legal.OnCards`): a player
that thinks in goods (the heuristic bot, a screen) picks among `legal_in_goods(legal)` and
plays `to_cards(legal, choice)`; the log's events name goods, as the plain game's do.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from ..core import ActionSpace, Stream
from .dealt import in_goods
from .dealt_legal import OnCards, _Mapped, _pick
from .spaces import OrderSpace, SubsetSpace
from .state import (
    Confiscate,
    Discard,
    View,
)


def names_cards(actions: Any) -> bool:
    """True for legal actions that name the seat's cards (a dealt game's market, load, offer,
    discard, confiscation and payment); every other step's actions are the same in goods."""
    return isinstance(actions, OnCards)


def legal_in_goods(actions: Any) -> Any:
    """A seat's legal actions as a player that thinks in goods picks among them: a tuple of
    actions in goods, or a space whose members and samples are in goods (`to_cards` plays
    a pick with the seat's own cards)."""
    return tuple(map(in_goods, actions)) if isinstance(actions, tuple) else _InGoods(actions)


def to_cards(actions: Any, choice: Any) -> Any:
    """A choice made in goods (`in_goods`) as the seat's own legal action naming its cards,
    or None when none of its legal actions reads so (StopIteration: a good it does not hold)."""
    if isinstance(actions, tuple):
        return next((a for a in actions if in_goods(a) == choice), None)
    if isinstance(actions, _Mapped):
        return actions.convert(choice)
    if isinstance(actions, SubsetSpace):  # its `make` picks the seat's cards of each good
        kind = type(actions.make(()))
        return actions.make(choice.cards) if type(choice) is kind else None
    if isinstance(actions, OrderSpace) and type(choice) in (Discard, Confiscate):
        return type(choice)(choice.pile, _pick(actions.cards, choice.order))
    return None


class _InGoods(ActionSpace):
    """A seat's legal actions as a goods-thinking player sees them (`play_in_goods`)."""

    def __init__(self, actions: ActionSpace) -> None:
        self.actions = actions

    def __contains__(self, choice: object) -> bool:
        try:
            action = to_cards(self.actions, choice)
        except (StopIteration, KeyError, AttributeError, TypeError):
            return False  # names a good the seat does not hold
        return action is not None and action in self.actions

    def __len__(self) -> int:
        return len(self.actions)

    def __iter__(self) -> Iterator[Any]:
        return map(in_goods, self.actions)

    def sample(self, rng: Stream) -> Any:
        return in_goods(self.actions.sample(rng))


def play_in_goods(choose: Callable[[View, Any], Any], view: View, actions: Any) -> Any:
    """`choose(view, actions)` of a player that thinks in goods, on legal actions that name its
    cards (`names_cards`): it picks among them in goods, and its pick is played with its own
    cards (the identified ones first, as the rules want)."""
    pick = choose(view, legal_in_goods(actions))
    try:
        return to_cards(actions, pick)
    except (StopIteration, KeyError, AttributeError, TypeError):
        return None  # a pick naming goods the seat does not hold: the caller picks again
