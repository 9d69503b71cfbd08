"""Real brokers on loopback for the network tests: embedded amqtt always, mosquitto if installed."""

from __future__ import annotations

import asyncio
import contextlib
import datetime
import ipaddress
import re
import shutil
import subprocess
import tempfile
import threading
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

from net.broker import EmbeddedBroker, free_port

# Debian installs it in /usr/sbin, which a non-root PATH may lack.
MOSQUITTO = shutil.which("mosquitto") or shutil.which("mosquitto", path="/usr/sbin:/usr/local/sbin")
HAVE_MOSQUITTO = MOSQUITTO is not None


def _name(text: str) -> x509.Name:
    return x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, text)])


def make_test_ca(directory: Path) -> dict[str, Path]:
    """A throwaway CA and a certificate for 127.0.0.1 signed by it (the cryptography package).

    Returns the paths of "ca" (the CA certificate a client trusts), "cert" and "key" (the
    broker's). Extensions as strict verifiers want them (CA constraints, key usage, SAN IP).
    """
    ca_key, key = ec.generate_private_key(ec.SECP256R1()), ec.generate_private_key(ec.SECP256R1())
    now = datetime.datetime.now(datetime.UTC)
    valid = (now - datetime.timedelta(minutes=5), now + datetime.timedelta(days=2))

    def builder(subject: str, public: ec.EllipticCurvePublicKey) -> x509.CertificateBuilder:
        return (x509.CertificateBuilder().subject_name(_name(subject)).issuer_name(_name("gamenight test CA"))
                .public_key(public).serial_number(x509.random_serial_number())
                .not_valid_before(valid[0]).not_valid_after(valid[1])
                .add_extension(x509.SubjectKeyIdentifier.from_public_key(public), critical=False))

    ca_cert = (builder("gamenight test CA", ca_key.public_key())
               .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
               .add_extension(x509.KeyUsage(False, False, False, False, False, True, True, False, False),
                              critical=True)
               .sign(ca_key, hashes.SHA256()))
    server = (builder("127.0.0.1", key.public_key())
              .add_extension(x509.SubjectAlternativeName([x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]),
                             critical=False)
              .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=False)
              .add_extension(x509.KeyUsage(True, False, True, False, False, False, False, False, False),
                             critical=True)
              .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)
              .add_extension(x509.AuthorityKeyIdentifier.from_issuer_public_key(ca_key.public_key()),
                             critical=False)
              .sign(ca_key, hashes.SHA256()))
    paths = {"ca": directory / "ca.pem", "cert": directory / "server.pem", "key": directory / "server.key"}
    paths["ca"].write_bytes(ca_cert.public_bytes(serialization.Encoding.PEM))
    paths["cert"].write_bytes(server.public_bytes(serialization.Encoding.PEM))
    paths["key"].write_bytes(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                               serialization.NoEncryption()))
    for path in (directory, *paths.values()):  # mosquitto started as root reads them as its own user
        path.chmod(0o755 if path.is_dir() else 0o644)
    return paths


