"""Helpers of the browser door's tests: its tab processes, a screen read from the bytes a tab
received (pyte: a terminal emulator), and a real relay started as a second process."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pyte

ROOT = Path(__file__).resolve().parents[2]


def tab_processes(parent: int) -> list[int]:
    """The Python processes whose parent is `parent`, a relay aside: one per open tab."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            cmdline = (entry / "cmdline").read_bytes()
        except OSError:
            continue
        ppid = int(stat.rsplit(")", 1)[1].split()[1])
        args = cmdline.split(b"\0")
        if ppid == parent and args[0] == sys.executable.encode() and b"relay" not in args:
            found.append(int(entry.name))
    return found


def running(pid: int) -> bool:
    """`pid` runs (a zombie no longer does: a container's first process may never reap it)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def environ_of(pid: int) -> dict[str, str]:
    raw = Path(f"/proc/{pid}/environ").read_bytes()
    return dict(item.split("=", 1) for item in raw.decode().split("\0") if "=" in item)


def wait_until(predicate: Callable[[], object], timeout: float = 60.0, step: float = 0.2) -> object:
    """The predicate's first true value, or its last value once `timeout` ran out."""
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value or time.monotonic() > deadline:
            return value
        time.sleep(step)


class TerminalScreen:
    """What a tab shows, rebuilt from the bytes the door sent it."""

    def __init__(self, width: int = 80, height: int = 24) -> None:
        self.screen = pyte.Screen(width, height)
        self.stream = pyte.ByteStream(self.screen)

    def resize(self, width: int, height: int) -> None:
        self.screen.resize(height, width)

    def feed(self, data: bytes) -> None:
        self.stream.feed(data)

    @property
    def text(self) -> str:
        return "\n".join(self.screen.display)


@dataclass
class RelayProcess:
    process: subprocess.Popen
    url: str  # the browser door's address, key included
    home: Path
    out: Path  # what it printed (stdout and stderr)

    def output(self) -> str:
        return self.out.read_text(errors="replace")

    @property
    def base(self) -> str:
        """The door's address without its key."""
        return self.url.rsplit("/", 2)[0]


def ctrl_c_as_in_a_terminal() -> None:
    """In the child before exec: Ctrl-C's default, as an operator's terminal gives it. A suite
    started in the background (`make test &`, nohup) ignores SIGINT, and an ignored signal stays
    ignored across exec, so the relay would never hear the test's Ctrl-C."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


@contextmanager
def relay_process(home: Path, *args: str, timeout: float = 90.0) -> Iterator[RelayProcess]:
    """`gamenight relay --web 0 ...` as a second process; stopped with Ctrl-C (SIGINT). Its
    output goes to a file beside `home`: a pipe nobody reads once the address is found would
    fill (the relay's lines, its tabs' children's) and freeze the relay in a write."""
    command = [sys.executable, "-m", "tui", "relay", "--port", "0", "--web", "0", *args]
    env = {**os.environ, "GAMENIGHT_HOME": str(home)}
    home.parent.mkdir(parents=True, exist_ok=True)
    out = home.with_name(f"{home.name}-relay.out")
    with out.open("w") as sink:
        process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=sink, stderr=subprocess.STDOUT, text=True,
                                   preexec_fn=ctrl_c_as_in_a_terminal)
    try:
        url = _door_url(process, out, timeout)
        yield RelayProcess(process, url, home, out)
    finally:
        interrupt(process, 60)


def _door_url(process: subprocess.Popen, out: Path, timeout: float) -> str:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and process.poll() is None:
        if found := re.search(r"browser door on (http://\S+)", out.read_text()):
            return found.group(1)
        time.sleep(0.1)
    if found := re.search(r"browser door on (http://\S+)", out.read_text()):
        return found.group(1)
    process.kill()
    raise AssertionError(f"the relay printed no door address: {out.read_text()}")


def interrupt(process: subprocess.Popen, grace: float) -> None:
    """Ctrl-C to `process`, as its operator would; killed if it is not gone after `grace` s."""
    if process.poll() is None:
        process.send_signal(signal.SIGINT)
        try:
            process.wait(grace)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(10)
