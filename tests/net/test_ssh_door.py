"""The SSH door through the real OpenSSH client in a real terminal (tmux at 80x24).

One `gamenight relay --ssh` process serves the module; each test is a visitor with `ssh -tt`
(the helpers are in tests/net/sshdoor.py; two visitors at one table are in test_ssh_door_tables.py).
"""

from __future__ import annotations

import re
import subprocess
import time

import pytest

from .sshdoor import (
    NEEDS_SSH,
    SLOW,
    Visitor,
    play_moves,
    relay_process,
    settled,
    ssh_command,
    start_money,
    wait_gone,
)

pytestmark = NEEDS_SSH


@pytest.fixture(scope="module")
def relay(tmp_path_factory):
    with relay_process(tmp_path_factory.mktemp("sshdoor")) as served:
        yield served


@pytest.fixture(autouse=True)
def quiet_relay(relay):
    """Each test starts with no app running (the last test's app may still be quitting)."""
    assert wait_gone(relay.children()) == []


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

        def redrawn() -> bool:  # the whole frame at the new size, not one caught mid-redraw
            return (len(lines) == 40 and max(len(line.rstrip()) for line in lines) > 100
                    and "Your hand" in "\n".join(lines) and "Place bid" in lines[-1])

        while time.monotonic() < deadline:
            lines = visitor.screen().splitlines()
            if redrawn():
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
