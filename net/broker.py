"""The embedded broker: amqtt started in-process, so hosting a game needs no installed service.

amqtt 0.12 binds 0.0.0.0:1883 unless a listener says otherwise, refuses every client when no
auth plugin is configured, and logs every packet with its default plugins; so the listener,
the anonymous-auth plugin and the loggers are all set explicitly here.

amqtt 0.12.1 iterates its subscription table (filter -> list of sessions) while awaiting:
a client that connects loops over every filter and awaits the delivery of matching retained
messages, and meanwhile another client subscribes; "dictionary changed size during
iteration" then kills the new client's session handler after its CONNACK, so its SUBSCRIBEs
are never answered and its game waits forever (`selfplay --net` wedged 7 runs in 7).
`_SnapshotTable` replaces that table with one whose iteration walks a copy.
"""

from __future__ import annotations

import asyncio
import datetime
import hashlib
import ipaddress
import logging
import os
import socket
import ssl
from pathlib import Path

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID

QUIET = ("amqtt", "transitions")
PRUNE_EVERY = 10.0  # seconds between drops of subscription filters and retained messages gone


def _quiet_loggers() -> None:
    for name in QUIET:
        logger = logging.getLogger(name)
        logger.setLevel(logging.CRITICAL)
        logger.propagate = False


