"""Plain data: engine values <-> msgpack-safe structures, canonical bytes and state hashes.

Engine values are ints, bools, strings, bytes, None, tuples and frozen dataclasses registered
with `@plain("game.Name")`. A dataclass becomes a map holding its fields plus the tag under
"$t"; tuples become lists and come back as tuples. Floats are refused: they do not round-trip
the same way everywhere. Canonical bytes = msgpack with map keys sorted. A dataclass is rebuilt
only if every field fits its annotation (engine/core/shape.py); anything else is a DecodeError
naming the type, the field and what is wrong.
"""

from __future__ import annotations

import dataclasses
import operator
from collections.abc import Callable, Mapping
from typing import Any, TypeVar

import msgpack

from .errors import DecodeError
from .shape import describe_misfit, shape_of

T = TypeVar("T")
TAG = "$t"
_TYPES: dict[str, type] = {}
_FIELDS: dict[type, tuple[str, ...]] = {}
_TAGS: dict[type, str] = {}
_KEYS: dict[type, frozenset[str]] = {}  # a tagged map's keys: the fields and the tag
_FAULT_OF: dict[type, Callable[..., int]] = {}


def plain(tag: str):
    """Class decorator: register a frozen dataclass under a stable tag."""

    def register(cls: type) -> type:
        if tag in _TYPES and _TYPES[tag] is not cls:
            raise ValueError(f"plain tag {tag!r} registered twice")
        _TYPES[tag] = cls
        _TAGS[cls] = tag
        _FIELDS[cls] = tuple(f.name for f in dataclasses.fields(cls))
        _KEYS[cls] = frozenset((*_FIELDS[cls], TAG))
        return cls

    return register


def _fault_of(cls: type) -> Callable[..., int]:
    """The shape check `from_plain` asks of a class's field values, compiled on first use (a
    class's annotations may name classes its module defines after it)."""
    fault_of = _FAULT_OF[cls] = shape_of(cls).fault_of
    return fault_of


def plain_tag(cls: type) -> str | None:
    """The tag a class is registered under (None: not plain engine data)."""
    return _TAGS.get(cls)


def to_plain(value: Any) -> Any:
    """Convert an engine value to msgpack-safe structures (maps with string keys)."""
    if value is None or isinstance(value, (bool, int, str, bytes)):
        return value
    if isinstance(value, (tuple, list)):
        return [to_plain(v) for v in value]
    cls = type(value)
    tag = _TAGS.get(cls)
    if tag is not None:
        out = {name: to_plain(getattr(value, name)) for name in _FIELDS[cls]}
        out[TAG] = tag
        return out
    if isinstance(value, dict):
        return {str(k): to_plain(v) for k, v in value.items()}
    if isinstance(value, (frozenset, set)):
        return [to_plain(v) for v in sorted(value)]
    raise TypeError(f"{cls.__name__} is not plain engine data")


def from_plain(data: Any) -> Any:
    """Inverse of `to_plain`: lists become tuples, tagged maps become their dataclass."""
    if data is None or isinstance(data, (bool, int, str, bytes)):
        return data
    if isinstance(data, (list, tuple)):
        return tuple(from_plain(v) for v in data)
    if isinstance(data, dict):
        tag = data.get(TAG)
        if tag is None:
            return {k: from_plain(v) for k, v in data.items()}
        cls = _TYPES.get(tag) if isinstance(tag, str) else None
        if cls is None:
            raise DecodeError(f"unknown value type {tag!r}")
        fields = _FIELDS[cls]
        if data.keys() != _KEYS[cls]:
            raise DecodeError(f"{tag} needs fields {sorted(fields)}, got {sorted(k for k in data if k != TAG)}")
        values = [from_plain(data[name]) for name in fields]
        fault_of = _FAULT_OF.get(cls) or _fault_of(cls)
        if fault_of(*values) >= 0:  # no rule ever reads a field of the wrong type
            raise DecodeError(f"bad {tag}: {describe_misfit(shape_of(cls).misfit_of(tuple(values)))}")
        try:
            return cls(*values)
        except (TypeError, ValueError) as exc:
            raise DecodeError(f"bad {tag}: {exc}") from exc
    raise DecodeError(f"{type(data).__name__} is not plain engine data")


