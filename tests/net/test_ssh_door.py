"""The SSH door through the real OpenSSH client in a real terminal (tmux at 80x24).

One `gamenight relay --ssh` process serves the module; each test is a visitor with `ssh -tt`.
Visitors' data folders get a config before the first visit (their name, bots that answer at
once), as a visitor who has been here before has.
"""

from __future__ import annotations

import base64
import os
import re
import shutil
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

from net.doors.env import key_id
from tests.tui.test_terminal import capture, wait_for

GAMENIGHT = Path(sys.executable).parent / "gamenight"
NEEDS = ("ssh", "ssh-keygen", "tmux")
pytestmark = [
    pytest.mark.skipif(any(shutil.which(tool) is None for tool in NEEDS), reason="needs ssh, ssh-keygen and tmux"),
    pytest.mark.skipif(not GAMENIGHT.exists(), reason="the gamenight console script is not installed"),
]
SSH_OPTIONS = ["-o", "StrictHostKeyChecking=no", "-o", "UserKnownHostsFile=/dev/null", "-o", "IdentitiesOnly=yes",
               "-o", "BatchMode=yes", "-F", "/dev/null"]
SLOW = 60.0  # seconds for anything that starts a process on a loaded machine


class Relay:
    def __init__(self, root: Path, process: subprocess.Popen, port: int, out: Path) -> None:
        self.root, self.process, self.port, self.out = root, process, port, out
        self.players = root / "home" / "data" / "doors" / "ssh" / "players"

    def log(self) -> str:
        return (self.root / "home" / "data" / "gamenight.log").read_text(encoding="utf-8")

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


def seed_visitor(relay_players: Path, key: Path, name: str) -> Path:
    """A visitor's data folder with a config: their name, bots without delay, no bell."""
    blob = base64.b64decode(key.with_suffix(".pub").read_text().split()[1])
    home = relay_players / key_id(blob)
    (home / "config").mkdir(parents=True, exist_ok=True)
    (home / "config" / "config.toml").write_text(
        f'[player]\nname = "{name}"\n[ui]\nbot_delay = 0\nbell = false\n', encoding="utf-8")
    return home


@pytest.fixture(scope="module")
def relay(tmp_path_factory):
    root = tmp_path_factory.mktemp("sshdoor")
    keys = root / "keys"
    keys.mkdir()
    for name in ("ann", "bob", "eve"):
        make_key(keys, name)
    (keys / "authorized").write_text((keys / "ann.pub").read_text() + (keys / "bob.pub").read_text())
    out = root / "relay.out"
    env = {**os.environ, "GAMENIGHT_HOME": str(root / "home"), "TMUX": ""}
    with out.open("w") as sink:
        process = subprocess.Popen(
            [str(GAMENIGHT), "relay", "--port", "0", "--ssh", "0", "--authorized-keys", str(keys / "authorized")],
            stdout=sink, stderr=subprocess.STDOUT, env=env)
    deadline = time.monotonic() + SLOW
    match = None
    while time.monotonic() < deadline and match is None and process.poll() is None:
        match = re.search(r"ssh door on 127\.0\.0\.1:(\d+)", out.read_text())
        time.sleep(0.1)
    assert match, out.read_text()
    served = Relay(root, process, int(match.group(1)), out)
    for name in ("ann", "bob"):
        seed_visitor(served.players, keys / name, name.title())
    yield served
    process.send_signal(signal.SIGINT)
    try:
        process.wait(30)
    except subprocess.TimeoutExpired:
        process.kill()


@pytest.fixture(autouse=True)
def quiet_relay(relay):
    """Each test starts with no app running (the last test's app may still be quitting)."""
    assert wait_gone(relay.children()) == []


def ssh_command(relay: Relay, key: str, *extra: str) -> list[str]:
    return ["ssh", *SSH_OPTIONS, "-i", str(relay.root / "keys" / key), "-p", str(relay.port), *extra, "127.0.0.1"]


class Visitor:
    """`ssh -tt` in a detached tmux session of 80x24."""

    def __init__(self, relay: Relay, key: str) -> None:
        self.relay, self.key = relay, key
        self.session = f"door-{key}-{uuid.uuid4().hex[:6]}"
        command = " ".join(ssh_command(relay, key, "-tt"))
        subprocess.run(["tmux", "new-session", "-d", "-s", self.session, "-x", "80", "-y", "24", command],
                       check=True, env={**os.environ, "TMUX": ""})

    def keys(self, *keys: str) -> None:
        subprocess.run(["tmux", "send-keys", "-t", self.session, *keys], check=True)

    def screen(self) -> str:
        return capture(self.session)

    def wait(self, words: str, timeout: float = SLOW) -> str:
        screen = wait_for(self.session, words, timeout)
        assert words in screen, f"{words!r} not on the screen:\n{screen}"
        return screen

    def __enter__(self) -> Visitor:
        return self

    def __exit__(self, *exc: object) -> None:
        self.leave()

    def alive(self) -> bool:
        return subprocess.run(["tmux", "has-session", "-t", self.session], capture_output=True).returncode == 0

    def leave(self) -> None:
        """The connection drops: the ssh client is killed with its terminal."""
        subprocess.run(["tmux", "kill-session", "-t", self.session], capture_output=True, check=False)


def footer(screen: str) -> str:
    lines = screen.rstrip().splitlines()
    return lines[-1] if lines else ""