def free_port(host: str = "127.0.0.1") -> int:
    """A TCP port nothing listens on now (bind port 0 and ask)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind((host, 0))
        return sock.getsockname()[1]


class _SnapshotTable(dict):
    """amqtt's subscription table, iterated over a copy (see the module doc).

    Its lists are copied too: a broadcast walks a filter's sessions while it may await a
    topic check, and an unsubscribe pops from that list, which would skip a subscriber.
    Writes are untouched, so amqtt's own bookkeeping works as before.
    """

    def __iter__(self):  # type: ignore[override]
        return iter(list(dict.keys(self)))

    def keys(self):  # type: ignore[override]
        return list(dict.keys(self))

    def values(self):  # type: ignore[override]
        return [list(v) for v in dict.values(self)]

    def items(self):  # type: ignore[override]
        return [(k, list(v)) for k, v in dict.items(self)]

    def prune(self) -> int:
        """Drop filters nobody holds any more; how many went.

        amqtt 0.12.1 empties a filter's list on UNSUBSCRIBE but keeps the key, so a long-lived
        broker (a relay's) would keep one per game ever played and match every message against
        them all. Safe at any moment: amqtt adds a filter and its first subscriber without
        awaiting in between.
        """
        empty = [k for k, v in dict.items(self) if not v]
        for key in empty:
            del self[key]
        return len(empty)


def _guard_subscriptions(broker: object) -> None:
    """Swap in the copy-on-iterate table before the broker serves anyone.

    The one place that touches an amqtt internal; tests/net/test_embedded_broker.py both
    reproduces the wedge without it and fails if amqtt stops keeping the table under this name.
    """
    table = _SnapshotTable(broker._subscriptions)  # type: ignore[attr-defined]
    broker._subscriptions = table  # type: ignore[attr-defined]


def der_fingerprint(der: bytes) -> str:
    """The pin of a certificate: SHA-256 of its DER bytes, 64 lowercase hex digits."""
    return hashlib.sha256(der).hexdigest()


def cert_fingerprint(path: str | Path) -> str:
    """The pin of the (first) certificate in a PEM file, for an invite to carry.

    ValueError with one line when the file holds no certificate.
    """
    try:
        text = Path(path).read_text()
    except OSError as exc:
        raise ValueError(f"cannot read the certificate {path}: {exc.strerror or exc}") from None
    begin, end = "-----BEGIN CERTIFICATE-----", "-----END CERTIFICATE-----"
    if begin not in text or end not in text:
        raise ValueError(f"{path} holds no PEM certificate")
    pem = text[text.index(begin): text.index(end) + len(end)] + "\n"
    return der_fingerprint(ssl.PEM_cert_to_DER_cert(pem))


def self_signed(directory: Path, host: str = "127.0.0.1") -> tuple[Path, Path]:
    """(certificate, key) in `directory`, made once and kept: an EC P-256 key and a
    certificate for it, self-signed, valid ten years from now.

    Players trust it by its pin (the invite carries `cert_fingerprint`), not by a CA, so the
    names in it matter little; it still names `host` (and loopback) so strict tools can check
    it. The key file is private to its owner from its first byte.
    """
    cert, key = directory / "broker.pem", directory / "broker.key"
    if cert.is_file() and key.is_file():
        return cert, key
    directory.mkdir(parents=True, exist_ok=True)
    private = ec.generate_private_key(ec.SECP256R1())
    tmp_key, tmp_cert = key.with_name("broker.key.tmp"), cert.with_name("broker.pem.tmp")
    descriptor = os.open(tmp_key, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(descriptor, "wb") as out:
        out.write(private.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                        serialization.NoEncryption()))
    os.chmod(tmp_key, 0o600)  # O_CREAT's mode does not apply to a leftover file
    tmp_cert.write_bytes(_certificate(private, host).public_bytes(serialization.Encoding.PEM))
    os.replace(tmp_key, key)
    os.replace(tmp_cert, cert)
    return cert, key


def _certificate(private: ec.EllipticCurvePrivateKey, host: str) -> x509.Certificate:
    """What `openssl req -x509` made before: CN "gamenight broker", a CA:TRUE self-signed
    certificate (key identifiers included), SANs for `host`, 127.0.0.1 and localhost."""
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "gamenight broker")])
    try:
        first: x509.GeneralName = x509.IPAddress(ipaddress.ip_address(host))
    except ValueError:
        first = x509.DNSName(host)
    loopback = [x509.IPAddress(ipaddress.ip_address("127.0.0.1")), x509.DNSName("localhost")]
    names = [first] + [n for n in loopback if n != first]
    public = private.public_key()
    now = datetime.datetime.now(datetime.UTC)
    return (x509.CertificateBuilder()
            .subject_name(name).issuer_name(name).public_key(public)
            .serial_number(x509.random_serial_number())
            .not_valid_before(now).not_valid_after(now + datetime.timedelta(days=3650))
            .add_extension(x509.SubjectKeyIdentifier.from_public_key(public), critical=False)
            .add_extension(x509.AuthorityKeyIdentifier.from_issuer_public_key(public), critical=False)
            .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
            .add_extension(x509.SubjectAlternativeName(names), critical=False)
            .sign(private, hashes.SHA256()))


class EmbeddedBroker:
    """amqtt on `bind`:`port` (127.0.0.1:1883 by default). Create and start inside a running loop.

    With `username` it admits only clients with that login (and `password`); with `certfile`
    and `keyfile` it speaks only TLS (mqtts://).
    """

    def __init__(self, bind: str = "127.0.0.1", port: int = 1883, max_connections: int = 0, *,
                 username: str = "", password: str = "", certfile: str | Path | None = None,
                 keyfile: str | Path | None = None) -> None:
        self.bind = bind
        self.port = port if port else free_port(bind)
        self.max_connections = max_connections
        self.username, self.password = username, password
        if (certfile is None) != (keyfile is None):
            raise ValueError("TLS needs both a certificate file and a key file")
        self.certfile = str(certfile) if certfile else None
        self.keyfile = str(keyfile) if keyfile else None
        self._pruner: asyncio.Task[None] | None = None
        self.guard = True  # False shows the amqtt defect (tests/net/test_embedded_broker.py fails)
        self._broker = None

    @property
    def tls(self) -> bool:
        return self.certfile is not None

    @property
    def fingerprint(self) -> str:
        """The pin of our certificate ("" without TLS)."""
        return cert_fingerprint(self.certfile) if self.certfile else ""

    @property
    def url(self) -> str:
        host = "127.0.0.1" if self.bind in ("0.0.0.0", "") else self.bind
        return f"{'mqtts' if self.tls else 'mqtt'}://{host}:{self.port}"

    def config(self) -> dict:
        listener: dict = {"type": "tcp", "bind": f"{self.bind}:{self.port}",
                          "max_connections": self.max_connections}
        if self.tls:
            listener.update(ssl=True, certfile=self.certfile, keyfile=self.keyfile)
        if self.username:
            from .broker_login import password_digest

            auth = {"net.broker_login.LoginPlugin": {
                "username": self.username, "password_digest": password_digest(self.password)}}
        else:
            auth = {"amqtt.plugins.authentication.AnonymousAuthPlugin": {"allow_anonymous": True}}
        return {"listeners": {"default": listener}, "plugins": auth}

    async def start(self) -> None:
        _quiet_loggers()
        from amqtt.broker import Broker  # imported here: it is heavy and only hosts need it

        _quiet_loggers()
        self._broker = Broker(self.config())
        if self.guard:
            _guard_subscriptions(self._broker)
        try:
            await self._broker.start()
        except Exception as exc:
            self._broker = None
            raise OSError(f"cannot start the embedded broker on {self.bind}:{self.port}: {exc}") from None
        # The broker side needs nothing for Nagle: asyncio sets TCP_NODELAY on its transports.
        self._pruner = asyncio.get_running_loop().create_task(self._prune_forever())

    def subscription_count(self) -> int:
        """Topic filters the broker holds for all its clients, empty ones included."""
        return len(self._broker.subscriptions) if self._broker is not None else 0

    async def _prune_forever(self) -> None:
        while True:
            await asyncio.sleep(PRUNE_EVERY)
            self.prune()

    def prune(self) -> int:
        """Drop what amqtt keeps of things gone: subscription filters nobody holds, and
        retained messages cleared by an empty publish (amqtt 0.12 empties such a message but
        keeps its topic: a relay's broker would keep one per presence of every game archived).
        How many entries went."""
        if self._broker is None:
            return 0
        gone = 0
        table = self._broker.subscriptions
        if isinstance(table, _SnapshotTable):
            gone += table.prune()
        retained = self._broker.retained_messages  # a plain dict, written without awaiting
        for topic in [t for t, message in retained.items() if not message.data]:
            del retained[topic]
            gone += 1
        return gone

    def retained_count(self) -> int:
        """Retained messages the broker holds (cleared ones dropped at each prune)."""
        return len(self._broker.retained_messages) if self._broker is not None else 0

    async def stop(self) -> None:
        if self._pruner is not None:
            self._pruner.cancel()
            self._pruner = None
        if self._broker is not None:
            broker, self._broker = self._broker, None
            try:
                await asyncio.wait_for(broker.shutdown(), 10)
            except Exception:  # shutting down: nothing useful to do with a failure
                logging.getLogger("gamenight.net").info("embedded broker shutdown was not clean")

    async def __aenter__(self) -> EmbeddedBroker:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()
