"""Sheriff of Nottingham's public log events. Cards are good ids (the screen shows names).

Nothing loaded into a bag is named until an inspection opens it (`State.revealed`); a card
drawn from the draw pile or set aside stays unnamed; discards and confiscations are face up.
Kinds (seat = who acted):

- "set_aside": amounts = (cards,); "draw_deck"; "draw_discard": cards = the card, amounts = (pile,)
- "discard" / "confiscate": cards = the goods, top last; amounts = (pile,)
- "load": amounts = (cards in the bag,)
- "declare": cards = (the good declared,), amounts = (cards in the bag,)
- "choose" / "pass" / "inspect": target = the merchant
- "offer": target = the Sheriff; amounts = (gold,); cards = goods from the stand; other =
  goods from the bag; text = the promise; then one "promise_inspect"/"promise_pass" per
  condition, target = the seat the Sheriff promises to inspect / let pass
- "no_offer", "accept", "demand" (text = what the Sheriff asks)
- "bag_opened": seat = the merchant, cards = the bag's goods, other = (the good declared,)
- "pay_goods": cards = goods handed over, target = the creditor
- "deal_goods": the goods an accepted offer handed over (stand, then bag as far as it held
  them), target = the Sheriff
- "gold": seat paid amounts[0] gold to target (or, with no target, gained amounts[0], < 0 = lost)
- "round" (table): amounts = (round number, 1-based), target = the new Sheriff; "over" (table)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..core import Event
from .cards import GOOD_OF, GOODS, IDX, NG, counts_of, ids_of
from .counted import Counted
from .dealt import Carded, _sorted, in_goods
from .state import (
    OVER,
    Accept,
    Choose,
    Confiscate,
    Declare,
    Demand,
    Discard,
    DrawDeck,
    DrawDiscard,
    Inspect,
    Load,
    NoOffer,
    Offer,
    Pass,
    PayGoods,
    SetAside,
    State,
    Unpack,
)

SPOKEN = frozenset({"declare", "offer"})
"""Kinds whose cards are a player's words (a claim, an offer), not cards shown to the table."""


def sheriff_events(before: State, actions: Mapping[int, Any], after: State) -> tuple[Event, ...]:
    """The step's public events, for a plain game and a dealt one alike: cards named by good
    (a dealt game's card ids read as goods, `Carded.in_goods`)."""
    z = Carded if len(before.aside) != NG else Counted
    out: list[Event] = []
    for seat in sorted(actions):
        out.extend(_action_events(before, seat, actions[seat], z))
    out.extend(_revealed(before, actions, z))
    if not z.UNPACKS:  # a dealt game's deal hands its goods over at the unpack
        out.extend(_dealt(before, actions))
    return tuple(out + closing_events(before, after))


def closing_events(before: State, after: State) -> list[Event]:
    """What follows a step's own events: gold that changed hands, then the end of the game
    or a new round (a dealt game's log ends its steps the same way)."""
    out = _gold(before, after)
    if after.phase == OVER and before.phase != OVER:
        out.append(Event(None, "over"))
    elif after.round != before.round:
        out.append(Event(None, "round", amounts=(after.round + 1,), target=after.sheriff))
    return out


def _action_events(before: State, seat: int, a: Any, z: Any) -> list[Event]:
    kind = type(a)
    if kind is Unpack:
        return _unpacked(before, seat, a)
    if kind is not SetAside and kind is not Load:  # (face down: only how many)
        a = z.in_goods(a)
    return _named_events(before, seat, a, z)


