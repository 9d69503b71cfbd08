"""Helpers of the SSH door's tests: a `gamenight relay --ssh` process, its visitors through the
real OpenSSH client (`ssh -tt`) in detached tmux sessions of 80x24, a player outside the door in
one too, and Money! played by keys.

Visitors' data folders get a config before the first visit (their name, bots that answer at
once), as a visitor who has been here before has.
"""

from __future__ import annotations

import base64
import os
import re
import shlex
import shutil
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path

import pytest

from net.doors.env import key_id
from tests.tui.test_terminal import capture, wait_for

from .webdoor import ctrl_c_as_in_a_terminal, interrupt

GAMENIGHT = Path(sys.executable).parent / "gamenight"
NEEDS = ("ssh", "ssh-keygen", "tmux")
NEEDS_SSH = [
    pytest.mark.skipif(any(shutil.which(tool) is None for tool in NEEDS), reason="needs ssh, ssh-keygen and tmux"),
    pytest.mark.skipif(not GAMENIGHT.exists(), reason="the gamenight console script is not installed"),
]
SSH_OPTIONS = ["-o", "StrictHostKeyChecking=no", "-o", "UserKnownHostsFile=/dev/null", "-o", "IdentitiesOnly=yes",
               "-o", "BatchMode=yes", "-F", "/dev/null"]
SLOW = 60.0  # seconds for anything that starts a process on a loaded machine
VISITORS = ("ann", "bob")  # the listed keys; "eve" has a key that is not on the list


class Relay:
    def __init__(self, root: Path, process: subprocess.Popen, port: int, out: Path) -> None:
        self.root, self.process, self.port, self.out = root, process, port, out
        self.players = root / "home" / "data" / "doors" / "ssh" / "players"
        self.tables = root / "home" / "data" / "doors" / "ssh" / "tables"

    def log(self) -> str:
        return (self.root / "home" / "data" / "gamenight.log").read_text(encoding="utf-8")

    def listed(self) -> list[str]:
        """The names in the door's table list (tables hosted "open to this server")."""
        return sorted(p.name for p in self.tables.iterdir()) if self.tables.exists() else []

    def start_line(self) -> str:
        """What the relay printed on starting (its broker, the certificate's pin, the door)."""
        return self.out.read_text(encoding="utf-8")

    def visitor_log(self, key: str) -> str:
        log = visitor_home(self.players, self.root / "keys" / key) / "data" / "gamenight.log"
        return log.read_text(encoding="utf-8") if log.exists() else ""

    def children(self) -> list[int]:
        """The visitors' app processes: the relay's children (every thread's)."""
        pids: list[int] = []
        for task in Path(f"/proc/{self.process.pid}/task").iterdir():
            text = (task / "children").read_text()
            pids.extend(int(p) for p in text.split())
        return pids


def make_key(folder: Path, name: str) -> Path:
    path = folder / name
    subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", name, "-f", str(path)], check=True)
    return path


def visitor_home(relay_players: Path, key: Path) -> Path:
    blob = base64.b64decode(key.with_suffix(".pub").read_text().split()[1])
    return relay_players / key_id(blob)


def write_config(home: Path, name: str) -> Path:
    """A data folder (GAMENIGHT_HOME) with a config: the player's name, bots without delay, no bell."""
    (home / "config").mkdir(parents=True, exist_ok=True)
    (home / "config" / "config.toml").write_text(
        f'[player]\nname = "{name}"\n[ui]\nbot_delay = 0\nbell = false\n', encoding="utf-8")
    return home


def seed_visitor(relay_players: Path, key: Path, name: str) -> Path:
    """A visitor's data folder with a config, as a visitor who has been here before has."""
    return write_config(visitor_home(relay_players, key), name)


