"""Logging goes to a file in the data dir: Textual owns the terminal, so nothing may print there.

The file rotates (gamenight.log, .1, .2, .3, each up to 2 MiB), so a relay that runs for
months, or a flood of dropped messages that are each logged, cannot fill the disk.
"""

from __future__ import annotations

import logging
from logging.handlers import RotatingFileHandler
from pathlib import Path

from net.paths import data_dir

LOG_NAME = "gamenight.log"
MAX_BYTES = 2 * 1024 * 1024
BACKUPS = 3


def log_path() -> Path:
    return data_dir() / LOG_NAME


def setup_logging(level: int = logging.INFO) -> Path:
    """Send every logger to <data dir>/gamenight.log (once); returns the file's path."""
    path = log_path()
    root = logging.getLogger()
    for handler in root.handlers:
        if getattr(handler, "_gamenight", False):
            return path
    # With a handler on the root, logging's last-resort stderr printer stays silent.
    handler = RotatingFileHandler(path, maxBytes=MAX_BYTES, backupCount=BACKUPS, encoding="utf-8")
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    handler._gamenight = True  # type: ignore[attr-defined]
    root.addHandler(handler)
    root.setLevel(level)
    return path
