"""Real brokers on loopback for the network tests: embedded amqtt always, mosquitto if installed."""

from __future__ import annotations

import asyncio
import contextlib
import shutil
import subprocess
import tempfile
from collections.abc import AsyncIterator
from pathlib import Path

from net.broker import EmbeddedBroker, free_port

# Debian installs it in /usr/sbin, which a non-root PATH may lack.
MOSQUITTO = shutil.which("mosquitto") or shutil.which("mosquitto", path="/usr/sbin:/usr/local/sbin")
HAVE_MOSQUITTO = MOSQUITTO is not None


class Mosquitto:
    """`mosquitto -c <tmp conf>` on 127.0.0.1 and a free port; restartable on the same port."""

    def __init__(self, port: int | None = None) -> None:
        self.port = port or free_port()
        self.dir = Path(tempfile.mkdtemp(prefix="gn-mosq-"))
        self.proc: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"mqtt://127.0.0.1:{self.port}"

    async def start(self) -> None:
        conf = self.dir / "mosquitto.conf"
        conf.write_text(
            f"listener {self.port} 127.0.0.1\n"
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
