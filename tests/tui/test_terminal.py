"""A real terminal: the installed `gamenight` command in a detached 80x24 tmux session."""

from __future__ import annotations

import os
import shutil
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
