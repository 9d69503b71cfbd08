"""What the whole table knows of Ten's deck: which cards it holds (not their order) and how
many of them would bust the turn player. Over the network its faces are tokens until drawn."""

from __future__ import annotations

from collections import Counter
from functools import lru_cache

from ..core.hidden import is_token
from .cards import (
    BUST_AT_CURRENCY,
    BUST_AT_TOTAL,
    CARD_TYPES,
    CURRENCY,
    CURRENCY_VALUE,
    NUMBER,
    NUMBER_VALUE,
    TYPE_OF,
    deck_for,
)
from .state import State

Unseen = tuple[tuple[str, int], ...]


def unseen_counts(deck: tuple[str, ...]) -> Unseen:
    """(type id, copies) of the cards nobody has seen: the deck's contents, not its order."""
    return tuple(sorted(Counter(map(TYPE_OF.__getitem__, deck)).items()))


_TYPE_FACTS = {t.id: (t.kind, t.number, t.value) for t in CARD_TYPES.values()}
Facts = tuple[Unseen, tuple[int, ...], tuple[int, ...]]

# A deck only ever loses its top card (the next deck is `deck[1:]`), so the facts of a deck are
# those of the deck it was, less one card: each deck worked out registers its tail here, and
# the tail's facts are then a few tuple edits instead of a count of the whole deck. Bounded
# like the cache in front of it; both hold only what they computed, so results never differ.
_TAILS: dict[tuple[str, ...], tuple[str, Facts]] = {}
_TAILS_MAX = 512


@lru_cache(maxsize=256)
def deck_facts(deck: tuple[str, ...]) -> Facts:
    """The deck's public facts: `unseen_counts`, and for k = 0, 1, ... the unseen number
    cards of k or more and the unseen currency cards of value k or more (the last entry of
    each is 0: no card is that high)."""
    parent = _TAILS.pop(deck, None)
    facts = _counted(deck) if parent is None else _without(parent[1], parent[0])
    if deck:
        if len(_TAILS) >= _TAILS_MAX:
            _TAILS.clear()
        _TAILS[deck[1:]] = (deck[0], facts)
    return facts


def _counted(deck: tuple[str, ...]) -> Facts:
    unseen = unseen_counts(deck)
    numbers = [0] * (max(NUMBER_VALUE.values()) + 2)
    currency = [0] * (max(CURRENCY_VALUE.values()) + 2)
    for card_type, copies in unseen:
        kind, number, value = _TYPE_FACTS[card_type]
        if kind == NUMBER:
            numbers[number] += copies
        elif kind == CURRENCY:
            currency[value] += copies
    for counts in (numbers, currency):
        for k in range(len(counts) - 2, -1, -1):
            counts[k] += counts[k + 1]
    return unseen, tuple(numbers), tuple(currency)


def _without(facts: Facts, card: str) -> Facts:
    """The facts of a deck that held `card` as well (its top), once that card has left it."""
    unseen, numbers, currency = facts
    card_type = TYPE_OF[card]
    i = _position(unseen, card_type)
    copies = unseen[i][1] - 1
    unseen = unseen[:i] + (((card_type, copies),) if copies else ()) + unseen[i + 1:]
    kind, number, value = _TYPE_FACTS[card_type]
    # "k or more" counts: the card counted in every k up to its own
    if kind == NUMBER:
        numbers = tuple([n - 1 for n in numbers[: number + 1]]) + numbers[number + 1 :]
    elif kind == CURRENCY:
        currency = tuple([n - 1 for n in currency[: value + 1]]) + currency[value + 1 :]
    return unseen, numbers, currency


def _position(unseen: Unseen, card_type: str) -> int:
    for i, (t, _) in enumerate(unseen):
        if t == card_type:
            return i
    raise ValueError(f"no {card_type} is left in the deck")


def _at_least(counts_from: tuple[int, ...], k: int) -> int:
    return counts_from[min(max(k, 0), len(counts_from) - 1)]


def unseen_deck(state: State) -> tuple[str, ...]:
    """The deck's cards (faces, any order): the deck itself, or over the network, where its
    faces are tokens until drawn, every card of the game that lies nowhere else face up."""
    deck = state.deck
    if not deck or not is_token(deck[0]):
        return deck
    return tuple(sorted((Counter(deck_for(state.n_players)) - Counter(off_deck(state))).elements()))


def off_deck(state: State) -> tuple[str, ...]:
    """Every card that has left the deck: all of them face up for the whole table."""
    wild = (state.auction.wild,) if state.auction is not None else ()
    return (state.tableau + state.market + state.discard + wild
            + tuple(c for cards in state.collections for c in cards))


def bust_cards(total: int, currency_sum: int, facts: Facts) -> int:
    """Unseen cards that would bust a player at this running total and currency total if drawn
    next (public: the deck holds exactly the cards nobody has seen; `facts`: `deck_facts`)."""
    _, numbers_from, currency_from = facts
    return _at_least(numbers_from, BUST_AT_TOTAL - total) + _at_least(
        currency_from, BUST_AT_CURRENCY - currency_sum
    )

