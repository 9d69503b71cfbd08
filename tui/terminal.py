"""The player's terminal going away: a closed window, a dropped SSH session, a killed tmux.

A hung-up terminal sends no key and often no SIGHUP (under `make play` the session leader,
make, stays alive, so the kernel signals nobody). Textual then reads end-of-file in a loop at
100% CPU, and its output thread dies on the first write that fails, after which the screen's
next writes block the app for good. So a thread waits on the terminal for the hang-up itself;
at once it points the terminal's descriptors at /dev/null (nothing blocks or fails after
that) and tells the app, which quits as ctrl+q does: a local game's save is complete, a
network seat says goodbye. SIGHUP is the same news; SIGTERM quits the same way.
"""

from __future__ import annotations

import logging
import os
import select
import signal
import sys
import threading
from collections.abc import Callable

log = logging.getLogger(__name__)

QUIT_DEADLINE = 20.0
"""Seconds the app has to quit once its terminal is gone; then the process ends anyway (a
local game is saved after every step, so at most the step being written is lost)."""

TROUBLE = select.POLLHUP | select.POLLERR | select.POLLNVAL


def terminal_fd() -> int | None:
    """The terminal the app reads keys from, or None when its input is no terminal (a pipe
    behind the browser door, a test's headless app)."""
    stdin = sys.__stdin__
    if stdin is None:
        return None
    try:
        fd = stdin.fileno()
    except (OSError, ValueError):
        return None
    return fd if os.isatty(fd) else None


class TerminalWatch:
    """Calls `leave(why)` once, from its own thread, when the terminal on `fd` hangs up."""

    def __init__(self, fd: int, leave: Callable[[str], None]) -> None:
        self.fd = fd
        self.leave = leave
        self._std_ttys = [n for n in (0, 1, 2) if os.isatty(n)]  # after a hang-up isatty says no
        self._gone = False
        self._lock = threading.Lock()

    def start(self) -> None:
        threading.Thread(target=self._wait, name="gamenight-terminal", daemon=True).start()

    def hung_up(self, why: str = "the terminal closed") -> None:
        """The terminal is gone: silence it, tell the app, and make sure the process ends."""
        with self._lock:  # the watch thread and a SIGHUP can both bring the news
            if self._gone:
                return
            self._gone = True
        self._silence()
        self.leave(why)
        threading.Thread(target=self._end_if_stuck, name="gamenight-quit-deadline", daemon=True).start()

    def _wait(self) -> None:
        poller = select.poll()
        poller.register(self.fd, 0)  # no events asked: poll returns only on hang-up or error
        try:
            while not any(mask & TROUBLE for _, mask in poller.poll()):
                pass
        except OSError:
            pass
        self.hung_up()

    def _silence(self) -> None:
        """Point the dead terminal's descriptors at /dev/null: writes succeed, reads see EOF."""
        null = os.open(os.devnull, os.O_RDWR)
        try:
            for fd in self._std_ttys:
                os.dup2(null, fd)
        finally:
            os.close(null)

    @staticmethod
    def _end_if_stuck() -> None:
        threading.Event().wait(QUIT_DEADLINE)
        log.warning("the app did not quit within %.0f s of its terminal closing: ending the process", QUIT_DEADLINE)
        logging.shutdown()
        os._exit(1)


def on_signals(loop: object, hang_up: Callable[[], None], terminate: Callable[[], None]) -> None:
    """SIGHUP and SIGTERM call these in the event loop (where the loop can take signals)."""
    try:
        loop.add_signal_handler(signal.SIGHUP, hang_up)  # type: ignore[attr-defined]
        loop.add_signal_handler(signal.SIGTERM, terminate)  # type: ignore[attr-defined]
    except (NotImplementedError, RuntimeError, ValueError):
        pass  # not the main thread, or a platform without them: the watch still works
