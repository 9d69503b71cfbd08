"""No malformed action reaches a rule: mutated actions from random games raise only GameErrors.

From states reached by random legal play (plain, and dealt by the trusted dealer: the public
state every peer validates against, and a seat's own knowledge), each example takes a legal
action and mutates it: a field given a value of another type (a bool for an int, a list, a
dict, a float, None), a value of the right type that the rules must refuse (negative, huge or
out-of-range numbers, unknown, repeated or other seats' card ids, tokens, empty and oversized
tuples, nested values gone wrong), another action type of the game with random fields, or
another game's action. `Game.validate` must refuse it with a GameError or accept it; once
accepted, `Game.apply` (after the table showed the faces the step reads), the step's events
and the views must raise nothing but a GameError either. Anything else is an escape: over
the network it would wedge the table.

`make test` tries a few hundred actions per game; GAMENIGHT_FUZZ=<examples> runs a bigger
search (each example tries BATCH actions at one spot), GAMENIGHT_FUZZ_POOL=full plays every
variant of every game for its spots, and GAMENIGHT_FUZZ_TALLY=1 counts every escape by where
it was raised instead of stopping at the first (the test still fails if there is one).
"""

from __future__ import annotations

import dataclasses
import os
import traceback
from collections import Counter
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.core import GameError, to_plain
from engine.core.plain import strings_in
from engine.core.shape import Spec, shape_of
from engine.registry import game_ids, get_game

from .random_tables import Spot, shown_for, spots

EXAMPLES = int(os.environ.get("GAMENIGHT_FUZZ", "40"))
BATCH = 8
FULL_POOL = os.environ.get("GAMENIGHT_FUZZ_POOL") == "full"
TALLY = os.environ.get("GAMENIGHT_FUZZ_TALLY") == "1"

ODD_INTS = (-1, 0, 1, 2, 3, 4, 5, 6, 7, 10, 99, 2**31, 2**63 - 1, -(2**63), 10**30)
ODD_TEXTS = ("", "?", "?deck:0", "?deck:999999", "?nodeck:1", "?deck:x", "?:", "x" * 300)

tally: Counter[str] = Counter()
tried: Counter[str] = Counter()


# ---- values ----------------------------------------------------------------------------
def junk(texts: tuple[str, ...]) -> st.SearchStrategy[Any]:
    """Any value at all, of any type: what a broken or hostile sender might put in a field."""
    atoms = st.one_of(st.none(), st.booleans(), st.sampled_from(ODD_INTS), st.sampled_from(texts),
                      st.sampled_from(ODD_TEXTS), st.binary(max_size=3), st.just(1.5))
    return st.recursive(atoms, lambda inner: st.one_of(
        st.lists(inner, max_size=4).map(tuple), st.lists(inner, max_size=3),
        st.dictionaries(st.text(max_size=2), inner, max_size=2)), max_leaves=8)


def fitting(spec: Spec, texts: tuple[str, ...]) -> st.SearchStrategy[Any]:
    """A value of the annotated type whose content the rules must judge."""
    if spec.kind == "exact":
        return {int: st.one_of(st.integers(-3, 12), st.sampled_from(ODD_INTS)), bool: st.booleans(),
                str: st.one_of(st.sampled_from(texts), st.sampled_from(ODD_TEXTS)),
                bytes: st.binary(max_size=4)}.get(spec.of, st.none())
    if spec.kind == "any":
        return junk(texts)
    if spec.kind == "tuple_of":
        item = fitting(spec.of, texts)
        return st.one_of(st.lists(item, max_size=8).map(tuple),
                         st.builds(lambda x, n: (x,) * n, item, st.integers(20, 300)))
    if spec.kind == "fixed":
        return st.tuples(*(fitting(s, texts) for s in spec.of))
    if spec.kind == "union":
        return st.one_of(*(fitting(s, texts) for s in spec.of))
    return instances(spec.of, texts)


def instances(cls: type, texts: tuple[str, ...]) -> st.SearchStrategy[Any]:
    """An instance of a plain dataclass with fitting random fields."""
    specs = shape_of(cls).specs
    return st.tuples(*(fitting(s, texts) for s in specs)).map(lambda values: cls(*values))


def tweaked(value: Any, texts: tuple[str, ...]) -> st.SearchStrategy[Any]:
    """A legal value changed a little, keeping its type: one off, a card dropped or repeated."""
    if type(value) is bool:
        return st.just(not value)
    if type(value) is int:
        return st.sampled_from((value - 1, value + 1, -value - 1, value + 2**40, value * 7))
    if type(value) is str:
        return st.sampled_from(texts)
    if type(value) is tuple and value:
        i = st.integers(0, len(value) - 1)
        return st.one_of(
            i.map(lambda k: value[:k] + value[k + 1:]),  # one dropped
            i.map(lambda k: value[:k] + (value[k],) + value[k:]),  # one repeated
            st.just(value[::-1]), st.just(value + value),
            st.sampled_from(texts).map(lambda t: value + (t,)),
            st.tuples(i, st.deferred(lambda: tweaked(value[0], texts))).map(
                lambda kv: value[:kv[0]] + (kv[1],) + value[kv[0] + 1:]))
    if type(value) is tuple:
        return st.lists(st.sampled_from(texts), min_size=1, max_size=3).map(tuple)
    if dataclasses.is_dataclass(value):
        names = [f.name for f in dataclasses.fields(value)]
        if names:
            return st.sampled_from(names).flatmap(lambda name: tweaked(getattr(value, name), texts).map(
                lambda new: dataclasses.replace(value, **{name: new})))
    return st.just(value)


