"""The hard bot's time budget: the engine has no clock, so its callers give it one here.

`engine.bots.search.SearchBot` asks its `stopper` for a `Deadline` at the start of each
decision, asks it before every rollout whether to begin another (after two at least) and at
every step of a rollout whether the time is up; other bots have no budget to set. The local
table (tui/local_table.py) and bot peers (net/peer.py) call `give_time`.
"""

from __future__ import annotations

import functools
import gc
import threading
import time
from collections.abc import Callable
from typing import Any

DEFAULT_BOT_TIME = 1.0
"""Seconds a hard bot may think per decision unless `--bot-time` says otherwise."""
MAX_BOT_TIME = 60.0


class Deadline:
    """A decision's budget (`engine.bots.search.Budget`), `seconds` from when it is made
    (monotonic clock). Both questions look one piece of work ahead, as long as the longest of
    its kind so far: asked before a rollout, true once the next rollout would end past the
    budget; asked at each step of one (`spent()`), true once the next step would.

    The search asks before every rollout, so the time between two asks is one rollout's
    (before the first ask: the normal bot's choice and the candidates). A stop only once the
    deadline had passed overran it by up to a whole rollout (a Ten game played out takes tens
    of milliseconds). Between two reads of the clock of either kind lies one step, or what no
    step check splits: a rollout's final score (Ten's best-total search, up to ~50 ms), the
    next determinization's deal; `spent()` keeps the longest of those in hand, so the last
    piece of work ends within the budget too."""

    def __init__(self, seconds: float) -> None:
        self.last_read = time.monotonic()
        self.end = self.last_read + seconds
        self.last_rollout: float | None = None
        self.longest_rollout = 0.0
        self.longest_gap = 0.0

    def __call__(self) -> bool:
        now = self._read()
        if self.last_rollout is not None:
            self.longest_rollout = max(self.longest_rollout, now - self.last_rollout)
        self.last_rollout = now
        return now + max(self.longest_rollout, self.longest_gap) >= self.end

    def spent(self) -> bool:
        """True once the next step, or what follows the last, would end past the budget (the
        search drops the rollout under way)."""
        now = self._read()
        return now + self.longest_gap >= self.end

    def _read(self) -> float:
        now = time.monotonic()
        self.longest_gap = max(self.longest_gap, now - self.last_read)
        self.last_read = now
        return now


def give_time(bot: Any, seconds: float = DEFAULT_BOT_TIME) -> Any:
    """Give `bot` a time budget per decision if it searches (its decisions run without the
    cyclic collector, `without_collections`); any other bot is returned as is."""
    if hasattr(bot, "stopper"):
        bot.stopper = lambda: Deadline(seconds)
        bot.choose = without_collections(bot.choose)
    return bot


def without_collections(choose: Callable[[Any, Any], Any]) -> Callable[[Any, Any], Any]:
    """`choose`, with the cyclic collector off until it returns, and every object alive when
    it begins left out of the collector's walks until then (`gc.freeze`, then `gc.unfreeze`:
    all of it collectable again once the collector is back on).

    A long game's heap is mostly the engine's remembered results; a full collection walks all
    of it (45-75 ms of CPU after a hundred Ten games, hundreds of ms on a loaded machine) and,
    landing inside a rollout, ran a decision far past its budget (a 200 ms Ten decision took
    546 ms). With the heap frozen, collecting what the decision itself made still took 21-29 ms
    of each of the worst 100 ms Ten decisions (its caches fill as it searches; 125.0 ms the
    worst of 200 games), so none runs while it thinks. A decision leaves little cyclic garbage
    to collect later (after 1 s of search: 0 objects in Money! and Ten, 54 in Sheriff, 5,358 in
    7 Wonders)."""

    @functools.wraps(choose)
    def frozen_heap(view: Any, actions: Any) -> Any:
        _freeze()
        try:
            return choose(view, actions)
        finally:
            _thaw()

    return frozen_heap


_FROZEN = threading.Lock()
_thinking = 0
"""Decisions under way with the heap frozen: bots of one process may think at once, in
threads (a relay's bots in a 7 Wonders turn); the heap thaws when the last one ends."""
_collector_was_on = True
"""Whether the cyclic collector ran before the first decision under way began (one the caller
had turned off stays off)."""


def _freeze() -> None:
    global _thinking, _collector_was_on
    with _FROZEN:
        if not _thinking:
            _collector_was_on = gc.isenabled()
            gc.disable()
        _thinking += 1
        gc.freeze()  # again for a later decision: what the first ones made is frozen too


def _thaw() -> None:
    global _thinking
    with _FROZEN:
        _thinking -= 1
        if not _thinking:
            gc.unfreeze()
            if _collector_was_on:
                gc.enable()


def searches(bot: Any) -> bool:
    """Whether `bot` thinks for a while (callers run it off the event loop)."""
    return hasattr(bot, "stopper")


def check_bot_time(seconds: float) -> float:
    """`--bot-time` as given, or ValueError with a one-line reason."""
    if not 0 < seconds <= MAX_BOT_TIME:
        raise ValueError(f"--bot-time must be more than 0 and at most {MAX_BOT_TIME:g} seconds, not {seconds:g}")
    return seconds
