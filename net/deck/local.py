"""Both passes with every seat in one process: for tests, benchmarks and local tools."""

from __future__ import annotations

from collections.abc import Sequence

from .seat import DeckSeat
from .table import DeckTable


def deal(table: DeckTable, seats: Sequence[DeckSeat]) -> DeckTable:
    """The table after every seat's shuffle pass, then every seat's lock pass, in seat order."""
    for seat in seats:
        table = table.accept_shuffle(seat.seat, seat.shuffle(table))
    for seat in seats:
        table = table.accept_lock(seat.seat, seat.lock(table))
    return table
