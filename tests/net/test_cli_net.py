"""The network subcommands: bad input is one line and exit 2; headless host and selfplay --net."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from pathlib import Path

import pytest

from net.broker import free_port
from tui.cli import main

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("GAMENIGHT_HOME", str(tmp_path / "home"))
    return tmp_path / "home"


@pytest.mark.parametrize(
    "argv, message",
    [
        (["host", "chess"], "unknown game 'chess'"),
        (["host", "money", "--players", "9"], "is for 2-5 players, not 9"),
        (["host", "money", "--players", "3", "--bots", "3"], "--bots must be from 0 to 2"),
        (["host", "money", "--broker", "http://x"], "not a broker address"),
        (["join", "not a code!"], "not an invite code"),
        (["join", "mqtt://127.0.0.1:1/money-00000000"], "has no host key and table secret"),
        (["join"], "no unfinished network game to rejoin"),
        (["watch", "mqtt://127.0.0.1:1/money-00000000/owdx-xna5-he5v-7ocf-aeaq-caib-aeaq-caib"], "cannot reach the broker at mqtt://127.0.0.1:1"),
        (["join", "mqtt://127.0.0.1:1/money-00000000/owdx-xna5-he5v-7ocf-aeaq-caib-aeaq-caib", "--headless"], "cannot reach the broker"),
        (["bot", "mqtt://127.0.0.1:1/money-00000000/owdx-xna5-he5v-7ocf-aeaq-caib-aeaq-caib", "--kind", "genius"], "--kind must be one of"),
        (["relay", "--bot-level", "genius"], "invalid choice: 'genius'"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(argv, message, capsys) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1 and "Traceback" not in err


def test_every_level_a_relay_offers_is_a_bot_of_every_game() -> None:
    from engine.bots.levels import LEVELS
    from engine.bots.registry import bot_kinds
    from engine.registry import game_ids

    for game_id in game_ids():
        assert set(LEVELS) <= set(bot_kinds(game_id)), game_id


@pytest.mark.net
def test_headless_host_with_bot_peers_plays_a_game_to_the_end(home) -> None:
    port = free_port()
    proc = subprocess.run(
        [sys.executable, "-m", "tui.cli", "host", "money", "--players", "3", "--bots", "2", "--headless",
         "--port", str(port), "--name", "Ann"],
        cwd=ROOT, capture_output=True, text=True, timeout=120,
        env={**__import__("os").environ, "GAMENIGHT_HOME": str(home)},
    )
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    from net.invite import parse_invite

    assert lines[0].startswith("invite code: ")
    broker, gid, _, _ = parse_invite(lines[0].split(": ", 1)[1])  # the pinned form, as a joiner pastes it
    assert broker == f"mqtt://127.0.0.1:{port}" and gid.startswith("money-")
    assert any(line.startswith("game over after") and "Ann" in line for line in lines)


@pytest.mark.net
def test_selfplay_net_json_reports_messages_desyncs_and_latency(capsys) -> None:
    assert main(["selfplay", "money", "--players", "3", "--games", "2", "--net", "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["games"] == summary["finished"] == 2 and summary["net"] is True
    assert summary["desyncs"] == 0 and summary["messages"] > 20
    latency = summary["step_latency_ms"]
    assert latency["commit_reveal"]["steps"] > 0 and latency["commit_reveal"]["median"] > 0
    assert latency["sequential"]["p99"] >= latency["sequential"]["median"]


@pytest.mark.net
def test_selfplay_net_on_a_stall_says_what_it_waited_for(monkeypatch, capsys) -> None:
    """A table where no bot ever acts: one line naming the game, the step and the awaited seats."""
    import tui.cli_net_selfplay
    from net.peer import Peer

    monkeypatch.setattr(Peer, "_schedule_bot", lambda self: None)
    monkeypatch.setattr(tui.cli_net_selfplay, "STALL_AFTER", 1.0)
    assert main(["selfplay", "money", "--players", "3", "--games", "2", "--net"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert err.startswith("gamenight: game 1 of 2 (money-") and "made no progress for 1 s" in err
    assert "Bot 0 at step 0 (play) waits for seat" in err


@pytest.mark.net
def test_selfplay_net_embedded_many_games_no_hang_no_desync(capsys) -> None:
    """The amqtt wedge (net/broker.py) showed within ten 4-player games; 15 must all finish."""
    assert main(["selfplay", "money", "--players", "4", "--games", "15", "--net", "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["finished"] == 15 and summary["desyncs"] == 0


async def test_a_second_sigterm_while_the_relay_stops_does_not_cut_its_stopping_short() -> None:
    """`timeout` passes on the SIGTERM it got, so a relay stopped through it gets two; the
    second, while its broker shut down, cancelled that too and printed a CancelledError
    traceback. The relay's stopping runs to its end."""
    import os
    import signal

    from tui.cli_net_relay import _stop_on_sigterm

    stopped = []

    async def relay() -> None:
        _stop_on_sigterm()
        try:
            await asyncio.sleep(30)
        except asyncio.CancelledError:
            pass
        finally:
            os.kill(os.getpid(), signal.SIGTERM)  # the second one, while it stops
            await asyncio.sleep(0.2)  # its doors and broker stopping
            stopped.append(True)

    task = asyncio.create_task(relay())
    await asyncio.sleep(0.1)
    os.kill(os.getpid(), signal.SIGTERM)
    await asyncio.wait_for(task, 10)
    assert stopped == [True]
