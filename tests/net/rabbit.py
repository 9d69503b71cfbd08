"""A two-node RabbitMQ cluster (MQTT plugin) on loopback, for the tests of issue 23.

Its own temp dir (Mnesia, logs, the Erlang cookie made here), its own epmd port and free ports
(below the ephemeral range: `listen_port`) for AMQP, distribution and MQTT, the node configs
of configs/rabbitmq/ with those ports put in.
Starting a node takes seconds: a test module starts the cluster once.
"""

from __future__ import annotations

import asyncio
import os
import random
import re
import secrets
import shutil
import socket
import subprocess
import tempfile
from pathlib import Path

from net.broker import free_port

EPHEMERAL = Path("/proc/sys/net/ipv4/ip_local_port_range")


def listen_port() -> int:
    """A free port below the kernel's ephemeral range. A node's listeners close and open again
    (its app stops to join the cluster; a test restarts it), and meanwhile a port in that range
    may become the local end of any outgoing connection on the machine (another test's): the
    node then could not listen (`listen_error`, seen once in a full run)."""
    try:
        low = int(EPHEMERAL.read_text().split()[0])
    except (OSError, ValueError, IndexError):
        low = 32768
    pick = random.SystemRandom()
    for _ in range(200):
        port = pick.randrange(max(1024, low - 12000), low)
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
            try:
                sock.bind(("127.0.0.1", port))
            except OSError:
                continue  # taken: another
        return port
    return free_port()


CONFIGS = Path(__file__).resolve().parents[2] / "configs" / "rabbitmq"
# Debian's /usr/sbin scripts switch to the rabbitmq user and its HOME (another cookie): the
# tests call the real scripts, which keep the environment given here.
_BIN = "/usr/lib/rabbitmq/bin"
RABBITMQ_SERVER = shutil.which("rabbitmq-server", path=_BIN) or shutil.which("rabbitmq-server")
RABBITMQCTL = shutil.which("rabbitmqctl", path=_BIN) or shutil.which("rabbitmqctl")
HAVE_RABBITMQ = RABBITMQ_SERVER is not None and RABBITMQCTL is not None
EPMD = shutil.which("epmd") or shutil.which("epmd", path="/usr/lib/erlang/bin")


class RabbitCluster:
    """rabbit1@localhost and rabbit2@localhost, clustered; `urls[i]` is node i's MQTT listener."""

    def __init__(self) -> None:
        self.dir = Path(tempfile.mkdtemp(prefix="gn-rabbit-"))
        self.home = self.dir / "home"
        self.home.mkdir()
        cookie = self.home / ".erlang.cookie"
        cookie.write_text(secrets.token_hex(16))
        cookie.chmod(0o400)
        self.epmd_port = listen_port()
        self.mqtt_ports = [listen_port(), listen_port()]
        self.procs: list[subprocess.Popen | None] = [None, None]

    @property
    def urls(self) -> list[str]:
        return [f"mqtt://127.0.0.1:{port}" for port in self.mqtt_ports]

    def node(self, i: int) -> str:
        return f"rabbit{i + 1}@localhost"

    def _env(self, i: int | None = None) -> dict[str, str]:
        env = {**os.environ, "HOME": str(self.home), "ERL_EPMD_PORT": str(self.epmd_port)}
        if i is None:
            return env
        base = self.dir / f"n{i + 1}"
        base.mkdir(exist_ok=True)
        conf = (CONFIGS / f"rabbit{i + 1}.conf").read_text()
        conf = re.sub(r"(?m)^listeners\.tcp\.default = .*$", f"listeners.tcp.default = 127.0.0.1:{listen_port()}", conf)
        conf = re.sub(r"(?m)^mqtt\.listeners\.tcp\.default = .*$",
                      f"mqtt.listeners.tcp.default = 127.0.0.1:{self.mqtt_ports[i]}", conf)
        (base / "rabbitmq.conf").write_text(conf)
        return {**env, "RABBITMQ_NODENAME": self.node(i), "RABBITMQ_CONFIG_FILE": str(base / "rabbitmq.conf"),
                "RABBITMQ_ENABLED_PLUGINS_FILE": str(CONFIGS / "enabled_plugins"),
                "RABBITMQ_DIST_PORT": str(listen_port()), "RABBITMQ_MNESIA_BASE": str(base / "mnesia"),
                "RABBITMQ_LOG_BASE": str(base / "log"), "RABBITMQ_PID_FILE": str(base / "pid"),
                "RABBITMQ_PLUGINS_EXPAND_DIR": str(base / "plugins")}

    async def ctl(self, i: int, *args: str, timeout: float = 60) -> None:
        proc = await asyncio.create_subprocess_exec(RABBITMQCTL, "-q", "-n", self.node(i), *args, env=self._env(),
                                                    stdout=asyncio.subprocess.DEVNULL,
                                                    stderr=asyncio.subprocess.PIPE)
        _, err = await asyncio.wait_for(proc.communicate(), timeout)
        if proc.returncode:
            raise RuntimeError(f"rabbitmqctl {' '.join(args)} on {self.node(i)}: {err.decode(errors='replace')[:400]}")

    async def _mqtt_up(self, i: int, timeout: float = 90) -> None:
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while loop.time() < end:
            proc = self.procs[i]
            if proc is not None and proc.poll() is not None:
                raise RuntimeError(f"{self.node(i)} exited ({proc.returncode}); logs in {self.dir}")
            try:
                _, writer = await asyncio.open_connection("127.0.0.1", self.mqtt_ports[i])
                writer.close()
                return
            except OSError:
                await asyncio.sleep(0.2)
        raise RuntimeError(f"{self.node(i)}'s MQTT listener did not open; logs in {self.dir}")

    async def start(self) -> None:
        for i in (0, 1):
            # cwd: an Erlang VM that dies writes its MnesiaCore dump into its working directory.
            self.procs[i] = subprocess.Popen([RABBITMQ_SERVER], env=self._env(i), cwd=self.dir,
                                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                             start_new_session=True)
        await asyncio.gather(self._mqtt_up(0), self._mqtt_up(1))
        await self.ctl(1, "stop_app")
        await self.ctl(1, "join_cluster", self.node(0))
        await self.ctl(1, "start_app")
        await self._mqtt_up(1)

    async def restart(self, i: int) -> None:
        """Node i's broker stops (every MQTT connection to it drops) and starts again."""
        await self.ctl(i, "stop_app")
        await self.ctl(i, "start_app")
        await self._mqtt_up(i)

    async def stop(self) -> None:
        for i, proc in enumerate(self.procs):
            if proc is None or proc.poll() is not None:
                continue
            try:
                await self.ctl(i, "stop", timeout=30)
                proc.wait(15)
            except (RuntimeError, TimeoutError, subprocess.TimeoutExpired):
                proc.kill()
                proc.wait(5)
        if EPMD is not None:  # the epmd our nodes started on their own port
            subprocess.run([EPMD, "-port", str(self.epmd_port), "-kill"], capture_output=True, timeout=10)
        shutil.rmtree(self.dir, ignore_errors=True)
