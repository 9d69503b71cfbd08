"""mqtts://: a game through mosquitto on a TLS-only listener, and the ways a TLS setup goes wrong.

The broker's certificate is signed by a throwaway CA (`make_test_ca`); a client trusts it
through `[broker] ca_file` / GAMENIGHT_BROKER_CA, and refuses it (one clear line) without.
"""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from net.broker import cert_fingerprint, self_signed
from net.mqtt import MqttTransport
from tui.cli import main

from .brokers import HAVE_MOSQUITTO, Mosquitto

pytestmark = [
    pytest.mark.net,
    pytest.mark.skipif(not HAVE_MOSQUITTO, reason="needs mosquitto"),
]
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def tls_broker():
    mosq = Mosquitto(tls=True)
    asyncio.run(mosq.start())
    try:
        yield mosq
    finally:
        asyncio.run(mosq.stop())


@pytest.fixture(autouse=True)
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("GAMENIGHT_HOME", str(tmp_path / "home"))
    monkeypatch.delenv("GAMENIGHT_BROKER_CA", raising=False)
    return tmp_path / "home"


def test_a_game_plays_to_the_end_over_mqtts_with_the_brokers_ca(tls_broker, home) -> None:
    env = {**os.environ, "GAMENIGHT_HOME": str(home), "GAMENIGHT_BROKER_CA": str(tls_broker.tls["ca"])}
    proc = subprocess.run(
        [sys.executable, "-m", "tui.cli", "host", "money", "--players", "3", "--bots", "2", "--headless",
         "--broker", tls_broker.url, "--name", "Ann"],
        cwd=ROOT, capture_output=True, text=True, timeout=120, env=env,
    )
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[0].startswith(f"invite code: {tls_broker.url}/money-")
    assert any(line.startswith("game over after") and "Ann" in line for line in lines)


def test_an_untrusted_broker_certificate_is_one_line_and_no_wait(tls_broker, capsys) -> None:
    started = time.monotonic()
    assert main(["join", f"{tls_broker.url}/money-00000000/owdx-xna5-he5v-7ocf-aeaq-caib-aeaq-caib", "--headless"]) == 2
    err = capsys.readouterr().err
    assert f"cannot reach the broker at {tls_broker.url}" in err and "certificate verify failed" in err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert time.monotonic() - started < 4, "a certificate that will never verify is not retried"


def test_a_ca_file_that_does_not_exist_is_named(tls_broker, capsys, monkeypatch, tmp_path) -> None:
    missing = tmp_path / "nowhere.pem"
    monkeypatch.setenv("GAMENIGHT_BROKER_CA", str(missing))
    assert main(["join", f"{tls_broker.url}/money-00000000/owdx-xna5-he5v-7ocf-aeaq-caib-aeaq-caib", "--headless"]) == 2
    err = capsys.readouterr().err
    assert "broker.ca_file" in err and str(missing) in err and err.count("\n") == 1


@pytest.mark.parametrize("trust", ["pin", "ca_file"])
async def test_the_self_signed_certificate_serves_mosquitto_and_its_clients(tmp_path, trust) -> None:
    """The pair `--tls` makes (net.broker.self_signed) on a real mosquitto: a client pinning it
    and one trusting it as a CA file (which checks the name 127.0.0.1 too) both play."""
    cert, key = self_signed(tmp_path / "tls")
    mosq = Mosquitto(certificate=(cert, key))
    await mosq.start()
    pinned = {"fingerprint": cert_fingerprint(cert)} if trust == "pin" else {"ca_file": str(cert)}
    a, b = MqttTransport(mosq.url, **pinned), MqttTransport(mosq.url, **pinned)
    got: asyncio.Queue[bytes] = asyncio.Queue()
    try:
        await a.start()
        await b.start()
        await b.subscribe("t/tls", lambda topic, payload, retained: got.put_nowait(payload))
        await a.publish("t/tls", b"over mqtts", retain=True)
        assert await asyncio.wait_for(got.get(), 10) == b"over mqtts"
    finally:
        await a.stop()
        await b.stop()
        await mosq.stop()
