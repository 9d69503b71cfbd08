"""The shape of plain data: whether each field of a frozen dataclass holds what its annotation says.

Every value that crosses the wire, a save or a log is rebuilt by `from_plain`, and every action
a seat sends reaches the rules through `Game.validate`; both ask the dataclass's `Shape` first,
so no rule ever reads a field of the wrong type (a bid's slot that is text, a card list that
is a number). A class's shape is derived once from its annotations and compiled into one
function (generated code, like `plain.fast_maker`), so the usual, well-formed value costs a
few type tests per field.

What an annotation allows:
- `int`: a whole number, never a bool (`type(x) is int`); `bool`, `str`, `bytes`, `None`: that
  exact type;
- `X | Y` (`Optional`): either; `Any`, `object`: anything;
- `tuple[X, ...]`: a tuple of any length whose every item is an X; `tuple[X, Y]`: exactly two
  items, an X then a Y; a bare `tuple`: any tuple;
- a dataclass: an instance of exactly that class, whose own fields fit (`deep`; `from_plain`
  builds the inner values first, each checked as it is built, so it asks only the class).
Any other annotation (a list, a dict, a float) is refused when the shape is compiled: the
engine's data is tuples, ints and strings.
"""

from __future__ import annotations

import dataclasses
import functools
import reprlib
import types
import typing
from collections.abc import Callable
from typing import Any

Fits = Callable[[Any], bool]

_EXACT_WORDS = {int: "a whole number", bool: "true or false", str: "a text", bytes: "bytes",
                type(None): "nothing"}
_PLURAL_WORDS = {int: "whole numbers", bool: "trues and falses", str: "texts", bytes: "bytes",
                 type(None): "nothings"}
_SHORT = reprlib.Repr()  # keywords only from Python 3.12
_SHORT.maxstring, _SHORT.maxother, _SHORT.maxtuple, _SHORT.maxlevel = 40, 40, 6, 3


def short(value: Any, most: int = 60) -> str:
    """A value as an error message quotes it: at most `most` characters, whatever its size."""
    text = _SHORT.repr(value)
    return text if len(text) <= most else text[: most - 3] + "..."


# ---- one annotation --------------------------------------------------------------------
@dataclasses.dataclass(frozen=True)
class Spec:
    """One annotation, normalised: `kind` is exact | any | tuple_of | fixed | union | data."""

    kind: str
    of: Any = None  # exact: the type; tuple_of: the item Spec; fixed/union: Specs; data: the class

    def words(self) -> str:
        """What the annotation asks for, as a player reads it."""
        if self.kind == "exact":
            return _EXACT_WORDS[self.of]
        if self.kind == "any":
            return "anything"
        if self.kind == "tuple_of":
            if self.of.kind == "any":
                return "a tuple"
            if self.of.kind == "exact":
                return f"a tuple of {_PLURAL_WORDS[self.of.of]}"
            if self.of.kind == "data":
                return f"a tuple of {self.of.of.__name__}s"
            return f"a tuple each of whose items is {self.of.words()}"
        if self.kind == "fixed":
            return f"a tuple of {len(self.of)} items ({', '.join(s.words() for s in self.of)})"
        if self.kind == "union":
            return " or ".join(s.words() for s in self.of)
        name = self.of.__name__
        return f"{'an' if name[0] in 'AEIOU' else 'a'} {name}"


ANY = Spec("any")


def spec_of(annotation: Any, where: str) -> Spec:
    """The Spec of a resolved annotation; TypeError for one the engine's data never holds."""
    if annotation in (Any, object):
        return ANY
    if annotation in _EXACT_WORDS or annotation is None:
        return Spec("exact", type(None) if annotation is None else annotation)
    if annotation is tuple:
        return Spec("tuple_of", ANY)
    if dataclasses.is_dataclass(annotation) and isinstance(annotation, type):
        return Spec("data", annotation)
    origin, args = typing.get_origin(annotation), typing.get_args(annotation)
    if origin in (typing.Union, types.UnionType):
        return Spec("union", tuple(spec_of(a, where) for a in args))
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            return Spec("tuple_of", spec_of(args[0], where))
        return Spec("fixed", tuple(spec_of(a, where) for a in args))
    raise TypeError(f"{where}: the shape check cannot check {annotation!r} (use ints, "
                    "bools, strings, bytes, None, tuples, unions or plain dataclasses)")


