"""The hard bot's time budget: the engine has no clock, so its callers give it one here.

`engine.bots.search.SearchBot` asks its `stopper` for a `should_stop()` at the start of each
decision and stops searching once that says so (after one round of rollouts at least); other
bots have no budget to set. The local table (tui/local_table.py) and bot peers (net/peer.py)
call `give_time`.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

DEFAULT_BOT_TIME = 1.0
"""Seconds a hard bot may think per decision unless `--bot-time` says otherwise."""
MAX_BOT_TIME = 60.0


def deadline(seconds: float) -> Callable[[], bool]:
    """A `should_stop()` that turns true `seconds` from now (monotonic clock)."""
    end = time.monotonic() + seconds
    return lambda: time.monotonic() >= end


def give_time(bot: Any, seconds: float = DEFAULT_BOT_TIME) -> Any:
    """Give `bot` a time budget per decision if it searches; any other bot is returned as is."""
    if hasattr(bot, "stopper"):
        bot.stopper = lambda: deadline(seconds)
    return bot


def searches(bot: Any) -> bool:
    """Whether `bot` thinks for a while (callers run it off the event loop)."""
    return hasattr(bot, "stopper")


def check_bot_time(seconds: float) -> float:
    """`--bot-time` as given, or ValueError with a one-line reason."""
    if not 0 < seconds <= MAX_BOT_TIME:
        raise ValueError(f"--bot-time must be more than 0 and at most {MAX_BOT_TIME:g} seconds, not {seconds:g}")
    return seconds
