"""A trusted dealer in one process: a game played on partial knowledge, checked against itself.

The network table deals with the deck protocol and reveals a card when the rules show it; this
module does the same with a dealer that knows every face, so a game's hidden-card hooks
(`decks`, `deck_cards`, `seen`, `needs`, `setup_dealt`) can be checked without a network:

- the public state (what the table agrees on and hashes) holds tokens for every face the table
  has not seen; each seat adds only what it was shown;
- a seat chooses from its own knowledge, and its action is masked back to the public form;
- `HiddenPlay.check` (used by the tests of every game) compares each step with the plain game
  dealt the same way: the public state with every face written in equals the plain state, each
  seat's view of what it knows equals its plain view, and a seat never learns a face that its
  plain view does not show at that moment.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from .errors import GameError
from .game import Action, Game, Seat, State
from .hidden import is_token, mask, masked, parse_token, reveal, tokens_in
from .plain import strings_in, to_plain
from .rng import Rng


class Leak(AssertionError):
    """A seat learnt a face its view does not show, or its view differs from the plain game."""


@dataclass
class HiddenPlay:
    """One game on partial knowledge: the public state, each seat's faces, the dealer's truth."""

    game: Game
    n_players: int
    seed: bytes
    options: Mapping[str, Any]
    public: State = None
    faces: dict[str, Any] = field(default_factory=dict)  # the dealer's truth: token -> face
    shown: dict[str, Any] = field(default_factory=dict)  # faces the whole table saw
    known: list[dict[str, Any]] = field(default_factory=list)  # per seat: faces it was shown
    learnt: list[tuple[int, Seat | None, str]] = field(default_factory=list)  # (step, seat, token)
    history: list[dict[Seat, Action]] = field(default_factory=list)  # each step's choices, as made
    steps: int = 0

    @staticmethod
    def start(game: Game, n_players: int, seed: bytes, options: Mapping[str, Any] | None = None) -> HiddenPlay:
        play = HiddenPlay(game, n_players, seed, dict(options or {}))
        play.known = [{} for _ in range(n_players)]
        for label, cards in game.decks(n_players, play.options):
            play._deal(label, cards)
        play.public = game.setup_dealt(n_players, seed, play.options)
        play.settle()
        return play

    # ---- the dealer -------------------------------------------------------------------
    def _deal(self, label: str, cards: tuple[Any, ...]) -> None:
        """Shuffle a deck. A card of it that is a token of a deck dealt before (7 Wonders'
        guild slots: the first cards of the guild deck) opens straight to that deck's card,
        as the network's pool pass makes it (docs/protocol.md §11)."""
        order, _ = Rng(self.seed + b"\x00dealer\x00" + label.encode()).shuffle(cards)
        order = tuple(self.faces[c] if is_token(c) else c for c in order)
        self.faces.update(zip(masked(label, len(order)), order, strict=True))

    def order(self, label: str) -> tuple[Any, ...]:
        """A deck as the dealer dealt it, top first (the stack a plain game is set up with)."""
        by_position = sorted((parse_token(t)[1], face) for t, face in self.faces.items()
                             if parse_token(t)[0] == label)
        return tuple(face for _, face in by_position)

    def _deal_new_decks(self) -> None:
        """Tokens of a deck the rules shuffled during the game: deal it now."""
        dealt = {parse_token(t)[0] for t in self.faces}
        for label in sorted({parse_token(t)[0] for t in tokens_in(self.public)} - dealt):
            cards = self.game.deck_cards(self.public, label)
            if cards is None:
                raise GameError(f"{self.game.name} holds tokens of deck {label!r} it never dealt")
            self._deal(label, cards)

    def _show(self, tokens: frozenset[str], seat: Seat | None) -> None:
        for t in sorted(tokens):
            if seat is None:
                if t not in self.shown:
                    self.shown[t] = self.faces[t]
                    self.learnt.append((self.steps, None, t))
            elif t not in self.known[seat] and t not in self.shown:
                self.known[seat][t] = self.faces[t]
                self.learnt.append((self.steps, seat, t))

    def settle(self) -> None:
        """Deal what the rules shuffled, then show every token that a seat may now see (until
        nothing changes)."""
        while True:
            self._deal_new_decks()
            table = frozenset(t for t in self.game.seen(self.public, None) if is_token(t))
            if table:
                self._show(table, None)
                self.public = reveal(self.public, {t: self.faces[t] for t in table})
            known = [dict(k) for k in self.known]
            for seat in range(self.n_players):
                self._show(frozenset(filter(is_token, self.game.seen(self.mine(seat), seat))), seat)
            if not table and known == self.known:
                return

    # ---- a seat's side ----------------------------------------------------------------
    def mine(self, seat: Seat) -> State:
        """The state as `seat` knows it (never hashed or sent)."""
        return reveal(self.public, self.known[seat])

    def view(self, seat: Seat | None) -> Any:
        return self.game.view(self.public if seat is None else self.mine(seat), seat)

    def legal_actions(self, seat: Seat) -> Any:
        return self.game.legal_actions(self.mine(seat), seat)

    def public_action(self, seat: Seat, action: Action) -> Action:
        """`action` as the table sees it: the seat's unseen faces put back as tokens."""
        return mask(action, private_in_reach(self.game, self.public, seat, self.known[seat], self.shown))

    # ---- the table's step -------------------------------------------------------------
    def apply(self, actions: Mapping[Seat, Action]) -> None:
        """Apply the seats' choices (faces as they know them): masked, needed faces shown."""
        self.history.append(dict(actions))
        public = {seat: self.public_action(seat, a) for seat, a in actions.items()}
        while needed := frozenset(filter(is_token, self.game.needs(self.public, public))):
            self._show(needed, None)
            faces = {t: self.faces[t] for t in needed}
            self.public = reveal(self.public, faces)
            public = {seat: reveal(a, faces) for seat, a in public.items()}
        self.public = self.game.apply(self.public, public)
        self.steps += 1
        self.settle()

    def truth(self) -> State:
        """The public state with every face written in."""
        return reveal(self.public, self.faces)


