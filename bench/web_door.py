"""The browser door: time from a tab's first request to the menu on its screen, and memory per tab.

Baseline, measured in the same run: the same gamenight process started by textual-serve's
AppService with no door around it (no HTTP, websocket, key, cookie or folder), timed to the
same screen. Then TABS tabs opened at once through the door (an aiohttp client speaking what
textual.js speaks): the time until every one shows the menu, each tab process's resident
memory, and the door's own (this process's growth); after they close, the processes left.

    .venv/bin/python bench/web_door.py [ROUNDS] [TABS]   (default 3 rounds, 8 tabs)
"""

from __future__ import annotations

import asyncio
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import aiohttp  # noqa: E402
from textual_serve.app_service import AppService  # noqa: E402
from textual_serve.download_manager import DownloadManager  # noqa: E402

from net.doors.env import Door  # noqa: E402
from net.doors.web import WebDoor, WebLimits, child_command  # noqa: E402
from tests.net.webdoor import TerminalScreen, tab_processes  # noqa: E402

MENU = "New local game"


def rss_mb(pid: int | str = "self") -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


async def local_start() -> float:
    """Seconds from starting the process to the menu on its screen, no door."""
    screen, shown = TerminalScreen(), asyncio.Event()

    async def write(data: bytes) -> None:
        screen.feed(data)
        if MENU in screen.text:
            shown.set()

    async def nothing(*_: object) -> None:
        return None

    app = AppService(child_command(), write_bytes=write, write_str=nothing, close=nothing,
                     download_manager=DownloadManager())
    started = time.perf_counter()
    await app.start(80, 24)
    await asyncio.wait_for(shown.wait(), 120)
    seconds = time.perf_counter() - started
    await app.stop()
    return seconds


async def door_tab(browser: aiohttp.ClientSession, url: str, shown: asyncio.Event | None = None,
                   hold: asyncio.Event | None = None) -> float:
    """Seconds from the page's request to the menu on the tab's screen; `shown` is set then,
    and the tab stays open until `hold` is."""
    started = time.perf_counter()
    async with browser.get(url) as page:
        await page.read()
    screen = TerminalScreen()
    async with browser.ws_connect(f"{url}ws?width=80&height=24") as ws:
        while MENU not in screen.text:
            message = await asyncio.wait_for(ws.receive(), 120)
            if message.type != aiohttp.WSMsgType.BINARY:
                raise RuntimeError(f"the tab closed before the menu: {message}")
            screen.feed(message.data)
        seconds = time.perf_counter() - started
        if shown is not None and hold is not None:
            shown.set()
            await hold.wait()
    return seconds


async def main(rounds: int, tabs: int) -> None:
    with tempfile.TemporaryDirectory() as folder:
        door = WebDoor(Door(Path(folder), "mqtt://127.0.0.1:1", "web"), limits=WebLimits(sessions=tabs))
        await door.start()
        url = door.url()
        jar = aiohttp.CookieJar(unsafe=True)
        try:
            async with aiohttp.ClientSession(cookie_jar=jar) as browser:
                local, through = [], []
                for _ in range(rounds):  # alternated, so both see the same machine load
                    local.append(await local_start())
                    through.append(await door_tab(browser, url))
                print(f"to the menu, median of {rounds}: local start {statistics.median(local):.2f} s, "
                      f"through the browser door {statistics.median(through):.2f} s "
                      f"(door adds {statistics.median(through) - statistics.median(local):+.2f} s)")
                while door.sessions:  # the last tab's process is still quitting: it holds a slot
                    await asyncio.sleep(0.1)
                await concurrent(url, tabs)
        finally:
            await door.stop()
    print(f"tab processes left after every tab closed: {len(tab_processes(os.getpid()))}")


async def concurrent(url: str, tabs: int) -> None:
    """`tabs` browsers open a tab each at once; figures once every one shows the menu."""
    before = rss_mb()
    shown, hold = [asyncio.Event() for _ in range(tabs)], asyncio.Event()
    browsers = [aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) for _ in range(tabs)]
    started = time.perf_counter()
    tasks = [asyncio.create_task(door_tab(b, url, s, hold)) for b, s in zip(browsers, shown, strict=True)]
    try:
        every = asyncio.ensure_future(asyncio.gather(*(s.wait() for s in shown)))
        done, _ = await asyncio.wait([every, *tasks], timeout=300, return_when=asyncio.FIRST_COMPLETED)
        if every not in done:  # a tab ended before the others showed the menu: it failed
            raise RuntimeError(f"not every tab reached the menu: {[t.exception() for t in done]}")
        elapsed = time.perf_counter() - started
        sizes = [rss_mb(pid) for pid in tab_processes(os.getpid())]
        print(f"{tabs} tabs at once: all at the menu in {elapsed:.1f} s; per tab process "
              f"{statistics.median(sizes):.0f} MB resident (max {max(sizes):.0f}, {len(sizes)} processes); "
              f"the door's own process grew {rss_mb() - before:+.1f} MB")
    finally:
        hold.set()
        await asyncio.gather(*tasks, return_exceptions=True)
        for browser in browsers:
            await browser.close()


if __name__ == "__main__":
    args = [int(a) for a in sys.argv[1:3]]
    asyncio.run(main(*(args + [3, 8][len(args):])))