def map_strings(value: T, table: Mapping[str, str]) -> T:
    """`value` (an engine value) with every string in `table` made its entry there: what
    `from_plain` gives of its plain form with each string replaced, built directly. Only what
    holds a changed string is rebuilt (a state or a view is mostly unchanged by a show or a
    renaming): walking the plain form was 9 in 10 of a goods-thinking bot's decision in a
    dealt Sheriff game."""

    get = table.get

    def each(items: Any) -> list[Any]:  # strings and numbers inline: most leaves are
        return [get(v, v) if type(v) is str else v if type(v) in _ATOMS else walk(v) for v in items]

    def walk(value: Any) -> Any:
        kind = type(value)
        if kind is str:
            return get(value, value)
        if kind is tuple:
            items = each(value)
            return value if all(map(operator.is_, items, value)) else tuple(items)
        names = _FIELDS.get(kind)
        if names is not None:
            old = [getattr(value, name) for name in names]
            new = each(old)
            if all(map(operator.is_, new, old)):
                return value
            return kind(*new)  # its own __init__, as `from_plain` builds it (Money!'s sorts)
        if kind in _ATOMS:
            return value
        # a list, a set, a map: through its plain form
        return from_plain(map_plain_strings(to_plain(value), lambda text: get(text, text)))

    return walk(value)


_ATOMS = frozenset({int, bool, bytes, type(None)})


def map_plain_strings(data: Any, visit: Callable[[str], Any]) -> Any:
    """Plain data with every string but a tag made `visit(s)` (map keys are left alone)."""
    if isinstance(data, str):
        return visit(data)
    if isinstance(data, list):
        return [map_plain_strings(item, visit) for item in data]
    if isinstance(data, dict):
        return {k: v if k == TAG else map_plain_strings(v, visit) for k, v in data.items()}
    return data


def relabel(value: T, a: str, b: str) -> T:
    """`value` with every string `a` made `b` and every `b` made `a` (two cards trading places
    in a state whose cards are unique string ids: the test hook `Game.swap_cards`)."""
    return map_strings(value, {a: b, b: a})


def strings_in(data: Any) -> set[str]:
    """Every string in plain data (maps' keys and values, lists, tuples): where a card id
    shows in a view or a message."""
    out: set[str] = set()
    stack = [data]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            out.add(item)
        elif isinstance(item, dict):
            stack.extend(item.values())
            stack.extend(item.keys())
        elif isinstance(item, (list, tuple)):
            stack.extend(item)
    return out


def decode(data: bytes) -> Any:
    """Engine value from canonical bytes."""
    try:
        raw = msgpack.unpackb(data, raw=False, strict_map_key=True)
    except Exception as exc:  # msgpack raises several unrelated types
        raise DecodeError(f"not msgpack: {exc}") from exc
    return from_plain(raw)


