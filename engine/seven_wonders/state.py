"""7 Wonders state, actions and view: frozen plain data (tuples of ids and ints)."""

from __future__ import annotations

from dataclasses import dataclass

from ..core import Rng, plain
from .cards import CARD_RANK, GUILDS, MAX_PLAYERS, MIN_PLAYERS, guild_count

PICK = "pick"
BABYLON = "babylon"  # BABYLON_LAST: Babylon B plays its kept 6th-turn card
HALIKARNASSOS = "halikarnassos"  # build one card of the discard pile for free
OVER = "over"

BUILD = "build"
BUILD_FREE = "build_free"  # Olympia A, once per Age
STAGE = "stage"
DISCARD = "discard"
PICK_KINDS = (BUILD, BUILD_FREE, STAGE, DISCARD)


# ---- actions ---------------------------------------------------------------------------------
@plain("seven_wonders.Pick")
@dataclass(frozen=True, slots=True)
class Pick:
    """Play `card` from hand: build it, build it free (Olympia A), tuck it for a stage, or sell it.

    pay_left / pay_right: coins to the left (seat + 1) and right (seat - 1) neighbour.
    """

    card: str
    kind: str
    pay_left: int = 0
    pay_right: int = 0

    def __str__(self) -> str:
        pay = f" paying {self.pay_left} left, {self.pay_right} right" if self.pay_left or self.pay_right else ""
        return f"{self.kind} {self.card}{pay}"


@plain("seven_wonders.BuildFromDiscard")
@dataclass(frozen=True, slots=True)
class BuildFromDiscard:
    """Halikarnassos: build this card of the discard pile for free."""

    card: str

    def __str__(self) -> str:
        return f"build {self.card} from the discard pile"


@plain("seven_wonders.Decline")
@dataclass(frozen=True, slots=True)
class Decline:
    """Halikarnassos: build nothing from the discard pile."""

    def __str__(self) -> str:
        return "decline"


ACTIONS = (Pick, BuildFromDiscard, Decline)
"""Every 7 Wonders action type (`Game.action_types`)."""


# ---- state -----------------------------------------------------------------------------------
@plain("seven_wonders.Move")
@dataclass(frozen=True, slots=True)
class Move:
    """One revealed play of the current or last turn (the card of a stage/discard is secret)."""

    seat: int
    kind: str  # build | build_free | stage | discard | from_discard | decline
    card: str
    pay_left: int = 0
    pay_right: int = 0


@plain("seven_wonders.BabylonTurn")
@dataclass(frozen=True, slots=True)
class BabylonTurn:
    """Babylon B's kept 6th-turn card and the limits it is played under (§5.7)."""

    seat: int
    card: str
    budget: int  # coins at the start of the turn minus what the first card spent
    start_stages: int  # the city at the start of the turn: its discounts apply
    start_cards: int


@plain("seven_wonders.Conflict")
@dataclass(frozen=True, slots=True)
class Conflict:
    """The military conflicts at the end of one Age (§7), as every seat saw them.

    `results[seat]` is (against the left neighbour seat + 1, against the right neighbour
    seat - 1): the token the seat took, 0 for a tie (no token)."""

    age: int
    shields: tuple[int, ...]  # per seat, at the end of the Age
    results: tuple[tuple[int, int], ...]


@plain("seven_wonders.State")
@dataclass(frozen=True, slots=True)
class State:
    n_players: int
    wonders: tuple[str, ...]
    sides: tuple[str, ...]
    age: int
    turn: int
    phase: str
    hands: tuple[tuple[str, ...], ...]  # sorted ids (dealt face down: tokens in deal order)
    cities: tuple[tuple[str, ...], ...]  # built structures, in build order
    stages: tuple[int, ...]
    tucked: tuple[tuple[str, ...], ...]  # cards under each board, in stage order
    coins: tuple[int, ...]
    tokens: tuple[tuple[int, ...], ...]  # conflict tokens per seat
    discard: tuple[tuple[int, str], ...]  # (seat who discarded, card), oldest first
    free_used: tuple[bool, ...]  # Olympia A's free build used this Age
    guilds: tuple[str, ...]  # guilds in play (secret until Age III is dealt); dealt: the guild deck
    stacked: tuple[tuple[str, ...] | None, ...]  # option deck for Ages I, II, III
    babylon: BabylonTurn | None
    halikarnassos: int  # seat to build from the discard pile after this turn, or -1
    moves: tuple[Move, ...]  # this turn's revealed plays
    rng: Rng
    conflicts: tuple[Conflict, ...]  # one per Age played, oldest first


