"""TUI test helpers: an isolated data dir per test, settled pilots, the screen as text."""

from __future__ import annotations

import pytest

from tui.config import Config, UiConfig


@pytest.fixture(autouse=True)
def gamenight_home(tmp_path, monkeypatch):
    """Saves, config and logs of a test live in its own directory."""
    monkeypatch.setenv("GAMENIGHT_HOME", str(tmp_path / "home"))
    monkeypatch.delenv("GAMENIGHT_BROKER_USERNAME", raising=False)
    monkeypatch.delenv("GAMENIGHT_BROKER_PASSWORD", raising=False)
    for name in ("GAMENIGHT_DOOR", "GAMENIGHT_DOOR_BROKER", "GAMENIGHT_DOOR_KIND"):  # not behind a door
        monkeypatch.delenv(name, raising=False)
    return tmp_path / "home"


@pytest.fixture
def config() -> Config:
    return Config(ui=UiConfig(bell=False, bot_delay=0.0))
