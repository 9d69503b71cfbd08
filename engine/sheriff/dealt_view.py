"""A dealt game's result, log and goods-thinking players (its rules: rules.py and checks.py on
`dealt.Carded`; its views: view.py, on the same zone kind).

A view is computed on what its seat knows: its own cards are faces, other seats' cards
tokens; it names cards by card id (`good#k`) so that a face a seat was shown is in its view.
A player that thinks in goods (the heuristic bot, a screen) reads `in_goods(view)` and plays
`to_cards(legal, choice)`; the log's events name goods, as the plain game's do.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from ..core import HIDDEN, ActionSpace, Stream
from ..core.hidden import is_token
from ..core.plain import map_strings
from .cards import CARD_GOOD, GOOD_NAME
from .dealt import in_goods
from .dealt_legal import _Mapped, _pick
from .spaces import OrderSpace, SubsetSpace
from .state import (
    Confiscate,
    Discard,
    View,
)

Cards = tuple[str, ...]



# ---- players that think in goods (the heuristic bot; a screen could do the same) ----------
def is_dealt_view(view: View) -> bool:
    """True for a view of a dealt game (its cards are card ids, not good ids)."""
    me = view.players[view.seat] if view.seat is not None else view.players[0]
    sample = view.piles[0][:1] + view.piles[1][:1] + me.hand[:1] + me.stand_up[:1] + me.bag[:1]
    if any(card in CARD_GOOD for card in sample):
        return True
    # a face one zone shows (the piles may be empty, a hand still on its way): look at all
    zones = (*view.piles, view.confiscated,
             *(zone for p in view.players for zone in (p.hand, p.set_aside, p.bag, p.stand_up,
                                                       p.stand_down, p.revealed)))
    return any(card in CARD_GOOD or is_token(card) for zone in zones for card in zone)


def shown_in_goods(view: View) -> View:
    """A dealt view as a screen shows it: `in_goods`, and a card not known at this peer (a
    token) as the hidden card, as the plain game's view shows it."""
    return map_strings(view, _GOODS_OR_HIDDEN)


class _GoodsOrHidden(dict):
    """GOOD_NAME, and the hidden card for any token (a screen's view: not a hot path)."""

    def get(self, text: str, default: str | None = None) -> str | None:
        return HIDDEN if is_token(text) else super().get(text, default)


_GOODS_OR_HIDDEN = _GoodsOrHidden(GOOD_NAME)


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
    """`choose(view, actions)` of a player that thinks in goods, on a dealt game: it reads the
    view in goods and picks among its legal actions in goods; its pick is played with its own
    cards (the identified ones first, as the rules want)."""
    pick = choose(in_goods(view), legal_in_goods(actions))
    try:
        return to_cards(actions, pick)
    except (StopIteration, KeyError, AttributeError, TypeError):
        return None  # a pick naming goods the seat does not hold: the caller picks again
