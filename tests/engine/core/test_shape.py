"""The shape check: a plain dataclass is rebuilt, and an action validated, only when every field
holds what its annotation says (engine/core/shape.py)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest

from engine.core import DecodeError, IllegalAction, from_plain, plain, to_plain
from engine.core.shape import shape_of
from engine.money import GAME as MONEY
from engine.money.state import Bid, Keep, SwapBid, SwapMarket
from engine.sheriff.state import Declare
from engine.ten.state import Buy, Payment


@plain("test.Inner")
@dataclass(frozen=True, slots=True)
class Inner:
    amount: int


@plain("test.Shaped")
@dataclass(frozen=True, slots=True)
class Shaped:
    count: int
    flag: bool
    name: str
    raw: bytes
    cards: tuple[str, ...]
    numbers: tuple[int, ...]
    pair: tuple[str, int]
    maybe: int | None
    inner: Inner
    inners: tuple[Inner, ...]
    free: Any
    anything: tuple = ()


GOOD = Shaped(1, True, "a", b"\x00", ("x", "y"), (1, 2), ("x", 3), None, Inner(2), (Inner(3),),
              {"a": (1,)}, (None, "x", Inner(1)))


def _plain_with(**changes) -> dict:
    data = to_plain(GOOD)
    data.update(changes)
    return data


def test_a_value_that_fits_round_trips() -> None:
    assert from_plain(to_plain(GOOD)) == GOOD
    assert shape_of(Shaped).fault(GOOD) == -1


@pytest.mark.parametrize(("field", "value", "words"), [
    ("count", True, "count is True, which is not a whole number"),
    ("count", "1", "count is '1', which is not a whole number"),
    ("flag", 1, "flag is 1, which is not true or false"),
    ("name", 3, "name is 3, which is not a text"),
    ("raw", "x", "raw is 'x', which is not bytes"),
    ("cards", "xy", "cards is 'xy', which is not a tuple of texts"),
    ("cards", ["x", 2], r"cards\[1\] is 2, which is not a text"),
    ("numbers", [1, False], r"numbers\[1\] is False, which is not a whole number"),
    ("pair", ["x"], r"pair is \('x',\), which is not a tuple of 2 items"),
    ("pair", ["x", "y"], r"pair\[1\] is 'y', which is not a whole number"),
    ("maybe", "x", "maybe is 'x', which is not a whole number or nothing"),
    ("inner", 3, "inner is 3, which is not an Inner"),
    ("inner", {"$t": "test.Shaped"}, "test.Shaped needs fields"),
    ("inners", [{"$t": "test.Inner", "amount": "x"}], "bad test.Inner: amount is 'x'"),
    ("anything", "x", "anything is 'x', which is not a tuple"),
])
def test_a_field_that_does_not_fit_is_a_decode_error_naming_it(field: str, value: Any, words: str) -> None:
    with pytest.raises(DecodeError, match=words):
        from_plain(_plain_with(**{field: value}))


def test_nested_values_are_checked_in_full_for_a_built_object() -> None:
    """`fault` of an object made in the process (not decoded) looks into its inner dataclasses."""
    shape = shape_of(Shaped)
    bad = Shaped(*[getattr(GOOD, n) for n in shape.names[:8]], Inner("x"), (Inner(1), Inner(None)),
                 None)
    assert shape.fault(bad) == 8
    path, value, _ = shape.misfit(bad)
    assert (path, value) == ("inner.amount", "x")


def test_an_annotation_the_engine_never_holds_is_refused_when_compiled() -> None:
    @dataclass(frozen=True)
    class Floaty:
        ratio: float

    with pytest.raises(TypeError, match="cannot check"):
        shape_of(Floaty)


def test_an_error_quotes_an_oversized_value_briefly() -> None:
    with pytest.raises(DecodeError) as caught:
        from_plain(_plain_with(count=["x" * 10_000] * 10_000))
    assert len(str(caught.value)) < 200


# ---- validate: the shape before any rule -----------------------------------------------
def _money_turn():
    state = MONEY.setup(3, b"shape", {})
    bids = {seat: Bid(state.hands[seat][:1]) for seat in range(3)}
    state = MONEY.apply(state, bids)
    assert state.phase == "turns"
    return state, state.pending[0].owner


@pytest.mark.parametrize("slot", ["x", {}, None, True, (0,), 1.5])
def test_a_swap_whose_slot_is_not_a_whole_number_is_an_illegal_action(slot: Any) -> None:
    """The issue's wedge: a bid slot that is not an int made validate raise TypeError."""
    state, seat = _money_turn()
    other = next(bid.owner for bid in state.pending if bid.owner != seat)
    with pytest.raises(IllegalAction, match=rf"seat {seat} sent a SwapBid whose slot is .*, which is not a whole number"):
        MONEY.validate(state, seat, SwapBid(other, slot))


def test_an_action_of_another_type_is_an_illegal_action_naming_it() -> None:
    state, seat = _money_turn()
    for action, name in [(Declare("apple"), "sheriff.Declare"), (("keep",), "tuple"), (None, "NoneType"),
                         (Payment(), "ten.Payment")]:
        with pytest.raises(IllegalAction, match=f"seat {seat} sent a {name}, which is not a Money! action"):
            MONEY.validate(state, seat, action)
    MONEY.validate(state, seat, Keep())
    with pytest.raises(IllegalAction, match="side is '0'"):
        MONEY.validate(state, seat, SwapMarket("0"))


def test_a_nested_value_of_an_action_is_checked() -> None:
    from engine.ten import GAME as TEN

    state = TEN.setup(2, b"shape", {})
    seat = next(iter(TEN.active(state)))
    with pytest.raises(IllegalAction, match=r"sent a Buy whose payment\.currency is 'x'"):
        TEN.validate(state, seat, Buy("a", Payment("x")))  # type: ignore[arg-type]


def test_a_seat_that_is_not_a_whole_number_is_not_to_act() -> None:
    state, seat = _money_turn()
    for bogus in (str(seat), [seat], None, True):
        with pytest.raises(IllegalAction, match="it is not seat"):
            MONEY.validate(state, bogus, Keep())  # type: ignore[arg-type]
