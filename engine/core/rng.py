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
from struct import Struct
from typing import TypeVar

from .plain import plain

T = TypeVar("T")


_COUNTER = Struct(">Q")
_pack_counter = _COUNTER.pack
_first_u64 = _COUNTER.unpack_from  # the first 8 bytes of a digest, big-endian


def _block(seed: bytes, counter: int) -> int:
    return _first_u64(sha256(seed + _pack_counter(counter)).digest())[0]


def _below(seed: bytes, counter: int, n: int) -> tuple[int, int]:
    """Return (value in [0, n), next counter)."""
    if n <= 1:
        if n == 1:
            return 0, counter
        raise ValueError(f"cannot draw below {n}")
    mask = (1 << (n - 1).bit_length()) - 1
    # The draw loop of `_block` written out: it runs for every random choice of every bot.
    while True:
        value = _first_u64(sha256(seed + _pack_counter(counter)).digest())[0] & mask
        counter += 1
        if value < n:
            return value, counter


def _shuffle(seed: bytes, counter: int, items: Sequence[T]) -> tuple[list[T], int]:
    out = list(items)
    for i in range(len(out) - 1, 0, -1):
        # j = _below(i + 1), written out: every setup shuffles a whole deck.
        mask = (1 << i.bit_length()) - 1
        while True:
            j = _first_u64(sha256(seed + _pack_counter(counter)).digest())[0] & mask
            counter += 1
            if j <= i:
                break
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
        if n <= 1:
            value, self.counter = _below(self.seed, self.counter, n)
            return value
        # `_below` written out: bots draw once per action, so this loop is the hot path.
        seed = self.seed
        counter = self.counter
        mask = (1 << (n - 1).bit_length()) - 1
        while True:
            value = _first_u64(sha256(seed + _pack_counter(counter)).digest())[0] & mask
            counter += 1
            if value < n:
                self.counter = counter
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


class BitStream(Stream):
    """A Stream that spends each 256-bit block bit by bit, for random bots.

    A draw below n takes the next bit_length(n - 1) bits (the block read as a big-endian
    integer, from its least significant bit up) and rejects a value >= n like `below`. One
    SHA-256 then serves dozens of small draws, which is most of a random bot's cost. Only bots
    use it: game state keeps `Rng`, whose stream the vectors specify.
    """

    __slots__ = ("_bits", "_nbits")

    def __init__(self, seed: bytes | int | str) -> None:
        super().__init__(seed)
        self._bits = 0
        self._nbits = 0

    def below(self, n: int) -> int:
        if n <= 1:
            if n <= 0:
                raise ValueError(f"cannot draw below {n}")
            return 0
        width = (n - 1).bit_length()
        mask = (1 << width) - 1
        while True:
            if self._nbits < width:
                block = sha256(self.seed + _pack_counter(self.counter)).digest()
                self.counter += 1
                self._bits |= int.from_bytes(block, "big") << self._nbits
                self._nbits += 256
            value = self._bits & mask
            self._bits >>= width
            self._nbits -= width
            if value < n:
                return value


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
