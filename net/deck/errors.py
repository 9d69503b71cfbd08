"""What can go wrong in the deck protocol, each with a stable code like net/errors.py.

`Cheat` names the seat at fault: the message that proves it came signed by that seat, so
every peer that checks the same message reaches the same verdict. The others are not anyone's
fault yet (a message too early, for another deck) or need the audit to name someone.
"""

from __future__ import annotations


class DeckError(ValueError):
    """Base of every deck protocol error; `code` is stable, `reason` is for a person."""

    code = "deck_error"

    def __init__(self, reason: str, code: str | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        if code is not None:
            self.code = code

    def __str__(self) -> str:
        return self.reason


class NotNow(DeckError):
    """A message out of turn, repeated, or for another deck: dropped, nobody accused."""

    code = "not_now"


class UnknownCard(DeckError):
    """Every key passed its commitment but the point is no card: a lock pass used other keys
    than it committed to. Which seat did is named by the audit."""

    code = "unknown_card"


class Cheat(DeckError):
    """A signed message that breaks the protocol: `seat` is at fault."""

    code = "cheat"

    def __init__(self, seat: int, code: str, reason: str) -> None:
        super().__init__(f"seat {seat}: {reason}", code)
        self.seat = seat
