"""Canonical bytes and state hashes, computed fast: the bytes are those of the definition.

The definition (engine/core/plain.py, docs/protocol.md): msgpack of `to_plain(value)` with
every map's keys sorted. Saves and the wire carry these hashes, so the bytes may never change;
only how they are made. Every step of a networked game hashes its state, so this runs hot:

- each plain class gets an encoder compiled on first use that builds its map with the keys
  already in sorted order (no second pass to sort every map), and leaves ints and strings as
  they are without a call;
- a state's parts that the step did not change are the very same objects as in the state
  before (transitions copy references), so the bytes of each top-level part of a state are
  kept by the part's identity and reused. Engine values are immutable (frozen dataclasses and
  tuples), so a part's bytes cannot go stale while the part is alive, and the cache holds each
  part it describes, so an id cannot be reused while its bytes are kept.
"""

from __future__ import annotations

from collections.abc import Callable
from hashlib import sha256
from typing import Any

import msgpack

from .plain import _FIELDS, _TAGS, TAG, to_plain

_LEAVES = frozenset((str, int, bool, bytes, type(None)))
_ENCODERS: dict[type, Callable[[Any], dict]] = {}
_PARTS: dict[int, tuple[Any, bytes]] = {}
"""id(part) -> (the part, its canonical bytes): the top-level parts of recent states."""
PARTS_KEPT = 1 << 12
"""How many parts the cache holds before it starts again: the parts of the last state of a
hundred tables or so (a part's bytes are 150-400 bytes on average, so about 1-2 MB with the
parts it keeps alive). Thousands of tables in one process push each other's parts out; their
hashes then cost what the encoder alone costs (bench/state_hash.py, "no cache")."""

_PACKER = msgpack.Packer(use_bin_type=True, autoreset=True)
_pack = _PACKER.pack
# One packer for every caller, a thread too: packing plain lists, maps, strings and ints runs
# in C without calling back into Python, so no other thread can run in the middle of a pack.


def _sorted_plain(value: Any) -> Any:
    """`to_plain(value)` with every map's keys already in sorted order."""
    kind = type(value)
    if kind in _LEAVES:
        return value
    if kind is tuple or kind is list:
        return [item if type(item) in _LEAVES else _sorted_plain(item) for item in value]
    encoder = _ENCODERS.get(kind)
    if encoder is not None:
        return encoder(value)
    if kind in _TAGS:
        return _compile(kind)(value)
    return _sorted_plain_other(value)


def _sorted_plain_other(value: Any) -> Any:
    """The rarer kinds, exactly as `to_plain` then the sort treat them."""
    if value is None or isinstance(value, (bool, int, str, bytes)):
        return value  # subclasses (an IntEnum): msgpack packs them as their base
    if isinstance(value, (tuple, list)):
        return [_sorted_plain(item) for item in value]
    if isinstance(value, dict):
        converted = {str(k): v for k, v in value.items()}  # a later equal key wins, as before
        return {k: _sorted_plain(converted[k]) for k in sorted(converted)}
    if isinstance(value, (frozenset, set)):
        return [_sorted_plain(item) for item in sorted(value)]
    raise TypeError(f"{type(value).__name__} is not plain engine data")


def _compile(cls: type) -> Callable[[Any], dict]:
    """An encoder for one plain class: a dict display with its keys in sorted order."""
    items = []
    for key in sorted((*_FIELDS[cls], TAG)):
        if key == TAG:
            items.append(f"{key!r}: _tag")
        else:  # a leaf is stored as it is; anything else goes through _sorted_plain
            items.append(f"{key!r}: (x if type(x := v.{key}) in _leaves else _enc(x))")
    source = f"def encode(v):\n    return {{{', '.join(items)}}}"
    scope = {"_tag": _TAGS[cls], "_leaves": _LEAVES, "_enc": _sorted_plain}
    exec(source, scope)  # like dataclasses' own generated code
    encoder = _ENCODERS[cls] = scope["encode"]
    return encoder


def canonical(value: Any) -> bytes:
    """Canonical msgpack bytes of an engine value: sorted map keys, no floats."""
    return _pack(_sorted_plain(value))


def _part_bytes(part: Any) -> bytes:
    """The canonical bytes of one part of a state, reused while the same part lives on."""
    kind = type(part)
    if kind in _LEAVES:
        return _pack(part)
    kept = _PARTS.get(id(part))
    if kept is not None and kept[0] is part:
        return kept[1]
    encoded = _pack(_sorted_plain(part))
    if len(_PARTS) >= PARTS_KEPT:
        _PARTS.clear()  # one call, safe against a second thread (a dict's clear is atomic)
    _PARTS[id(part)] = (part, encoded)
    return encoded


def state_canonical(state: Any) -> bytes:
    """`canonical(state)`, assembled from the bytes of its top-level parts: a state is a map
    (plain class), and a map's bytes are its header, then each key's bytes and its value's."""
    cls = type(state)
    fields = _FIELDS.get(cls)
    if fields is None or cls not in _TAGS:
        return canonical(state)
    keys = sorted((*fields, TAG))
    out = [_pack_map_header(len(keys))]
    for key in keys:
        out.append(_pack(key))
        out.append(_pack(_TAGS[cls]) if key == TAG else _part_bytes(getattr(state, key)))
    return b"".join(out)


def _pack_map_header(n: int) -> bytes:
    return _PACKER.pack_map_header(n)


def state_hash(state: Any) -> str:
    """SHA-256 (hex) of the canonical encoding of a state."""
    return sha256(state_canonical(state)).hexdigest()


def defined_canonical(value: Any) -> bytes:
    """The canonical bytes by their definition, slowly: msgpack of `to_plain(value)` with every
    map's keys sorted in a second pass. What `canonical` and `state_hash` must equal (the tests
    compare them over every game's states; bench/state_hash.py times both)."""
    return msgpack.packb(_keys_sorted(to_plain(value)), use_bin_type=True)


def _keys_sorted(data: Any) -> Any:
    if isinstance(data, dict):
        return {k: _keys_sorted(data[k]) for k in sorted(data)}
    if isinstance(data, list):
        return [_keys_sorted(v) for v in data]
    return data
