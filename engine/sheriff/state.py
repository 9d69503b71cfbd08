"""Sheriff of Nottingham: state, actions and views (plain frozen data).

State multisets are count vectors indexed like `cards.GOODS`; piles and the draw pile are
tuples of good ids (a draw pile's first element is its top; a discard pile is stored bottom
to top, so its last element is the top). Actions and views name cards by good id.

A dealt game (the network's deal, engine/sheriff/dealt.py) names each physical card apart
(`good#k`, or a token while nobody at this peer has seen it): its hands, bags, stands,
set-aside and confiscated cards are tuples of cards, `hand_known` / `stand_known` list the
identified cards, and its actions and views name cards by card id (claims and declarations
stay good ids: they are words, not cards).
"""

from __future__ import annotations

from dataclasses import dataclass, fields

from ..core import Rng, fast_maker, plain

Counts = tuple[int, ...]
Zone = Counts | tuple[str, ...]
"""A card zone: a plain game counts its goods (`Counts`); a dealt game lists its cards."""
Condition = tuple[str, int]  # ("inspect", seat) or ("pass", seat)
OPPOSITE = {"inspect": "pass", "pass": "inspect"}
"""Each kind of condition an offer may name (§5.4.1) and the one it contradicts."""

MARKET, LOAD, DECLARE, INSPECT, OVER = "market", "load", "declare", "inspect", "over"
# steps inside MARKET and INSPECT
ASIDE, DRAW, DISCARD = "set_aside", "draw", "discard"
CHOOSE, OFFER, ANSWER, CONFISCATE, PAY = "choose", "offer", "answer", "confiscate", "pay"
UNPACK = "unpack"  # a dealt game only: the merchant turns a passed bag's legal goods face up

PROMISE_MAX = 200
"""Longest free text (promise or demand) an action may carry, in characters."""


# ---- actions ----------------------------------------------------------------------------
@plain("sheriff.SetAside")
@dataclass(frozen=True, slots=True)
class SetAside:
    """Market step 1: 0-5 cards from hand, face down; listed in card order (apple, cheese...)."""

    cards: tuple[str, ...]

    def __str__(self) -> str:
        return f"set aside {len(self.cards)} card(s)" if self.cards else "keep the hand"


@plain("sheriff.DrawDiscard")
@dataclass(frozen=True, slots=True)
class DrawDiscard:
    pile: int  # 1 or 2

    def __str__(self) -> str:
        return f"draw from discard pile {self.pile}"


@plain("sheriff.DrawDeck")
@dataclass(frozen=True, slots=True)
class DrawDeck:
    def __str__(self) -> str:
        return "draw from the draw pile"


@plain("sheriff.Discard")
@dataclass(frozen=True, slots=True)
class Discard:
    """Market step 3: the set-aside cards onto one pile; `order[-1]` ends on top."""

    pile: int
    order: tuple[str, ...]

    def __str__(self) -> str:
        return f"discard {', '.join(self.order)} onto pile {self.pile}"


@plain("sheriff.Load")
@dataclass(frozen=True, slots=True)
class Load:
    cards: tuple[str, ...]

    def __str__(self) -> str:
        return f"load {len(self.cards)} card(s) into the bag"


@plain("sheriff.Unpack")
@dataclass(frozen=True, slots=True)
class Unpack:
    """A dealt game (engine/sheriff/dealt.py): the merchant empties a bag the Sheriff let
    through or dealt for. `delivered`: the claimed goods really in the bag, handed to the
    Sheriff; `face_up`: the legal goods of the rest, turned face up on the stand. Only the
    merchant knows which of its face-down cards these are, so it names them."""

    delivered: tuple[str, ...] = ()
    face_up: tuple[str, ...] = ()

    def __str__(self) -> str:
        parts = [f"hand over {', '.join(self.delivered)}"] if self.delivered else []
        if self.face_up:
            parts.append(f"show {', '.join(self.face_up)}")
        return "unpack the bag" + (": " + "; ".join(parts) if parts else "")


@plain("sheriff.Declare")
@dataclass(frozen=True, slots=True)
class Declare:
    good: str

    def __str__(self) -> str:
        return f"declare {self.good}"


@plain("sheriff.Choose")
@dataclass(frozen=True, slots=True)
class Choose:
    seat: int

    def __str__(self) -> str:
        return f"deal with seat {self.seat}"


