"""Money! setup (money.md §2-4): removed currencies, the shuffled deck, hands and market."""

from __future__ import annotations

from typing import Any

from ..core import (
    InvalidOption,
    Rng,
    check_stacked,
    draw,
    shuffle_or_stack,
)
from .cards import (
    BLUFFS,
    CURRENCIES,
    EDITION_CARDS,
    HAND_SIZE,
    KIND,
    MARKET_TARGET,
    REMOVED_COUNT,
    SERIAL,
    SORT_KEY,
    money_cards,
)
from .cards import CURRENCY as CARD_CURRENCY
from .state import (
    MoneySetup,
    MoneyState,
    new_state,
)

_SORT = SORT_KEY.__getitem__


def check_removed(value: Any, edition: str, n_players: int) -> tuple[str, ...] | None:
    if value is None:
        return None
    if isinstance(value, (str, bytes)) or not isinstance(value, (list, tuple)):
        raise InvalidOption("removed_currencies must be a list of currency ids or null")
    want = REMOVED_COUNT[edition][n_players]
    for cur in value:
        if cur not in CURRENCIES:
            raise InvalidOption(
                f"removed_currencies: unknown currency {cur!r} (currencies: {', '.join(CURRENCIES)})"
            )
    if len(set(value)) != len(value):
        raise InvalidOption(f"removed_currencies names a currency twice: {list(value)}")
    if len(value) != want:
        raise InvalidOption(
            f"removed_currencies must name {want} currenc{'y' if want == 1 else 'ies'} "
            f"for {n_players} players, not {len(value)}"
        )
    return tuple(c for c in CURRENCIES if c in value)


def _removed_by_deck(deck: Any, edition: str, n_players: int) -> tuple[str, ...]:
    if isinstance(deck, (str, bytes)) or not isinstance(deck, (list, tuple)):
        raise InvalidOption("deck must be a list of card ids (top card first) or null")
    cards = EDITION_CARDS[edition]
    for card in deck:
        if not isinstance(card, str) or card not in SERIAL:
            raise InvalidOption(f"the stacked deck holds {card!r}, which is not a card")
        if KIND[card] == "bluff":
            raise InvalidOption(f"the stacked deck may not hold a bluff card ({card})")
        if card not in cards:
            raise InvalidOption(f"the stacked deck holds {card}, which is not in the {edition} edition")
    present = {CARD_CURRENCY[c] for c in deck}
    removed = tuple(c for c in CURRENCIES if c not in present)
    want = REMOVED_COUNT[edition][n_players]
    if len(removed) != want:
        raise InvalidOption(
            f"the stacked deck leaves out {len(removed)} currencies "
            f"({', '.join(removed) or 'none'}); {n_players} players remove {want}"
        )
    return removed


def setup_state(n_players: int, seed: bytes, options: dict[str, Any]) -> MoneyState:
    edition = options["edition"]
    rng = Rng(seed)
    listed = check_removed(options["removed_currencies"], edition, n_players)
    stacked = options["deck"]
    # Step 1: removed currencies.
    if stacked is not None:
        removed = _removed_by_deck(stacked, edition, n_players)
        if listed is not None and listed != removed:
            raise InvalidOption(
                f"removed_currencies ({', '.join(listed)}) disagrees with the stacked deck, "
                f"which leaves out {', '.join(removed)}"
            )
    elif listed is not None:
        removed = listed
    else:
        k = REMOVED_COUNT[edition][n_players]
        if k:
            order, rng = rng.shuffle(CURRENCIES)
            removed = tuple(c for c in CURRENCIES if c in order[:k])
        else:
            removed = ()
    # Steps 2-3: the deck of the currencies in play plus the edition's cards, shuffled.
    in_play = tuple(c for c in CURRENCIES if c not in removed)
    cards = money_cards(edition, in_play)
    if stacked is not None:
        check_stacked(cards, tuple(stacked))
    deck, rng = shuffle_or_stack(cards, rng, None if stacked is None else tuple(stacked))
    # Step 4: deal 6 cards each from the top, seat 0 first, plus one bluff card each.
    hands = []
    for seat in range(n_players):
        dealt, deck = draw(deck, HAND_SIZE)
        hands.append(tuple(sorted(dealt + (BLUFFS[seat],), key=_SORT)))
    # Step 5: market side I, then side II.
    side1, deck = draw(deck, MARKET_TARGET)
    side2, deck = draw(deck, MARKET_TARGET)
    unseen = tuple(sorted((c for h in hands for c in h), key=_SORT))
    # Every zone is in serial order already (faces only: setup refuses tokens), so the state
    # is built as transitions build it, not through MoneyState's sorting constructor.
    return new_state(
        MoneySetup(n_players, edition, removed, BLUFFS[n_players:], rng), tuple(hands),
        (tuple(sorted(side1, key=_SORT)), tuple(sorted(side2, key=_SORT))), deck, "bid", 1,
        False, (), (), (), unseen,
    )
