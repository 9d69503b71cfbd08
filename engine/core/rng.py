"""Deterministic randomness: a counter-mode SHA-256 stream, specified so any language can match it.

Block i of the stream is SHA-256(seed || i as 8-byte big-endian). Each integer draw uses the
next block: its first 8 bytes as a big-endian unsigned integer, masked to the bit length of
n - 1; a value >= n is rejected and the next block is tried. A shuffle is Fisher-Yates from the
last index down: for i = len-1 .. 1, j = below(i + 1), swap items i and j.
`tests/vectors/rng.json` holds vectors for both.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from hashlib import sha256
from typing import TypeVar

from .plain import plain

T = TypeVar("T")


def _block(seed: bytes, counter: int) -> int:
    return int.from_bytes(sha256(seed + counter.to_bytes(8, "big")).digest()[:8], "big")


def _below(seed: bytes, counter: int, n: int) -> tuple[int, int]:
    """Return (value in [0, n), next counter)."""
    if n <= 0:
        raise ValueError(f"cannot draw below {n}")
    if n == 1:
        return 0, counter
    mask = (1 << (n - 1).bit_length()) - 1
    while True:
        value = _block(seed, counter) & mask
        counter += 1
        if value < n:
            return value, counter


def _shuffle(seed: bytes, counter: int, items: Sequence[T]) -> tuple[list[T], int]:
    out = list(items)
    for i in range(len(out) - 1, 0, -1):
        j, counter = _below(seed, counter, i + 1)
        out[i], out[j] = out[j], out[i]
    return out, counter


@plain("core.Rng")
@dataclass(frozen=True, slots=True)
class Rng:
    """Immutable RNG state kept inside game state; every draw returns the next Rng."""

    seed: bytes
    counter: int = 0

    def below(self, n: int) -> tuple[int, Rng]:
        value, counter = _below(self.seed, self.counter, n)
        return value, Rng(self.seed, counter)

    def shuffle(self, items: Sequence[T]) -> tuple[tuple[T, ...], Rng]:
        out, counter = _shuffle(self.seed, self.counter, items)
        return tuple(out), Rng(self.seed, counter)


class Stream:
    """A mutable wrapper over the same stream for bots and harnesses (never for game state)."""

    __slots__ = ("seed", "counter")

    def __init__(self, seed: bytes | int | str) -> None:
        self.seed = seed_bytes(seed)
        self.counter = 0

    def below(self, n: int) -> int:
        value, self.counter = _below(self.seed, self.counter, n)
        return value

    def choice(self, items: Sequence[T]) -> T:
        return items[self.below(len(items))]

    def shuffle(self, items: Sequence[T]) -> list[T]:
        out, self.counter = _shuffle(self.seed, self.counter, items)
        return out

    def chance(self, numerator: int, denominator: int) -> bool:
        return self.below(denominator) < numerator

    def fork(self, label: str) -> Stream:
        """An independent stream, e.g. one per bot seat."""
        return Stream(sha256(self.seed + b"/" + label.encode()).digest())


def seed_bytes(seed: bytes | int | str) -> bytes:
    """Normalise a user-facing seed (an int from the command line, a string, or bytes)."""
    if isinstance(seed, bytes):
        return seed
    if isinstance(seed, bool):
        raise TypeError("a seed is bytes, an int or a string")
    if isinstance(seed, int):
        return sha256(b"gamenight/seed/int/" + str(seed).encode()).digest()
    if isinstance(seed, str):
        return sha256(b"gamenight/seed/str/" + seed.encode()).digest()
    raise TypeError("a seed is bytes, an int or a string")