def _in_rank_order(state: State) -> None:
    """A state built from plain data (`State(...)`, a decode, a card face written in over a
    token) keeps every hand whose faces are all known in rank order, as the rules keep it.

    Over the network a hand is dealt as tokens in deck order (nobody may sort cards they cannot
    see); once its faces are written in (the owner's knowledge, the dealer's truth) it is the
    sorted hand of the plain game. Likewise the guild deck written in whole (only the dealer
    knows the guilds left in the box) is the plain game's guilds in play, in rank order. A
    plain state is already in this form: nothing changes.
    """
    hands = state.hands
    if not all(map(_kept_as_is, hands)):
        fixed = tuple(h if _kept_as_is(h) else tuple(sorted(h, key=CARD_RANK.__getitem__)) for h in hands)
        object.__setattr__(state, "hands", fixed)
    guilds = state.guilds
    if (len(guilds) == len(GUILDS) and MIN_PLAYERS <= state.n_players <= MAX_PLAYERS
            and all(g in CARD_RANK for g in guilds)):
        kept = tuple(sorted(guilds[: guild_count(state.n_players)], key=CARD_RANK.__getitem__))
        object.__setattr__(state, "guilds", kept)


def _kept_as_is(hand: tuple[str, ...]) -> bool:
    """True for a hand in rank order, and for one holding a token or anything but a card id
    (a token keeps its place: nobody knows its face)."""
    ranks = [CARD_RANK.get(c) for c in hand]
    return None in ranks or ranks == sorted(ranks)


def _init_in_rank_order(init):
    def __init__(self: State, *args, **kwargs) -> None:
        init(self, *args, **kwargs)
        _in_rank_order(self)

    __init__.__doc__ = init.__doc__
    return __init__


# Not a __post_init__: `fast_maker` (every transition) builds a State without calling it, and
# refuses a class that has one; transitions keep hands as the rules make them anyway.
State.__init__ = _init_in_rank_order(State.__init__)  # type: ignore[method-assign]


# ---- view ------------------------------------------------------------------------------------
@plain("seven_wonders.Payment")
@dataclass(frozen=True, slots=True)
class Payment:
    pay_left: int
    pay_right: int


@plain("seven_wonders.CardOption")
@dataclass(frozen=True, slots=True)
class CardOption:
    """What a screen shows for one hand card: how it can be built and at what price.

    build: "free" (chain: no cost at all), "pay" (offered payments below), "owned" (a structure
    of that name is in the city), "too_expensive" (ways exist, none affordable), "impossible"
    (the resources cannot be had). `payments` are the offered (left, right) splits, cheapest
    first; `coin_cost` goes to the bank on top.
    """

    card: str
    build: str
    coin_cost: int
    payments: tuple[Payment, ...]
    chain: bool
    free_build: bool  # Olympia A may build it free now


@plain("seven_wonders.SeatScore")
@dataclass(frozen=True, slots=True)
class SeatScore:
    """End of game details for one seat: the categories, wildcard symbols, copied guild."""

    categories: tuple[tuple[str, int], ...]
    total: int
    coins: int
    wildcards: tuple[str, ...]  # symbol chosen for each science wildcard
    copied_guild: str | None  # Olympia B stage 3
    copied_from: int | None  # the seat of the neighbour who built it


@plain("seven_wonders.Production")
@dataclass(frozen=True, slots=True)
class Production:
    """What a city makes every turn and what its neighbours may buy from it (§6.6).

    Units per resource in the order of `cards.RESOURCES`; an either/or unit is a tuple of
    resource indices (one of them, each turn)."""

    makes: tuple[int, ...]
    makes_one_of: tuple[tuple[int, ...], ...]
    sells: tuple[int, ...]
    sells_one_of: tuple[tuple[int, ...], ...]
    shields: int
    science: tuple[int, ...] = (0, 0, 0)  # symbols in the order of `cards.SYMBOLS`
    science_wild: int = 0  # "any symbol" (Babylon, the Scientists Guild), chosen at the end


@plain("seven_wonders.View")
@dataclass(frozen=True, slots=True)
class View:
    seat: int | None
    n_players: int
    age: int
    turn: int
    phase: str
    active: tuple[int, ...]
    pass_left: bool  # this Age's hands go to the left neighbour (seat + 1)
    wonders: tuple[str, ...]
    sides: tuple[str, ...]
    cities: tuple[tuple[str, ...], ...]
    stages: tuple[int, ...]
    coins: tuple[int, ...]
    tokens: tuple[tuple[int, ...], ...]
    hand_sizes: tuple[int, ...]
    discard_count: int
    moves: tuple[Move, ...]  # this or the last turn's plays; hidden cards are "?"
    hand: tuple[str, ...]  # the viewer's hand (Babylon's kept card during its step)
    tucked: tuple[str, ...]  # the viewer's own cards under its board
    my_discards: tuple[str, ...]  # cards the viewer put on the pile that are still there
    discard_pile: tuple[str, ...]  # only Halikarnassos, during its step
    kept: str | None  # Babylon B's kept card (its owner only)
    budget: int  # coins the viewer may spend in this step
    discount_basis: tuple[int, int] | None  # Babylon's step: (stages, cards) whose discounts apply
    free_build: bool  # Olympia A's free build is available to the viewer now
    options: tuple[CardOption, ...]  # per distinct playable card, when the viewer must pick
    stage_payments: tuple[Payment, ...]  # offered payments for the next stage (or ())
    final: tuple[SeatScore, ...]  # when the game is over
    production: tuple[Production, ...]  # per seat
    conflicts: tuple[Conflict, ...]  # the Ages' conflicts so far, oldest first
