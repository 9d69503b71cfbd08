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


def test_the_state_maker_builds_equal_states_both_ways() -> None:
    """fast_maker: one way to build a state, for slots classes and __dict__ classes alike."""
    from engine.core import fast_maker
    from engine.sheriff import GAME as SHERIFF
    from engine.sheriff.state import State as SheriffState
    from engine.ten import GAME as TEN
    from engine.ten.state import State as TenState

    for game, cls in ((TEN, TenState), (SHERIFF, SheriffState)):
        state = game.setup(3, b"maker", game.check_options({}))
        make = fast_maker(cls)
        assert make(*make.values(state)) == state
        assert type(make(*make.values(state))) is cls
        turn = (state.turn + 1) % 3
        changed = make.evolve(state, turn=turn)
        assert changed.turn == turn and changed != state
        assert make.evolve(changed, turn=state.turn) == state
        draft = make.draft(state)
        draft["turn"] = turn
        assert make.build(draft) == changed
        with pytest.raises((KeyError, TypeError)):
            make.build({**make.draft(state), "trun": turn})
        with pytest.raises((KeyError, TypeError)):
            make.evolve(state, trun=turn)


def test_a_field_named_as_a_maker_helper_keeps_its_field() -> None:
    """7 Wonders' CardOption has a field `build`: its maker builds it, without `make.build`."""
    from engine.core import fast_maker
    from engine.seven_wonders.state import CardOption, Payment

    make = fast_maker(CardOption)
    option = make("a", "pay", 1, (Payment(0, 2),), False, True)
    assert option == CardOption(card="a", build="pay", coin_cost=1, payments=(Payment(0, 2),),
                                chain=False, free_build=True)
    assert type(option) is CardOption and option.build == "pay"
    assert make.evolve(option, build="free").build == "free"


def test_map_strings_renames_each_string_and_rebuilds_only_what_changed() -> None:
    from engine.core.plain import map_strings

    untouched = Thing("b", ("z",))
    value = Thing("a", ("x", "y", "x"), (untouched, 3, None, b"x", True, ("x",)))
    renamed = map_strings(value, {"x": "X", "a": "A"})
    assert renamed == Thing("A", ("X", "y", "X"), (untouched, 3, None, b"x", True, ("X",)))
    assert renamed.inner[0] is untouched  # nothing in it changed: the same object
    assert map_strings(value, {"q": "Q"}) is value
