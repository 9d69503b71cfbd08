"""The SSH door in this process, visited by asyncssh clients: its limits, keys and ptys.

The visitors' app is a stand-in here (a small script that reports its terminal and starts a
grandchild), so twenty sessions cost little; tests/net/test_ssh_door.py runs the real app
through the real OpenSSH client.
"""

from __future__ import annotations

import asyncio
import os
import re
import subprocess
import sys
from pathlib import Path

import asyncssh
import pytest

from net.doors.env import key_id
from net.doors.limits import AddressBuckets, DoorLimits, SessionCaps, TokenBucket
from net.doors.ssh import SshDoor, SshDoorOptions, terminal_env
from net.doors.ssh_keys import KeyFileError, fingerprint, load_or_create_host_key

DEADLINE = 60.0  # seconds for anything that starts processes on a loaded machine

STAND_IN = r"""
import fcntl, os, signal, struct, subprocess, sys, termios, time
def size(*_):
    rows, cols, _, _ = struct.unpack("HHHH", fcntl.ioctl(0, termios.TIOCGWINSZ, b"\0" * 8))
    os.write(1, f"size {cols}x{rows}\r\n".encode())
time.sleep(float(sys.argv[1]))
signal.signal(signal.SIGWINCH, size)
grand = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"])
env = os.environ
os.write(1, f"ready pid {os.getpid()} grandchild {grand.pid} TERM={env['TERM']} "
            f"COLORTERM={env.get('COLORTERM', '-')} COLUMNS={env.get('COLUMNS', '-')} "
            f"HOME={env['GAMENIGHT_HOME']}\r\n".encode())
size()
while True:
    data = os.read(0, 1024)
    os.write(1, b"got " + data.hex().encode() + b"\r\n")
    if b"\x11" in data:
        sys.exit(0)
"""


# ---- the arithmetic -------------------------------------------------------------------------
def test_a_token_bucket_admits_its_burst_then_one_per_refill():
    bucket = TokenBucket(per_minute=6, burst=3, now=0.0)
    assert [bucket.take(0.0) for _ in range(4)] == [True, True, True, False]
    assert bucket.wait(0.0) == pytest.approx(10.0)
    assert not bucket.take(9.0)
    assert bucket.take(10.5)
    assert bucket.full(1000.0)


def test_address_buckets_say_when_to_come_back_and_stay_bounded():
    buckets = AddressBuckets(per_minute=1, burst=1, what="connections", max_addresses=100)
    assert buckets.take("10.0.0.1", 0.0) is None
    assert buckets.take("10.0.0.1", 1.0) == "too many connections from 10.0.0.1; try again in 59 s"
    assert buckets.take("10.0.0.2", 1.0) is None  # another address has its own bucket
    for n in range(10_000):  # a client with many addresses
        buckets.take(f"2001:db8::{n:x}", 2.0)
    assert len(buckets) <= 100


def test_session_caps_count_per_key_and_in_total():
    caps = SessionCaps(per_key=2, total=3)
    assert caps.admit("a") is None and caps.admit("a") is None
    assert "your key already has 2 sessions open" in caps.admit("a")
    assert caps.admit("b") is None
    assert "the door is full (3 sessions open)" in caps.admit("c")
    caps.release("a")
    assert caps.admit("c") is None and caps.count == 3


def test_limits_refuse_nonsense():
    with pytest.raises(ValueError, match="sessions per key must be at least 1"):
        DoorLimits(sessions_per_key=0)
    with pytest.raises(ValueError, match="idle seconds must be a positive number"):
        DoorLimits(idle_seconds=float("nan"))


def test_colour_depth_follows_term_and_colorterm():
    assert terminal_env("xterm-256color", {}) == ("xterm-256color", None)
    assert terminal_env("xterm", {"COLORTERM": "truecolor"}) == ("xterm", "truecolor")
    assert terminal_env("xterm", {"COLORTERM": "yes please"}) == ("xterm", None)
    assert terminal_env("x\x1b]0;evil", {}) == ("xterm-256color", None)  # not a terminal name


# ---- keys -----------------------------------------------------------------------------------
def test_the_host_key_is_made_once_private_and_printed_as_ssh_keygen_does(tmp_path):
    path = tmp_path / "ssh_host_ed25519_key"
    key = load_or_create_host_key(path)
    assert path.stat().st_mode & 0o777 == 0o600
    assert fingerprint(load_or_create_host_key(path)) == fingerprint(key)  # kept, not made anew
    listed = subprocess.run(["ssh-keygen", "-l", "-f", str(path)], capture_output=True, text=True)
    if listed.returncode == 0:
        assert listed.stdout.split()[1] == fingerprint(key)
    path.write_text("not a key")
    with pytest.raises(KeyFileError, match="cannot read the SSH host key .*move it away"):
        load_or_create_host_key(path)


