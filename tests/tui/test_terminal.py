"""A real terminal: the installed `gamenight` command in a detached 80x24 tmux session."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
GAMENIGHT = Path(sys.executable).parent / "gamenight"

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")


def capture(session: str) -> str:
    return subprocess.run(
        ["tmux", "capture-pane", "-p", "-t", session], capture_output=True, text=True, check=False
    ).stdout


def wait_for(session: str, words: str, timeout: float = 20.0) -> str:
    deadline = time.monotonic() + timeout
    screen = ""
    while time.monotonic() < deadline:
        screen = capture(session)
        if words in screen:
            return screen
        time.sleep(0.25)
    return screen


@pytest.mark.skipif(not GAMENIGHT.exists(), reason="the gamenight console script is not installed")
def test_money_screen_in_a_real_80x24_terminal(gamenight_home):
    session = f"gamenight-test-{uuid.uuid4().hex[:8]}"
    env_prefix = f"GAMENIGHT_HOME={gamenight_home} TERM=xterm-256color"
    command = f"cd {ROOT} && {env_prefix} {GAMENIGHT} play money --players 2 --bots 1 --seed 1 --bot-delay 0"
    subprocess.run(
        ["tmux", "new-session", "-d", "-s", session, "-x", "80", "-y", "24", command],
        check=True, env={**os.environ, "TMUX": ""},
    )
    try:
        screen = wait_for(session, "Side II")
        assert "Side I " in screen, screen
        assert "Side II" in screen
        assert "Your hand" in screen
        assert "Traceback" not in screen
        # Build a bid with the keyboard and place it: the bids are revealed.
        subprocess.run(["tmux", "send-keys", "-t", session, "space", "Enter"], check=True)
        screen = wait_for(session, "Bids in acting order")
        assert "Bids in acting order" in screen, screen
        subprocess.run(["tmux", "send-keys", "-t", session, "C-q"], check=True)
    finally:
        subprocess.run(["tmux", "kill-session", "-t", session], capture_output=True, check=False)


def pane_title(session: str) -> str:
    return subprocess.run(["tmux", "display", "-p", "-t", session, "#{pane_title}"],
                          capture_output=True, text=True, check=False).stdout.strip()


def wait_for_title(session: str, words: str, timeout: float = 20.0) -> str:
    deadline = time.monotonic() + timeout
    title = pane_title(session)
    while words not in title and time.monotonic() < deadline:
        time.sleep(0.25)
        title = pane_title(session)
    return title


@pytest.mark.skipif(not GAMENIGHT.exists(), reason="the gamenight console script is not installed")
def test_the_terminal_title_says_your_turn_in_a_real_terminal(gamenight_home):
    """tmux reads OSC 2 into the pane's title: the app's title reaches a real terminal."""
    session = f"gamenight-test-{uuid.uuid4().hex[:8]}"
    command = (f"cd {ROOT} && GAMENIGHT_HOME={gamenight_home} TERM=xterm-256color {GAMENIGHT} play money "
               f"--players 2 --bots 1 --seed 1 --bot-delay 0; sleep 30")
    subprocess.run(["tmux", "new-session", "-d", "-s", session, "-x", "80", "-y", "24", command],
                   check=True, env={**os.environ, "TMUX": ""})
    try:
        before = pane_title(session)  # the pane's own title, before the app has started
        assert "Side II" in wait_for(session, "Side II")
        assert wait_for_title(session, "Your turn") == "▶ Your turn · Money! · gamenight"
        subprocess.run(["tmux", "send-keys", "-t", session, "C-q"], check=True)
        deadline = time.monotonic() + 10
        while "gamenight" in pane_title(session) and time.monotonic() < deadline:
            time.sleep(0.25)
        assert pane_title(session) == before  # tmux keeps a title stack: its own title is back
    finally:
        subprocess.run(["tmux", "kill-session", "-t", session], capture_output=True, check=False)


def start_in_tmux(session: str, home: Path, run_dir: Path, args: str) -> int:
    """Start `gamenight ARGS` in a tmux pane whose shell survives the hang-up, as `make play`'s
    make does: with the session leader alive, closing the terminal signals nobody else. The
    shell prints the game's exit status. Returns the game's pid."""
    pid_file = run_dir / "pid"
    inner = f"echo $$ > {pid_file}; exec {GAMENIGHT} {args}"
    command = (
        f"cd {ROOT} && export GAMENIGHT_HOME={home} TERM=xterm-256color && "
        f"echo $$ > {run_dir / 'shell'}; trap '' HUP; sh -c '{inner}'; echo exit=$?; sleep 60"
    )
    subprocess.run(
        ["tmux", "new-session", "-d", "-s", session, "-x", "80", "-y", "24", command],
        check=True, env={**os.environ, "TMUX": ""},
    )
    deadline = time.monotonic() + 10
    while not pid_file.exists() or not pid_file.read_text().strip():
        assert time.monotonic() < deadline, "the game did not start"
        time.sleep(0.05)
    return int(pid_file.read_text())


def end_tmux(session: str, run_dir: Path) -> None:
    """Close the pane, and end its shell, which ignores the hang-up."""
    subprocess.run(["tmux", "kill-session", "-t", session], capture_output=True, check=False)
    shell = run_dir / "shell"
    if shell.exists():
        try:
            os.kill(int(shell.read_text()), signal.SIGKILL)
        except (ProcessLookupError, ValueError):
            pass


def gone(pid: int, timeout: float = 20.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return True
        time.sleep(0.1)
    return False


def saved_steps(home: Path) -> int:
    from tui.local_table import last_save_path, load_save

    path = last_save_path()
    assert path is not None, "no save"
    return len(load_save(path).game_log.steps)


@pytest.mark.skipif(not GAMENIGHT.exists(), reason="the gamenight console script is not installed")
def test_closing_the_terminal_ends_the_game_process_and_keeps_the_save(gamenight_home, tmp_path):
    session = f"gamenight-test-{uuid.uuid4().hex[:8]}"
    pid = start_in_tmux(session, gamenight_home, tmp_path, "play money --players 2 --bots 1 --seed 1 --bot-delay 0")
    try:
        assert "Your hand" in wait_for(session, "Your hand")
        subprocess.run(["tmux", "send-keys", "-t", session, "space", "Enter"], check=True)
        assert "Bids in acting order" in wait_for(session, "Bids in acting order")
    finally:
        end_tmux(session, tmp_path)
    # Without a watch on the terminal the game kept running, at 100% CPU, with nobody to see it.
    assert gone(pid), "the game still runs after its terminal closed"
    assert saved_steps(gamenight_home) >= 1  # the bid placed before the terminal closed
    from tui.logfile import log_path

    assert "quitting: the terminal closed" in log_path().read_text()


@pytest.mark.skipif(not GAMENIGHT.exists(), reason="the gamenight console script is not installed")
def test_sigterm_quits_as_ctrl_q_does_and_gives_the_terminal_back(gamenight_home, tmp_path):
    session = f"gamenight-test-{uuid.uuid4().hex[:8]}"
    pid = start_in_tmux(session, gamenight_home, tmp_path, "play ten --players 2 --bots 1 --seed 2 --bot-delay 0")
    try:
        assert "Ten" in wait_for(session, "Ten")
        os.kill(pid, signal.SIGTERM)
        screen = wait_for(session, "exit=")
        assert "exit=0" in screen, screen  # a clean exit, not killed by the signal (exit=143)
        assert "Traceback" not in screen
        assert gone(pid)
    finally:
        end_tmux(session, tmp_path)
    saved_steps(gamenight_home)  # the save loads: `gamenight resume` continues it
