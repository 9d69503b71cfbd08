"""The browser door without a browser: real gamenight processes behind a real door, driven by
an aiohttp websocket client that speaks what textual.js speaks (the browser itself is in
test_web_browser.py)."""

from __future__ import annotations

import asyncio
import inspect
import os
import shutil
import signal
import stat
import subprocess
import sys
from pathlib import Path

import aiohttp
import pytest
import textual_serve
from aiohttp import web
from textual_serve.app_service import AppService
from textual_serve.download_manager import DownloadManager
from yarl import URL

from net.doors.env import Door
from net.doors.web import STATIC, WebDoor, WebLimits, load_secret
from net.doors.web_tab import TabApp, TabLimits

from .webdoor import (
    ROOT,
    TerminalScreen,
    environ_of,
    relay_process,
    running,
    tab_processes,
    wait_until,
)

MENU = "New local game"
FIRST_VISIT = "Your first visit"
ME = os.getpid()


@pytest.fixture
async def open_door(tmp_path):
    """open_door(**limits) -> a started WebDoor over tmp_path/door; stopped after the test."""
    doors: list[WebDoor] = []

    async def start(sessions: int = 2, visitors: int = 500, **tab: float) -> WebDoor:
        door = WebDoor(Door(tmp_path / "door", "mqtt://127.0.0.1:1", "web"), port=0, title="gamenight · <test>",
                       limits=WebLimits(sessions=sessions, visitors=visitors, tab=TabLimits(**tab)))
        await door.start()
        doors.append(door)
        return door

    yield start
    for door in doors:
        await door.stop()


def a_browser() -> aiohttp.ClientSession:
    """An HTTP client that keeps cookies the way a browser does (for 127.0.0.1 too)."""
    return aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True))


async def first_screen(ws: aiohttp.ClientWebSocketResponse, words: str = MENU, timeout: float = 60.0) -> str:
    """Read what the door sends until the screen shows `words`; a first visit's name prompt is
    answered on the way, as a new visitor would."""
    screen = TerminalScreen(80, 24)
    named = False
    async with asyncio.timeout(timeout):
        while words not in screen.text:
            message = await ws.receive()
            if message.type == aiohttp.WSMsgType.BINARY:
                screen.feed(message.data)
            elif message.type != aiohttp.WSMsgType.TEXT:
                raise AssertionError(f"the tab closed ({ws.close_code}) before showing {words!r}: {screen.text}")
            if not named and FIRST_VISIT in screen.text and words != FIRST_VISIT:
                await ws.send_str('["stdin", "Webby\\r"]')
                named = True
    return screen.text


async def closing_reason(ws: aiohttp.ClientWebSocketResponse, timeout: float = 60.0) -> str:
    async with asyncio.timeout(timeout):
        while (message := await ws.receive()).type not in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED):
            pass
    return message.extra or ""


async def no_tabs_left(parent: int = ME, timeout: float = 30.0) -> list[int]:
    """The tab processes still there once none are left or `timeout` ran out."""
    await asyncio.to_thread(wait_until, lambda: not tab_processes(parent), timeout)
    return tab_processes(parent)


async def test_a_tab_runs_its_own_gamenight_behind_the_door_and_the_browser_keeps_its_folder(open_door):
    door = await open_door()
    async with a_browser() as browser:
        async with browser.get(door.url()) as page:
            assert page.status == 200
            assert "<title>gamenight · &lt;test&gt;</title>" in await page.text()
        visitor = browser.cookie_jar.filter_cookies(URL(door.url()))["gamenight_visitor"].value
        async with browser.ws_connect(f"{door.url()}ws?width=80&height=24") as ws:
            assert MENU in await first_screen(ws)
            [pid] = tab_processes(ME)
            env = environ_of(pid)
            assert env["GAMENIGHT_DOOR_KIND"] == "web"
            assert env["GAMENIGHT_DOOR_BROKER"] == "mqtt://127.0.0.1:1"
            assert env["GAMENIGHT_HOME"] == str(door.door.player_home(f"web-{visitor}"))
            # What textual.js never sends is dropped; the session goes on and a key still works.
            for junk in ("not json", "{}", "[]", "[1, 2]", '["stdin", 5]', '["resize", {"width": "x"}]',
                         '["nonsense", "q"]', '["stdin", "' + "x" * 70_000 + '"]', "[" * 60_000,
                         '["stdin", "\\ud800"]', '["ping", {"a": 1}]'):
                await ws.send_str(junk)
            await ws.send_str('["resize", {"width": 100000, "height": -3}]')
            await ws.send_str('["stdin", "q"]')  # the menu's Quit
            assert await closing_reason(ws) == "gamenight has ended"
        assert await no_tabs_left() == []
        async with browser.ws_connect(f"{door.url()}ws") as ws:  # the same browser, next time
            assert FIRST_VISIT not in await first_screen(ws)  # its name is known
            [pid] = tab_processes(ME)
            assert environ_of(pid)["GAMENIGHT_HOME"] == str(door.door.player_home(f"web-{visitor}"))
    assert await no_tabs_left() == []


