"""Plain data, canonical bytes, state hashes, stacked decks, results and the action log."""

from dataclasses import dataclass

import pytest

from engine.core import (
    DecodeError,
    InvalidOption,
    Result,
    Rng,
    canonical,
    check_stacked,
    decode,
    from_plain,
    plain,
    shuffle_or_stack,
    state_hash,
    to_plain,
)


@plain("test.Thing")
@dataclass(frozen=True, slots=True)
class Thing:
    name: str
    cards: tuple[str, ...]
    inner: tuple = ()


def test_dataclasses_round_trip_through_msgpack():
    value = Thing("a", ("x", "y"), (Thing("b", ()), 3, None, b"\x00", True))
    assert decode(canonical(value)) == value


def test_canonical_bytes_do_not_depend_on_map_insertion_order():
    assert canonical({"b": 1, "a": 2}) == canonical({"a": 2, "b": 1})
    assert state_hash(Thing("a", ())) == state_hash(Thing("a", ()))
    assert state_hash(Thing("a", ())) != state_hash(Thing("b", ()))


def test_floats_are_refused():
    with pytest.raises(TypeError):
        to_plain(Thing("a", (1.5,)))  # type: ignore[arg-type]


def test_unknown_tags_and_missing_fields_are_decode_errors():
    with pytest.raises(DecodeError, match="unknown value type"):
        from_plain({"$t": "nope.Nothing"})
    with pytest.raises(DecodeError, match="needs fields"):
        from_plain({"$t": "test.Thing", "name": "a"})
    with pytest.raises(DecodeError):
        decode(b"\xc1")


def test_stacked_deck_must_be_exactly_the_setup_cards():
    deck, rng = shuffle_or_stack(["a", "b", "c"], Rng(b"x"), ["c", "a", "b"])
    assert deck == ("c", "a", "b") and rng.counter == 0
    with pytest.raises(InvalidOption, match="missing c"):
        check_stacked(["a", "b", "c"], ["a", "b"])
    with pytest.raises(InvalidOption, match="not expected d"):
        check_stacked(["a", "b"], ["a", "b", "d"])


def test_result_places_share_ties_and_use_the_tiebreak():
    shared = Result.from_breakdown([[("x", 5)], [("x", 5)], [("x", 3)]])
    assert shared.places == (1, 1, 3) and shared.winners == (0, 1)
    broken = Result.from_breakdown([[("x", 5)], [("x", 5)], [("x", 3)]], tiebreak=[1, 4, 9])
    assert broken.places == (2, 1, 3) and broken.winners == (1,)
    assert broken.scores == (5, 5, 3)
