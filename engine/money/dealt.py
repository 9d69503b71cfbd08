"""Money! over the network: the deck dealt face down (issue #13; money.md §4.2, §7)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..core import (
    Rng,
    Seat,
    draw,
)
from ..core.hidden import is_token, masked
from .cards import (
    BLUFFS,
    CURRENCIES,
    HAND_SIZE,
    KIND,
    MARKET_TARGET,
    REMOVED_COUNT,
    SORT_KEY,
    money_cards,
)
from .setup import check_removed
from .state import (
    Bid,
    MoneySetup,
    MoneyState,
)

_SORT = SORT_KEY.__getitem__
_ALL_SEATS = {n: frozenset(range(n)) for n in range(1, 6)}


DEALT = "deck"
"""The label of the one deck a network table deals (engine/core/hidden.py tokens)."""


def deal_options(n_players: int, seed: bytes, options: Mapping[str, Any]) -> dict[str, Any]:
    """§4.2 step 1 before a network deal: the removed currencies drawn from the agreed seed as
    setup draws them, then listed (they fix which cards the dealt deck holds)."""
    out = dict(options)
    k = REMOVED_COUNT[options["edition"]][n_players]
    if options["removed_currencies"] is None and options["deck"] is None and k:
        order, _ = Rng(seed).shuffle(CURRENCIES)
        out["removed_currencies"] = [c for c in CURRENCIES if c in order[:k]]
    return out


def dealt_removed(n_players: int, options: Mapping[str, Any]) -> tuple[str, ...]:
    """The currencies a dealt game leaves out: the listed ones (the network table lists them
    from the seed, `deal_options`), else the last ones of §2.1.

    A dealt deck is a stacked one, whose removed currencies are those absent from it (§3).
    """
    edition = options["edition"]
    listed = check_removed(options["removed_currencies"], edition, n_players)
    if listed is not None:
        return listed
    k = REMOVED_COUNT[edition][n_players]
    return CURRENCIES[len(CURRENCIES) - k:]


def dealt_cards(n_players: int, options: Mapping[str, Any]) -> tuple[str, ...]:
    """The cards of the dealt deck in setup order (§4.2 step 2: ascending serials)."""
    removed = dealt_removed(n_players, options)
    return money_cards(options["edition"], tuple(c for c in CURRENCIES if c not in removed))


def setup_dealt(n_players: int, seed: bytes, options: Mapping[str, Any]) -> MoneyState:
    """§4.2 with the deck dealt face down: what `setup_state` makes of a stacked deck, every card
    of it a token (hands face down, the market still to be turned over by `seen`)."""
    deck = masked(DEALT, len(dealt_cards(n_players, options)))
    hands = []
    for seat in range(n_players):
        dealt, deck = draw(deck, HAND_SIZE)
        hands.append(dealt + (BLUFFS[seat],))  # a token sorts first, the bluff card last
    side1, deck = draw(deck, MARKET_TARGET)
    side2, deck = draw(deck, MARKET_TARGET)
    removed = dealt_removed(n_players, options)
    return MoneyState(
        # a stacked setup draws no random number (§3): its RNG is the seed's own
        setup=MoneySetup(n_players, options["edition"], removed, BLUFFS[n_players:], Rng(seed)),
        hands=tuple(hands), market=(side1, side2), deck=deck, phase="bid", round_no=1,
        final_round=False, pending=(), history=(), last_history=(),
        unseen=tuple(sorted((c for hand in hands for c in hand), key=_SORT)),
    )


def seen(state: MoneyState, seat: Seat | None) -> tuple[str, ...]:
    """What lies face up for `seat` (§7): the market (the cards setup and every refill deal
    onto it are turned over), its own hand, every hand once scored.

    Cards taken from the market or from a bid were face up: they are faces in the state
    already, so a hand's tokens are only the cards dealt to it and never shown.
    """
    cards = state.market[0] + state.market[1]
    if state.phase == "over":  # the hands are scored face up (§8)
        return cards + tuple(c for hand in state.hands for c in hand)
    if seat is not None and 0 <= seat < state.n_players:
        cards += state.hands[seat]
    return cards


def needs(state: MoneyState, actions: Mapping[Seat, object]) -> frozenset[str]:
    """The faces a step reads: the bids, turned over together at the reveal (§5.2).

    A refill reads no face: it deals the deck's top cards onto the market, where `seen`
    turns them over for everyone after the step (and the side is put in order then).
    """
    # a bid turns over cards of its owner's hand only: a step naming any other card (a
    # token of the deck, say) is refused by the rules and must show nothing first. Asked for
    # one seat's bid alone (its owner proves what it shows), it answers for that bid.
    if state.phase != "bid" or not actions.keys() <= _ALL_SEATS[state.n_players] or not all(
            _from_hand(state.hands[seat], bid) for seat, bid in actions.items()):
        return frozenset()
    return frozenset(c for bid in actions.values() for c in bid.left + bid.right if is_token(c))


def _from_hand(hand: tuple[str, ...], bid: object) -> bool:
    """True if `bid` names money cards of `hand`, each once: what can be checked of a bid
    before its faces are known (the rules check the rest once they are)."""
    if type(bid) is not Bid or type(bid.left) is not tuple or type(bid.right) is not tuple:
        return False
    cards = bid.left + bid.right
    return (all(type(c) is str and c in hand and KIND.get(c) != "bluff" for c in cards)
            and len(set(cards)) == len(cards))
