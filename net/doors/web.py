"""The browser door: `gamenight relay --web PORT` gives each browser tab its own gamenight.

textual-serve draws a Textual app in a page (its textual.js: xterm.js over a websocket) and
runs one app process per tab (its `AppService`, see web_tab.py). This module is the web server
around it, an aiohttp application of its own rather than textual-serve's `Server` (which can
only block in `serve()`, reads the relay's environment for every child, and has no key or
cap), with what a door on a relay needs:

- a key in the path: every address outside `/<key>/` is refused with 403 and one line before
  anything else happens (no page, no websocket, no process). The key is made on the first
  start and kept in the door folder (`web.secret`, mode 0600), so the address the host gave
  out keeps working after a restart; deleting the file makes a new one;
- a cap on tabs at once: the next tab gets one line that the server is full;
- a data folder per browser: a random id in a cookie names `players/web-<id>` in the door
  folder, so the same browser finds its settings and its unfinished game from Continue next
  time (a fresh id per tab would lose both; a browser that keeps no cookies gets a fresh one
  each visit). New browsers past `visitors` are refused, so folders cannot pile up unbounded;
- headers that keep the key in the page: no Referer to other sites, no framing, the page not cached.
"""

from __future__ import annotations

import asyncio
import hmac
import logging
import os
import re
import secrets
import shlex
import shutil
import sys
from dataclasses import dataclass, field
from html import escape
from pathlib import Path
from string import Template

import textual_serve
from aiohttp import web
from textual_serve.download_manager import DownloadManager

from ..paths import atomic_write
from .env import Door
from .web_tab import MAX_FRAME, Tab, TabLimits, close_tab, terminal_size

log = logging.getLogger("gamenight.door.web")

COOKIE = "gamenight_visitor"
VISITOR_ID = re.compile(r"[0-9a-f]{32}")
SECRET_FILE = "web.secret"
SECRET = re.compile(r"[A-Za-z0-9_-]{32}")
PAGE = Template((Path(__file__).with_name("web_page.html")).read_text(encoding="utf-8"))
STATIC = Path(textual_serve.__file__).parent / "static"  # textual.js, xterm.css, fonts
HEADERS = {"Referrer-Policy": "no-referrer", "X-Frame-Options": "DENY",
           "Content-Security-Policy": "frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
           "X-Content-Type-Options": "nosniff"}
REFUSED = "gamenight: this address needs the door's key: open the whole address the host gave you"


@dataclass(frozen=True)
class WebLimits:
    """What the browser door lets in."""

    sessions: int = 8  # tabs at once, each a gamenight process
    visitors: int = 500  # browsers with a data folder here
    tab: TabLimits = field(default_factory=TabLimits)


def child_command() -> str:
    """The gamenight TUI, run by the Python running the relay.

    `exec`: the shell textual-serve starts it through becomes that process, so killing it
    leaves nothing behind. Its stdin is a pipe, whose end tells a Textual app nothing, so on
    Linux (util-linux's setpriv) the child also gets SIGTERM when the relay dies, however it dies.
    """
    command = [sys.executable, "-m", "tui"]
    setpriv = shutil.which("setpriv") if sys.platform.startswith("linux") else None
    if setpriv:
        command = [setpriv, "--pdeathsig", "TERM", "--", *command]
    return "exec " + shlex.join(command)


def load_secret(root: Path) -> str:
    """The door's key: kept in `root`/web.secret, made there when missing or unreadable."""
    path = root / SECRET_FILE
    try:
        text = path.read_text(encoding="ascii").strip()
        if SECRET.fullmatch(text):
            return text
        log.warning("browser door: %s is not a key; made a new one", path)
    except FileNotFoundError:
        pass
    except (OSError, UnicodeError) as exc:
        log.warning("browser door: cannot read %s (%s); made a new one", path, exc)
    text = secrets.token_urlsafe(24)
    root.mkdir(parents=True, exist_ok=True)
    atomic_write(path, text.encode("ascii"), mode=0o600)
    return text


