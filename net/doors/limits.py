"""What a door lets in: token buckets per address and caps on sessions (per key and in total).

Shared by every door (SSH, browser). Each check answers None (admitted) or the one line the
visitor is told; the door writes that line to the visitor and to the log. Time is passed in
(`now`, seconds on any monotonic clock), so the arithmetic is tested without waiting. Memory
is bounded whatever an unknown client sends: at most `max_addresses` buckets are kept, the
longest-idle one is forgotten first.
"""

from __future__ import annotations

import math
from collections import OrderedDict
from dataclasses import dataclass


@dataclass(frozen=True)
class DoorLimits:
    """A door's limits; each is a flag of `gamenight relay` (docs/network.md lists them)."""

    sessions_per_key: int = 3  # one visitor's terminals open at once
    sessions_total: int = 32  # visitors at once, whoever they are
    connections_per_minute: float = 20.0  # new connections from one address (token bucket)
    connection_burst: int = 20
    auth_per_minute: float = 30.0  # keys offered from one address (each key tried is one)
    auth_burst: int = 30
    idle_seconds: float = 30 * 60.0  # no key pressed for this long ends a session
    session_seconds: float = 12 * 3600.0  # the longest session
    login_seconds: float = 30.0  # a connection must have authenticated by then
    pending_connections: int = 64  # connections not yet in a session, at once

    def __post_init__(self) -> None:
        for name in ("sessions_per_key", "sessions_total", "connection_burst", "auth_burst",
                     "pending_connections"):
            if getattr(self, name) < 1:
                raise ValueError(f"{name.replace('_', ' ')} must be at least 1, not {getattr(self, name)}")
        for name in ("connections_per_minute", "auth_per_minute", "idle_seconds", "session_seconds",
                     "login_seconds"):
            value = getattr(self, name)
            if not (value > 0 and math.isfinite(value)):
                raise ValueError(f"{name.replace('_', ' ')} must be a positive number, not {value}")


class TokenBucket:
    """`burst` tokens, refilled at `per_minute` a minute; each admitted attempt takes one."""

    __slots__ = ("rate", "burst", "tokens", "stamp")

    def __init__(self, per_minute: float, burst: int, now: float) -> None:
        self.rate = per_minute / 60.0
        self.burst = float(burst)
        self.tokens = float(burst)
        self.stamp = now

    def _refill(self, now: float) -> None:
        if now > self.stamp:
            self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
            self.stamp = now

    def take(self, now: float) -> bool:
        self._refill(now)
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        return False

    def wait(self, now: float) -> float:
        """Seconds until the next token."""
        self._refill(now)
        return max(0.0, (1.0 - self.tokens) / self.rate)

    def full(self, now: float) -> bool:
        self._refill(now)
        return self.tokens >= self.burst


class AddressBuckets:
    """One TokenBucket per client address, at most `max_addresses` of them."""

    def __init__(self, per_minute: float, burst: int, what: str, max_addresses: int = 4096) -> None:
        self.per_minute, self.burst, self.what = per_minute, burst, what
        self.max_addresses = max_addresses
        self._buckets: OrderedDict[str, TokenBucket] = OrderedDict()

    def __len__(self) -> int:
        return len(self._buckets)

    def take(self, address: str, now: float) -> str | None:
        """None if `address` may try now, else the line that says when it may again."""
        bucket = self._buckets.get(address)
        if bucket is None:
            self._forget(now)
            bucket = self._buckets[address] = TokenBucket(self.per_minute, self.burst, now)
        self._buckets.move_to_end(address)
        if bucket.take(now):
            return None
        return f"too many {self.what} from {address}; try again in {math.ceil(bucket.wait(now))} s"

    def _forget(self, now: float) -> None:
        """Room for one more address: drop refilled buckets, else the longest idle one."""
        if len(self._buckets) < self.max_addresses:
            return
        for address in [a for a, b in self._buckets.items() if b.full(now)]:
            del self._buckets[address]
        while len(self._buckets) >= self.max_addresses:
            self._buckets.popitem(last=False)


class SessionCaps:
    """Sessions open at once: per visitor's key and in total."""

    def __init__(self, per_key: int, total: int) -> None:
        self.per_key, self.total = per_key, total
        self.open: dict[str, int] = {}

    @property
    def count(self) -> int:
        return sum(self.open.values())

    def admit(self, key: str) -> str | None:
        """Take a place for `key`; None if admitted, else the line that says why not."""
        if self.count >= self.total:
            return f"the door is full ({self.total} sessions open); try again later"
        if self.open.get(key, 0) >= self.per_key:
            return (f"your key already has {self.per_key} session{'s' if self.per_key > 1 else ''} "
                    "open here, the most allowed; close one first")
        self.open[key] = self.open.get(key, 0) + 1
        return None

    def release(self, key: str) -> None:
        left = self.open.get(key, 0) - 1
        if left > 0:
            self.open[key] = left
        else:
            self.open.pop(key, None)
