"""Random tables of every game, walked step by step: what the shape and fuzz tests try actions at.

Three ways a game is played, as the engine meets them:
- plain: the local game, random bots;
- dealt (the public state): a network table's state with every face nobody has shown still a
  token (engine/core/dealer.py), the actions in the table's form: what every peer validates;
- dealt (a seat's own knowledge): the same table as one seat knows it, the actions as it
  chooses them: what its own machine validates before it sends.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any

from engine.bots import make_bot
from engine.core import Game, Stream
from engine.core.dealer import HiddenPlay
from engine.core.hidden import is_token, reveal
from engine.registry import get_game

MAX_STEPS = 1500


@dataclass(frozen=True)
class Spot:
    """One seat about to act somewhere in a random game."""

    state: Any  # what `validate` is asked against
    seat: int
    action: Any  # the legal action the seat chose there, in the form this state takes
    step: Mapping[int, Any]  # every acting seat's action of that step (seat's included)
    faces: Mapping[str, Any] | None  # a dealt public state: the dealer's faces, to show what
    # the step reads before it is applied; None for a plain state
    appliable: bool = True  # False for a seat's own knowledge (the table applies the public form)


def variants(game: Game) -> list[tuple[int, dict[str, Any]]]:
    """Every player count with the default options, and a few counts with each other choice
    of an option that offers choices (Money!'s classic edition, Sheriff without royal goods)."""
    out = []
    defaults = game.check_options({})
    low, high = game.player_range(defaults)
    out += [(n, {}) for n in range(low, high + 1)]
    for spec in game.options:
        for value in spec.choices or ():
            if value == spec.default:
                continue
            options = game.check_options({spec.name: value})
            low, high = game.player_range(options)
            out += [(n, {spec.name: value}) for n in sorted({low, high})]
    if game.id == "seven_wonders":
        out += [(3, {"wonder_side": "B"}), (7, {"wonder_side": "random"})]
    return out


def _bots(game: Game, n: int, seed: bytes) -> list:
    root = Stream(seed)
    return [make_bot(game, s, "random", root.fork(f"bot{s}")) for s in range(n)]


def walk_plain(game: Game, n: int, seed: bytes, options: Mapping[str, Any]) -> Iterator[Spot]:
    """Every seat's choice of a plain random game."""
    state = game.setup(n, seed, dict(options))
    bots = _bots(game, n, seed)
    for _ in range(MAX_STEPS):
        if game.is_over(state) or game.stalemate(state):
            return
        step = {seat: bots[seat].choose(None, game.legal_actions(state, seat))
                for seat in sorted(game.active(state))}
        for seat, action in step.items():
            yield Spot(state, seat, action, step, None)
        state = game.apply(state, step)


def walk_dealt(game: Game, n: int, seed: bytes, options: Mapping[str, Any]) -> Iterator[Spot]:
    """Every seat's choice of a random game dealt by a trusted dealer: twice, as the table
    sees it (the public state and action) and as the seat knows it."""
    play = HiddenPlay.start(game, n, seed, options)
    bots = _bots(game, n, seed)
    while play.steps < MAX_STEPS and not game.stalemate(play.public):
        active = game.active(play.public)
        if not active:
            return
        own = {seat: bots[seat].choose(None, play.legal_actions(seat)) for seat in sorted(active)}
        public = {seat: play.public_action(seat, action) for seat, action in own.items()}
        faces = dict(play.faces)
        for seat in own:
            yield Spot(play.public, seat, public[seat], public, faces)
            yield Spot(play.mine(seat), seat, own[seat], own, None, appliable=False)
        play.apply(own)


def shown_for(game: Game, state: Any, actions: Mapping[int, Any],
              faces: Mapping[str, Any] | None) -> tuple[Any, dict[int, Any]] | None:
    """The state and actions of a step with the faces it reads written in, as the table shows
    them before it applies the step (`Game.needs`); None if it reads a face nobody dealt."""
    actions = dict(actions)
    if faces is None:
        return state, actions
    while needed := frozenset(filter(is_token, game.needs(state, actions))):
        if not needed <= faces.keys():
            return None
        shown = {t: faces[t] for t in needed}
        state = reveal(state, shown)
        actions = {seat: reveal(a, shown) for seat, a in actions.items()}
    return state, actions


@cache
def spots(game_id: str, full: bool = False) -> tuple[Spot, ...]:
    """Every choice of one random game per variant (`full`; else the fewest and the most
    players and the first other option), plain and (for a game with hidden cards) dealt."""
    game = get_game(game_id)
    out: list[Spot] = []
    dealt = bool(game.decks(game.min_players, game.check_options({})))
    tables = variants(game)
    if not full:
        plain = [t for t in tables if not t[1]]
        tables = [plain[0], plain[-1], *[t for t in tables if t[1]][:1]]
    for k, (n, options) in enumerate(tables):
        seed = f"fuzz-{game_id}-{k}".encode()
        walks = [walk_plain(game, n, seed, options)]
        if dealt:
            walks.append(walk_dealt(game, n, seed, options))
        for walk in walks:
            out += walk
    return tuple(out)