async def test_without_the_key_nothing_is_served_and_no_process_starts(open_door, caplog):
    door = await open_door()
    wrong = door.secret[:-1] + ("A" if door.secret[-1] != "A" else "B")
    base = door.url().rsplit("/", 2)[0]
    async with a_browser() as browser:
        for path in ("/", f"/{wrong}/", f"/{door.secret[:-1]}/", "/static/js/textual.js", "/favicon.ico",
                     f"/{wrong}/static/js/textual.js", f"//{door.secret}/"):
            async with browser.get(base + path) as page:
                assert page.status == 403, path
                assert (await page.text()).splitlines() == [
                    "gamenight: this address needs the door's key: open the whole address the host gave you"]
                assert "gamenight_visitor" not in page.cookies
        for path in (f"/{wrong}/ws", "/ws"):
            with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
                await browser.ws_connect(base + path)
            assert refused.value.status == 403
        async with browser.get(door.url()[:-1], allow_redirects=False) as page:  # no final slash
            assert page.status == 302 and page.headers["Location"] == door.path
    assert tab_processes(ME) == []
    assert sum("refused" in r.getMessage() and "no key" in r.getMessage() for r in caplog.records) >= 9


async def test_the_cap_refuses_the_next_tab_with_one_line(open_door):
    door = await open_door(sessions=1)
    async with a_browser() as browser:
        async with browser.ws_connect(f"{door.url()}ws") as ws:
            await first_screen(ws)
            async with browser.get(door.url()) as page:
                assert page.status == 503
                assert (await page.text()).splitlines() == [
                    "gamenight: the server is full (1 tab in use); try again later"]
            async with browser.ws_connect(f"{door.url()}ws") as late:  # a page loaded before the tab
                assert await closing_reason(late) == "gamenight: the server is full (1 tab in use); try again later"
                assert late.close_code == 1013
            assert len(tab_processes(ME)) == 1
        assert await no_tabs_left() == []
        async with browser.get(door.url()) as page:
            assert page.status == 200


async def test_past_the_visitor_folders_a_new_browser_is_refused_and_a_known_one_is_not(open_door):
    door = await open_door(visitors=1)
    known = "ab" * 16
    door.door.player_home(f"web-{known}").mkdir(parents=True)
    async with a_browser() as stranger, stranger.ws_connect(f"{door.url()}ws") as ws:
        assert await closing_reason(ws) == "gamenight: this server has no room for new visitors; ask its host"
    assert tab_processes(ME) == []
    async with aiohttp.ClientSession(cookies={"gamenight_visitor": known}) as friend:
        async with friend.ws_connect(f"{door.url()}ws") as ws:
            await first_screen(ws)
            [pid] = tab_processes(ME)
            assert environ_of(pid)["GAMENIGHT_HOME"] == str(door.door.player_home(f"web-{known}"))
    assert sorted(p.name for p in (door.door.root / "players").iterdir()) == [f"web-{known}"]
    assert await no_tabs_left() == []


@pytest.mark.parametrize("limits, reason", [
    ({"idle_seconds": 3.0}, "gamenight: closed after 3 seconds without a key"),
    ({"session_seconds": 3.0}, "gamenight: the longest session here is 3 seconds"),
])
async def test_an_idle_or_overlong_tab_is_closed_and_its_process_ends(open_door, limits, reason):
    door = await open_door(**limits)
    async with a_browser() as browser, browser.ws_connect(f"{door.url()}ws") as ws:
        assert await asyncio.to_thread(wait_until, lambda: tab_processes(ME), 30)
        if "session_seconds" in limits:  # keys do not make a session longer
            await ws.send_str('["stdin", "j"]')
        assert await closing_reason(ws) == reason
    assert await no_tabs_left() == []


async def test_a_child_that_will_not_quit_is_killed(open_door, tmp_path):
    door = await open_door(quit_seconds=1.0)
    stubborn = tmp_path / "stubborn.py"  # speaks just enough of Textual's web driver, ignores quit
    stubborn.write_text("import signal, sys, time\nsignal.signal(signal.SIGTERM, signal.SIG_IGN)\n"
                        "out = sys.stdout.buffer\nout.write(b'__GANGLION__\\n')\n"
                        "text = b'New local game (stubborn)'\n"
                        "out.write(b'D' + len(text).to_bytes(4, 'big') + text); out.flush()\n"
                        "while True: time.sleep(1)\n")
    door.command = f"exec {sys.executable} {stubborn}"
    async with a_browser() as browser:
        ws = await browser.ws_connect(f"{door.url()}ws")
        await first_screen(ws)
        assert len(tab_processes(ME)) == 1
        await ws.close()
    assert await no_tabs_left() == []