def _named_events(before: State, seat: int, a: Any, z: Any) -> list[Event]:
    kind = type(a)
    if kind is SetAside:
        return [Event(seat, "set_aside", amounts=(len(a.cards),))]
    if kind is DrawDeck:
        return [Event(seat, "draw_deck")]
    if kind is DrawDiscard:
        top = before.piles[a.pile - 1][-1]
        return [Event(seat, "draw_discard", (GOODS[GOOD_OF[top]],), amounts=(a.pile,))]
    if kind is Discard or kind is Confiscate:
        word = "discard" if kind is Discard else "confiscate"
        return [Event(seat, word, a.order, amounts=(a.pile,))]
    if kind is Load:  # the cards stay in the bag: only how many
        return [Event(seat, "load", amounts=(len(a.cards),))]
    if kind is Declare:
        return [Event(seat, "declare", (a.good,), amounts=(z.size(before.bags[seat]),))]
    if kind is Choose:
        return [Event(seat, "choose", target=a.seat)]
    if kind is Offer:
        out = [Event(seat, "offer", a.stand_goods, a.bag_goods, before.sheriff, (a.gold,), a.promise)]
        out += [Event(seat, f"promise_{what}", target=other) for what, other in a.conditions]
        return out
    if kind is NoOffer:
        return [Event(seat, "no_offer")]
    if kind is Demand:
        return [Event(seat, "demand", text=a.text)]
    if kind is Accept:
        return [Event(seat, "accept", target=before.merchant)]
    if kind is Pass or kind is Inspect:
        return [Event(seat, "pass" if kind is Pass else "inspect", target=before.merchant)]
    if kind is PayGoods:
        debt = before.debt
        return [Event(seat, "pay_goods", a.cards, target=debt.creditor if debt is not None else None)]
    return [Event(seat, "described", text=str(a))]


def _unpacked(before: State, seat: int, a: Unpack) -> list[Event]:
    """A dealt game's deal: its goods change hands at the unpack, where the merchant names them."""
    offer = before.offer
    if before.held != "deal" or offer is None:
        return []
    cards = in_goods(_sorted(offer.stand_goods) + _sorted(a.delivered))
    return [Event(seat, "deal_goods", cards, target=before.sheriff)] if cards else []


def _revealed(before: State, actions: Mapping[int, Any], z: Any) -> list[Event]:
    """The bag an inspection opened in this step (every seat saw its goods).

    Read from the step itself, not from `State.revealed`: an inspection that ends the round
    is cleared from the state by the same step.
    """
    if before.turn not in actions:
        return []
    a = actions[before.turn]
    kind = type(a)
    m = a.seat if kind is Choose else before.merchant
    if not (kind is Inspect or kind is Choose and ("inspect", m) in before.conditions):
        return []
    cards = z.opened(before.bags[m])
    if cards is None:
        return []
    declared = before.declared[m]
    return [Event(m, "bag_opened", cards, (declared,) if declared else ())]


def _dealt(before: State, actions: Mapping[int, Any]) -> list[Event]:
    """Goods an accepted offer handed to the Sheriff (from the bag: as far as it held them)."""
    if before.turn not in actions or before.offer is None:
        return []
    a = actions[before.turn]
    m = before.merchant
    if type(a) is not Accept:
        return []
    bag = before.bags[m]
    offer = before.offer
    delivered = tuple(min(c, b) for c, b in zip(counts_of(offer.bag_goods), bag, strict=True))
    cards = tuple(sorted(offer.stand_goods, key=IDX.__getitem__)) + ids_of(delivered)
    return [Event(m, "deal_goods", cards, target=before.sheriff)] if cards else []


def _gold(before: State, after: State) -> list[Event]:
    """Gold that changed hands: payer -> taker when one seat paid one other, else per seat."""
    deltas = [(seat, a - b) for seat, (b, a) in enumerate(zip(before.gold, after.gold, strict=True)) if a != b]
    if len(deltas) == 2 and deltas[0][1] == -deltas[1][1]:
        (s0, d0), (s1, _) = deltas
        payer, taker = (s0, s1) if d0 < 0 else (s1, s0)
        return [Event(payer, "gold", target=taker, amounts=(abs(d0),))]
    return [Event(seat, "gold", amounts=(delta,)) for seat, delta in deltas]
