"""One browser tab of the browser door: its gamenight process and the websocket that drives it.

textual-serve's `AppService` starts the child (Textual's web driver: the screen leaves on the
child's stdout as packets, keys and sizes come in on its stdin) and relays its packets to the
tab. Around it a `Tab` checks what the tab sends before the child sees it, closes the tab after
an idle spell or the longest session, and makes sure the child is gone when the tab is: a
child that does not quit when asked is killed.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from aiohttp import WSMsgType, web
from textual_serve.app_service import AppService
from textual_serve.download_manager import DownloadManager

from .env import Door, child_environ

log = logging.getLogger("gamenight.door.web")

MAX_MESSAGE = 64 * 1024  # one paste of keys (textual.js sends a key at a time); longer is dropped
MAX_FRAME = 1024 * 1024  # a websocket message past this closes the tab (what one tab may make us hold)
WIDTH, HEIGHT = (10, 500), (5, 200)  # terminal sizes a tab may ask for, in cells
CLOSE_REASON_BYTES = 123  # what a websocket close frame can carry


@dataclass(frozen=True)
class TabLimits:
    """How long one tab may stay, and how long its child gets to quit."""

    idle_seconds: float = 30 * 60  # no key for this long: the tab is closed
    session_seconds: float = 8 * 3600  # the longest session
    quit_seconds: float = 10.0  # a child still running this long after being asked to quit is killed


class TabApp(AppService):
    """textual-serve's AppService, its child run in the door's environment for one visitor."""

    def __init__(self, command: str, door: Door, home: Path, *, close: Any,
                 websocket: web.WebSocketResponse, downloads: DownloadManager) -> None:
        super().__init__(command, write_bytes=websocket.send_bytes, write_str=websocket.send_str,
                         close=close, download_manager=downloads)
        self.door, self.home = door, home
        self.ended = asyncio.Event()

    async def run(self) -> None:
        """AppService's relay loop; when the child's output ends (it quit or died), the tab is
        closed too, so a player never stares at a frozen screen."""
        try:
            await super().run()
        finally:
            self.ended.set()
            await self.remote_close()

    # ---- fenced: AppService's private parts (textual-serve 1.1.x; pinned by
    # tests/net/test_web_door.py::test_the_textual_serve_parts_the_door_relies_on) ------------
    def _build_environment(self, width: int = 80, height: int = 24) -> dict[str, str]:
        """Textual's web-driver variables, with the door's contract (a visitor's data folder,
        the relay's broker) in place of what the relay's own environment says."""
        return child_environ(super()._build_environment(width, height), self.door, self.home,
                             colorterm="truecolor")

    @property
    def pid(self) -> int | None:
        process = self._process
        return process.pid if process is not None else None

    async def end(self, grace: float, seconds: float) -> None:
        """Let the child exit within `grace`, else kill it; reap it within `seconds` more.

        Killing only what still runs matters: Popen's kill first polls, which would reap a
        child that just exited under asyncio's watcher (it then logs an unknown child).
        """
        process = self._process
        if process is None:
            return
        try:
            await asyncio.wait_for(process.wait(), grace)
            return
        except TimeoutError:
            process.kill()
        try:
            await asyncio.wait_for(process.wait(), seconds)
        except TimeoutError:
            log.error("browser door: child %s did not end after SIGKILL", process.pid)


def parse_message(text: str) -> tuple[str, Any] | None:
    """What textual.js sent, checked: ("stdin", UTF-8 bytes), ("resize", (w, h)), ("ping", str),
    ("focus" | "blur", None); anything else is None (dropped)."""
    try:
        envelope = json.loads(text)
    except (ValueError, RecursionError):  # RecursionError: "[[[[…" nested past the parser's depth
        return None
    if not isinstance(envelope, list) or not envelope or not isinstance(envelope[0], str):
        return None
    kind, data = envelope[0], envelope[1] if len(envelope) > 1 else None
    if kind == "stdin" and isinstance(data, str):
        try:
            return kind, data.encode("utf-8")
        except UnicodeEncodeError:  # a lone surrogate ("\\ud800"): no key a keyboard makes
            return None
    if kind == "ping" and isinstance(data, str):
        return kind, data
    if kind == "resize" and isinstance(data, dict):
        width, height = data.get("width"), data.get("height")
        if isinstance(width, int) and isinstance(height, int):
            return kind, (min(max(width, WIDTH[0]), WIDTH[1]), min(max(height, HEIGHT[0]), HEIGHT[1]))
        return None
    if kind in ("focus", "blur"):
        return kind, None
    return None


def span(seconds: float) -> str:
    """A limit as a player reads it: "30 minutes", "8 hours", "3 seconds"."""
    for unit, size in (("hours", 3600), ("minutes", 60), ("seconds", 1)):
        if seconds >= size or unit == "seconds":
            return f"{seconds / size:.3g} {unit}"
    raise AssertionError("unreachable")


def terminal_size(query: Mapping[str, str]) -> tuple[int, int]:
    """The tab's first size from the websocket's query (?width=&height=), clamped."""
    def number(name: str, default: int, bounds: tuple[int, int]) -> int:
        text = query.get(name, "")
        value = int(text) if text.isdigit() and len(text) < 6 else default
        return min(max(value, bounds[0]), bounds[1])

    return number("width", 80, WIDTH), number("height", 24, HEIGHT)


async def close_tab(websocket: web.WebSocketResponse, reason: str, code: int = 1000) -> None:
    """Close a tab with one line the page shows in its "session ended" box."""
    await websocket.close(code=code, message=reason.encode()[:CLOSE_REASON_BYTES])


class Tab:
    """One tab's session: started by `serve`, over when it returns."""

    def __init__(self, websocket: web.WebSocketResponse, command: str, door: Door, home: Path,
                 limits: TabLimits, downloads: DownloadManager) -> None:
        self.websocket = websocket
        self.limits = limits
        self.reason = ""
        self.app = TabApp(command, door, home, close=self._child_gone, websocket=websocket,
                          downloads=downloads)
        self.done = asyncio.Event()

    async def _child_gone(self) -> None:
        await close_tab(self.websocket, self.reason or "gamenight has ended")

    async def serve(self, width: int, height: int) -> str:
        """Run the child until the tab closes, the child ends, or a limit is reached; then make
        sure the child is gone. Returns why the session ended (for the log)."""
        try:
            await self.app.start(width, height)
            self.reason = await self._pump()
        finally:
            await self._stop_child()
            self.done.set()
        if not self.websocket.closed:
            await close_tab(self.websocket, self.reason)
        return self.reason

    async def close(self, reason: str) -> None:
        """End the session from outside (the relay is stopping)."""
        self.reason = reason
        await close_tab(self.websocket, reason, code=1001)

    async def _pump(self) -> str:
        loop = asyncio.get_running_loop()
        session_end = loop.time() + self.limits.session_seconds
        idle_end = loop.time() + self.limits.idle_seconds
        while True:
            wait = min(session_end, idle_end) - loop.time()
            if wait <= 0:
                return self._limit_reason(idle_end <= session_end)
            try:
                message = await self.websocket.receive(timeout=wait)
            except TimeoutError:
                continue  # the loop names the limit that was reached
            if message.type != WSMsgType.TEXT:
                if message.type in (WSMsgType.CLOSE, WSMsgType.CLOSING, WSMsgType.CLOSED, WSMsgType.ERROR):
                    return self.reason or ("gamenight has ended" if self.app.ended.is_set() else "the tab closed")
                continue
            command = parse_message(message.data) if len(message.data) <= MAX_MESSAGE else None
            if command is None:
                log.debug("browser door: dropped a malformed message from a tab")
                continue
            if command[0] == "stdin":
                idle_end = loop.time() + self.limits.idle_seconds
            await self._forward(*command)

    def _limit_reason(self, idle: bool) -> str:
        if idle:
            return f"gamenight: closed after {span(self.limits.idle_seconds)} without a key"
        return f"gamenight: the longest session here is {span(self.limits.session_seconds)}"

    async def _forward(self, kind: str, data: Any) -> None:
        if kind == "stdin":
            await self.app.send_bytes(data)
        elif kind == "resize":
            await self.app.set_terminal_size(*data)
        elif kind == "ping":
            await self.websocket.send_json(["pong", data[:64]])
        elif kind == "focus":
            await self.app.focus()
        elif kind == "blur":
            await self.app.blur()

    async def _stop_child(self) -> None:
        """Ask the child to quit; kill it if it has not within `quit_seconds`."""
        seconds = self.limits.quit_seconds
        try:
            await asyncio.wait_for(self.app.stop(), seconds)
            grace = seconds  # its output ended: it is on its way out
        except TimeoutError:
            log.warning("browser door: child %s did not quit in %.0f s; killed it", self.app.pid, seconds)
            grace = 0.0
        except Exception:  # a broken pipe to a child that died: it is reaped (or killed) below
            log.exception("browser door: stopping a child")
            grace = 0.0
        await self.app.end(grace, seconds)
