"""Public log events: what every seat saw happen in one step, as data the screen words.

A game's `events(before, actions, after)` turns one applied step into Events. They hold only
what the whole table saw (a card drawn face up, the cards a swap took, a bag opened by an
inspection), never a card some seat may not see at that moment: the log is shown to
everyone. Cards are ids from the game's card data; seats are seat numbers; the screen turns
both into names, so the engine never words a player's name.
"""

from __future__ import annotations

from dataclasses import dataclass

from .plain import plain


@plain("core.Event")
@dataclass(frozen=True, slots=True)
class Event:
    """One thing the table saw.

    seat: who did it (None: the rules themselves, e.g. a refill or the end of a round).
    kind: the game's word for it ("draw", "swap_market", ...); each game lists its kinds.
    cards: card ids shown (taken, drawn, built); `other`: a second group (given away, paid).
    target: another seat it concerns; amounts: small numbers (coins, a bid's value, a pile).
    text: free words with no structure: a player's own promise, or a game's `describe`
    line where it has no events of its own (those may say "seat N").
    """

    seat: int | None
    kind: str
    cards: tuple[str, ...] = ()
    other: tuple[str, ...] = ()
    target: int | None = None
    amounts: tuple[int, ...] = ()
    text: str = ""


DESCRIBED = "described"
"""The kind of the default events: one per acting seat, worded by `Game.describe`."""
