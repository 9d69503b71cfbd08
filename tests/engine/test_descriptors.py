"""Every registered game's descriptor is complete: a fifth game cannot ship half-described.

`problems` lists what is missing or wrong in one descriptor; the registered games must have
none, and a deliberately incomplete descriptor shows that each check can fail.
"""

from __future__ import annotations

import json
from importlib import import_module
from pathlib import Path

import pytest

import engine.registry
from engine.bots import Bot, bot_kinds, make_bot, play_game
from engine.core import GameError, Stream
from engine.core.descriptor import SEAT, GameDescriptor, OptionDoc
from engine.registry import game_ids, get_descriptor, get_game
from tests.net.fakegame import GAME as GUESS

from . import fifth_game

REPO = Path(__file__).resolve().parents[2]
BOT_STEPS = 12
"""Steps each bot kind plays from a fresh deal: enough to meet more than the first decision."""


def problems(descriptor: GameDescriptor) -> list[str]:
    return [
        *_option_problems(descriptor),
        *_docs_problems(descriptor),
        *_bot_problems(descriptor),
        *_score_pad_problems(descriptor),
        *_rounds_problems(descriptor),
    ]


def _low_players(game) -> int:
    return game.player_range(game.check_options({}))[0]


def _option_problems(descriptor: GameDescriptor) -> list[str]:
    game = descriptor.game
    specs = {spec.name: spec for spec in game.options}
    documented = [doc.name for doc in descriptor.options]
    out = [f"option {name!r} is not documented" for name in specs if name not in documented]
    out += [f"{name!r} is documented but is no option" for name in documented if name not in specs]
    out += [f"option {name!r} is documented twice" for name in set(documented) if documented.count(name) > 1]
    for doc in descriptor.options:
        if not doc.label.strip() or not doc.text.strip():
            out.append(f"option {doc.name!r} needs a label and a text")
        if doc.name in specs and doc.form is not None:
            out += _form_problems(game, specs[doc.name], doc)
    return out


def _form_problems(game, spec, doc: OptionDoc) -> list[str]:
    """The new-game form starts at the default and cycles through values the engine accepts."""
    if doc.form == SEAT:
        try:
            game.setup(_low_players(game), b"seat option", {doc.name: 0})
        except GameError as exc:
            return [f"seat option {doc.name!r} refuses seat 0: {exc}"]
        return [] if spec.default is None else [f"seat option {doc.name!r} must default to drawn (None)"]
    if not isinstance(doc.form, tuple) or not doc.form:
        return [f"option {doc.name!r}: form must be None, SEAT or a tuple of values"]
    out = [] if spec.default in doc.form else [f"option {doc.name!r}: the default is not in the form"]
    for value in doc.form:
        try:
            game.check_options({doc.name: value})
        except GameError as exc:
            out.append(f"option {doc.name!r}: the form offers {value!r}, refused: {exc}")
        if json.loads(json.dumps(value)) != value:  # the form remembers choices as JSON
            out.append(f"option {doc.name!r}: {value!r} does not survive JSON")
    return out


def _docs_problems(descriptor: GameDescriptor) -> list[str]:
    if not descriptor.title or descriptor.min_players > descriptor.max_players:
        return ["the game needs a name and a player range"]
    page = REPO / descriptor.docs if descriptor.docs else None
    if page is None or not page.is_file():
        return [f"the rules page {descriptor.docs!r} does not exist"]
    options = page.read_text(encoding="utf-8").partition("## Options")[2].partition("\n## ")[0]
    return [f"{descriptor.docs} does not list option `{doc.name}` under ## Options"
            for doc in descriptor.options if f"`{doc.name}`" not in options]


def _bot_problems(descriptor: GameDescriptor) -> list[str]:
    """Every bot kind of the descriptor is made by its factory and plays legal actions."""
    out = []
    for kind in descriptor.bots:
        try:
            _play(descriptor, kind)
        except Exception as exc:  # any failure is a problem to list, not a crash of the check
            out.append(f"bot {kind!r}: {type(exc).__name__}: {exc}")
    return out


def _play(descriptor: GameDescriptor, kind: str) -> None:
    game = descriptor.game
    n = _low_players(game)
    state = game.setup(n, f"bots {kind}".encode())
    bots = {seat: descriptor.bot_factory(kind)(game, seat, Stream(bytes([seat]))) for seat in range(n)}
    for bot in bots.values():
        if not isinstance(bot, Bot):
            raise TypeError(f"made {type(bot).__name__}, not a Bot")
    for _ in range(BOT_STEPS):
        if game.is_over(state):
            break
        step = {}
        for seat in sorted(game.active(state)):
            action = bots[seat].choose(game.view(state, seat), game.legal_actions(state, seat))
            game.validate(state, seat, action)
            step[seat] = action
        state = game.apply(state, step)