def settled(visitor: Visitor, quiet: float = 0.5, timeout: float = SLOW) -> str:
    """The screen once it has not changed for `quiet` seconds (the app and its bots are idle)."""
    deadline = time.monotonic() + timeout
    screen = visitor.screen()
    while time.monotonic() < deadline:
        time.sleep(quiet)
        again = visitor.screen()
        if again == screen:
            return screen
        screen = again
    return screen


def play_moves(visitor: Visitor, moves: int | None, timeout: float = 180.0) -> str:
    """Play Money! by keys: bid the highlighted card, take side I when our bid acts; stop after
    `moves` moves, or at the end screen (moves=None). Each key waits for a settled screen."""
    deadline = time.monotonic() + timeout
    done = 0
    while time.monotonic() < deadline:
        screen = settled(visitor, 0.3)
        if "game over" in screen or (moves is not None and done >= moves):
            return screen
        if "Place bid" in footer(screen):
            visitor.keys("space", "Enter")
        elif "Side I" in footer(screen):
            visitor.keys("1")
        else:
            continue
        done += 1
    raise AssertionError(f"the game did not get there in {timeout} s:\n{visitor.screen()}")


def start_money(visitor: Visitor) -> str:
    visitor.wait("New local game")
    visitor.keys("n")
    visitor.wait("Players")
    visitor.keys("Enter")  # Money!, 4 players, 3 bots
    return visitor.wait("Your hand")


def wait_gone(pids: list[int], timeout: float = 30.0) -> list[int]:
    """The pids still alive (a zombie counts) after `timeout`."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        alive = [p for p in pids if Path(f"/proc/{p}").exists()]
        if not alive:
            return []
        time.sleep(0.2)
    return alive


def test_a_listed_key_plays_money_against_bots_to_the_end(relay):
    with Visitor(relay, "ann") as visitor:
        screen = start_money(visitor)
        assert "you: Ann" in screen and "Traceback" not in screen
        assert len(screen.splitlines()) <= 24 and max(len(line) for line in screen.splitlines()) <= 80
        end = play_moves(visitor, None)
        assert "Money!: game over" in end and "Place" in end, end
        assert "Ann" in end


def test_a_visitor_who_drops_mid_game_finds_it_under_continue(relay):
    with Visitor(relay, "bob") as visitor:
        start_money(visitor)
        play_moves(visitor, 2)  # a bid and its choice: the next round asks for a bid
        visitor.wait("Place bid")
        screen = left = settled(visitor, 1.0)
        status = screen.splitlines()[0]
        assert re.search(r"round \d+", status), screen
        hand = next(line for line in screen.splitlines() if "Your hand" in line)
        app = relay.children()
        assert len(app) == 1, app
    assert wait_gone(app) == [], "the app outlived its visitor's connection"
    assert relay.children() == []
    with Visitor(relay, "bob") as again:
        again.wait("Continue the last game")
        again.keys("c")
        again.wait("Place bid")
        screen = settled(again, 1.0)
        assert screen.splitlines()[0] == status, f"left at:\n{left}\ncame back to:\n{screen}"
        assert hand in screen, screen


def test_a_resize_to_120x40_redraws_the_game_at_that_size(relay):
    with Visitor(relay, "ann") as visitor:
        start_money(visitor)
        before = visitor.screen().splitlines()
        assert max(len(line.rstrip()) for line in before) <= 80
        subprocess.run(["tmux", "resize-window", "-t", visitor.session, "-x", "120", "-y", "40"], check=True)
        deadline = time.monotonic() + SLOW
        lines: list[str] = []
        while time.monotonic() < deadline:
            lines = visitor.screen().splitlines()
            if len(lines) >= 40 and max(len(line.rstrip()) for line in lines) > 100:
                break
            time.sleep(0.2)
        assert len(lines) == 40 and max(len(line.rstrip()) for line in lines) > 100, "\n".join(lines)
        assert "Your hand" in "\n".join(lines) and "Place bid" in lines[-1]


def test_ctrl_c_ends_the_session_and_its_app(relay):
    with Visitor(relay, "ann") as visitor:
        visitor.wait("New local game")
        app = relay.children()
        assert app
        visitor.keys("C-c")
        deadline = time.monotonic() + SLOW
        while visitor.alive() and time.monotonic() < deadline:
            time.sleep(0.2)
        assert not visitor.alive(), "the ssh client is still connected after Ctrl+C"
        assert wait_gone(app) == []


def test_an_unlisted_key_is_refused_with_one_line(relay):
    done = subprocess.run(ssh_command(relay, "eve", "-tt"), capture_output=True, text=True, timeout=SLOW,
                          stdin=subprocess.DEVNULL)
    assert done.returncode == 255
    ours = [line for line in done.stderr.splitlines() if line.startswith("gamenight:")]
    assert len(ours) == 1 and "is not on this door's list" in ours[0], done.stderr
    assert "SHA256:" in ours[0]
    assert ours[0].removeprefix("gamenight: ") in relay.log()


def test_a_session_without_a_terminal_is_refused_with_one_line(relay):
    for extra in (["-T"], []):  # no pty; a command
        command = ssh_command(relay, "ann", *extra) + (["ls"] if not extra else [])
        done = subprocess.run(command, capture_output=True, text=True, timeout=SLOW, stdin=subprocess.DEVNULL)
        assert done.returncode == 1, done
        assert done.stdout == ""
        ours = [line for line in done.stderr.splitlines() if line.strip() and not line.startswith("Warning:")]
        assert ours == ["gamenight: a terminal is needed: connect with `ssh -t` and no command"], done.stderr
