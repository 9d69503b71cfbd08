"""The browser door in a real browser: Debian's chromium, headless, through its chromedriver,
against `gamenight relay --web` run as a second process.

The page draws the terminal on a canvas, so what it shows is read from the bytes its websocket
received (recorded by a script added to the page before it loads) through a terminal emulator;
the screenshots are kept under tests/artifacts/ (ignored by git) for a person to look at.
"""

from __future__ import annotations

import base64
import shutil
import time
from pathlib import Path

import pytest

from .webdoor import ROOT, TerminalScreen, relay_process, tab_processes, wait_until

CHROMIUM, CHROMEDRIVER = Path("/usr/bin/chromium"), Path("/usr/bin/chromedriver")
ARTIFACTS = ROOT / "tests" / "artifacts"
webdriver = pytest.importorskip("selenium.webdriver", reason="selenium is not installed (pip install -e '.[dev]')")
pytestmark = [pytest.mark.slow, pytest.mark.skipif(
    not (CHROMIUM.exists() and CHROMEDRIVER.exists()),
    reason="Debian's chromium and chromium-driver are not installed (.ci/run installs them)")]

FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--window-size=1100,800")
# Runs in the page before its own scripts: every websocket's received bytes and the sizes the
# page asked for, in order.
RECORDER = """
(function () {
  const events = window.__door = [];
  const Native = window.WebSocket;
  function Recorded(url, protocols) {
    const socket = protocols === undefined ? new Native(url) : new Native(url, protocols);
    const query = new URL(url).searchParams;
    events.push(["size", +query.get("width"), +query.get("height")]);
    socket.addEventListener("message", function (event) {
      if (typeof event.data === "string") { return; }
      const bytes = new Uint8Array(event.data);
      let text = "";
      for (let i = 0; i < bytes.length; i += 1) { text += String.fromCharCode(bytes[i]); }
      events.push(["data", btoa(text)]);
    });
    const send = socket.send.bind(socket);
    socket.send = function (data) {
      try {
        const message = JSON.parse(data);
        if (message[0] === "resize") { events.push(["size", message[1].width, message[1].height]); }
      } catch (error) { /* not ours to judge */ }
      send(data);
    };
    return socket;
  }
  Recorded.prototype = Native.prototype;
  window.WebSocket = Recorded;
})();
"""


@pytest.fixture(scope="module")
def relay(tmp_path_factory):
    with relay_process(tmp_path_factory.mktemp("relay") / "home", "--web-sessions", "1",
                       "--web-name", "test table") as running:
        yield running


@pytest.fixture
def browser(tmp_path):
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for flag in (*FLAGS, f"--user-data-dir={tmp_path / 'profile'}"):
        options.add_argument(flag)
    driver = webdriver.Chrome(options=options, service=Service(str(CHROMEDRIVER)))
    driver.set_page_load_timeout(60)
    driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": RECORDER})
    try:
        yield driver
    finally:
        driver.quit()


class Tab:
    """One browser tab on the door: what it shows, and keys typed into it."""

    def __init__(self, driver) -> None:
        self.driver = driver
        self.screen = TerminalScreen()

    def read(self) -> str:
        for event in self.driver.execute_script("return window.__door ? window.__door.splice(0) : [];"):
            if event[0] == "size":
                self.screen.resize(event[1], event[2])
            else:
                self.screen.feed(base64.b64decode(event[1]))
        return self.screen.text

    def wait_for(self, words: str, timeout: float = 90.0) -> str:
        shown = wait_until(lambda: words in self.read(), timeout, step=0.3)
        assert shown, f"the tab never showed {words!r}; it shows:\n{self.screen.text}"
        return self.screen.text

    def sit_down(self, name: str) -> str:
        """A new visitor's first screen asks a name; answer it and wait for the menu."""
        from selenium.webdriver.common.keys import Keys

        self.wait_for("Your first visit")
        self.press(*name, Keys.ENTER)
        return self.wait_for("New local game")

    def press(self, *keys: str) -> None:
        from selenium.webdriver.common.by import By

        field = self.driver.find_element(By.CSS_SELECTOR, ".xterm-helper-textarea")
        for key in keys:
            field.send_keys(key)
            time.sleep(0.2)  # one key at a time, as a person types

    def screenshot(self, tmp_path: Path, name: str) -> Path:
        """Kept in the test's folder and copied to tests/artifacts/."""
        path = tmp_path / name
        assert self.driver.save_screenshot(str(path)) and path.stat().st_size > 1000
        ARTIFACTS.mkdir(exist_ok=True)
        shutil.copy(path, ARTIFACTS / name)
        return path


def body_text(driver) -> str:
    from selenium.webdriver.common.by import By

    return driver.find_element(By.TAG_NAME, "body").text


def test_a_tab_shows_the_menu_plays_a_money_bid_and_the_browser_continues_its_game(relay, browser, tmp_path):
    from selenium.webdriver.common.keys import Keys

    browser.get(relay.url)
    assert browser.title == "gamenight · test table"
    tab = Tab(browser)
    assert "Host a network game" in tab.sit_down("Webby")
    tab.screenshot(tmp_path, "web_door_menu.png")
    assert len(tab_processes(relay.process.pid)) == 1
    tab.press("n")
    tab.wait_for("Players")
    tab.press(Keys.ENTER)  # Money! against the bots of the form's other seats
    assert "Your hand" in tab.wait_for("Side II")
    tab.press(Keys.SPACE, Keys.ENTER)  # pick the first card and place the bid
    tab.wait_for("Bids in acting order")
    tab.screenshot(tmp_path, "web_door_bid.png")
    browser.get("about:blank")  # the tab leaves the door
    assert wait_until(lambda: not tab_processes(relay.process.pid), 60), "a tab's process was left behind"
    browser.get(relay.url)  # the same browser comes back: its folder, its unfinished game
    again = Tab(browser)
    again.wait_for("Continue the last game")
    again.press("c")
    assert "Money!" in again.wait_for("Your hand")
    browser.get("about:blank")
    assert wait_until(lambda: not tab_processes(relay.process.pid), 60), "a tab's process was left behind"


def test_without_the_key_the_page_is_refused_and_the_next_tab_past_the_cap_is_told_so(relay, browser):
    browser.get(f"{relay.base}/")
    assert body_text(browser) == "gamenight: this address needs the door's key: open the whole address the host gave you"
    browser.get(f"{relay.base}/{'x' * 32}/")
    assert "needs the door's key" in body_text(browser)
    assert tab_processes(relay.process.pid) == []
    browser.get(relay.url)  # the one tab the door allows
    Tab(browser).sit_down("Capped")
    browser.switch_to.new_window("tab")
    browser.get(relay.url)
    assert body_text(browser) == "gamenight: the server is full (1 tab in use); try again later"
    assert len(tab_processes(relay.process.pid)) == 1
    browser.close()
    browser.switch_to.window(browser.window_handles[0])
    browser.get("about:blank")
    assert wait_until(lambda: not tab_processes(relay.process.pid), 60), "a tab's process was left behind"
