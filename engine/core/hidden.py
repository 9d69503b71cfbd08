"""Cards nobody at this peer has seen: tokens that stand for one position of a dealt deck.

Over the network no peer knows the deal: the deck protocol (net/deck) shuffles each deck
among the seated peers, and a card's face is learnt only when the rules show it. A state then
holds a token where a card's face is unknown, `"?<deck>:<position>"`, with the position in the
deck as the protocol dealt it (0 is the top card). The rules move tokens as they move cards:
a physical table deals, passes and stacks cards without turning them face up. Where the rules
read a face (`Game.needs`), or a seat may see one (`Game.seen`), the table reveals it and
`reveal` writes the face in.

The state every peer agrees on (and hashes) is the public one: faces the whole table saw, and
tokens elsewhere. Each peer adds what its own seat may know on its own machine, for its view
and its choices only (`reveal(public, mine)`); `mask_action` turns such a choice back into the
public form the table applies.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, TypeVar

from .plain import from_plain, map_plain_strings, map_strings, to_plain

T = TypeVar("T")

PREFIX = "?"


def token(deck: str, position: int) -> str:
    """The token of `position` of `deck`."""
    return f"{PREFIX}{deck}:{position}"


def is_token(value: object) -> bool:
    """True for a token (a string "?<deck>:<position>"; a bare "?" is a view's hidden card)."""
    return type(value) is str and len(value) > 2 and value[0] == PREFIX and ":" in value


def parse_token(value: str) -> tuple[str, int]:
    """(deck, position) of a token; ValueError for anything else."""
    if not is_token(value):
        raise ValueError(f"{value!r} is not a card token")
    deck, _, position = value[1:].rpartition(":")
    if not deck or not position.isdigit():
        raise ValueError(f"{value!r} is not a card token")
    return deck, int(position)


def masked(deck: str, size: int) -> tuple[str, ...]:
    """A whole dealt deck, face down: the token of every position, top first."""
    return tuple(token(deck, position) for position in range(size))


def is_masked(cards: object, size: int) -> bool:
    """True when `cards` is `size` distinct tokens of one deck (a deck the protocol dealt)."""
    if not isinstance(cards, (tuple, list)) or len(cards) != size or not all(map(is_token, cards)):
        return False
    return len(set(cards)) == size and len({parse_token(c)[0] for c in cards}) <= 1


def tokens_in(value: Any) -> frozenset[str]:
    """Every token in an engine value (a state, a view, an action)."""
    found: set[str] = set()

    def collect(text: str) -> str:
        if is_token(text):
            found.add(text)
        return text

    map_plain_strings(to_plain(value), collect)
    return frozenset(found)


def reveal(value: T, faces: Mapping[str, Any]) -> T:
    """`value` with every token of `faces` replaced by its face (the rest left as it is):
    only what holds a token it replaces is rebuilt (a state is mostly untouched by one show)."""
    if not faces:
        return value
    if all(type(face) is str for face in faces.values()):  # card ids: the direct walk
        return map_strings(value, faces)
    plain_faces = {t: to_plain(face) for t, face in faces.items()}  # faces of any kind: the long way
    return from_plain(map_plain_strings(to_plain(value), lambda text: plain_faces.get(text, text)))


def mask(value: T, faces: Mapping[str, Any]) -> T:
    """`value` (an action) with faces this seat knows privately put back as their tokens.

    `faces` maps token -> face for the cards the seat holds unseen by the table, in the order
    copies are taken (`Game.in_reach`, else sorted): a face that occurs more than once in
    `value` takes a different token each time (two copies of one card are two positions).
    """
    if not faces:
        return value
    free: dict[str, list[str]] = {}
    for t in faces:  # faces are card ids: strings
        free.setdefault(faces[t], []).append(t)

    def hide(text: str) -> str:
        tokens = free.get(text)
        return tokens.pop(0) if tokens else text

    return from_plain(map_plain_strings(to_plain(value), hide))


def faces_of(cards: Iterable[Any]) -> tuple[Any, ...]:
    """The cards that are faces (not tokens), in order."""
    return tuple(c for c in cards if not is_token(c))
