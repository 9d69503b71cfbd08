"""The Game contract every game implements, and the shared guards of one step.

A game subclasses `Game` and fills in the underscored hooks; the public methods run the
checks every game shares, in a fixed order (game over -> not your turn -> the game's own rule)
so each game's code handles only its own rules. Those guarded methods (`GUARDED`) are the
same for every game: a subclass that redefines one is refused as it is defined, so what
network play, bots and tests call is always this one contract.

No malformed action reaches a rule: `validate` asks the action's shape first (one of the
game's `action_types`, every field fitting its annotation: engine/core/shape.py), as
`from_plain` does for all that comes from outside. `apply` takes what came one of those ways
or from `legal_actions`, so its fast lane does not ask again (~3% of a random Money! game).

The guards are also the fast lane of every step. Each asks the acting-seat hook `_active` once
(it answers "nobody" once the game is over, so the way through needs no separate game-over
test), then the game's own check and transition: per action type from the `_checks` and
`_steps` tables where the game fills them in (two plain calls), else `_validate` and `_apply`.
A game makes a step fast by making those hooks fast, never by copying the guards.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .errors import GameError, GameOver, IllegalAction, InvalidOption, NotYourTurn
from .events import DESCRIBED, Event
from .hidden import is_token, masked, tokens_in
from .plain import plain, plain_tag
from .rng import Stream
from .shape import describe_misfit, shape_of

Seat = int
Action = Any
State = Any
View = Any

Check = Callable[[State, Seat, Action], None]
Transition = Callable[[State, Seat, Action], State]

HIDDEN = "?"
"""Stands in a view for a card the viewing seat may not see."""


class ActionSpace:
    """Legal actions too many to list (e.g. every subset of a 20-card hand).

    It can say whether an action is in it, count itself, sample uniformly, and iterate
    (which may be long). A plain tuple of actions is the small-space form.
    """

    def __contains__(self, action: object) -> bool:
        raise NotImplementedError

    def __len__(self) -> int:
        raise NotImplementedError

    def __iter__(self) -> Iterator[Action]:
        raise NotImplementedError

    def sample(self, rng: Stream) -> Action:
        raise NotImplementedError


def pick_uniform(actions: Sequence[Action] | ActionSpace, rng: Stream) -> Action:
    """A uniformly random legal action, from a list or an ActionSpace."""
    if isinstance(actions, ActionSpace):
        return actions.sample(rng)
    if not actions:
        raise IllegalAction("there is no legal action to choose from")
    return actions[rng.below(len(actions))]


@plain("core.Result")
@dataclass(frozen=True, slots=True)
class Result:
    """Final scores: per seat a total, a per-category breakdown, and a place (1 = best).

    `tiebreak` is the game's secondary key per seat (None where the game shares ties);
    seats equal on score and tiebreak share a place; `winners` are the seats in place 1.
    """

    scores: tuple[int, ...]
    breakdown: tuple[tuple[tuple[str, int], ...], ...]
    places: tuple[int, ...]
    winners: tuple[int, ...]
    tiebreak: tuple[int, ...] | None = None

    @staticmethod
    def from_breakdown(
        breakdown: Sequence[Sequence[tuple[str, int]]],
        tiebreak: Sequence[int] | None = None,
    ) -> Result:
        scores = tuple(sum(points for _, points in rows) for rows in breakdown)
        keys = [
            (score, tiebreak[seat] if tiebreak is not None else 0)
            for seat, score in enumerate(scores)
        ]
        places = tuple(1 + sum(1 for other in keys if other > key) for key in keys)
        return Result(
            scores=scores,
            breakdown=tuple(tuple((str(c), int(p)) for c, p in rows) for rows in breakdown),
            places=places,
            winners=tuple(seat for seat, place in enumerate(places) if place == 1),
            tiebreak=tuple(tiebreak) if tiebreak is not None else None,
        )


@dataclass(frozen=True, slots=True)
class OptionSpec:
    """One setup option: its allowed values (None = free-form, checked by the game) and default."""

    name: str
    default: Any
    choices: tuple[Any, ...] | None = None
    help: str = ""


def _plain_options(options: Mapping[str, Any]) -> bool:
    """True when every option is None, a number or a string that is no token: `tokens_in`
    would find nothing, told without its walk through the options' plain form."""
    for value in options.values():
        if type(value) is str:
            if is_token(value):
                return False
        elif value is not None and type(value) not in (int, bool):
            return False
    return True