@contextmanager
def relay_process(root: Path, *args: str, env: Mapping[str, str] | None = None) -> Iterator[Relay]:
    """`gamenight relay --port 0 --ssh 0 --authorized-keys ...` (ann and bob listed, eve not),
    with `args` besides; stopped with Ctrl-C (SIGINT)."""
    keys = root / "keys"
    keys.mkdir(parents=True)
    for name in (*VISITORS, "eve"):
        make_key(keys, name)
    (keys / "authorized").write_text("".join((keys / f"{name}.pub").read_text() for name in VISITORS))
    out = root / "relay.out"
    environ = {**os.environ, "GAMENIGHT_HOME": str(root / "home"), "TMUX": "", **(env or {})}
    with out.open("w") as sink:
        process = subprocess.Popen(
            [str(GAMENIGHT), "relay", "--port", "0", "--ssh", "0", "--authorized-keys", str(keys / "authorized"),
             *args], stdout=sink, stderr=subprocess.STDOUT, env=environ,
            preexec_fn=ctrl_c_as_in_a_terminal)
    try:
        deadline = time.monotonic() + SLOW
        match = None
        while time.monotonic() < deadline and match is None and process.poll() is None:
            match = re.search(r"ssh door on 127\.0\.0\.1:(\d+)", out.read_text())
            time.sleep(0.1)
        assert match, out.read_text()
        served = Relay(root, process, int(match.group(1)), out)
        for name in VISITORS:
            seed_visitor(served.players, keys / name, name.title())
        yield served
    finally:
        interrupt(process, 30)


def ssh_command(relay: Relay, key: str, *extra: str) -> list[str]:
    return ["ssh", *SSH_OPTIONS, "-i", str(relay.root / "keys" / key), "-p", str(relay.port), *extra, "127.0.0.1"]


class Terminal:
    """A command in a detached tmux session of 80x24."""

    def __init__(self, command: Sequence[str], name: str) -> None:
        self.session = f"{name}-{uuid.uuid4().hex[:6]}"
        subprocess.run(["tmux", "new-session", "-d", "-s", self.session, "-x", "80", "-y", "24", shlex.join(command)],
                       check=True, env={**os.environ, "TMUX": ""})

    def keys(self, *keys: str) -> None:
        subprocess.run(["tmux", "send-keys", "-t", self.session, *keys], check=True)

    def screen(self) -> str:
        return capture(self.session)

    def wait(self, words: str, timeout: float = SLOW) -> str:
        screen = wait_for(self.session, words, timeout)
        assert words in screen, f"{words!r} not on the screen:\n{screen}"
        return screen

    def __enter__(self) -> Terminal:
        return self

    def __exit__(self, *exc: object) -> None:
        self.leave()

    def alive(self) -> bool:
        return subprocess.run(["tmux", "has-session", "-t", self.session], capture_output=True).returncode == 0

    def leave(self) -> None:
        """The terminal closes: its command is killed with it (for ssh: the connection drops)."""
        subprocess.run(["tmux", "kill-session", "-t", self.session], capture_output=True, check=False)


class Visitor(Terminal):
    """A visitor of the door: `ssh -tt` with their key."""

    def __init__(self, relay: Relay, key: str) -> None:
        self.relay, self.key = relay, key
        super().__init__(ssh_command(relay, key, "-tt"), f"door-{key}")


def outside_player(home: Path, *args: str, env: Mapping[str, str] | None = None) -> Terminal:
    """A plain `gamenight ARGS` on this machine, outside any door, with its own data folder.

    The tmux server may be older than this test (another test's, with another environment):
    the command is given what it needs itself (this Python's import path, the data folder)."""
    variables = {"GAMENIGHT_HOME": str(home), **(env or {})}
    if "PYTHONPATH" in os.environ:
        variables["PYTHONPATH"] = os.environ["PYTHONPATH"]
    return Terminal(["env", *(f"{k}={v}" for k, v in variables.items()), str(GAMENIGHT), *args], "outside")


def footer(screen: str) -> str:
    lines = screen.rstrip().splitlines()
    return lines[-1] if lines else ""


def settled(terminal: Terminal, quiet: float = 0.5, timeout: float = SLOW) -> str:
    """The screen once it has not changed for `quiet` seconds (the app and its bots are idle)."""
    deadline = time.monotonic() + timeout
    screen = terminal.screen()
    while time.monotonic() < deadline:
        time.sleep(quiet)
        again = terminal.screen()
        if again == screen:
            return screen
        screen = again
    return screen


SIDE = re.compile(r"([12]) Swap with side (?:I|II): take \d+ \((\d+) cards?\)")