# Why it is fast: the generated __init__ of a frozen dataclass sets every field with
# object.__setattr__(self, "name", value), which costs most of a step when a state has
# sixteen fields or more. For a slots class the maker is a plain (not frozen) twin class
# with the same slots: its __init__ stores the fields at the speed of any attribute store,
# then turns the object into a `cls` (Python allows `__class__` assignment between classes
# of the same layout), about three times faster than cls(...). For a class without slots
# (Sheriff's State: thirty fields, edited as a draft) a build makes the draft dict itself
# the new object's __dict__, with no copy at all. Either way the object is equal to what
# cls(...) makes, of type `cls`; only for classes with no __post_init__ (nothing else runs).
def fast_maker(cls: type[T]) -> Callable[..., T]:
    """The one way rules build a new state (or any frozen dataclass on a hot path).

    `make = fast_maker(State)`, then:
    - `make(*values)`: every field, in order (positional, like a tuple);
    - `make.evolve(state, **changes)`: a copy with a few fields changed (what
      `dataclasses.replace` does, faster);
    - `make.draft(state)` -> a dict of every field, in order, to edit through a transition,
      and `make.build(draft)` -> the new state (the draft is the state's from then on);
    - `make.values(state)`: every field's value, in order.
    A class with a field named as one of these helpers gets the maker without that helper.
    A setup may still call `State(...)` with keywords; transitions use the maker.
    """
    names = tuple(f.name for f in dataclasses.fields(cls))
    if hasattr(cls, "__post_init__"):
        raise TypeError(f"{cls.__name__} has a __post_init__: build it with {cls.__name__}(...)")
    if "__slots__" not in cls.__dict__:
        return _dict_maker(cls, names)
    if tuple(cls.__slots__) != names:
        raise TypeError(f"{cls.__name__} is not a plain frozen slots dataclass")
    lines = [f"def __init__(self, {', '.join(names)}):"]
    lines += [f"    self.{name} = {name}" for name in names]
    lines.append("    self.__class__ = _cls")  # from now on a frozen `cls`
    scope: dict = {"_cls": cls}
    exec("\n".join(lines), scope)  # unrolled like dataclasses' own generated code
    getter = operator.attrgetter(*names)
    values = getter if len(names) > 1 else (lambda obj: (getter(obj),))
    index = {name: i for i, name in enumerate(names)}

    def evolve(obj: T, **changes: Any) -> T:
        fields = list(values(obj))
        for name, value in changes.items():
            if name not in index:
                raise TypeError(f"{cls.__name__} has no field {name!r}")
            fields[index[name]] = value
        return make(*fields)

    def draft(obj: T) -> dict[str, Any]:
        return dict(zip(names, values(obj), strict=True))

    def build(fields: dict[str, Any]) -> T:
        _check_draft(cls, names, fields)
        return make(*fields.values())

    helpers = {"evolve": evolve, "values": values, "draft": draft, "build": build}
    make = type(f"_{cls.__name__}Builder", (), {
        "__slots__": names, "__init__": scope["__init__"],
        # a helper named as a field would clash with the field's slot: that maker goes without it
        **{name: staticmethod(helper) for name, helper in helpers.items() if name not in names},
    })
    probe = make(*range(len(names)))  # the layouts match, or this raises TypeError now
    if type(probe) is not cls or list(values(probe)) != list(range(len(names))):
        raise TypeError(f"cannot build {cls.__name__} through a twin class")
    return make


def _check_draft(cls: type, names: tuple[str, ...], fields: dict[str, Any]) -> None:
    """A draft holds every field once, in order: a misspelt name in a transition shows here."""
    if len(fields) != len(names):
        raise KeyError(f"{cls.__name__} has no field {sorted(set(fields) - set(names))}")


def _dict_maker(cls: type[T], names: tuple[str, ...]) -> Callable[..., T]:
    """`fast_maker` for a frozen dataclass that keeps its fields in a __dict__."""
    new, set_dict, n_fields = object.__new__, object.__setattr__, len(names)

    def build(fields: dict[str, Any]) -> T:
        if len(fields) != n_fields:  # `_check_draft` inline: this runs at every step
            _check_draft(cls, names, fields)
        obj = new(cls)
        set_dict(obj, "__dict__", fields)  # the draft becomes the object's own: no copy
        return obj

    def make(*values: Any) -> T:
        return build(dict(zip(names, values, strict=True)))

    def draft(obj: T) -> dict[str, Any]:
        return dict(obj.__dict__)

    def evolve(obj: T, **changes: Any) -> T:
        fields = dict(obj.__dict__)
        fields.update(changes)
        return build(fields)

    def values(obj: T) -> tuple[Any, ...]:
        return tuple(obj.__dict__.values())

    make.evolve, make.values, make.draft, make.build = evolve, values, draft, build  # type: ignore[attr-defined]
    return make
