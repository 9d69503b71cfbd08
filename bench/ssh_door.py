"""The SSH door: connect to first frame over SSH next to a local start, and memory per session.

In one run, with the real gamenight TUI as each visitor's app:
- a local start: the TUI on a pty of its own (no SSH), from spawn to the menu on screen;
- an SSH visit: from the TCP connect (key exchange, key auth, pty, the app's start) to the
  menu on the visitor's screen, through an in-process door and an asyncssh client;
- SESSIONS visitors at once (two per key), each at the menu: the resident memory of the door
  process (its growth) and of every app process, as RSS and as PSS (shared pages split), per
  session; then every visitor leaves and the app processes still alive are counted (0 expected).
Figures only, no asserts.

    .venv/bin/python bench/ssh_door.py [--sessions 20] [--rounds 3]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

MENU = b"New local game"
COMMAND = (sys.executable, "-m", "tui.cli")


def memory_kb(pid: int | str, field: str) -> int:
    """VmRSS from /proc/PID/status, or Pss from /proc/PID/smaps_rollup (kB; 0 if gone)."""
    path = Path(f"/proc/{pid}/status" if field == "VmRSS" else f"/proc/{pid}/smaps_rollup")
    try:
        for line in path.read_text().splitlines():
            if line.startswith(field + ":"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


async def until_menu(read, deadline: float = 120.0) -> None:
    seen = b""
    async with asyncio.timeout(deadline):
        while MENU not in seen:
            chunk = await read()
            if not chunk:
                raise RuntimeError(f"the app ended before its menu: {seen[-300:]!r}")
            seen = seen[-4096:] + chunk


async def local_start(home: Path) -> float:
    """Spawn to menu of the TUI on a pty, with no SSH in between."""
    from net.doors.pty_child import PtyChild

    home.mkdir(parents=True, exist_ok=True)
    chunks: asyncio.Queue[bytes] = asyncio.Queue()
    env = {**os.environ, "GAMENIGHT_HOME": str(home), "TERM": "xterm-256color"}
    started = time.perf_counter()
    child = PtyChild(COMMAND, env, home, 80, 24, chunks.put_nowait, lambda status: chunks.put_nowait(b""))
    await child.start()
    await until_menu(chunks.get)
    seconds = time.perf_counter() - started
    await child.stop(quit_key=b"\x11")
    return seconds


async def ssh_visit(door, key):
    import asyncssh

    conn = await asyncssh.connect("127.0.0.1", door.port, client_keys=[key], known_hosts=None,
                                  username="bench", agent_path=None, config=None)
    process = await conn.create_process(term_type="xterm-256color", term_size=(80, 24), encoding=None)
    await until_menu(lambda: process.stdout.read(65536))
    return conn, process


async def ssh_start(door, key) -> float:
    started = time.perf_counter()
    conn, _ = await ssh_visit(door, key)
    seconds = time.perf_counter() - started
    conn.close()
    await asyncio.sleep(0)
    return seconds


async def wait_closed(door, timeout: float = 60.0) -> None:
    end = time.monotonic() + timeout
    while door.sessions and time.monotonic() < end:
        await asyncio.sleep(0.1)


async def main(sessions: int, rounds: int) -> None:
    import asyncssh

    from net.doors.limits import DoorLimits
    from net.doors.ssh import SshDoor, SshDoorOptions

    root = Path(tempfile.mkdtemp(prefix="ssh-door-bench-"))
    options = SshDoorOptions(port=0, command=COMMAND, root=root / "door", host_key=root / "host_key", open=True,
                             limits=DoorLimits(sessions_total=sessions + 1, connections_per_minute=600,
                                               connection_burst=sessions + 2 * rounds + 2))
    door = SshDoor(options, "mqtt://127.0.0.1:1")
    await door.start()
    keys = [asyncssh.generate_private_key("ssh-ed25519") for _ in range((sessions + 1) // 2)]
    try:
        local, remote = [], []
        for _ in range(rounds):  # alternated, so a slow moment of the machine hits both
            local.append(await local_start(root / "local"))
            remote.append(await ssh_start(door, keys[0]))
            await wait_closed(door)
        print(f"first frame (menu at 80x24), median of {rounds} (all runs):")
        print(f"  local start on a pty:   {statistics.median(local) * 1000:7.0f} ms  "
              f"({', '.join(f'{s * 1000:.0f}' for s in local)})")
        print(f"  over SSH (asyncssh):    {statistics.median(remote) * 1000:7.0f} ms  "
              f"({', '.join(f'{s * 1000:.0f}' for s in remote)})")

        door_before = memory_kb("self", "VmRSS")
        visits = [await ssh_visit(door, keys[n // 2]) for n in range(sessions)]
        pids = [s.child.pid for s in door.sessions if s.child and s.child.pid]
        door_after = memory_kb("self", "VmRSS")
        apps_rss = sum(memory_kb(p, "VmRSS") for p in pids)
        apps_pss = sum(memory_kb(p, "Pss") for p in pids)
        print(f"{sessions} sessions at the menu ({len(pids)} app processes):")
        print(f"  door process: {door_before / 1024:.1f} MB before, {door_after / 1024:.1f} MB with them "
              f"(+{(door_after - door_before) / sessions:.0f} kB a session)")
        print(f"  app processes: RSS {apps_rss / 1024:.0f} MB ({apps_rss / 1024 / max(1, len(pids)):.1f} MB each), "
              f"PSS {apps_pss / 1024:.0f} MB ({apps_pss / 1024 / max(1, len(pids)):.1f} MB each)")
        total = (door_after - door_before + apps_pss) / 1024 / sessions
        print(f"  per session (door growth + app PSS): {total:.1f} MB")
        for conn, _ in visits:
            conn.close()
        await wait_closed(door)
        left = [p for p in pids if Path(f"/proc/{p}").exists()]
        print(f"after every visitor left: {len(door.sessions)} sessions, {len(left)} app processes alive")
    finally:
        await door.stop()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sessions", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    asyncio.run(main(args.sessions, args.rounds))