def private_in_reach(game: Game, public: State, seat: Seat, known: Mapping[str, Any],
                     shown: Mapping[str, Any]) -> dict[str, Any]:
    """The faces `seat` alone knows that its choice may name, in the order copies are taken."""
    private = {t: f for t, f in sorted(known.items()) if t not in shown}
    reach = game.in_reach(public, seat)
    if reach is None:
        return private
    return {t: private[t] for t in reach if t in private}


def play_hidden(
    game: Game,
    n_players: int,
    seed: bytes,
    choose: Callable[[HiddenPlay, Seat], Action],
    options: Mapping[str, Any] | None = None,
    check: Callable[[HiddenPlay], None] | None = None,
    max_steps: int = 100_000,
) -> HiddenPlay:
    """Play to the end: each active seat's `choose(play, seat)` decides from its knowledge."""
    play = HiddenPlay.start(game, n_players, seed, options)
    if check is not None:
        check(play)
    while play.steps < max_steps and not game.stalemate(play.public):
        active = game.active(play.public)
        if not active:
            break
        play.apply({seat: choose(play, seat) for seat in sorted(active)})
        if check is not None:
            check(play)
    return play


class PlainShadow:
    """The plain game dealt as the dealer dealt (`Game.dealt_options`), stepped alongside."""

    def __init__(self, play: HiddenPlay) -> None:
        self.seen_learnt = 0
        self._stack(play)

    def _stack(self, play: HiddenPlay) -> None:
        """Set the plain game up with every deck dealt so far stacked (a deck the rules
        shuffle during the game too: set up again, and caught up, when one is dealt)."""
        game = play.game
        self.labels = sorted({parse_token(t)[0] for t in play.faces})
        stack = game.dealt_options(play.n_players, {label: play.order(label) for label in self.labels})
        self.state = game.setup(play.n_players, play.seed, {**play.options, **stack})
        self.step = 0

    def check(self, play: HiddenPlay, history: list[Mapping[Seat, Action]]) -> None:
        """Catch up with `play` (replaying `history`), then compare as the module says."""
        game = play.game
        if sorted({parse_token(t)[0] for t in play.faces}) != self.labels:
            self._stack(play)
        while self.step < play.steps:
            self.state = game.apply(self.state, history[self.step])
            self.step += 1
        if to_plain(play.truth()) != to_plain(self.state):
            raise Leak(f"step {play.steps}: the public state with every face is not the plain state")
        for seat in range(play.n_players):
            if to_plain(play.view(seat)) != to_plain(game.view(self.state, seat)):
                raise Leak(f"step {play.steps}: seat {seat}'s view differs from the plain game's")
        if to_plain(play.view(None)) != to_plain(game.view(self.state, None)):
            raise Leak(f"step {play.steps}: the table's view differs from the plain game's")
        for step, seat, t in play.learnt[self.seen_learnt:]:
            shown = strings_in(to_plain(game.view(self.state, seat)))
            face = play.faces[t]
            if (game.face_names.get(face, face) if type(face) is str else face) not in shown:
                who = "the table" if seat is None else f"seat {seat}"
                raise Leak(f"step {step}: {who} learnt {play.faces[t]!r} ({t}), not in its view")
        self.seen_learnt = len(play.learnt)


def checked_bot_game(game: Game, n_players: int, seed: bytes, bots: list[Any],
                     options: Mapping[str, Any] | None = None, max_steps: int = 3000,
                     shadow: type[PlainShadow] | None = None,
                     also: Callable[[HiddenPlay], None] | None = None) -> HiddenPlay:
    """A whole game of `bots` (engine/bots) on partial knowledge, checked at every step against
    the plain game (`PlainShadow`, or a subclass), with `also` run at each check too."""
    plain: list[PlainShadow] = []

    def choose(play: HiddenPlay, seat: Seat) -> Action:
        return bots[seat].choose(play.view(seat), play.legal_actions(seat))

    def check(play: HiddenPlay) -> None:
        if not plain:
            plain.append((shadow or PlainShadow)(play))
        if also is not None:
            also(play)
        plain[0].check(play, play.history)

    return play_hidden(game, n_players, seed, choose, options, check, max_steps)
