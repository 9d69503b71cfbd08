"""What the deck protocol (dealing.py) tells the step machine (steps.py) it must do next, and
how the steps act on it.

The deck protocol is a service the steps ask: `Dealing`'s methods return the outputs for the
shell together with these events, in the order they arose, and never call into the steps.
`DeckAnswers.deck` (a part of `Steps`) acts on each event where it stands in the list, so
outputs keep their order, and hands the shell plain outputs only. No event leaves the
lockstep package.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .outputs import Keep, Note, Output, Publish, Secret


@dataclass(frozen=True)
class Dealt:
    """Every deck being dealt is ready: the game starts, or goes on after a reshuffle."""


@dataclass(frozen=True)
class Revealed:
    """A show (`deck_show`) or an open before a step (`deck_open`) is complete."""

    kind: str
    faces: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Release:
    """Messages held for `step` may be routed now (a deal or a reveal began that they are
    part of); `then_wait`: tell the screen who is awaited once they are."""

    step: int
    then_wait: bool = False


@dataclass(frozen=True)
class Broken:
    """A seat proved a card of its own opens to no card, at `step`: the table goes back to
    that step if it went on, then the deal is broken for all (`Dealing.break_deal`)."""

    step: int
    why: str


@dataclass(frozen=True)
class Convict:
    """A deck message signed by `seat` proves it cheated (`Proofs.convict`)."""

    seat: int
    what: str
    raw: bytes
    step: int


@dataclass(frozen=True)
class Verified:
    """The audit verified the deal: the log gets the decks as dealt (`Steps.complete_log`)."""

    orders: dict[str, tuple[Any, ...]]


@dataclass(frozen=True)
class KeysIn:
    """Every key asked for in clear has come: the table goes on where it waited."""


DeckEvent = Dealt | Revealed | Release | Broken | Convict | Verified | KeysIn
Reply = Output | DeckEvent  # what a method of the deck protocol replies with, in order


class DeckAnswers:
    """Methods of `Steps` (it inherits them): what the steps do with the deck's events."""

    def deck(self, replies: list[Reply]) -> list[Output]:
        """What the deck protocol answered, with each event among them acted on where it stands
        (outputs keep their order): the shell gets outputs only."""
        out: list[Output] = []
        for item in replies:
            if isinstance(item, Publish | Keep | Secret | Note):
                out.append(item)
            else:
                out += self.deck(self._on_deck_event(item))
        return out

    def _on_deck_event(self, event: Any) -> list[Reply]:
        ctx = self.ctx
        if isinstance(event, Release):  # held messages of this deal or reveal: their turn now
            out: list[Reply] = []
            for env in self.buffer.release(event.step):
                out += self.route(env)
            return (out + ctx.waiting()) if event.then_wait else out
        if isinstance(event, Dealt):
            return self.dealt()
        if isinstance(event, Revealed):
            return self.revealed(event.kind, event.faces)
        if isinstance(event, KeysIn):
            return self.after_step()
        if isinstance(event, Convict):
            return self.proofs.convict(event.seat, event.what, event.raw, event.step)
        if isinstance(event, Verified):
            self.complete_log(event.orders)
            return []
        if isinstance(event, Broken):  # we went on while its peer stopped: back to that step
            self.rewind(event.step)
            return self.dealing.break_deal(event.why)
        raise TypeError(f"not a deck event: {event!r}")
