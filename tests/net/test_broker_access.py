"""Broker access: the embedded broker with a login and TLS pinned by fingerprint.

A game plays over them; a wrong password, a missing login and a certificate other than the
pinned one are each refused with one clear line; off loopback a host needs one of them.
"""

from __future__ import annotations

import asyncio

import pytest
from cryptography import x509
from cryptography.hazmat.primitives import hashes

from engine.registry import get_game
from net.broker import EmbeddedBroker, cert_fingerprint, self_signed
from net.launch import BrokerSettings, check_exposure, connect, host_session
from net.mqtt import BrokerUnreachable
from tui.cli import main

from .brokers import broker_on_thread

pytestmark = pytest.mark.net


@pytest.fixture(autouse=True)
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("GAMENIGHT_HOME", str(tmp_path / "home"))
    for name in ("USERNAME", "PASSWORD", "CA", "FINGERPRINT"):
        monkeypatch.delenv(f"GAMENIGHT_BROKER_{name}", raising=False)
    return tmp_path / "home"


@pytest.fixture
def tls_login_broker(tmp_path):
    """An embedded broker with TLS (self-signed) and a login, run on its own thread's loop."""
    cert, key = self_signed(tmp_path / "tls")
    broker = EmbeddedBroker(port=0, username="ann", password="open sesame", certfile=cert, keyfile=key)
    with broker_on_thread(broker):
        yield broker


def test_cert_fingerprint_is_the_sha256_of_the_certificate(tmp_path) -> None:
    cert, _ = self_signed(tmp_path)
    parsed = x509.load_pem_x509_certificate(cert.read_bytes())
    assert cert_fingerprint(cert) == parsed.fingerprint(hashes.SHA256()).hex()
    assert self_signed(tmp_path) == (cert, tmp_path / "broker.key")  # made once, then kept
    assert (tmp_path / "broker.key").stat().st_mode & 0o077 == 0


async def test_a_game_over_tls_and_login_on_the_embedded_broker() -> None:
    settings = BrokerSettings(port=0, username="ann", password="open sesame", tls=True)
    session = await host_session("money", players=3, bots=2, settings=settings, host_bot="best",
                                 persist=False, name="Ann")
    try:
        assert session.broker_url.startswith("mqtts://127.0.0.1:") and len(session.fingerprint) == 64
        peers = [session.peer, *session.bots]
        await asyncio.wait_for(asyncio.gather(*(p.done.wait() for p in peers)), 120)  # hang detector
        assert session.peer.lockstep.phase == "over"
        assert {bot.lockstep.hash for bot in session.bots} == {session.peer.lockstep.hash}
        anonymous = BrokerSettings(broker=session.broker_url, fingerprint=session.fingerprint)
        with pytest.raises(BrokerUnreachable, match="refused the login"):
            await connect(session.broker_url, anonymous)
    finally:
        await session.close()
    assert get_game("money")  # the registry is untouched by a network game


def _join(url: str, *extra: str) -> list[str]:
    from net.identity import Identity
    from net.invite import make_invite
    from net.lockstep.admission import host_pin

    gid = "money-00000000"
    return ["join", make_invite(url, gid, host_pin(Identity.generate(), gid)), "--headless", *extra]


def test_a_wrong_password_is_one_line(tls_login_broker, monkeypatch, capsys) -> None:
    monkeypatch.setenv("GAMENIGHT_BROKER_USERNAME", "ann")
    monkeypatch.setenv("GAMENIGHT_BROKER_PASSWORD", "guess")
    monkeypatch.setenv("GAMENIGHT_BROKER_FINGERPRINT", tls_login_broker.fingerprint)
    assert main(_join(tls_login_broker.url)) == 2
    err = capsys.readouterr().err
    assert err == (f"gamenight: the broker at {tls_login_broker.url} refused the login "
                   "(wrong or missing username or password)\n")


def test_a_certificate_other_than_the_pinned_one_is_one_line(tls_login_broker, monkeypatch, capsys) -> None:
    monkeypatch.setenv("GAMENIGHT_BROKER_USERNAME", "ann")
    monkeypatch.setenv("GAMENIGHT_BROKER_PASSWORD", "open sesame")
    monkeypatch.setenv("GAMENIGHT_BROKER_FINGERPRINT", "ab" * 32)
    assert main(_join(tls_login_broker.url)) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert f"the broker at {tls_login_broker.url} presents certificate" in err
    assert "not the pinned abababababababab" in err


def test_an_unpinned_self_signed_certificate_is_one_line(tls_login_broker, monkeypatch, capsys) -> None:
    monkeypatch.setenv("GAMENIGHT_BROKER_USERNAME", "ann")
    monkeypatch.setenv("GAMENIGHT_BROKER_PASSWORD", "open sesame")
    assert main(_join(tls_login_broker.url)) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "certificate verify failed" in err


def test_the_right_login_and_pin_get_in(tls_login_broker) -> None:
    async def attempt() -> None:
        settings = BrokerSettings(broker=tls_login_broker.url, username="ann", password="open sesame",
                                  fingerprint=tls_login_broker.fingerprint)
        transport = await connect(tls_login_broker.url, settings)
        await transport.stop()

    asyncio.run(attempt())


def test_off_loopback_a_host_needs_a_login_or_tls(capsys) -> None:
    assert main(["host", "money", "--bind", "0.0.0.0", "--headless"]) == 2
    err = capsys.readouterr().err
    assert err == ("gamenight: refusing to listen on 0.0.0.0 with neither a login nor TLS: set [broker] "
                   "username and password, or use --tls, or pass --insecure\n")
    assert main(["relay", "--bind", "192.168.1.20"]) == 2
    assert "refusing to listen on 192.168.1.20" in capsys.readouterr().err
    check_exposure(BrokerSettings(bind="0.0.0.0", insecure=True))
    check_exposure(BrokerSettings(bind="0.0.0.0", username="ann", password="x"))
    check_exposure(BrokerSettings(bind="0.0.0.0", tls=True))
    check_exposure(BrokerSettings(bind="127.0.0.1"))