class WebDoor:
    """The browser door of a relay: `start()`, then `url` is the address to give out."""

    def __init__(self, door: Door, *, bind: str = "127.0.0.1", port: int = 0, title: str = "gamenight",
                 limits: WebLimits | None = None, command: str | None = None) -> None:
        self.door = door
        self.bind, self.port, self.title = bind, port, title
        self.limits = limits or WebLimits()
        self.command = command or child_command()
        self.secret = load_secret(door.root)
        self.tabs: set[Tab] = set()  # running
        self._slots: set[object] = set()  # one a websocket admitted, running or still starting
        self._downloads = DownloadManager()
        self._runner: web.AppRunner | None = None
        self._site: web.TCPSite | None = None

    @property
    def path(self) -> str:
        return f"/{self.secret}/"

    def url(self, host: str | None = None) -> str:
        """The address to give to friends (`host`: the one they reach this machine by)."""
        host = host or self.bind
        return f"http://{f'[{host}]' if ':' in host else host}:{self.port}{self.path}"

    async def start(self) -> None:
        app = web.Application(middlewares=[self._guard])
        app.add_routes([web.get(self.path, self._index), web.get(self.path[:-1], self._to_index),
                        web.get(f"{self.path}ws", self._websocket),
                        web.static(f"{self.path}static", STATIC)])
        self._runner = web.AppRunner(app, access_log=None, shutdown_timeout=5.0)
        await self._runner.setup()
        self._site = site = web.TCPSite(self._runner, self.bind, self.port)
        try:
            await site.start()
        except OSError:
            await self._runner.cleanup()
            raise
        self.port = self._runner.addresses[0][1]
        log.info("browser door on %s:%s, up to %d tabs", self.bind, self.port, self.limits.sessions)

    async def stop(self) -> None:
        """Take no more tabs, close every tab (each child quits or is killed), then the server."""
        if self._site is not None:
            site, self._site = self._site, None
            await site.stop()
        tabs = list(self.tabs)
        await asyncio.gather(*(tab.close("gamenight: the relay is stopping") for tab in tabs),
                             return_exceptions=True)
        deadline = self.limits.tab.quit_seconds * 2 + 5
        for tab in tabs:
            try:
                await asyncio.wait_for(tab.done.wait(), deadline)
            except TimeoutError:
                log.error("browser door: a tab did not end while stopping")
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    @property
    def sessions(self) -> int:
        return len(self._slots)

    # ---- requests ----------------------------------------------------------------------
    @web.middleware
    async def _guard(self, request: web.Request, handler) -> web.StreamResponse:
        """Nothing outside /<key>/ is served; the key is compared in constant time."""
        given = request.path.split("/", 2)[1]
        if not hmac.compare_digest(given.encode(), self.secret.encode()):
            log.warning("browser door: refused %s %.40r from %s: no key", request.method,
                        request.path, request.remote)
            return web.Response(status=403, text=REFUSED + "\n", headers=HEADERS)
        response = await handler(request)
        response.headers.update(HEADERS)
        return response

    async def _index(self, request: web.Request) -> web.Response:
        if self.sessions >= self.limits.sessions:
            self._log_full(request)
            return web.Response(status=503, text=self._full_line() + "\n")
        page = PAGE.substitute(title=escape(self.title), font_size=16)
        response = web.Response(text=page, content_type="text/html", headers={"Cache-Control": "no-store"})
        if self._visitor(request) is None:
            response.set_cookie(COOKIE, secrets.token_hex(16), max_age=400 * 86400, path=self.path,
                                httponly=True, samesite="Strict")
        return response

    async def _to_index(self, request: web.Request) -> web.StreamResponse:
        raise web.HTTPFound(self.path)

    def _log_full(self, request: web.Request) -> None:
        log.warning("browser door: refused a tab from %s: %d of %d in use", request.remote,
                    self.sessions, self.limits.sessions)

    def _full_line(self) -> str:
        n = self.limits.sessions
        return f"gamenight: the server is full ({n} {'tab' if n == 1 else 'tabs'} in use); try again later"

    @staticmethod
    def _visitor(request: web.Request) -> str | None:
        text = request.cookies.get(COOKIE, "")
        return text if VISITOR_ID.fullmatch(text) else None

    async def _websocket(self, request: web.Request) -> web.StreamResponse:
        # Past MAX_FRAME aiohttp closes the tab; up to it, web_tab drops what exceeds MAX_MESSAGE.
        websocket = web.WebSocketResponse(heartbeat=15, max_msg_size=MAX_FRAME)
        if self.sessions >= self.limits.sessions:
            self._log_full(request)
            await websocket.prepare(request)
            await close_tab(websocket, self._full_line(), code=1013)
            return websocket
        slot = object()
        self._slots.add(slot)  # taken before the first await: two tabs cannot both take the last
        try:
            await websocket.prepare(request)
            home = self._home(request)
            if isinstance(home, str):
                await close_tab(websocket, home)
            else:
                await self._serve_tab(request, websocket, home)
        finally:
            self._slots.discard(slot)
        return websocket

    def _home(self, request: web.Request) -> Path | str:
        """The visitor's data folder (made on first use), or the line that says why there is none."""
        home = self.door.player_home(f"web-{self._visitor(request) or secrets.token_hex(16)}")
        if home.is_dir():
            return home
        players = self.door.root / "players"
        if players.is_dir() and sum(1 for _ in players.glob("web-*")) >= self.limits.visitors:
            log.warning("browser door: refused a new visitor from %s: %d folders", request.remote,
                        self.limits.visitors)
            return "gamenight: this server has no room for new visitors; ask its host"
        try:
            home.mkdir(parents=True, mode=0o700, exist_ok=True)
        except OSError as exc:
            log.error("browser door: cannot make %s: %s", home, exc)
            return "gamenight: the server cannot keep a folder for you; ask its host"
        return home

    async def _serve_tab(self, request: web.Request, websocket: web.WebSocketResponse, home: Path) -> None:
        tab = Tab(websocket, self.command, self.door, home, self.limits.tab, self._downloads)
        self.tabs.add(tab)
        log.info("browser door: a tab from %s opened (%s, %d of %d)", request.remote, home.name,
                 self.sessions, self.limits.sessions)
        try:
            reason = await tab.serve(*terminal_size(request.query))
            log.info("browser door: a tab from %s ended: %s", request.remote, reason)
        except Exception:  # the tab gets one line; the details go to the log
            log.exception("browser door: a tab from %s failed", request.remote)
        finally:
            self.tabs.discard(tab)
            if not websocket.closed:
                await close_tab(websocket, "gamenight: the server could not run a game for this tab")


def door_title(name: str | None = None) -> str:
    """The page title: gamenight and the relay's name (its host name unless one is given)."""
    return f"gamenight · {name or os.uname().nodename}"
