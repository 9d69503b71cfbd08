"""Every pass with every seat in one process: for tests, benchmarks and local tools."""

from __future__ import annotations

from collections.abc import Sequence

from .seat import DeckSeat
from .table import DeckTable


def deal(table: DeckTable, seats: Sequence[DeckSeat]) -> DeckTable:
    """The table after every seat's pool pass (a deck with a pool), shuffle pass, then lock
    pass, in seat order. (An owned deck is dealt by its owner with the faces it holds:
    `DeckSeat.own`, then the locks.)"""
    if table.spec.owner is not None:
        raise ValueError("an owned deck is dealt by its owner (DeckSeat.own), not by deal()")
    if table.spec.pool:
        for seat in seats:
            table = table.accept_mask(seat.seat, seat.mask(table))
    for seat in seats:
        table = table.accept_shuffle(seat.seat, seat.shuffle(table))
    for seat in seats:
        table = table.accept_lock(seat.seat, seat.lock(table))
    return table
