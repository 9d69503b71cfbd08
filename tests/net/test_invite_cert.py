"""The invite code of a table on a TLS broker carries that broker's certificate pin.

A friend with nothing configured joins a `--tls` table with the code alone; a code whose
certificate pin is not the broker's is refused in one line; a malformed pin is one line, never
a traceback; codes without a certificate pin (plain mqtt://, a CA-trusted mqtts://) read as
before.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from net.broker import EmbeddedBroker, cert_fingerprint, free_port, self_signed
from net.identity import Identity
from net.invite import CERT_CHARS, cert_text, make_invite, parse_cert, parse_invite
from net.launch import BrokerSettings, host_session, join_session, trusting, wait_started
from net.lockstep.admission import FINGERPRINT_BYTES, SECRET_BYTES, TablePin, host_pin
from net.paths import data_dir
from tui.cli import main

from .brokers import broker_on_thread

ROOT = Path(__file__).resolve().parents[2]
GID = "money-1a2b3c4d"
PIN = TablePin(bytes(range(FINGERPRINT_BYTES)), bytes(range(10, 10 + SECRET_BYTES)))
CERT = "c0ffee" * 10 + "abcd"  # 64 hex digits, as net.broker.cert_fingerprint gives them
ACCESS = ("USERNAME", "PASSWORD", "CA", "FINGERPRINT")


@pytest.fixture(autouse=True)
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("GAMENIGHT_HOME", str(tmp_path / "home"))
    for name in ACCESS:
        monkeypatch.delenv(f"GAMENIGHT_BROKER_{name}", raising=False)
    return tmp_path / "home"


# ---- the code ----------------------------------------------------------------------------
def test_a_certificate_pin_round_trips_in_any_case_with_or_without_dashes_and_wrapped() -> None:
    code = make_invite("mqtts://192.168.1.20:8883", GID, PIN, CERT)
    table_part, cert_part = code.rsplit("/", 2)[1:]
    assert len(cert_part) == CERT_CHARS + CERT_CHARS // 4 - 1  # thirteen groups of four, like the table pin
    assert parse_invite(code) == ("mqtts://192.168.1.20:8883", GID, PIN, CERT)
    assert parse_invite(code.upper().replace("MQTTS://", "mqtts://")).cert == CERT  # read aloud
    assert parse_invite(code.replace("-", "")).cert == CERT
    wrapped = code[:70] + "\n   " + code[70:110] + "\n" + code[110:] + " "  # an 80-column terminal
    assert parse_invite(wrapped) == parse_invite(code)
    # any spelling of the same pin makes the same code
    colons = "SHA256:" + ":".join(CERT[i:i + 2].upper() for i in range(0, 64, 2))
    assert make_invite("mqtts://192.168.1.20:8883", GID, PIN, colons) == code
    # without the broker: "on the broker from the settings"
    assert parse_invite(f"{GID}/{table_part}/{cert_part}", "mqtts://relay:8883") == ("mqtts://relay:8883", GID, PIN, CERT)


def test_codes_without_a_certificate_pin_read_exactly_as_before() -> None:
    plain = make_invite("mqtt://192.168.1.20:1883", GID, PIN, CERT)  # no TLS: nothing to pin
    assert plain == make_invite("mqtt://192.168.1.20:1883", GID, PIN)
    assert plain.count("/") == 2 and parse_invite(plain) == ("mqtt://192.168.1.20:1883", GID, PIN, "")
    trusted_by_ca = make_invite("mqtts://broker.example:8883", GID, PIN)
    assert parse_invite(trusted_by_ca) == ("mqtts://broker.example:8883", GID, PIN, "")
    with pytest.raises(ValueError, match="has no host key and table secret"):
        parse_invite("mqtts://broker.example:8883/money-1a2b3c4d")


def test_the_certificate_pin_of_the_protocol_documents_example() -> None:
    assert cert_text("03" * 32) == "ambq-gayd-ambq-gayd-ambq-gayd-ambq-gayd-ambq-gayd-ambq-gayd-ambq"
    assert parse_cert("AMBQGAYDAMBQGAYDAMBQGAYDAMBQGAYDAMBQGAYDAMBQGAYDAMBQ") == "03" * 32
    text = (ROOT / "docs" / "protocol.md").read_text()
    assert "ambq-gayd-ambq-gayd-ambq-gayd-ambq-gayd-ambq-gayd-ambq-gayd-ambq" in text


def _good() -> str:
    return make_invite("mqtts://192.168.1.20:8883", GID, PIN, CERT)


@pytest.mark.parametrize("code, says", [
    pytest.param(_good()[:-5], "certificate pin at the end", id="a group lost in the copy"),
    pytest.param(_good() + "-abcd", "certificate pin at the end", id="a group too many"),
    pytest.param(_good()[:-4] + "amb1", "certificate pin at the end", id="1 is no base32 letter"),
    pytest.param(_good()[:-1] + "b", "certificate pin at the end", id="the last letter is a or q"),
    pytest.param(_good().replace("mqtts://", "mqtt://"), "speaks no TLS", id="on plain mqtt"),
])
def test_a_malformed_certificate_pin_is_one_clear_line(code, says, capsys) -> None:
    with pytest.raises(ValueError, match=says) as err:
        parse_invite(code)
    assert "\n" not in str(err.value)
    for command in ("join", "watch"):
        assert main([command, code, "--headless"]) == 2
        out = capsys.readouterr().err
        assert says in out and out.count("\n") == 1 and "Traceback" not in out


def test_the_codes_certificate_pin_wins_over_a_configured_one_for_that_connection() -> None:
    configured = BrokerSettings(broker="mqtts://relay:8883", username="ann", fingerprint="ab" * 32)
    used = trusting(configured, "mqtts://relay:8883", CERT)
    assert used.fingerprint == CERT and used.username == "ann"
    assert configured.fingerprint == "ab" * 32  # the player's own settings are left as they are
    assert trusting(configured, "mqtts://relay:8883", "") is configured  # no pin in the code
    assert trusting(configured, "mqtt://relay:1883", CERT) is configured  # no TLS, no certificate


def test_a_door_lists_a_table_whose_code_pins_the_relays_certificate(tmp_path) -> None:
    from net.doors.tables import read_tables, write_entry

    from .helpers import listed_entry

    relay = "mqtts://127.0.0.1:8883"
    gid = "money-0000beef"
    code = make_invite(relay, gid, host_pin(Identity.generate(), gid), CERT)
    entry = listed_entry(gid, ("Ann", ""), broker=relay, invite=code)
    write_entry(tmp_path, entry)
    assert read_tables(tmp_path, broker=relay) == [entry]
    assert parse_invite(read_tables(tmp_path)[0].invite).cert == CERT  # what Enter on it joins with


# ---- through a real TLS broker -----------------------------------------------------------
@pytest.fixture
def tls_broker(tmp_path):
    """An embedded TLS broker (self-signed, no login), on its own thread's loop."""
    cert, key = self_signed(tmp_path / "tls")
    broker = EmbeddedBroker(port=0, certfile=cert, keyfile=key)
    with broker_on_thread(broker):
        yield broker