# ---- a door with stand-in visitors -----------------------------------------------------------
def door_options(tmp_path: Path, *, delay: float = 0.0, **limits) -> SshDoorOptions:
    return SshDoorOptions(port=0, command=(sys.executable, "-c", STAND_IN, str(delay)), root=tmp_path / "door",
                          host_key=tmp_path / "host_key", open=True, limits=DoorLimits(**limits))


async def start_door(options: SshDoorOptions) -> SshDoor:
    door = SshDoor(options, "mqtt://127.0.0.1:1")
    await door.start()
    return door


async def visit(door: SshDoor, key: asyncssh.SSHKey, **kwargs):
    conn = await asyncssh.connect("127.0.0.1", door.port, client_keys=[key], known_hosts=None, username="visitor",
                                  agent_path=None, config=None)
    kwargs.setdefault("term_type", "xterm-256color")
    kwargs.setdefault("term_size", (80, 24))
    process = await conn.create_process(encoding=None, **kwargs)
    return conn, process


async def read_until(stream, pattern: bytes, timeout: float = DEADLINE) -> bytes:
    seen = b""
    async with asyncio.timeout(timeout):
        while not re.search(pattern, seen):
            chunk = await stream.read(4096)
            if not chunk:
                break
            seen += chunk
    return seen


def alive(pid: int) -> bool:
    return Path(f"/proc/{pid}").exists()  # a zombie counts as alive


async def until_gone(pids: list[int]) -> list[int]:
    async with asyncio.timeout(DEADLINE):
        while any(alive(p) for p in pids):
            await asyncio.sleep(0.1)
    return [p for p in pids if alive(p)]


