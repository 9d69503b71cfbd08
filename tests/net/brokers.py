"""Real brokers on loopback for the network tests: embedded amqtt always, mosquitto if installed."""

from __future__ import annotations

import asyncio
import contextlib
import shutil
import subprocess
import tempfile
import threading
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

from net.broker import EmbeddedBroker, free_port

# Debian installs it in /usr/sbin, which a non-root PATH may lack.
MOSQUITTO = shutil.which("mosquitto") or shutil.which("mosquitto", path="/usr/sbin:/usr/local/sbin")
HAVE_MOSQUITTO = MOSQUITTO is not None


OPENSSL = shutil.which("openssl")


def make_test_ca(directory: Path) -> dict[str, Path]:
    """A throwaway CA and a certificate for 127.0.0.1 signed by it, made with the openssl CLI.

    Returns the paths of "ca" (the CA certificate a client trusts), "cert" and "key" (the
    broker's). Extensions as strict verifiers want them (CA constraints, key usage, SAN IP).
    """
    ca, ca_key = directory / "ca.pem", directory / "ca.key"
    cert, key, csr = directory / "server.pem", directory / "server.key", directory / "server.csr"
    ext = directory / "server.ext"
    ext.write_text("subjectAltName=IP:127.0.0.1\nbasicConstraints=CA:FALSE\n"
                   "keyUsage=critical,digitalSignature,keyEncipherment\nextendedKeyUsage=serverAuth\n"
                   "subjectKeyIdentifier=hash\nauthorityKeyIdentifier=keyid,issuer\n")
    ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]

    def run(*args: str) -> None:
        subprocess.run([OPENSSL, *args], check=True, capture_output=True)

    run("req", "-x509", *ec, "-keyout", str(ca_key), "-out", str(ca), "-days", "2",
        "-subj", "/CN=gamenight test CA", "-addext", "basicConstraints=critical,CA:TRUE",
        "-addext", "keyUsage=critical,keyCertSign,cRLSign")
    run("req", *ec, "-keyout", str(key), "-out", str(csr), "-subj", "/CN=127.0.0.1")
    run("x509", "-req", "-in", str(csr), "-CA", str(ca), "-CAkey", str(ca_key), "-CAcreateserial",
        "-out", str(cert), "-days", "2", "-extfile", str(ext))
    for path in (directory, cert, key, ca):  # mosquitto started as root reads them as its own user
        path.chmod(0o755 if path.is_dir() else 0o644)
    return {"ca": ca, "cert": cert, "key": key}


class Mosquitto:
    """`mosquitto -c <tmp conf>` on 127.0.0.1 and a free port; restartable on the same port.

    With `tls=True` the listener speaks only TLS, with a certificate from `make_test_ca`
    (`self.tls["ca"]` is the CA file a client needs).
    """

    def __init__(self, port: int | None = None, tls: bool = False) -> None:
        self.port = port or free_port()
        self.dir = Path(tempfile.mkdtemp(prefix="gn-mosq-"))
        self.proc: subprocess.Popen | None = None
        self.tls = make_test_ca(self.dir) if tls else None

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
            "max_queued_messages 100000\n"
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
