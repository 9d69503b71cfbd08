"""The fast canonical encoder gives the bytes of the definition (to_plain, every map sorted,
msgpack), for every kind of plain value and every state of real games; and the cache of
unchanged parts never hands back the bytes of another part."""

from __future__ import annotations

import enum
from dataclasses import dataclass
from hashlib import sha256
from typing import Any

import pytest

from engine.bots import make_bot
from engine.core import Stream, canonical, hashing, plain, seed_bytes, state_hash
from engine.core.hashing import defined_canonical
from engine.registry import game_ids, get_game


class Colour(enum.IntEnum):
    RED = 1


@plain("test.Part")
@dataclass(frozen=True, slots=True)
class Part:
    zeta: int
    alpha: tuple


@plain("test.Whole")
@dataclass(frozen=True, slots=True)
class Whole:
    b_field: Part
    a_field: tuple
    _under: str
    Upper: bool
    blob: bytes


@pytest.mark.parametrize("value", [
    None, True, 0, -1, 2**63 - 1, -(2**63), "", "é" * 40, b"\x00" * 300, (), [],
    Part(1, ("x", 2, None, b"y")),
    Whole(Part(3, ((1, 2), [Part(4, ())])), tuple(range(70)), "u", False, b"b"),
    {"b": 1, "a": {"d": (1,), "c": Part(0, ())}},
    {2: "two", 10: "ten", "1": "one"},  # keys become strings, then sort as strings
    frozenset({"b", "a", "c"}),
    (Colour.RED, {"k": Colour.RED}),
    ("x" * 40000,), tuple(range(70000)),
])
def test_canonical_bytes_are_those_of_the_definition(value) -> None:
    assert canonical(value) == defined_canonical(value)
    assert state_hash(value) == sha256(defined_canonical(value)).hexdigest()


def test_a_value_that_is_not_plain_data_is_refused_as_before() -> None:
    with pytest.raises(TypeError, match="float is not plain engine data"):
        canonical((1, 2.5))
    with pytest.raises(TypeError, match="object is not plain engine data"):
        state_hash(Part(1, (object(),)))


def _states(game_id: str, label: str) -> list[Any]:
    game = get_game(game_id)
    seed = seed_bytes(label)
    players = 3
    bots = [make_bot(game, seat, "random", Stream(seed).fork(f"bot{seat}")) for seat in range(players)]
    state = game.setup(players, seed, None)
    states = [state]
    while not game.is_over(state) and len(states) < 400:
        chosen = {seat: bots[seat].choose(None, game.legal_actions(state, seat))
                  for seat in sorted(game.active(state))}
        state = game.apply(state, chosen)
        states.append(state)
    return states


@pytest.mark.parametrize("game_id", game_ids())
def test_every_state_of_a_game_hashes_as_the_definition_says(game_id) -> None:
    states = _states(game_id, f"hashing-{game_id}")
    assert len(states) > 15  # a whole game (7 Wonders: 18 picks)
    for state in states:  # in play order: most parts are reused from the state before
        assert state_hash(state) == sha256(defined_canonical(state)).hexdigest()
        assert canonical(state) == defined_canonical(state)


def test_a_part_kept_in_the_cache_is_never_confused_with_another() -> None:
    hashing._PARTS.clear()
    first = Whole(Part(1, ("a",)), (), "", True, b"")
    expected = state_hash(first)
    part_id = id(first.b_field)
    assert hashing._PARTS[part_id][0] is first.b_field
    # a different part under the same id (as after the first one died): bytes made anew
    other = Part(2, ("b",))
    hashing._PARTS[id(other)] = (first.b_field, hashing._PARTS[part_id][1])
    changed = Whole(other, (), "", True, b"")
    assert state_hash(changed) == sha256(defined_canonical(changed)).hexdigest() != expected


def test_the_cache_starts_again_when_full(monkeypatch) -> None:
    monkeypatch.setattr(hashing, "PARTS_KEPT", 4)
    hashing._PARTS.clear()
    for n in range(10):
        whole = Whole(Part(n, (n,)), (n,), "", True, b"")
        assert state_hash(whole) == sha256(defined_canonical(whole)).hexdigest()
        assert len(hashing._PARTS) <= 4