async def test_twenty_sessions_then_the_caps_refuse_and_nothing_is_left_after(tmp_path):
    door = await start_door(door_options(tmp_path, sessions_per_key=2, sessions_total=20,
                                         connections_per_minute=60, connection_burst=30))
    keys = [asyncssh.generate_private_key("ssh-ed25519") for _ in range(11)]
    visits, pids = [], []
    try:
        for n in range(20):
            visits.append(await visit(door, keys[n // 2]))
        for _conn, process in visits:
            out = await read_until(process.stdout, rb"grandchild \d+")
            pids += [int(p) for p in re.search(rb"ready pid (\d+) grandchild (\d+)", out).groups()]
        assert len(door.sessions) == 20 and all(alive(p) for p in pids)
        assert sorted(p.name for p in (tmp_path / "door" / "players").iterdir()) == \
            sorted({key_id(k.public_data) for k in keys[:10]})

        conn, process = await visit(door, keys[10])  # a new key, the door is full
        assert await process.stderr.read() == b"gamenight: the door is full (20 sessions open); try again later\r\n"
        assert (await process.wait()).exit_status == 1
        conn.close()

        visits.pop()[0].close()  # one of key 9's sessions leaves
        async with asyncio.timeout(DEADLINE):
            while len(door.sessions) > 19:
                await asyncio.sleep(0.05)
        conn, process = await visit(door, keys[0])  # key 0 has two already
        line = await process.stderr.read()
        assert line == b"gamenight: your key already has 2 sessions open here, the most allowed; close one first\r\n"
        conn.close()
    finally:
        for conn, _ in visits:
            conn.close()
        gone = await until_gone(pids)
        await door.stop()
    assert gone == [], "processes left after every visitor left"
    assert door.sessions == set() and door.caps.count == 0 and door.pending == 0


async def test_the_app_gets_the_visitors_terminal_its_size_and_never_early_input(tmp_path, monkeypatch):
    monkeypatch.setenv("COLUMNS", "80")  # the relay's own terminal size must not pin the app's
    monkeypatch.setenv("LINES", "24")
    door = await start_door(door_options(tmp_path, delay=1.0))
    key = asyncssh.generate_private_key("ssh-ed25519")
    try:
        conn, process = await visit(door, key, term_type="xterm", env={"COLORTERM": "truecolor"},
                                    term_size=(100, 30))
        head = await process.stdout.read(200)  # the reset of stale modes comes first
        assert head.startswith(b"\x1b[?1000l") and b"\x1b[?1004l" in head and b"\x1b[?2004l" in head
        process.stdin.write(b"typed too early")
        out = await read_until(process.stdout, rb"size \d+x\d+")
        assert b"TERM=xterm COLORTERM=truecolor COLUMNS=- " in out
        assert f"HOME={tmp_path / 'door' / 'players' / key_id(key.public_data)}".encode() in out
        assert b"size 100x30" in out and b"typed too early" not in out  # no echo, not delivered
        process.change_terminal_size(120, 40)
        assert b"size 120x40" in await read_until(process.stdout, rb"size 120x40")
        process.stdin.write(b"k")
        assert b"got 6b" in await read_until(process.stdout, rb"got 6b")
        process.stdin.write(b"\x03")  # Ctrl+C: the app is asked to quit (Ctrl+Q), the session ends
        assert b"got 11" in await read_until(process.stdout, rb"got 11")
        assert (await asyncio.wait_for(process.wait(), DEADLINE)).exit_status == 0
        conn.close()
    finally:
        await door.stop()


async def test_an_idle_session_is_closed_with_one_line(tmp_path, caplog):
    caplog.set_level("INFO", logger="gamenight.net")
    door = await start_door(door_options(tmp_path, idle_seconds=1.0))
    try:
        key = asyncssh.generate_private_key("ssh-ed25519")
        conn, process = await visit(door, key)
        out = await read_until(process.stdout, rb"session closed[^\n]*\n")
        assert re.search(rb"\r\ngamenight: no key pressed for 1 s: session closed \(Continue in the menu picks your game up\)\r\n$", out)
        conn.close()
    finally:
        await door.stop()
    assert [r for r in caplog.messages if "no key pressed" in r] == [
        "ssh door: refused 127.0.0.1 (key "
        f"{fingerprint(key)}): no key pressed for 1 s: session closed (Continue in the menu picks your game up)"]


async def test_connections_and_auth_attempts_per_address_are_rate_limited(tmp_path):
    door = await start_door(door_options(tmp_path, connections_per_minute=1, connection_burst=2,
                                         auth_per_minute=1, auth_burst=1))
    key = asyncssh.generate_private_key("ssh-ed25519")
    try:
        conn, _ = await visit(door, key)  # one connection, one key: both buckets allow it
        conn.close()
        with pytest.raises(asyncssh.DisconnectError, match="gamenight: too many authentication attempts from 127.0.0.1"):
            await visit(door, key)  # the second connection's key is one attempt too many
        with pytest.raises(asyncssh.DisconnectError, match="gamenight: too many connections from 127.0.0.1; try again in"):
            await visit(door, key)
    finally:
        await door.stop()


async def test_only_listed_keys_come_in_and_a_list_edited_while_running_counts(tmp_path):
    ann, eve = (asyncssh.generate_private_key("ssh-ed25519") for _ in range(2))
    listed = tmp_path / "authorized_keys"
    listed.write_bytes(ann.export_public_key())
    options = door_options(tmp_path)
    options = SshDoorOptions(**{**options.__dict__, "open": False, "authorized_keys": listed})
    door = await start_door(options)
    banners: list[str] = []

    class Client(asyncssh.SSHClient):
        def auth_banner_received(self, msg: str, lang: str) -> None:
            banners.append(msg)

    async def connect(key):
        return await asyncssh.connect("127.0.0.1", door.port, client_keys=[key], known_hosts=None, username="v",
                                      agent_path=None, config=None, client_factory=Client)

    try:
        with pytest.raises(asyncssh.PermissionDenied):
            await connect(eve)
        assert banners == [f"gamenight: key {fingerprint(eve)} is not on this door's list (ask the host to add it)\r\n"]
        (await connect(ann)).close()
        listed.write_bytes(ann.export_public_key() + eve.export_public_key())
        os.utime(listed, (1, 1))  # a new stamp even within the same clock tick
        (await connect(eve)).close()
    finally:
        await door.stop()


# ---- the relay's flags ---------------------------------------------------------------------
@pytest.mark.parametrize("flags, line", [
    (["--ssh", "2222"], "--ssh needs --authorized-keys FILE (admit those keys) or --open (admit any key)"),
    (["--ssh", "2222", "--open", "--authorized-keys", "k"], "--ssh needs --authorized-keys FILE"),
    (["--open"], "--open needs --ssh PORT"),
    (["--ssh", "70000", "--open"], "--ssh must be a port from 0 to 65535 (or ADDR:PORT), not 70000"),
    (["--ssh", "127.0.0.1:x", "--open"], "--ssh must be a port from 0 to 65535 (or ADDR:PORT), not 127.0.0.1:x"),
    (["--ssh", "0", "--open", "--ssh-sessions", "0"], "--ssh: sessions total must be at least 1, not 0"),
    (["--ssh", "0", "--authorized-keys", "/nonexistent/keys"], "cannot read the authorized keys /nonexistent/keys"),
])
def test_bad_door_flags_are_one_line_before_anything_listens(flags, line, tmp_path, monkeypatch, capsys):
    from tui.cli import main

    monkeypatch.setenv("GAMENIGHT_HOME", str(tmp_path))
    assert main(["relay", "--port", "0", *flags]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and line in err[0], err