@functools.cache  # a Spec is a value: each predicate is built once
def fits_of(spec: Spec, deep: bool) -> Fits | None:
    """A predicate for `spec` (None: anything fits). `deep`: an inner dataclass's fields too."""
    kind = spec.kind
    if kind == "any":
        return None
    if kind == "exact":
        exact = spec.of
        return lambda x: type(x) is exact
    if kind == "tuple_of":
        return _tuple_of(spec.of, deep)
    if kind == "fixed":
        return _fixed(spec.of, deep)
    if kind == "union":
        return _union(spec.of, deep)
    cls = spec.of
    if not deep:
        return lambda x: type(x) is cls
    return lambda x: type(x) is cls and shape_of(cls).fault(x) < 0


TEXT = Spec("exact", str)


def _all_text(items: tuple) -> bool:
    """True if every item is a string: `str.join` tests them in C, several times faster than
    a test per item (card lists are most of what actions hold). A str subclass passes too:
    only the engine's own code could make one, never a decoded message."""
    try:
        "".join(items)
    except TypeError:
        return False
    return True


def _tuple_of(item: Spec, deep: bool) -> Fits:
    if item.kind == "any":
        return lambda x: type(x) is tuple
    if item == TEXT:
        return lambda x: type(x) is tuple and (not x or _all_text(x))
    if item.kind == "exact" or (item.kind == "data" and not deep):
        only = frozenset((item.of,))  # one C-level pass over the items' types
        return lambda x: type(x) is tuple and only.issuperset(map(type, x))
    each = fits_of(item, deep)
    return lambda x: type(x) is tuple and all(map(each, x))


def _fixed(items: tuple[Spec, ...], deep: bool) -> Fits:
    """A tuple of exactly these items: one generated test per item (a log holds thousands of
    (seat, action) pairs)."""
    scope: dict[str, Any] = {"_type": type, "_tuple": tuple, "_len": len}
    lines = ["def fits(x):", f"    if _type(x) is not _tuple or _len(x) != {len(items)}: return False"]
    for i, spec in enumerate(items):
        if spec.kind == "exact":
            scope[f"_t{i}"] = spec.of
            lines.append(f"    if _type(x[{i}]) is not _t{i}: return False")
        elif (fits := fits_of(spec, deep)) is not None:
            scope[f"_f{i}"] = fits
            lines.append(f"    if not _f{i}(x[{i}]): return False")
    lines.append("    return True")
    exec("\n".join(lines), scope)
    return scope["fits"]


def _union(options: tuple[Spec, ...], deep: bool) -> Fits | None:
    every = [fits_of(s, deep) for s in options]
    if None in every:
        return None
    if len(every) == 2:
        first, second = every
        if options[1] == Spec("exact", type(None)):  # X | None
            return lambda x: x is None or first(x)
        return lambda x: first(x) or second(x)  # Sheriff's zones: counts, or cards
    return lambda x: any(fits(x) for fits in every)


def misfit(spec: Spec, value: Any, path: str) -> tuple[str, Any, Spec] | None:
    """Where `value` does not fit `spec` (deep): (path to the part, that part, its Spec); None
    if it fits. Only asked once a check failed, to word the error."""
    fits = fits_of(spec, deep=True)
    if fits is None or fits(value):
        return None
    if spec.kind == "tuple_of" and type(value) is tuple:
        for i, item in enumerate(value):
            found = misfit(spec.of, item, f"{path}[{i}]")
            if found:
                return found
    if spec.kind == "fixed" and type(value) is tuple and len(value) == len(spec.of):
        for i, (item, inner) in enumerate(zip(value, spec.of, strict=True)):
            found = misfit(inner, item, f"{path}[{i}]")
            if found:
                return found
    if spec.kind == "data" and type(value) is spec.of:
        return shape_of(spec.of).misfit(value, f"{path}.")
    if spec.kind == "union":  # a dataclass of one of the kinds allowed: what is wrong inside it
        for option in spec.of:
            if option.kind == "data" and type(value) is option.of:
                return misfit(option, value, path)
    return path, value, spec