_NO_LANE = (None, None)
"""The fast lane of an action type in neither table: `_validate`, then `_apply`."""

GUARDED = (
    "setup", "setup_dealt", "check_options", "check_players", "active", "legal_actions", "validate", "apply",
    "view", "result", "result_now",
)
"""Public methods of `Game` that no game redefines (it fills in their hooks instead)."""


class Game:
    """Base of every game. Subclasses set the class facts and implement the `_hooks`."""

    id: str = ""
    name: str = ""
    min_players: int = 2
    max_players: int = 2
    options: tuple[OptionSpec, ...] = ()
    rules_version: str = "1"
    action_types: tuple[type, ...] = ()
    """Every type of action the game takes (`@plain` dataclasses): `validate` refuses any other
    type (where a test game lists none: any plain type that fits; its rules refuse the rest)."""
    face_names: Mapping[str, str] = {}
    """How a view names a card whose face it shows, where the copies of a card are alike (a
    Sheriff card id is shown as its good); a card not listed is named by its id. The dealer's
    leak check (engine/core/dealer.py) looks for a face a seat learnt under this name."""
    _checks: Mapping[type, Check] = {}
    """The fast lane's checks, per action type: `check(state, seat, action)` raises exactly what
    `_validate` raises for an action of that type (a type not listed takes `_validate`)."""
    _steps: Mapping[type, Transition] = {}
    """The fast lane's transitions, per action type: where `seat` acts alone and its action is
    legal, `step(state, seat, action)` returns what `_apply(state, {seat: action})` returns (a
    type not listed takes `_apply`). tests/engine/test_conformance.py compares both tables
    with the hooks step by step; `_validate` and `_apply` stay complete either way. Both
    tables are read once, as the game's instance is made (`_lanes`)."""

    def __init__(self) -> None:
        # Both tables as one, per action type, on the instance: the fast lane reads it once a
        # step, and an instance attribute costs a fraction of a class one read through
        # `self`. A game fills in `_checks` and `_steps` before its instance is made.
        self._lanes: dict[type, tuple[Check | None, Transition | None]] = {
            kind: (self._checks.get(kind), self._steps.get(kind))
            for kind in (*self._checks, *self._steps)
        }
        # each action type's compiled shape check (-1: every field fits)
        self._shapes: dict[type, Callable[[Action], int]] = {
            kind: shape_of(kind).fault for kind in self.action_types}

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        redefined = [name for name in GUARDED if name in cls.__dict__]
        if redefined:
            raise TypeError(f"{cls.__name__} redefines {', '.join(redefined)} of Game: "
                            "fill in the underscored hooks instead")

    # ---- public contract -------------------------------------------------------------
    def setup(self, n_players: int, seed: bytes, options: Mapping[str, Any] | None = None) -> State:
        opts = self._setup_options(n_players, seed, options)
        if not _plain_options(opts) and tokens_in(opts):
            raise InvalidOption(f"{self.name}: card tokens come only from the network deal")
        return self._setup(n_players, seed, opts)

    def setup_dealt(self, n_players: int, seed: bytes, options: Mapping[str, Any] | None = None) -> State:
        """The first state of a network game whose decks the deck protocol dealt (`decks`).

        Every card of those decks is a token (engine/core/hidden.py) until the rules show it;
        everything else is set up as `setup` does from the same seed, so that revealing every
        token of this state gives `setup` with those decks stacked in the dealt order.
        """
        return self._setup_dealt(n_players, seed, self._setup_options(n_players, seed, options))

    def _setup_options(self, n_players: int, seed: bytes, options: Mapping[str, Any] | None) -> dict[str, Any]:
        """The checks both setups share: players, options (defaults filled in), seed."""
        if not isinstance(n_players, int) or isinstance(n_players, bool):
            raise InvalidOption(f"{self.name}: the number of players must be a whole number")
        opts = self.check_options(options or {})
        self.check_players(n_players, opts)
        if not isinstance(seed, bytes):
            raise InvalidOption("the seed must be bytes")
        return opts

    def check_options(self, options: Mapping[str, Any]) -> dict[str, Any]:
        """Options with defaults filled in; an unknown option or value raises InvalidOption."""
        known = {spec.name: spec for spec in self.options}
        for name in options:
            if name not in known:
                allowed = ", ".join(sorted(known)) or "none"
                raise InvalidOption(f"{self.name} has no option {name!r} (options: {allowed})")
        out: dict[str, Any] = {}
        for spec in self.options:
            value = options.get(spec.name, spec.default)
            if spec.choices is not None and value not in spec.choices:
                allowed = ", ".join(str(c) for c in spec.choices)
                raise InvalidOption(f"{self.name}: {spec.name} must be one of {allowed}, not {value!r}")
            out[spec.name] = value
        return out

    def player_range(self, options: Mapping[str, Any]) -> tuple[int, int]:
        """Allowed player counts for these options (a game may narrow it, e.g. by edition)."""
        return self.min_players, self.max_players

    def active(self, state: State) -> frozenset[Seat]:
        return self._active(state)

    def legal_actions(self, state: State, seat: Seat) -> Sequence[Action] | ActionSpace:
        if seat not in self._active(state):  # nobody acts once the game is over
            return ()
        return self._legal_actions(state, seat)

    def validate(self, state: State, seat: Seat, action: Action) -> None:
        if type(seat) is not int or seat not in self._active(state):
            if self.is_over(state):
                raise GameOver("the game is over")
            raise NotYourTurn(f"it is not seat {seat!r}'s turn")
        fault = self._shapes.get(type(action))
        if fault is None or fault(action) >= 0:  # the shape first: no rule reads a misfit
            self._check_shape(seat, action)
        check = self._checks.get(type(action))
        if check is None:
            self._validate(state, seat, action)
        else:
            check(state, seat, action)

    def apply(self, state: State, actions: Mapping[Seat, Action]) -> State:
        """Validate every action of this step, then return the next state (input untouched).

        The guards every game shares, in their fixed order (game over -> a seat not to act ->
        a seat missing -> each action's own rule, seats in order), asking each hook once.
        """
        active = self._active(state)
        if len(active) == 1:  # one seat acts: the usual step
            if len(actions) == 1:
                (seat,) = actions  # the one seat that sent an action
                if seat in active:  # one seat each side, the same one: the step's seats fit
                    action = actions[seat]
                    check, step = self._lanes.get(type(action), _NO_LANE)
                    if check is None:
                        self._validate(state, seat, action)
                    else:
                        check(state, seat, action)
                    if step is None:
                        return self._apply(state, actions)
                    return step(state, seat, action)
        elif actions.keys() == active:  # a set comparison: allocates nothing
            if active:
                try:  # in the order given: only a step with a fault pays for seat order
                    self._check_each(state, actions.items())
                except Exception as fault:
                    first = fault
                else:
                    return self._apply(state, actions)
                # the checks are pure: in seat order, the first fault in seat order raises
                self._check_each(state, sorted(actions.items()))
                raise first
        raise self._misfit(state, actions, active)

    def _check_shape(self, seat: Seat, action: Action) -> None:
        """Raise IllegalAction, worded for a player, unless `action` is of the game's
        `action_types` and every field fits its annotation (what `validate` asks first)."""
        kind, tag = type(action), plain_tag(type(action))
        if tag is None or (self.action_types and kind not in self.action_types):
            raise IllegalAction(f"seat {seat} sent a {tag or kind.__name__}, which is not a {self.name} action")
        found = shape_of(kind).misfit(action)
        if found is not None:
            raise IllegalAction(f"seat {seat} sent a {kind.__name__} whose {describe_misfit(found)}")

    def _check_each(self, state: State, actions: Iterable[tuple[Seat, Action]]) -> None:
        """Each action of a simultaneous step through its own check, in the order given."""
        lanes = self._lanes
        for seat, action in actions:
            check = lanes.get(type(action), _NO_LANE)[0]
            if check is None:
                self._validate(state, seat, action)
            else:
                check(state, seat, action)

    def check_players(self, n_players: int, options: Mapping[str, Any]) -> None:
        """Raise InvalidOption unless `n_players` may play with these (checked) options."""
        low, high = self.player_range(options)
        if not low <= n_players <= high:
            raise InvalidOption(f"{self.name} is for {low}-{high} players, not {n_players}")

    def view(self, state: State, seat: Seat | None) -> View:
        return self._view(state, seat)

    def is_over(self, state: State) -> bool:
        raise NotImplementedError

    def result(self, state: State) -> Result:
        if not self.is_over(state):
            raise IllegalAction("the game is not over yet")
        return self._result(state)

    def result_now(self, state: State) -> Result:
        """Scores as the game stands (the table ended it early): the final scoring, applied now."""
        return self._result(state) if self.is_over(state) else self._result_now(state)

    def n_players(self, state: State) -> int:
        return state.n_players

    # ---- presentation and test hooks -------------------------------------------------
    def describe(self, action: Action) -> str:
        """One line for the game log."""
        return str(action)

    def events(self, before: State, actions: Mapping[Seat, Action], after: State) -> tuple[Event, ...]:
        """What the whole table saw in the step `before` -> `after` (pure, public only).

        A game overrides this to name the cards the table saw; the default words each
        action with `describe`, which must then say nothing hidden. Over the network it is
        computed from the public actions and states, the same on every peer.
        """
        return tuple(Event(seat, DESCRIBED, text=self.describe(actions[seat])) for seat in sorted(actions))

    def zones(self, state: State) -> dict[str, tuple[str, ...]]:
        """Every card of the game by location (for conservation checks); {} if not card-based."""
        return {}

    def secret_from(self, state: State, seat: Seat | None) -> frozenset[str]:
        """Card ids this seat may not see now (for the generic view-leak check)."""
        return frozenset()

    def swap_cards(self, state: State, card: str, other: str) -> State | None:
        """`state` with two cards (named as `zones` names them) trading places, for the view-leak
        test: a seat's view must not change when two cards it may not see trade places.

        None where the two cannot trade places unseen (the same card, or a slot that shows
        what kind of card lies in it, such as a card's back); a card game implements this.
        """
        return None

    def stalemate(self, state: State) -> bool:
        """True when a harness should stop a game that can go on forever (no round limit)."""
        return False

    # ---- hidden cards over the network (engine/core/hidden.py, net/deck) --------------
    # A game with cards nobody may see says which decks the table deals with the deck protocol,
    # which faces each seat may see, and which faces a step reads. The defaults: no hidden
    # cards, so the network table deals nothing and reveals nothing.
    def decks(self, n_players: int, options: Mapping[str, Any]) -> tuple[tuple[str, tuple[Any, ...]], ...]:
        """The decks a network table deals before setup: (label, its cards in setup order)."""
        return ()

    def deal_options(self, n_players: int, seed: bytes, options: Mapping[str, Any]) -> dict[str, Any]:
        """`options` with what the seed decides before a network deal filled in: a random
        choice that fixes which cards the decks hold (Money!'s removed currencies) is drawn
        from the agreed seed, as setup would, and listed, so `decks` knows it."""
        return dict(options)

    def deck_cards(self, state: State, label: str) -> tuple[Any, ...] | None:
        """The cards of a deck the rules shuffle during the game (known faces, e.g. discard
        piles turned over; or a seat's own cards, `deck_owner`), whose tokens `state` holds
        before the table dealt it; None if the game has no such deck."""
        return None

    def deck_owner(self, state: State, label: str) -> Seat | None:
        """The seat that deals a deck of `deck_cards` alone: its own cards (tokens it was
        shown, faces the table saw) dealt anew face down in an order only it knows (Sheriff: a
        hand with cards the table saw taken, before its bag is loaded). None: the table
        shuffles it (a deck of known faces)."""
        return None

    def dealt_options(self, n_players: int, orders: Mapping[str, tuple[Any, ...]]) -> dict[str, Any]:
        """Options that set a plain game up with every deck of `decks` in the given order (top
        first), as `setup_dealt` stands once every token is revealed. The default: one deck,
        stacked through the `deck` option."""
        ((_, order),) = orders.items()
        return {"deck": list(order)}

    def seen(self, state: State, seat: Seat | None) -> frozenset[Any]:
        """The cards `seat` may see now (None: what lies face up for the whole table), tokens
        included: the table reveals each token here to that seat (or to everyone)."""
        return frozenset()

    def in_reach(self, state: State, seat: Seat) -> tuple[Any, ...] | None:
        """The tokens `seat`'s choice may name now (its hand, say), in the order the rules take
        copies of one card; None: every card the seat was shown and the table was not. A
        choice names faces; it goes back to the table's form (`hidden.mask`) with these."""
        return None

    def scored_cards(self, state: State, seat: Seat) -> tuple[Any, ...]:
        """The cards of `seat` that the final scoring reads (a physical table turns them face
        up to score: a Money! hand, the goods on a Sheriff stand). Over the network, when the
        table votes to end a dealt game, each seat shows the tokens among them with their
        proofs; a token nobody showed scores nothing. Default: none (the scoring reads only
        cards that lie face up)."""
        return ()

    def needs(self, state: State, actions: Mapping[Seat, Action]) -> frozenset[str]:
        """Tokens whose faces the rules read to apply `actions` (the top card a draw turns
        over, say): the table shows them to everyone before the step. `actions` may be the
        choices of some of the acting seats only (a seat asks for its own, to prove the cards
        of its hand that the step turns over): answer for those."""
        return frozenset()

    # ---- hooks for subclasses -------------------------------------------------------
    def _setup_dealt(self, n_players: int, seed: bytes, options: dict[str, Any]) -> State:
        """The default: a game of one deck, stacked through its `deck` option, takes the
        dealt deck as that stack (`shuffle_or_stack` accepts a whole masked deck)."""
        decks = self.decks(n_players, options)
        if len(decks) != 1 or "deck" not in options:
            raise NotImplementedError(f"{self.name} has no network deal")
        label, cards = decks[0]
        return self._setup(n_players, seed, {**options, "deck": masked(label, len(cards))})

    def _setup(self, n_players: int, seed: bytes, options: dict[str, Any]) -> State:
        raise NotImplementedError

    def _active(self, state: State) -> frozenset[Seat]:
        """The seats that act now (more than one: a simultaneous step); empty once the game
        is over. Every public method asks this first, once: keep it a look-up or two."""
        raise NotImplementedError

    def _legal_actions(self, state: State, seat: Seat) -> Sequence[Action] | ActionSpace:
        raise NotImplementedError

    def _validate(self, state: State, seat: Seat, action: Action) -> None:
        # a game whose `_checks` list every action type needs no validation of its own
        check = self._checks.get(type(action))
        if check is None:
            raise IllegalAction(f"seat {seat} sent {action!r}, which is not a {self.name} action")
        check(state, seat, action)

    def _apply(self, state: State, actions: Mapping[Seat, Action]) -> State:
        raise NotImplementedError

    def _view(self, state: State, seat: Seat | None) -> View:
        raise NotImplementedError

    def _result(self, state: State) -> Result:
        raise NotImplementedError

    def _misfit(self, state: State, actions: Mapping[Seat, Action],
                active: frozenset[Seat]) -> GameError:
        """The error of a step whose seats are not exactly the active ones."""
        if self.is_over(state):
            return GameOver("the game is over")
        extra = sorted(set(actions) - active)
        if extra:
            return NotYourTurn(f"seat {extra[0]} is not to act now")
        missing = sorted(active - set(actions))
        if missing:
            return IllegalAction(f"waiting for seat {missing[0]}: a step needs every active seat")
        return IllegalAction("nobody is to act now")

    def _result_now(self, state: State) -> Result:
        # every game's final scoring reads only what lies on the table; a game whose scoring
        # needs the end (an unresolved round, say) overrides this
        return self._result(state)