@st.composite
def mutants(draw, game, action: Any, texts: tuple[str, ...]) -> Any:
    """One mutation of a legal `action` (module docstring)."""
    names = [f.name for f in dataclasses.fields(action)] if dataclasses.is_dataclass(action) else []
    how = draw(st.sampled_from(("tweak", "tweak", "fitting", "junk", "other", "foreign")))
    if how in ("tweak", "fitting", "junk") and names:
        chosen = draw(st.lists(st.sampled_from(names), min_size=1, max_size=len(names), unique=True))
        specs = dict(zip(shape_of(type(action)).names, shape_of(type(action)).specs, strict=True))
        changes = {}
        for name in chosen:
            if how == "tweak":
                changes[name] = draw(tweaked(getattr(action, name), texts))
            else:
                changes[name] = draw(fitting(specs[name], texts) if how == "fitting" else junk(texts))
        return dataclasses.replace(action, **changes)
    if how == "foreign":
        foreign = [t for gid in game_ids() for t in get_game(gid).action_types if t not in game.action_types]
        return draw(st.one_of(st.sampled_from(foreign).flatmap(lambda t: instances(t, texts)), junk(texts)))
    return draw(st.sampled_from(game.action_types).flatmap(lambda t: instances(t, texts)))


# ---- one try ----------------------------------------------------------------------------
def attempt(game, spot: Spot, action: Any) -> str:
    """Validate `action` at `spot` (a dealt public state: as it stands, then with the faces
    the step reads shown, as the table shows them before it validates); if accepted, apply
    the step with it and read its events and views. Returns what happened; an escape raises
    (or, tallying, is counted)."""
    try:
        return _attempt(game, spot, action)
    except GameError:
        return "refused late"  # events or a view refusing: a GameError still names a cause
    except Exception as exc:
        if not TALLY:
            raise AssertionError(f"{game.id}: seat {spot.seat} at phase {getattr(spot.state, 'phase', '?')}: "
                                 f"{action!r} escaped with {exc!r}") from exc
        frame = traceback.extract_tb(exc.__traceback__)[-1]
        tally[f"{game.id} {type(exc).__name__} at {frame.filename.split('/engine/')[-1]}:{frame.lineno}"] += 1
        return "escape"


def _attempt(game, spot: Spot, action: Any) -> str:
    seat = spot.seat
    refused = _refuses(game, spot.state, seat, action)
    if refused and not _fits(game, action):
        return "refused"  # no message carries it: only a well-formed action is ever decoded
    shown = shown_for(game, spot.state, {**spot.step, seat: action}, spot.faces)
    if spot.faces is not None and shown is not None:  # the table showed what the step reads
        refused = _refuses(game, shown[0], seat, shown[1][seat])
    if refused:
        return "refused"
    if not spot.appliable or shown is None:
        return "accepted"
    state, actions = shown
    try:
        after = game.apply(state, actions)
    except GameError:
        return "refused by apply"
    game.events(state, actions, after)
    for viewer in (None,) if spot.faces is not None else (None, seat):  # a seat's own view is
        game.view(after, viewer)  # of what it knows, never of the table's public state
    return "applied"


def _fits(game, action: Any) -> bool:
    """True for an action of the game's types whose fields fit (what a message can carry)."""
    kind = type(action)
    return kind in game.action_types and shape_of(kind).fault(action) < 0


def _refuses(game, state: Any, seat: int, action: Any) -> bool:
    try:
        game.validate(state, seat, action)
    except GameError:
        return True
    return False


@pytest.mark.parametrize("game_id", game_ids())
def test_no_mutated_action_raises_anything_but_a_game_error(game_id: str) -> None:
    game = get_game(game_id)
    pool = spots(game_id, full=FULL_POOL)
    outcomes: Counter[str] = Counter()

    @settings(max_examples=EXAMPLES, deadline=None, database=None,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
    @given(data=st.data())
    def run(data) -> None:
        spot = pool[data.draw(st.integers(0, len(pool) - 1), label="spot")]
        texts = tuple(sorted(strings_in(to_plain(spot.state)) | strings_in(to_plain(spot.action))))
        assert attempt(game, spot, spot.action) in ("applied", "accepted"), "the legal action itself"
        for _ in range(BATCH):
            outcomes[attempt(game, spot, data.draw(mutants(game, spot.action, texts)))] += 1

    run()
    tried[game_id] = sum(outcomes.values())
    if TALLY or EXAMPLES > 100:
        print(f"\n{game_id}: {tried[game_id]} actions over {len(pool)} spots: {dict(outcomes)}")
        for where, count in tally.most_common():
            print(f"  {count:6d}  {where}")
    assert not [w for w in tally if w.startswith(game_id + " ")], "escapes (above)"
    assert outcomes["refused"], f"the mutations must reach the rules' refusals: {dict(outcomes)}"