async def test_stopping_the_door_ends_every_tab(open_door):
    door = await open_door()
    async with a_browser() as browser:
        tabs = [await browser.ws_connect(f"{door.url()}ws") for _ in range(2)]
        for ws in tabs:
            await first_screen(ws)
        assert len(tab_processes(ME)) == 2
        await door.stop()
        assert [await closing_reason(ws) for ws in tabs] == ["gamenight: the relay is stopping"] * 2
    assert tab_processes(ME) == []


def test_the_key_is_kept_across_restarts_and_a_bad_one_is_replaced(tmp_path):
    key = load_secret(tmp_path)
    assert load_secret(tmp_path) == key and len(key) == 32
    assert stat.S_IMODE((tmp_path / "web.secret").stat().st_mode) == 0o600
    (tmp_path / "web.secret").write_text("../../etc")
    assert load_secret(tmp_path) not in (key, "../../etc")


async def test_the_relay_prints_the_address_keeps_it_and_ctrl_c_leaves_no_process(tmp_path):
    with relay_process(tmp_path / "home", "--web-name", "test table") as relay:
        assert relay.url.startswith("http://127.0.0.1:")
        async with a_browser() as browser:
            async with browser.get(relay.url) as page:
                assert "<title>gamenight · test table</title>" in await page.text()
            ws = await browser.ws_connect(f"{relay.url}ws")
            await first_screen(ws)
            children = tab_processes(relay.process.pid)
            assert len(children) == 1
            relay.process.send_signal(signal.SIGINT)
            try:
                reason = await closing_reason(ws)
            except TimeoutError:
                raise AssertionError(f"the tab was not closed after Ctrl-C; the relay printed:\n{relay.output()}") from None
            assert reason == "gamenight: the relay is stopping"
            assert await asyncio.to_thread(relay.process.wait, 60) in (0, 130)
    assert wait_until(lambda: not any(running(pid) for pid in children), 30)
    with relay_process(tmp_path / "home") as again:  # the address given out still works
        assert again.url == relay.url.replace(relay.base, again.base)


@pytest.mark.skipif(not shutil.which("setpriv"), reason="util-linux's setpriv is not installed")
async def test_a_relay_that_dies_takes_its_tabs_with_it(tmp_path):
    with relay_process(tmp_path / "home") as relay:
        async with a_browser() as browser:
            ws = await browser.ws_connect(f"{relay.url}ws")
            await first_screen(ws)
            children = tab_processes(relay.process.pid)
            assert len(children) == 1
            relay.process.kill()  # no chance to stop its doors
            await asyncio.to_thread(relay.process.wait, 30)
    assert wait_until(lambda: not any(running(pid) for pid in children), 30), "an orphan tab process is left"


@pytest.mark.parametrize("flags, line", [
    (["--web", "70000"], "gamenight: --web must be a port from 0 to 65535, not 70000"),
    (["--web", "0", "--web-sessions", "0"], "gamenight: --web-sessions must be at least 1, not 0"),
])
def test_bad_door_flags_are_one_line(tmp_path, flags, line):
    done = subprocess.run([sys.executable, "-m", "tui", "relay", "--port", "0", *flags], cwd=ROOT,
                          env={**os.environ, "GAMENIGHT_HOME": str(tmp_path)}, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 2 and done.stderr.splitlines() == [line]


def test_the_textual_serve_parts_the_door_relies_on():
    """net/doors/web_tab.py overrides AppService._build_environment and reads its _process; the
    page (web_page.html) needs textual.js to take its websocket from the terminal's
    data-session-websocket-url and add ?width=&height=. A textual-serve that changes these must
    be checked again before its version bound moves."""
    from importlib.metadata import version

    assert version("textual-serve").startswith("1.1.")
    assert list(inspect.signature(AppService._build_environment).parameters) == ["self", "width", "height"]
    door = Door(Path("/door"), "mqtt://127.0.0.1:1", "web")
    app = TabApp("true", door, Path("/door/players/web-1"), close=None, websocket=web.WebSocketResponse(),
                 downloads=DownloadManager())
    env = app._build_environment(80, 24)
    assert env["TEXTUAL_DRIVER"] == "textual.drivers.web_driver:WebDriver" and env["COLUMNS"] == "80"
    assert env["GAMENIGHT_HOME"] == "/door/players/web-1" and env["GAMENIGHT_DOOR_KIND"] == "web"
    assert "self._process = process" in inspect.getsource(AppService._open_app_process)
    assert "remote_close" in inspect.getsource(AppService.on_meta)
    js = (STATIC / "js" / "textual.js").read_text(encoding="utf-8")
    assert "dataset.sessionWebsocketUrl" in js and '"?width="' in js
    for asset in ("css/xterm.css", "fonts/RobotoMono-VariableFont_wght.ttf", "images/background.png"):
        assert (STATIC / asset).is_file(), asset
    assert STATIC == Path(textual_serve.__file__).parent / "static"