@plain("sheriff.Offer")
@dataclass(frozen=True, slots=True)
class Offer:
    """A merchant's offer (§5.4.1); goods lists in card order, conditions sorted by seat."""

    gold: int = 0
    stand_goods: tuple[str, ...] = ()
    bag_goods: tuple[str, ...] = ()
    promise: str = ""
    conditions: tuple[Condition, ...] = ()

    def __str__(self) -> str:
        parts = []
        if self.gold:
            parts.append(f"{self.gold} gold")
        if self.stand_goods:
            parts.append("from my stand " + ", ".join(self.stand_goods))
        if self.bag_goods:
            parts.append("from my bag " + ", ".join(self.bag_goods))
        parts.extend(f"you {kind} seat {seat}" for kind, seat in self.conditions)
        if self.promise:
            parts.append(f'"{self.promise}"')
        return "offer " + "; ".join(parts)


@plain("sheriff.NoOffer")
@dataclass(frozen=True, slots=True)
class NoOffer:
    def __str__(self) -> str:
        return "make no new offer"


@plain("sheriff.Demand")
@dataclass(frozen=True, slots=True)
class Demand:
    text: str = ""

    def __str__(self) -> str:
        return f'demand "{self.text}"' if self.text else "demand more"


@plain("sheriff.Accept")
@dataclass(frozen=True, slots=True)
class Accept:
    def __str__(self) -> str:
        return "accept the offer"


@plain("sheriff.Pass")
@dataclass(frozen=True, slots=True)
class Pass:
    def __str__(self) -> str:
        return "let the bag pass"


@plain("sheriff.Inspect")
@dataclass(frozen=True, slots=True)
class Inspect:
    def __str__(self) -> str:
        return "inspect the bag"


@plain("sheriff.Confiscate")
@dataclass(frozen=True, slots=True)
class Confiscate:
    pile: int
    order: tuple[str, ...]

    def __str__(self) -> str:
        return f"confiscate {', '.join(self.order)} onto pile {self.pile}"


@plain("sheriff.PayGoods")
@dataclass(frozen=True, slots=True)
class PayGoods:
    """Goods handed over for a debt, in the fixed order of §5.8."""

    cards: tuple[str, ...]

    def __str__(self) -> str:
        return f"pay with {', '.join(self.cards)}"


ACTIONS = (SetAside, DrawDiscard, DrawDeck, Discard, Load, Unpack, Declare, Choose, Offer, NoOffer, Demand, Accept, Pass, Inspect, Confiscate, PayGoods)
"""Every Sheriff action type (`Game.action_types`)."""


# ---- state ------------------------------------------------------------------------------
@plain("sheriff.TableRng")
@dataclass(frozen=True, slots=True)
class TableRng:
    """The game RNG of a dealt game once the table rebuilt a draw pile (§5.7) or a hand was
    dealt anew (§6), or will be in a replay (engine/sheriff/dealt.py). Over the network the table shuffles a rebuilt draw pile
    as a new deck, `rebuild<k>`, and asks which cards it holds (`Game.deck_cards`): they were
    face up on the discard piles, and `rebuilt` keeps them (a deck label is short on the
    wire). A game replayed from its log stacks the table's orders (`stacked`); any other
    shuffle draws from `rng` as in plain play."""

    rng: Rng
    stacked: tuple[tuple[str, tuple[str, ...]], ...]  # (deck label, order top first), by label
    rebuilt: tuple[str, ...]  # the cards of the last rebuilt draw pile, in the order taken
    rebuilds: int  # draw piles rebuilt so far: the last one is deck `rebuild<rebuilds>`
    # hands their owners dealt anew as this round's bags are loaded (§6): (deck label, the
    # seat, the cards it held), so the table knows what each of those decks holds
    redealt: tuple[tuple[str, int, tuple[str, ...]], ...] = ()


@plain("sheriff.Debt")
@dataclass(frozen=True, slots=True)
class Debt:
    payer: int
    creditor: int
    amount: int  # what is still owed after the automatic gold payment


@plain("sheriff.State")
@dataclass(frozen=True)  # no slots on purpose: a step edits a draft dict that becomes the state
class State:
    n_players: int
    royal: bool
    rng: Rng | TableRng  # a TableRng in a dealt game that rebuilt a draw pile or stacks one
    phase: str
    step: str
    round: int
    sheriff: int
    turn: int  # the one seat acting in a sequential step (-1 in LOAD and OVER)
    gold: tuple[int, ...]
    hands: tuple[Zone, ...]
    hand_known: tuple[Zone, ...]  # per hand: cards identified to everyone (§6)
    aside: Zone  # the market merchant's set-aside cards
    drew_deck: bool  # the market merchant has drawn from the draw pile this turn
    bags: tuple[Zone, ...]
    declared: tuple[str, ...]  # "" when no declaration
    stands: tuple[Zone, ...]
    stand_known: tuple[Zone, ...]  # per stand: face-down cards identified to everyone
    draw_pile: tuple[str, ...]
    piles: tuple[tuple[str, ...], tuple[str, ...]]  # bottom to top
    pending: tuple[int, ...]
    conditions: tuple[Condition, ...]  # accepted this round, sorted by seat
    merchant: int  # the merchant being dealt with (-1 none)
    exchange: int  # 1..3 during a negotiation
    offer: Offer | None  # the standing offer
    talk: tuple[tuple[int, object], ...]  # (seat, action) of the last/current negotiation
    confiscated: Zone  # waiting for the Sheriff's confiscate
    debt: Debt | None
    outcomes: tuple[str, ...]  # this round per seat: "", "passed", "deal", "inspected"
    revealed: tuple[tuple[str, ...], ...]  # bags opened by inspection this round
    # always zeros: a bag once loaded "sealed" over the network kept its size here. The field
    # stays because it is part of every state's canonical encoding, so of the state hashes that
    # golden playthroughs (tests/vectors/golden.json) and logs pin.
    sealed: tuple[int, ...]
    held: str  # UNPACK step of a dealt game: the Sheriff's decision being carried out ("pass", "deal")