class Mosquitto:
    """`mosquitto -c <tmp conf>` on 127.0.0.1 and a free port; restartable on the same port.

    With `tls=True` the listener speaks only TLS, with a certificate from `make_test_ca`
    (`self.tls["ca"]` is the CA file a client needs); with `certificate` (cert, key) it serves
    that pair instead (a self-signed one is then its own CA file).
    """

    def __init__(self, port: int | None = None, tls: bool = False,
                 certificate: tuple[Path, Path] | None = None, extra: str = "") -> None:
        self.port = port or free_port()
        self.extra = extra  # more configuration lines (a bridge)
        self.dir = Path(tempfile.mkdtemp(prefix="gn-mosq-"))
        self.proc: subprocess.Popen | None = None
        self.tls = make_test_ca(self.dir) if tls else None
        if certificate is not None:  # a self-signed pair (net.broker.self_signed): its own CA
            cert, key = (self.dir / "server.pem", self.dir / "server.key")
            cert.write_bytes(certificate[0].read_bytes())
            key.write_bytes(certificate[1].read_bytes())
            for path in (self.dir, cert, key):  # mosquitto as root reads them as its own user
                path.chmod(0o755 if path.is_dir() else 0o644)
            self.tls = {"ca": cert, "cert": cert, "key": key}

    @property
    def url(self) -> str:
        return f"{'mqtts' if self.tls else 'mqtt'}://127.0.0.1:{self.port}"

    async def start(self) -> None:
        conf = self.dir / "mosquitto.conf"
        tls = "" if self.tls is None else (
            f"cafile {self.tls['ca']}\ncertfile {self.tls['cert']}\nkeyfile {self.tls['key']}\n")
        conf.write_text(
            f"listener {self.port} 127.0.0.1\n" + tls +
            "allow_anonymous true\n"
            "set_tcp_nodelay true\n"
            "persistence false\n"
            "log_dest none\n"
            "max_queued_messages 100000\n" + self.extra
        )
        self.proc = subprocess.Popen(
            [MOSQUITTO, "-c", str(conf)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )
        for _ in range(100):
            try:
                _, writer = await asyncio.open_connection("127.0.0.1", self.port)
                writer.close()
                return
            except OSError:
                await asyncio.sleep(0.05)
        raise RuntimeError("mosquitto did not start")

    async def stop(self) -> None:
        if self.proc is not None:
            self.proc.terminate()
            try:
                self.proc.wait(5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
            self.proc = None


BRIDGE_CONF = Path(__file__).resolve().parents[2] / "configs" / "mosquitto-bridge.conf"


def bridge_to(port: int) -> str:
    """The bridge section of configs/mosquitto-bridge.conf, pointing at 127.0.0.1:`port`
    (the extra configuration of a Mosquitto that bridges to the one on `port`)."""
    text = BRIDGE_CONF.read_text()
    section = text[text.index("connection gamenight-a"):]
    return re.sub(r"(?m)^address .*$", f"address 127.0.0.1:{port}", section)


async def wait_bridged(a: Mosquitto, b: Mosquitto, timeout: float = 20) -> None:
    """Until a message published on `b` reaches a client of `a` (the bridge is up)."""
    from net.mqtt import MqttTransport

    got: list[bytes] = []
    here, there = MqttTransport(a.url), MqttTransport(b.url)
    await here.start(timeout=5)
    await there.start(timeout=5)
    try:
        await here.subscribe("gamenight/v1/probe", lambda t, payload, r: got.append(payload))
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while not got:
            if loop.time() > end:
                raise RuntimeError(f"the bridge from {b.url} to {a.url} did not come up")
            there.publish_now("gamenight/v1/probe", b"up", 0)
            await asyncio.sleep(0.1)
    finally:
        await here.stop()
        await there.stop()


@contextlib.asynccontextmanager
async def bridged_pair() -> AsyncIterator[tuple[Mosquitto, Mosquitto]]:
    """Two mosquittos, the second bridged to the first by configs/mosquitto-bridge.conf."""
    a = Mosquitto()
    b = Mosquitto(extra=bridge_to(a.port))
    try:
        await a.start()
        await b.start()
        await wait_bridged(a, b)
        yield a, b
    finally:
        await b.stop()
        await a.stop()


@contextlib.asynccontextmanager
async def running_broker(kind: str) -> AsyncIterator[str]:
    """Yield the URL of a fresh broker of `kind` ("amqtt" or "mosquitto") on loopback."""
    if kind == "amqtt":
        broker = EmbeddedBroker(port=0)
        await broker.start()
        try:
            yield broker.url
        finally:
            await broker.stop()
    else:
        mosq = Mosquitto()
        await mosq.start()
        try:
            yield mosq.url
        finally:
            await mosq.stop()


@contextlib.contextmanager
def broker_on_thread(broker: EmbeddedBroker) -> Iterator[EmbeddedBroker]:
    """`broker` started on its own thread's event loop (for a test whose clients block, such
    as the CLI in this thread), stopped after."""
    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=lambda: (asyncio.set_event_loop(loop), loop.run_forever()), daemon=True)
    thread.start()
    asyncio.run_coroutine_threadsafe(broker.start(), loop).result(10)
    try:
        yield broker
    finally:
        asyncio.run_coroutine_threadsafe(broker.stop(), loop).result(15)
        loop.call_soon_threadsafe(loop.stop)
        thread.join(5)
