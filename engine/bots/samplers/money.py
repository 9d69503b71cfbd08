"""Money!: the other hands and the deck, re-dealt from the cards the view does not show.

Public: the market, the bids of this round (their cards while they wait), hand sizes, the
deck's size. Every other card of the game is in another hand (beside its owner's bluff card)
or in the deck, dealt at random. The round logs are rebuilt from the view's bids, so the bids'
statuses and outcomes read the same; the cards a swap took, which only the log's wording
names, are not tracked (the view keeps them only as text).
"""

from __future__ import annotations

from collections import Counter

from ...core import Game, Stream
from ...money.cards import BLUFFS, CURRENCIES, SIDE_NAMES, money_cards
from ...money.state import BidView, MoneySetup, MoneyState, MoneyView, PendingBid
from . import fresh_rng

_WAITING = ("acting", "next", "pending")


def _pending(bid: BidView) -> PendingBid:
    return PendingBid(bid.owner, bid.slot, bid.cards)


def _round_log(view: MoneyView, bids: tuple[BidView, ...], round_no: int) -> tuple:
    """A round's log as the rules keep it, from its bids as the view shows them."""
    placed = tuple(_pending(b) for b in bids if b.status != "withdrawn")
    withdrawn = tuple(b.owner for b in bids if b.status == "withdrawn")
    log: list[tuple] = [("reveal", round_no, view.final_round, placed, withdrawn)]
    for bid in bids:
        if bid.status != "resolved":
            continue
        if bid.target is not None:
            log.append(("swap", _pending(bid), PendingBid(*bid.target, ())))
        elif bid.outcome.startswith("swapped with side"):
            side = SIDE_NAMES.index(bid.outcome.rsplit(" ", 1)[1])
            log.append(("market", _pending(bid), side, ()))
        else:
            log.append(("keep", _pending(bid)))
    return tuple(log)


def sample(game: Game, view: MoneyView, rng: Stream) -> MoneyState:
    n, me = view.n_players, view.seat
    waiting = tuple(b for b in view.bids if b.status in _WAITING)
    shown = Counter(view.hand or ()) + Counter(c for side in view.market for c in side) + Counter(
        c for bid in waiting for c in bid.cards)
    kept = tuple(c for c in CURRENCIES if c not in view.removed)
    pool = rng.shuffle(sorted((Counter(money_cards(view.edition, kept)) - shown).elements()))
    hands = []
    for seat in range(n):
        if seat == me:
            hands.append(view.hand)
            continue
        size = view.hand_sizes[seat] - 1  # its bluff card is always in its hand
        hands.append(tuple(pool[:size]) + (BLUFFS[seat],))
        del pool[:size]
    turns = view.phase == "turns"
    history = _round_log(view, view.bids, view.round_no) if turns else ()
    last = _round_log(view, view.last_round, view.round_no - 1) if view.last_round else ()
    return MoneyState(
        setup=MoneySetup(n, view.edition, view.removed, BLUFFS[n:], fresh_rng(rng)),
        hands=tuple(hands), market=view.market, deck=tuple(pool[: view.deck_size]),
        phase=view.phase, round_no=view.round_no, final_round=view.final_round,
        pending=tuple(map(_pending, waiting)), history=history, last_history=last,
        unseen=tuple(c for s, hand in enumerate(hands) if s != me for c in hand[:-1]),
    )