def money_key(screen: str) -> tuple[str, ...] | None:
    """The keys of our Money! move on this screen: bid the highlighted card, or, when our bid
    acts, take the market side with more cards (side I on a tie); None when the screen asks
    nothing of us. Taking the fuller side leaves one card there and the refill empties the deck
    soonest: the shortest game these keys play."""
    if "Place bid" in footer(screen):
        return ("space", "Enter")
    if "Side I" in footer(screen):
        sides = {side: int(cards) for side, cards in SIDE.findall(screen)}
        return ("2",) if sides.get("2", 0) > sides.get("1", 0) else ("1",)
    return None


def play_moves(terminal: Terminal, moves: int | None, timeout: float = 180.0) -> str:
    """Play Money! by keys (`money_key`); stop after `moves` moves, or at the end screen
    (moves=None). Each key waits for a settled screen."""
    deadline = time.monotonic() + timeout
    done = 0
    while time.monotonic() < deadline:
        screen = settled(terminal, 0.3)
        if "game over" in screen or (moves is not None and done >= moves):
            return screen
        keys = money_key(screen)
        if keys is None:
            continue
        terminal.keys(*keys)
        done += 1
    raise AssertionError(f"the game did not get there in {timeout} s:\n{terminal.screen()}")


def play_together(players: Sequence[Terminal], timeout: float = 180.0, tick: float = 0.1) -> list[str]:
    """Several players of one Money! table play it by keys (`money_key`) to its end screen.

    Each is looked at every `tick`: a player moves once its screen has stayed the same for a
    tick and is not the screen it last moved on (so a key is never sent twice for one question).
    Returns each player's end screen once the deal's audit has a verdict (or the deadline)."""
    deadline = time.monotonic() + timeout
    last: dict[int, str] = {}
    moved: dict[int, str] = {}
    while time.monotonic() < deadline:
        over = 0
        for i, player in enumerate(players):
            screen = player.screen()
            if "game over" in screen:
                over += 1
            elif screen == last.get(i) and screen != moved.get(i) and (keys := money_key(screen)):
                player.keys(*keys)
                moved[i] = screen
            last[i] = screen
        if over == len(players):
            return [player.wait("Deal: verified", max(1.0, deadline - time.monotonic())) for player in players]
        time.sleep(tick)
    raise AssertionError(f"the game did not end in {timeout} s:\n" + "\n".join(p.screen() for p in players))


def start_money(visitor: Terminal) -> str:
    visitor.wait("New local game")
    visitor.keys("n")
    visitor.wait("Players")
    visitor.keys("Enter")  # Money!, 4 players, 3 bots
    return visitor.wait("Your hand")


def host_money_for_two(visitor: Terminal, *, listed: bool = True) -> str:
    """From the door's menu: host Money! for two players (no bots), "open to this server" or
    "invite only"; the host screen once it waits for the second player."""
    visitor.wait("Tables on this server")
    visitor.keys("h")
    visitor.wait("open to this server")
    visitor.keys("Down", "Left", "Left", "Down", "Left")  # Players 4 → 2; Bots 1 → 0
    if not listed:
        visitor.keys("Down", "Down", "Left")  # the Table row: invite only
    form = settled(visitor, 0.3)
    assert re.search(r"Players\s+◀ 2 ▶", form) and re.search(r"Bots\s+◀ 0 ", form), form
    assert ("open to this server" if listed else "invite only") in form, form
    visitor.keys("Enter")
    return visitor.wait("seat 1: (free)")


def invite_code(screen: str) -> str:
    """The invite code on a host screen, whole (below the box, on lines of its own)."""
    from tui.widgets.invite_code import TITLE

    lines = [line.strip() for line in screen.splitlines()]
    start = lines.index(TITLE) + 1
    end = next(i for i in range(start, len(lines)) if not lines[i])
    return "".join(lines[start:end])


def wait_gone(pids: list[int], timeout: float = 30.0) -> list[int]:
    """The pids still alive (a zombie counts) after `timeout`."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        alive = [p for p in pids if Path(f"/proc/{p}").exists()]
        if not alive:
            return []
        time.sleep(0.2)
    return alive