# ---- one class -------------------------------------------------------------------------
class Shape:
    """A dataclass's fields and what each may hold, with two compiled checks:

    - `fault(obj)`: the index of the first field of `obj` that does not fit (inner dataclasses
      checked in full), or -1;
    - `fault_of(*values)`: the same for the field values of an object not built yet, inner
      dataclasses by their class alone (what `from_plain` asks).
    """

    def __init__(self, cls: type) -> None:
        self.cls = cls
        self.names = tuple(f.name for f in dataclasses.fields(cls))
        hints = typing.get_type_hints(cls)
        self.specs = tuple(spec_of(hints[name], f"{cls.__name__}.{name}") for name in self.names)
        self.fault = _compile(self.names, self.specs, deep=True, of_object=True)
        self.fault_of = _compile(self.names, self.specs, deep=False, of_object=False)

    def misfit(self, obj: Any, prefix: str = "") -> tuple[str, Any, Spec] | None:
        """Where `obj` does not fit, as `misfit` says (None if it fits)."""
        return self.misfit_of(tuple(getattr(obj, name) for name in self.names), prefix)

    def misfit_of(self, values: tuple[Any, ...], prefix: str = "") -> tuple[str, Any, Spec] | None:
        for name, spec, value in zip(self.names, self.specs, values, strict=True):
            found = misfit(spec, value, prefix + name)
            if found:
                return found
        return None


def _compile(names: tuple[str, ...], specs: tuple[Spec, ...], deep: bool,
             of_object: bool) -> Callable[..., int]:
    """One function that tests each field in order: a plain type test and a list of texts
    inline (what most actions hold), anything else through its predicate."""
    scope: dict[str, Any] = {"_type": type, "_tuple": tuple, "_join": "".join}
    params = "_obj" if of_object else ", ".join(f"_{i}" for i in range(len(names)))
    lines = [f"def fault({params}):"]
    for i, (name, spec) in enumerate(zip(names, specs, strict=True)):
        value = f"_obj.{name}" if of_object else f"_{i}"
        if spec.kind == "exact":
            scope[f"_t{i}"] = spec.of
            lines.append(f"    if _type({value}) is not _t{i}: return {i}")
            continue
        if spec == Spec("tuple_of", TEXT):  # `_all_text` unrolled: no call on the way through
            lines += [f"    _x = {value}", f"    if _type(_x) is not _tuple: return {i}",
                      "    if _x:", "        try:", "            _join(_x)",
                      f"        except TypeError: return {i}"]
            continue
        fits = fits_of(spec, deep)
        if fits is not None:
            scope[f"_f{i}"] = fits
            lines.append(f"    if not _f{i}({value}): return {i}")
    lines.append("    return -1")
    exec("\n".join(lines), scope)  # unrolled, as plain.fast_maker's builders are
    return scope["fault"]


_SHAPES: dict[type, Shape] = {}


def shape_of(cls: type) -> Shape:
    """The Shape of a dataclass, compiled on first use (its annotations may name classes
    defined after it in its module, so not when it is registered)."""
    shape = _SHAPES.get(cls)
    if shape is None:
        shape = _SHAPES[cls] = Shape(cls)
    return shape


def describe_misfit(found: tuple[str, Any, Spec]) -> str:
    """'slot is 'x', which is not a whole number' for a misfit."""
    path, value, spec = found
    return f"{path} is {short(value)}, which is not {spec.words()}"
