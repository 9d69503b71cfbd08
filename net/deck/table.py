"""The public side of one deck: what every peer (and a spectator) holds and checks.

A `DeckTable` is an immutable value: the card encoding, the deck each seat published in each
pass, the commitments to the per-position keys. Accepting a message returns a new table or
raises; opening a position with keys returns the card's slot (its index in the setup list).
Bodies are the plain maps the seats publish; the sender's seat comes from the signed envelope,
never from the body.

A published point is checked by whoever multiplies it (libsodium refuses a point outside the
prime-order group): the next seat at once, a receiver when it opens a position, the audit for
all. Every peer checking every point of every deck would cost more than the passes.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from . import group
from .errors import Cheat, DeckError, NotNow, UnknownCard

Deck = tuple[bytes, ...]
MAX_SEATS = 64


@dataclass(frozen=True, slots=True)
class DeckSpec:
    """Which deck: the game id, a label per deck of the game ("age1"), its cards, the seats.

    A deck may also take `drawn` cards of a `pool` face down (7 Wonders: the Age III deck
    holds n + 2 of the ten guilds): no peer learns which pool cards went in, and a position
    holding one opens straight to that card. The pool is drawn by a pass before the shuffle
    (`DeckTable.accept_mask`).

    An **owned** deck (`owner` set) is `drawn` cards that one seat holds and deals anew face
    down (Sheriff: a hand with cards the table saw taken, before its bag is loaded): `cards`
    are every face its cards may have; the owner alone masks and orders them (`accept_own`),
    the table locks them, and the audit checks them against the cards the owner held."""

    gid: str
    label: str
    cards: tuple[Any, ...]
    seats: int
    pool: tuple[Any, ...] = ()
    drawn: int = 0
    owner: int | None = None

    def __post_init__(self) -> None:
        if not 2 <= self.seats <= MAX_SEATS:
            raise ValueError(f"a deck needs 2 to {MAX_SEATS} seats, not {self.seats}")
        if not self.cards and not self.drawn:
            raise ValueError(f"deck {self.label!r} has no cards")
        if self.owner is not None:
            if not 0 <= self.owner < self.seats or self.pool or not 1 <= self.drawn <= len(self.cards):
                raise ValueError(f"owned deck {self.label!r}: seat {self.owner} deals {self.drawn} cards")
        elif not 0 <= self.drawn <= len(self.pool) or bool(self.pool) != bool(self.drawn):
            raise ValueError(f"deck {self.label!r} draws {self.drawn} of a pool of {len(self.pool)}")

    @property
    def candidates(self) -> tuple[Any, ...]:
        """Every card a position may hold: the deck's own, then the pool's (the slots)."""
        return self.cards + self.pool

    @property
    def size(self) -> int:
        """Positions of the dealt deck."""
        return self.drawn if self.owner is not None else len(self.cards) + self.drawn


@dataclass(frozen=True)
class DeckTable:
    """Everything public about one deck, after the messages accepted so far."""

    spec: DeckSpec
    points: Deck  # every candidate card's point, in slot order
    # pass 0: a deck with a pool, each seat's masked candidates; an owned deck, its owner's deck
    masked: tuple[Deck, ...] = ()
    shuffled: tuple[Deck, ...] = ()  # pass 1: the deck each seat published, in seat order
    locked: tuple[Deck, ...] = ()  # pass 2: likewise
    commits: tuple[Deck, ...] = ()  # per seat of pass 2: k·B for each position
    lookup: Mapping[bytes, int] = field(default_factory=dict, compare=False, repr=False)

    @staticmethod
    def new(spec: DeckSpec, points: Deck | None = None) -> DeckTable:
        """A deck before its first pass. Its cards are encoded under its label, unless
        `points` gives them (an owned deck takes its faces' points from the decks they were
        dealt in: no new encoding to compute)."""
        if points is None:
            points = group.encode_deck(spec.gid, spec.label, spec.candidates)
        elif len(points) != len(spec.candidates) or len(set(points)) != len(points):
            raise ValueError(f"deck {spec.label!r} needs one distinct point per card")
        return DeckTable(spec, points, lookup={p: slot for slot, p in enumerate(points)})

    # -- where the protocol stands ------------------------------------------------------

    @property
    def phase(self) -> str:
        """"own" (an owned deck's one pass), "mask" (pass 0, a deck with a pool), "shuffle"
        (pass 1), "lock" (pass 2) or "ready" (positions can be revealed)."""
        n, owner = self.spec.seats, self.spec.owner
        if owner is not None and not self.masked:
            return "own"
        if self.spec.pool and len(self.masked) < n:
            return "mask"
        if owner is None and len(self.shuffled) < n:
            return "shuffle"
        return "lock" if len(self.locked) < n else "ready"

    @property
    def turn(self) -> int | None:
        """The seat whose pass is awaited; None once the deck is ready."""
        phase = self.phase
        if phase == "own":
            return self.spec.owner
        done = {"mask": self.masked, "shuffle": self.shuffled, "lock": self.locked}.get(phase)
        return None if done is None else len(done)

    @property
    def start(self) -> Deck:
        """The deck pass 1 starts from: the cards' points, or with a pool, the masked
        candidates without the pool cards left out (the last masker's first `size`); an owned
        deck's is its owner's pass (it has no pass 1)."""
        if self.spec.owner is not None:
            return self.masked[0] if self.masked else ()
        return self.masked[-1][: self.size] if self.spec.pool else self.points

    @property
    def before_lock(self) -> Deck:
        """The deck the first lock works on."""
        return self.shuffled[-1] if self.shuffled else self.start

    @property
    def current(self) -> Deck:
        """The deck the next pass works on (the final deck once ready)."""
        if self.locked:
            return self.locked[-1]
        if self.shuffled:
            return self.shuffled[-1]
        if self.phase in ("mask", "own"):
            return self.masked[-1] if self.masked else self.points
        return self.start

    @property
    def publisher(self) -> int | None:
        """The seat that published `current` (None while it is still the card encoding)."""
        if not self.locked and not self.shuffled and self.masked and self.spec.owner is not None:
            return self.spec.owner
        last = self.locked or self.shuffled or self.masked
        return len(last) - 1 if last else None

    @property
    def size(self) -> int:
        """Positions of the dealt deck."""
        return self.spec.size

    def card(self, slot: int) -> Any:
        return self.spec.candidates[slot]

    # -- the passes ---------------------------------------------------------------------

    def accept_mask(self, seat: int, body: Mapping[str, Any]) -> DeckTable:
        """Seat's pass-0 deck (a deck with a pool): every candidate masked, the pool permuted."""
        self._expect(seat, "mask", body)
        cards = self._deck(seat, body, "cards", len(self.points))
        return replace(self, masked=self.masked + (cards,))

    def accept_own(self, seat: int, body: Mapping[str, Any]) -> DeckTable:
        """An owned deck's one pass: its owner's cards, masked and in an order it alone knows."""
        self._expect(seat, "own", body)
        cards = self._deck(seat, body, "cards")
        return replace(self, masked=(cards,))

    def index(self, card: Any) -> int:
        """The slot of a card among the candidates (an owned deck's faces are distinct)."""
        return self.spec.candidates.index(card)

    def accept_shuffle(self, seat: int, body: Mapping[str, Any]) -> DeckTable:
        """Seat's pass-1 deck; checked at once: its turn, one distinct point per card."""
        self._expect(seat, "shuffle", body)
        cards = self._deck(seat, body, "cards")
        return replace(self, shuffled=self.shuffled + (cards,))

    def accept_lock(self, seat: int, body: Mapping[str, Any]) -> DeckTable:
        """Seat's pass-2 deck and its commitment to each position's key."""
        self._expect(seat, "lock", body)
        cards = self._deck(seat, body, "cards")
        commits = self._points(seat, body, "commits")
        return replace(self, locked=self.locked + (cards,), commits=self.commits + (commits,))

    def _expect(self, seat: int, phase: str, body: Mapping[str, Any]) -> None:
        if body.get("deck") != self.spec.label:
            raise NotNow(f"not a message for deck {self.spec.label!r}", "other_deck")
        if self.phase != phase or self.turn != seat:
            raise NotNow(f"seat {seat}'s {phase} pass is not awaited now", "out_of_turn")

    def _points(self, seat: int, body: Mapping[str, Any], name: str, count: int | None = None) -> Deck:
        count = self.size if count is None else count
        value = body.get(name)
        if not isinstance(value, (list, tuple)) or len(value) != count:
            raise Cheat(seat, "wrong_count", f"{name} must hold {count} points")
        for pos, p in enumerate(value):
            if not group.is_encoding(p):
                raise Cheat(seat, "bad_point", f"{name}[{pos}] is not 32 bytes")
        return tuple(value)

    def _deck(self, seat: int, body: Mapping[str, Any], name: str, count: int | None = None) -> Deck:
        cards = self._points(seat, body, name, count)
        # A masked deck of distinct cards has distinct points: a repeat is a duplicated card.
        if len(set(cards)) != len(cards):
            raise Cheat(seat, "repeated_point", "its deck repeats a card")
        return cards

    # -- reveals ------------------------------------------------------------------------

    def check_key(self, seat: int, pos: int, key: object) -> bytes:
        """`key` if it is seat's key for position pos (k·B equals its commitment)."""
        self._ready()
        self._position(seat, pos)
        if not group.is_scalar(key):
            raise Cheat(seat, "bad_key", f"its key for position {pos} is not a scalar")
        if group.commit(key) != self.commits[seat][pos]:
            raise Cheat(seat, "key_commitment", f"its key for position {pos} fails its commitment")
        return key  # type: ignore[return-value]

    def open(self, pos: int, keys: Mapping[int, bytes] | Sequence[bytes]) -> int:
        """The slot of the card at `pos` from every seat's key (each checked first)."""
        self._ready()
        ordered = keys if isinstance(keys, Sequence) else [keys.get(s) for s in range(self.spec.seats)]
        if len(ordered) != self.spec.seats:
            raise DeckError(f"position {pos} needs one key per seat", "missing_keys")
        for seat, key in enumerate(ordered):
            if key is None:
                raise DeckError(f"seat {seat}'s key for position {pos} is missing", "missing_keys")
            self.check_key(seat, pos, key)
        return self.unmask(pos, ordered)

    def unmask(self, pos: int, keys: Sequence[bytes]) -> int:
        """The slot at pos with keys already checked against their commitments."""
        try:
            slot = self.lookup.get(group.unmask(self.current[pos], keys))
        except group.NotInGroup:
            raise Cheat(
                self.spec.seats - 1, "bad_point", f"position {pos} of its lock pass is no point"
            ) from None
        if slot is None:
            raise UnknownCard(
                f"position {pos} opens to no card of deck {self.spec.label!r}: "
                "a lock pass did not use its committed keys (the audit names the seat)"
            )
        return slot

    def accept_public(self, seat: int, body: Mapping[str, Any]) -> tuple[int, bytes]:
        """(position, key) of seat's public reveal, checked at once against its commitment."""
        self._body(body, "deck_open")
        pos = body.get("pos")
        return pos, self.check_key(seat, pos, body.get("key"))  # type: ignore[arg-type]

    def check_proof(self, seat: int, body: Mapping[str, Any]) -> tuple[int, int]:
        """(position, slot) that the owner proves by publishing every key of the position.

        A key that fails its commitment is the owner's fault: it had to check each key it
        received before using it.
        """
        self._body(body, "deck_proof")
        pos, keys = body.get("pos"), body.get("keys")
        self._ready()
        self._position(seat, pos)
        if not isinstance(keys, (list, tuple)) or len(keys) != self.spec.seats:
            raise Cheat(seat, "malformed", f"a proof needs {self.spec.seats} keys")
        for owner, key in enumerate(keys):
            try:
                self.check_key(owner, pos, key)  # type: ignore[arg-type]
            except Cheat as cheat:
                raise Cheat(
                    seat, cheat.code, f"its proof of position {pos}: seat {owner}'s key is wrong"
                ) from None
        return pos, self.unmask(pos, keys)  # type: ignore[arg-type]

    def _position(self, seat: int, pos: object) -> None:
        if not isinstance(pos, int) or isinstance(pos, bool) or not 0 <= pos < self.size:
            raise Cheat(seat, "bad_position", f"there is no position {pos!r}")

    def _ready(self) -> None:
        if self.phase != "ready":
            raise NotNow(f"deck {self.spec.label!r} is not dealt yet", "not_ready")

    def _body(self, body: Mapping[str, Any], kind: str) -> None:
        if body.get("deck") != self.spec.label:
            raise NotNow(f"not a {kind} for deck {self.spec.label!r}", "other_deck")
