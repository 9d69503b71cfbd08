"""A child process on a real pseudo-terminal, its bytes forwarded with asyncio (no threads).

The child is the leader of its own session with the pty as its controlling terminal, so
setting the window size (TIOCSWINSZ) makes the kernel send it SIGWINCH, as a real terminal
does. The pty is in raw mode before the child starts: what a visitor types before the app is
up is never echoed. `stop()` ends the child's whole process group: a key that asks it to quit
(it saves and leaves its table as its user would), then SIGHUP (the terminal hung up), then
SIGTERM, then SIGKILL, each after a short grace, and reaps it.
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import logging
import os
import signal
import struct
import sys
import termios
import tty
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

log = logging.getLogger("gamenight.net")

READ_CHUNK = 65536
MAX_PENDING_INPUT = 64 * 1024  # typed ahead while the child does not read: the rest is dropped
MAX_COLS, MAX_ROWS = 500, 200  # what a client may claim: a bigger screen costs the app memory

# Run in the child before the real command: become the pty's controlling process (it already
# leads a new session), then become the command. Only the standard library, no project import.
_TAKE_TERMINAL = "import fcntl,os,sys,termios;fcntl.ioctl(0,termios.TIOCSCTTY,0);os.execv(sys.argv[1],sys.argv[1:])"


def window_size(cols: int, rows: int) -> tuple[int, int]:
    """The size to give the pty: a client's claim within bounds, 80x24 for a missing one."""
    cols = cols if cols > 0 else 80
    rows = rows if rows > 0 else 24
    return min(cols, MAX_COLS), min(rows, MAX_ROWS)


def set_window_size(fd: int, cols: int, rows: int) -> None:
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))


class PtyChild:
    """`argv` on a new pty of `cols` x `rows`; output goes to `on_output`, `on_exit` gets the status."""

    def __init__(self, argv: Sequence[str], env: Mapping[str, str], cwd: Path, cols: int, rows: int,
                 on_output: Callable[[bytes], None], on_exit: Callable[[int], None]) -> None:
        self.argv, self.cwd = list(argv), cwd
        # The size is the pty's: COLUMNS/LINES left in the environment (pytest-xdist sets them,
        # a shell may export them) would pin the app at that size and make it deaf to resizes.
        self.env = {k: v for k, v in env.items() if k not in ("COLUMNS", "LINES")}
        self.size = window_size(cols, rows)
        self.on_output, self.on_exit = on_output, on_exit
        self.master = -1
        self.process: asyncio.subprocess.Process | None = None
        self.exited = asyncio.Event()
        self._pending = bytearray()  # input the pty would not take yet
        self._reading = False
        self._paused = False

    @property
    def pid(self) -> int | None:
        return self.process.pid if self.process else None

    async def start(self) -> None:
        master, slave = os.openpty()
        try:
            tty.setraw(slave)  # no echo, no line editing, no signals from keys: the app decides
            set_window_size(slave, *self.size)
            os.set_blocking(master, False)
            self.process = await asyncio.create_subprocess_exec(
                sys.executable, "-c", _TAKE_TERMINAL, *self.argv,
                stdin=slave, stdout=slave, stderr=slave, env=self.env, cwd=self.cwd,
                start_new_session=True, close_fds=True)
        except BaseException:
            os.close(master)
            raise
        finally:
            os.close(slave)  # only the child holds it now: its exit makes the master read EIO
        self.master = master
        self._resume_reading()
        asyncio.get_running_loop().create_task(self._reap())

    async def _reap(self) -> None:
        assert self.process is not None
        status = await self.process.wait()
        self._drain()  # what it wrote last (its goodbye, the terminal restored)
        self._stop_reading()
        self.exited.set()
        self.on_exit(status)

    # ---- bytes both ways ------------------------------------------------------------------
    def _resume_reading(self) -> None:
        if not self._reading and self.master >= 0 and not self.exited.is_set():
            asyncio.get_running_loop().add_reader(self.master, self._readable)
            self._reading = True

    def _stop_reading(self) -> None:
        if self._reading:
            asyncio.get_running_loop().remove_reader(self.master)
            self._reading = False

    def pause_output(self) -> None:
        """The visitor's connection is full: stop reading, so the child waits on its pty."""
        self._paused = True
        self._stop_reading()

    def resume_output(self) -> None:
        self._paused = False
        self._resume_reading()

    def _readable(self) -> None:
        try:
            data = os.read(self.master, READ_CHUNK)
        except BlockingIOError:
            return
        except OSError:  # EIO: the child closed the terminal (it is exiting)
            self._stop_reading()
            return
        if data:
            self.on_output(data)
        else:
            self._stop_reading()

    def _drain(self) -> None:
        while self.master >= 0 and not self._paused:
            try:
                data = os.read(self.master, READ_CHUNK)
            except OSError:
                return
            if not data:
                return
            self.on_output(data)

    def write(self, data: bytes) -> None:
        """Input for the child; what the pty cannot take yet waits (a bounded amount)."""
        if self.master < 0 or self.exited.is_set():
            return
        if self._pending:
            self._pending += data[: MAX_PENDING_INPUT - len(self._pending)]
            return
        try:
            written = os.write(self.master, data)
        except BlockingIOError:
            written = 0
        except OSError:
            return
        if written < len(data):
            self._pending += data[written:written + MAX_PENDING_INPUT]
            asyncio.get_running_loop().add_writer(self.master, self._writable)

    def _writable(self) -> None:
        try:
            written = os.write(self.master, self._pending)
        except BlockingIOError:
            return
        except OSError:
            written = len(self._pending)
        del self._pending[:written]
        if not self._pending:
            asyncio.get_running_loop().remove_writer(self.master)

    def resize(self, cols: int, rows: int) -> None:
        """The visitor's window changed: the kernel tells the child with SIGWINCH."""
        self.size = window_size(cols, rows)
        if self.master >= 0 and not self.exited.is_set():
            with contextlib.suppress(OSError):
                set_window_size(self.master, *self.size)

    # ---- the end ---------------------------------------------------------------------------
    async def stop(self, grace: float = 2.0, quit_key: bytes = b"", quit_grace: float = 5.0) -> None:
        """End the child and everything it started; reap it; close the pty.

        With `quit_key` the child is first asked to quit as its user would (it saves what it
        has to) and given `quit_grace` seconds; then come the signals.
        """
        if self.process is not None and quit_key and not self.exited.is_set():
            self.resume_output()  # keep reading: a child blocked on a full pty never quits
            self.write(quit_key)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.exited.wait(), quit_grace)
        if self.process is not None:
            for sig in (signal.SIGHUP, signal.SIGTERM, signal.SIGKILL):
                if self.exited.is_set():
                    break
                self._signal(sig)
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self.exited.wait(), grace)
            self._signal(signal.SIGKILL)  # whatever it left in its group (it leads the group)
        self.close()

    def _signal(self, sig: int) -> None:
        assert self.process is not None
        try:
            os.killpg(self.process.pid, sig)
        except ProcessLookupError:  # the group is empty
            pass
        except PermissionError:  # the leader is gone and its pgid reused: never signal a stranger
            log.warning("ssh door: process group %d is no longer ours", self.process.pid)

    def close(self) -> None:
        if self.master < 0:
            return
        self._stop_reading()
        loop = asyncio.get_running_loop()
        if self._pending:
            loop.remove_writer(self.master)
            self._pending.clear()
        os.close(self.master)
        self.master = -1