@pytest.mark.net
def test_a_friend_with_no_fingerprint_configured_joins_a_tls_table_with_the_code_alone(tmp_path, monkeypatch) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("GAMENIGHT_BROKER_")}
    host_home, friend_home = tmp_path / "host", tmp_path / "friend"
    host = subprocess.Popen(
        [sys.executable, "-m", "tui.cli", "host", "money", "--players", "2", "--headless", "--tls",
         "--port", "0", "--bot-delay", "0", "--name", "Ann"],
        cwd=ROOT, env={**env, "GAMENIGHT_HOME": str(host_home)}, stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, text=True)
    try:
        line = host.stdout.readline()
        assert line.startswith("invite code: mqtts://127.0.0.1:"), host.stderr.read()
        code = line.split(": ", 1)[1].strip()
        monkeypatch.setenv("GAMENIGHT_HOME", str(host_home))  # where the host's broker keeps its certificate
        assert parse_invite(code).cert == cert_fingerprint(data_dir() / "tls" / "broker.pem")
        friend = subprocess.run(
            [sys.executable, "-m", "tui.cli", "join", code, "--headless", "--name", "Bob"],
            cwd=ROOT, env={**env, "GAMENIGHT_HOME": str(friend_home)}, capture_output=True, text=True,
            timeout=60)
        assert friend.returncode == 0, friend.stderr
        assert "Bob took seat 1" in friend.stdout and "agreeing on the seed" in friend.stdout
        assert any(line.startswith("game over after") for line in friend.stdout.splitlines())
        out, err = host.communicate(timeout=60)
        assert host.returncode == 0, err
    finally:
        if host.poll() is None:
            host.kill()
            host.wait()


@pytest.mark.net
def test_a_code_whose_certificate_pin_is_not_the_brokers_is_refused_in_one_line(tls_broker, capsys) -> None:
    code = make_invite(tls_broker.url, GID, PIN, "ab" * 32)
    for command in ("join", "watch"):
        assert main([command, code, "--headless"]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "Traceback" not in err
        assert f"the broker at {tls_broker.url} presents certificate {tls_broker.fingerprint[:16]}…" in err
        assert "not the pinned abababababababab…" in err


@pytest.mark.net
async def test_the_printed_code_is_the_host_screens_and_a_joiner_needs_nothing_else(tmp_path, monkeypatch) -> None:
    """`gamenight host --tls` prints the code before its TUI starts the broker: the same code
    the Host screen shows then. A joiner whose settings pin another certificate (its usual
    relay's) joins with that code, hands on the same code, and keeps the pin to rejoin."""
    from tui.cli_net_host import planned_invite
    from tui.net_games import saved_pin

    port, gid = free_port(), "money-5ca1ab1e"
    settings = BrokerSettings(port=port, tls=True)
    planned = planned_invite(BrokerSettings(port=port, tls=True), gid)
    session = await host_session("money", players=2, settings=settings, gid=gid, host_bot="best",
                                 persist=False, name="Ann")  # the key planned_invite read too
    try:
        assert session.invite == planned and parse_invite(planned).cert == session.fingerprint
        invite = parse_invite(session.invite)
        monkeypatch.setenv("GAMENIGHT_HOME", str(tmp_path / "bob"))  # Bob's machine: his key, his saves
        elsewhere = BrokerSettings(broker=invite.broker, fingerprint="ab" * 32)
        joined = await join_session(invite.broker, gid, settings=elsewhere, name="Bob", bot="best",
                                    pin=invite.pin, cert=invite.cert)
        try:
            await wait_started(joined.peer, 20)
            assert joined.peer.lockstep.state is not None and joined.peer.lockstep.my_seat == 1
            assert joined.invite == session.invite  # the code Bob passes on works as Ann's does
            assert elsewhere.fingerprint == "ab" * 32
            assert saved_pin(gid) == (invite.pin, invite.cert)  # `gamenight join` alone rejoins
        finally:
            await joined.close()
    finally:
        await session.close()
