"""Names and codes: the joiner's name, bad or unknown invite codes at the CLI, the invite line."""

from __future__ import annotations

import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
from textual.widgets import Input

from net.broker import free_port
from net.invite import make_invite
from net.lockstep.admission import FINGERPRINT_BYTES, SECRET_BYTES, TablePin
from tui.app import GamenightApp
from tui.config import Config, PlayerConfig, UiConfig
from tui.local_table import LocalTable
from tui.screens.invite import InviteDialog
from tui.screens.join import JoinScreen

from .helpers import screen_text, settle

GAMENIGHT = Path(sys.executable).parent / "gamenight"
MOSQUITTO = shutil.which("mosquitto") or shutil.which("mosquitto", path="/usr/sbin:/usr/local/sbin")


def code(broker: str = "mqtt://127.0.0.1:1") -> str:
    """A well-formed invite code (with a table pin) for a game nobody hosts."""
    return make_invite(broker, "money-1a2b3c4d", TablePin(bytes(FINGERPRINT_BYTES), bytes(SECRET_BYTES)))


class Joined(Exception):
    """Raised by the fake join_session: the test only needs the name it was given."""


@pytest.fixture
def joins(monkeypatch) -> list[str]:
    names: list[str] = []

    async def fake_join_session(url, gid, *, name, **kwargs):
        names.append(name)
        raise Joined("stop here")

    monkeypatch.setattr("net.launch.join_session", fake_join_session)
    return names


def _config(name: str = "Zoe") -> Config:
    return Config(player=PlayerConfig(name), ui=UiConfig(bell=False, bot_delay=0.0))


async def test_the_join_form_sends_the_name_typed_there(joins):
    app = GamenightApp(config=_config())
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        app.push_screen(JoinScreen())
        await settle(pilot)
        field = app.screen.query_one("#join-name", Input)
        assert field.value == "Zoe"  # the default comes from the config
        field.value = "Robin Hood"
        app.screen.query_one("#join-broker", Input).value = code()
        app.screen.query_one("#join-broker", Input).focus()
        await pilot.press("enter")
        await settle(pilot)
        assert joins == ["Robin Hood"]
        assert "Cannot join" in screen_text(app)


async def test_join_name_from_the_command_line_fills_the_form(joins):
    app = GamenightApp(config=_config())
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        app.push_screen(JoinScreen(code=code(), name="Marian"))
        await settle(pilot)
        assert app.screen.query_one("#join-name", Input).value == "Marian"
        assert joins == ["Marian"]


async def test_the_join_screen_trusts_the_certificate_the_code_pins(monkeypatch):
    """A code from a `--tls` host: the screen connects trusting the code's certificate pin,
    over the one in the player's settings (for their usual broker); a mangled pin is one line."""
    from dataclasses import replace

    seen: list[str] = []

    async def fake_join_session(url, gid, *, settings, **kwargs):
        seen.append(settings.fingerprint)
        raise Joined("stop here")

    monkeypatch.setattr("net.launch.join_session", fake_join_session)
    cert = "c0ffee" * 10 + "abcd"
    pinned = make_invite("mqtts://127.0.0.1:8883", "money-1a2b3c4d",
                         TablePin(bytes(FINGERPRINT_BYTES), bytes(SECRET_BYTES)), cert)
    config = _config()
    config = replace(config, broker=replace(config.broker, fingerprint="ab" * 32))
    app = GamenightApp(config=config)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        app.push_screen(JoinScreen(code=pinned))
        await settle(pilot)
        assert seen == [cert]
        app.pop_screen()
        await settle(pilot)
        app.push_screen(JoinScreen(code=pinned[:-5]))  # the last group lost in the copy
        await settle(pilot)
        assert seen == [cert]  # no connection tried
        assert "certificate pin at the end of the invite code" in screen_text(app)


async def test_a_game_list_answering_after_the_join_screen_is_gone_costs_nothing(monkeypatch):
    """The broker's list of open games arrives after the player already left the join screen
    (joined by code, or Esc): the late answer is dropped, not a crash of the whole app."""
    import asyncio

    answer = asyncio.Event()

    class Transport:
        async def stop(self) -> None:
            pass

    async def fake_connect(url, settings, timeout):
        return Transport()

    async def slow_list(transport):
        await answer.wait()
        return []

    monkeypatch.setattr("net.launch.connect", fake_connect)
    monkeypatch.setattr("net.session.list_open_games", slow_list)
    app = GamenightApp(config=_config())
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = JoinScreen()
        app.push_screen(screen)
        await pilot.pause()
        # as a screen being replaced looks while its workers still run: its widgets pruned first
        await screen.query_one("#join-games").remove()
        await screen.query_one("#join-status").remove()
        answer.set()
        await settle(pilot)
        assert app.is_running and app.return_code is None
        assert isinstance(app.screen, JoinScreen)


def _cli(*args: str, home: Path, timeout: float = 30) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(GAMENIGHT), *args], capture_output=True, text=True, timeout=timeout,
                          env={"GAMENIGHT_HOME": str(home), "PATH": "/usr/bin:/bin"}, stdin=subprocess.DEVNULL)


@pytest.mark.skipif(not GAMENIGHT.exists(), reason="the gamenight console script is not installed")
@pytest.mark.parametrize("command", ["join", "watch"])
def test_a_malformed_code_is_one_line_and_exit_2(command, gamenight_home):
    proc = _cli(command, "not a code!", home=gamenight_home)
    assert proc.returncode == 2
    assert proc.stderr.strip().count("\n") == 0 and "not an invite code" in proc.stderr
    assert "Traceback" not in proc.stderr


@pytest.fixture
def mosquitto_port():
    if MOSQUITTO is None:
        pytest.skip("mosquitto is not installed")
    port = free_port()
    proc = subprocess.Popen([MOSQUITTO, "-p", str(port)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    time.sleep(0.3)
    yield port
    proc.terminate()
    proc.wait(timeout=5)


@pytest.mark.net
@pytest.mark.skipif(not GAMENIGHT.exists(), reason="the gamenight console script is not installed")
@pytest.mark.parametrize("command", [["join"], ["watch"], ["watch", "--headless"]])
def test_an_unknown_code_is_one_line_and_exit_2_after_a_bounded_wait(command, mosquitto_port, gamenight_home):
    proc = _cli(*command, code(f"mqtt://127.0.0.1:{mosquitto_port}"), home=gamenight_home)
    assert proc.returncode == 2, proc.stderr
    assert proc.stderr.strip().count("\n") == 0 and "no open game money-1a2b3c4d" in proc.stderr


async def test_the_invite_code_is_one_line_in_the_side_panel_and_whole_on_f2(config):
    code = "mqtt://192.168.100.200:1883/money-1a2b3c4d"
    table = LocalTable.new("money", 3, humans=1, seed=1, bot_delay=0)
    table.invite = code  # what a networked table carries
    table.log_lines.append(f"Invite code: {code}")
    app = GamenightApp(start=table, config=config)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        line = app.screen.query_one("#invite")
        assert line.region.height == 1
        text = screen_text(app)
        assert "F2: the invite code" in text  # too long for the panel: the key, not a cut code
        assert "mqtt://" not in text and "money-1a2b3c4d" not in text  # never cut, never wrapped
        await pilot.press("f2")
        await settle(pilot)
        assert isinstance(app.screen, InviteDialog)
        assert code in screen_text(app)