def _score_pad_problems(descriptor: GameDescriptor) -> list[str]:
    """A blank template for every player count scores: one name and one score per player."""
    if descriptor.score_pad is None or descriptor.score_template is None:
        return ["no score pad (score_pad and score_template)"]
    game = descriptor.game
    low, high = game.player_range(game.check_options({}))
    out = []
    for n in range(low, high + 1):
        try:
            names, result = descriptor.score_pad(json.loads(json.dumps(descriptor.score_template(n))))
        except Exception as exc:  # listed, so one run names every broken count
            out.append(f"score pad for {n} players: {type(exc).__name__}: {exc}")
            continue
        if len(names) != n or len(result.scores) != n:
            out.append(f"score pad for {n} players gives {len(names)} names, {len(result.scores)} scores")
    return out


def _rounds_problems(descriptor: GameDescriptor) -> list[str]:
    """Rounds, where the game has them, start at 1 and only go up in random play."""
    rounds = descriptor.rounds
    if rounds is None:
        return []
    if not rounds.label:
        return ["rounds need a label"]
    numbers = [rounds.number(state) for state in _random_game(descriptor.game)]
    if numbers[0] != 1 or numbers != sorted(numbers):
        return [f"{rounds.label}s go {numbers[0]} .. {numbers[-1]}, not 1 and up"]
    return []


def _random_game(game, max_steps: int = 3000):
    """Every state of one random game (cut at `max_steps` or a stalemate)."""
    n = _low_players(game)
    state = game.setup(n, b"rounds")
    bots = [make_bot(game, seat, "random", Stream(bytes([seat]))) for seat in range(n)]
    yield state
    for _ in range(max_steps):
        if game.is_over(state) or game.stalemate(state):
            return
        state = game.apply(state, {
            seat: bots[seat].choose(None, game.legal_actions(state, seat)) for seat in game.active(state)
        })
        yield state


# ---- the registered games --------------------------------------------------------------------
@pytest.mark.parametrize("game_id", game_ids())
def test_the_registry_key_is_the_package_the_descriptor_and_the_game(game_id):
    descriptor = get_descriptor(game_id)
    package = import_module(engine.registry._GAMES[game_id])
    assert isinstance(descriptor, GameDescriptor) and package.DESCRIPTOR is descriptor
    assert descriptor.id == descriptor.game.id == game_id
    assert get_game(game_id) is descriptor.game is package.GAME


@pytest.mark.parametrize("game_id", game_ids())
def test_every_descriptor_is_complete(game_id):
    assert problems(get_descriptor(game_id)) == []


@pytest.mark.parametrize("game_id", game_ids())
def test_make_bot_offers_the_descriptors_bots_and_best_is_its_own(game_id):
    descriptor = get_descriptor(game_id)
    assert bot_kinds(game_id) == ["random", *sorted(descriptor.bots)]
    assert descriptor.best_bot == "normal"
    best = make_bot(descriptor.game, 0, "best", Stream(b"best"))
    assert type(best) is descriptor.bot_factory("heuristic")


# ---- the check itself, and a fifth game ------------------------------------------------------
def test_an_incomplete_descriptor_is_caught():
    half = GameDescriptor(
        game=GUESS,
        options=(OptionDoc("rounds", "Rounds", "", form=(3, 99)), OptionDoc("speed", "Speed", "fast")),
        bots={"heuristic": "tests.engine.fifth_game:NoSuchBot"},
        docs="docs/guess.md",
    )
    found = "\n".join(problems(half))
    for words in ["'rounds' needs a label and a text", "offers 99, refused", "'speed' is documented but",
                  "docs/guess.md' does not exist", "bot 'heuristic': AttributeError", "no score pad"]:
        assert words in found, found


def test_a_fifth_game_is_one_package_and_one_line(monkeypatch):
    monkeypatch.setitem(engine.registry._GAMES, "nettest", "tests.engine.fifth_game")
    assert "nettest" in game_ids() and get_game("nettest") is GUESS
    assert problems(get_descriptor("nettest")) == []
    assert bot_kinds("nettest") == ["random", "heuristic"]
    assert isinstance(make_bot(GUESS, 0, "best", Stream(b"x")), fifth_game.HighBidder)
    played = play_game(GUESS, 3, b"fifth", "best")
    assert played.result is not None and max(played.result.scores) > 0
