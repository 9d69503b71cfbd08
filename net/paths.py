"""Where gamenight keeps its files: the user data directory (XDG), overridable for tests."""

from __future__ import annotations

import os
from pathlib import Path

from platformdirs import user_config_dir, user_data_dir


def data_dir() -> Path:
    """$GAMENIGHT_HOME if set (tests, several identities on one machine), else the XDG data dir."""
    home = os.environ.get("GAMENIGHT_HOME")
    path = Path(home) / "data" if home else Path(user_data_dir("gamenight", appauthor=False))
    path.mkdir(parents=True, exist_ok=True)
    return path


def config_dir() -> Path:
    home = os.environ.get("GAMENIGHT_HOME")
    return Path(home) / "config" if home else Path(user_config_dir("gamenight", appauthor=False))
