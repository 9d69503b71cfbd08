"""What a relay's process holds, for bench/net_relay.py: resident memory, Python's allocations,
the relay's own structures, and (as diagnostics) live objects by type and allocations by place.

Used in the process that runs the relay: in the bench's own process, or in a child process the
bench drives over its stdin/stdout (`--relay-process`), so the hosts' memory is not the relay's.
"""

from __future__ import annotations

import collections
import ctypes
import gc
import os
import sys
import tracemalloc
from pathlib import Path
from typing import Any

MB = 2**20


def rss_bytes(pid: int | str = "self") -> int:
    """VmRSS of a process (this one by default), in bytes; 0 if it is gone."""
    try:
        text = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return 0
    for line in text.splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    return 0


def open_fds() -> int:
    return len(os.listdir("/proc/self/fd"))


def malloc_trim() -> None:
    """Give glibc's free heap pages back to the system (a diagnostic: what RSS keeps after
    this is memory in use, what it drops was fragmentation or free lists)."""
    ctypes.CDLL("libc.so.6").malloc_trim(0)


class _MallInfo2(ctypes.Structure):
    _fields_ = [(name, ctypes.c_size_t) for name in (
        "arena", "ordblks", "smblks", "hblks", "hblkhd", "usmblks", "fsmblks", "uordblks", "fordblks", "keepcost")]


def malloc_in_use() -> int:
    """Bytes glibc's malloc has handed out and not had back (C libraries' allocations, and
    Python's objects over 512 bytes; not pymalloc's arenas, which are mapped apart)."""
    mallinfo2 = ctypes.CDLL("libc.so.6").mallinfo2
    mallinfo2.restype = _MallInfo2
    info = mallinfo2()
    return info.uordblks + info.hblkhd


def type_counts() -> collections.Counter[str]:
    return collections.Counter(type(o).__qualname__ for o in gc.get_objects())


class RelayProbe:
    """Measures one relay's process; `baseline()` after the warm-up, `diff()` at the end."""

    def __init__(self, relay: Any, trace: bool, trim: bool, frames: int = 1) -> None:
        self.relay, self.trace, self.trim = relay, trace, trim
        if trace:
            tracemalloc.start(frames)
        self._types: collections.Counter[str] = collections.Counter()
        self._snapshot: tracemalloc.Snapshot | None = None

    def measure(self) -> dict[str, Any]:
        if self.relay.broker is not None:
            self.relay.broker.prune()  # as it does every PRUNE_EVERY seconds
        gc.collect()
        figures: dict[str, Any] = {"rss": rss_bytes()}
        if self.trim:
            malloc_trim()
            figures["rss_trimmed"] = rss_bytes()
        figures["malloc"] = malloc_in_use()
        figures["pymalloc"] = sys.getallocatedblocks()  # blocks, not bytes
        if self.trace:
            figures["traced"] = tracemalloc.get_traced_memory()[0]
            figures["trace overhead"] = tracemalloc.get_tracemalloc_memory()
        figures["fds"] = open_fds()
        figures["tasks"] = len(_all_tasks())
        figures["holdings"] = holdings(self.relay)
        return figures

    def baseline(self) -> dict[str, Any]:
        gc.collect()
        self._types = type_counts()
        if self.trace:
            self._snapshot = tracemalloc.take_snapshot()
        return {}

    def diff(self, top: int = 12) -> dict[str, Any]:
        """Live objects by type, and (with tracing) allocations by place, grown since the baseline."""
        gc.collect()
        grown = type_counts()
        grown.subtract(self._types)
        out: dict[str, Any] = {"types": [f"{n:+6d} {name}" for name, n in grown.most_common(top) if n > 0]}
        if self._snapshot is not None:
            stats = tracemalloc.take_snapshot().compare_to(self._snapshot, "traceback")
            out["places"] = [f"{s.size_diff:+9d} B {s.count_diff:+6d} blocks  "
                             + " <- ".join(f"{Path(f.filename).name}:{f.lineno}" for f in s.traceback)
                             for s in stats[:top]]
        return out

    def command(self, name: str) -> dict[str, Any]:
        return {"measure": self.measure, "baseline": self.baseline, "diff": self.diff}[name]()


def _all_tasks() -> set:
    import asyncio

    return asyncio.all_tasks()


def holdings(relay: Any) -> str:
    """What the relay and its broker hold that could grow with archived games."""
    from net import codec

    broker, transport = relay.broker, relay.transport
    return (f"handlers {len(transport._handlers)}, on-connect {len(transport._connect_callbacks)}, "
            f"watchers {len(relay.watchers)}, bots {relay.bots_running}, loaded {len(relay._loaded)}, "
            f"let go {len(relay._let_go)}, forgetting {len(relay._forgetting)}, pending {len(relay._pending)}, "
            f"tables {len(relay.lending.tables)}, retained {broker.retained_count() if broker else '-'}, "
            f"filters {broker.subscription_count() if broker else '-'}, "
            f"verified cache {codec.verified_cache_bytes() // 1024} KB, verify keys {len(codec._VERIFY_KEYS)}")
