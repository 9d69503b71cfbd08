"""Stacked-deck tables for the Money! scenario tests."""

from __future__ import annotations

from collections.abc import Sequence

from engine.money import GAME, Bid
from engine.money.cards import CURRENCIES, money_cards


def stacked_deck(
    hands: Sequence[Sequence[str]],
    side1: Sequence[str],
    side2: Sequence[str],
    removed: Sequence[str] = ("krona",),
    edition: str = "gold_silver",
    top: Sequence[str] = (),
) -> list[str]:
    """The deck (top card first) that deals `hands` in seat order, then the two market sides,
    then `top`, then every other card of the currencies in play in serial order."""
    prefix = [c for hand in hands for c in hand] + list(side1) + list(side2) + list(top)
    in_play = tuple(c for c in CURRENCIES if c not in removed)
    rest = [c for c in money_cards(edition, in_play) if c not in prefix]
    return prefix + rest


def table(hands, side1, side2, removed=("krona",), edition="gold_silver", top=(), **options):
    deck = stacked_deck(hands, side1, side2, removed, edition, top)
    return GAME.setup(len(hands), b"test", {"edition": edition, "deck": deck, **options})


def all_bluff(n_players: int) -> dict[int, Bid]:
    return {seat: Bid(()) for seat in range(n_players)}