STATE_FIELDS: tuple[str, ...] = tuple(f.name for f in fields(State))
new_state = fast_maker(State)
draft = new_state.draft
"""A mutable copy of a state's fields for one transition (engine.core.plain.fast_maker)."""
build = new_state.build
"""The State of a draft, without the generated __init__'s per-field frozen assignments: the
draft itself becomes the new State's __dict__ (this was the largest single cost of a step,
bench/sheriff_speed.py). The draft belongs to the State from then on: never edit it again."""


# ---- views ------------------------------------------------------------------------------
@plain("sheriff.Inspection")
@dataclass(frozen=True, slots=True)
class Inspection:
    """What opening a bag does (§5.5-5.8): the declared goods stay with the merchant, every
    other good is confiscated; an honest merchant is paid the fines of the whole bag by the
    Sheriff, a liar pays the fines of the confiscated goods."""

    declared: str
    kept: tuple[str, ...]  # to the merchant's stand
    confiscated: tuple[str, ...]  # to the Sheriff, who puts them on a discard pile
    fine: int  # honest: the Sheriff pays it to the merchant; otherwise the merchant to the Sheriff

    @property
    def honest(self) -> bool:
        return not self.confiscated


@plain("sheriff.Consequences")
@dataclass(frozen=True, slots=True)
class Consequences:
    """What the viewing seat's choices and the open question lead to, worked out by the engine
    (engine/sheriff/view.py) so that a screen or a bot reads them instead of the rules."""

    declarations: tuple[Inspection, ...]
    """Declare step, the declaring merchant: per legal good (LEGAL order), what an inspection
    of its bag would do after declaring that good."""
    if_opened: Inspection | None
    """The viewing merchant's own declared bag: what an inspection would do now."""
    honest_fine: int
    """The bag being dealt with: what the Sheriff pays if it holds only the declared good (its
    size and declaration are public), 0 when no bag is being dealt with."""
    confiscation_fine: int
    """Confiscate step: the fines the merchant owes for the goods confiscated."""


@plain("sheriff.SeatView")
@dataclass(frozen=True, slots=True)
class SeatView:
    """One player as the viewing seat sees them. Unknown cards are HIDDEN ("?")."""

    seat: int
    gold: int
    hand: tuple[str, ...]  # own hand in full; others: identified cards, then "?" per card
    set_aside: tuple[str, ...]  # market: own cards, others "?" per card
    bag: tuple[str, ...]  # own bag; others "?" per card (the size is public once loaded)
    declared: str  # "" = none this round
    stand_up: tuple[str, ...]  # legal goods, face up
    stand_down: tuple[str, ...]  # contraband/royal: own (or at game end) in full, else known + "?"
    outcome: str  # this round: "", "passed", "deal", "inspected"
    revealed: tuple[str, ...]  # the bag's content shown at an inspection this round
    inspection: Inspection | None  # what the inspection of that bag did (None: not opened)


@plain("sheriff.View")
@dataclass(frozen=True, slots=True)
class View:
    seat: int | None
    n_players: int
    royal_goods: bool
    round: int  # 0-based
    rounds: int
    sheriff: int
    phase: str
    step: str
    active: tuple[int, ...]
    players: tuple[SeatView, ...]
    draw_size: int
    piles: tuple[tuple[str, ...], tuple[str, ...]]  # TOP card first
    drew_deck: bool
    pending: tuple[int, ...]
    conditions: tuple[Condition, ...]
    merchant: int
    exchange: int
    offer: Offer | None
    talk: tuple[tuple[int, object], ...]
    confiscated: tuple[str, ...]
    debt: Debt | None
    consequences: Consequences | None  # for a seat (None for a spectator)
