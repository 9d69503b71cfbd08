"""Logging goes to a file in the data dir: Textual owns the terminal, so nothing may print there.

The file rotates (gamenight.log, .1, .2, .3, each up to 2 MiB), so a relay that runs for
months, or a flood of dropped messages that are each logged, cannot fill the disk. Several
processes share it (a relay and a player on one machine, the SSH door's sessions): one may
rotate the files while another is rotating them too, which is not an error here, and a log
line that cannot be written is dropped without a word on the terminal.
"""

from __future__ import annotations

import logging
from logging.handlers import RotatingFileHandler
from pathlib import Path

from net.paths import data_dir

LOG_NAME = "gamenight.log"
MAX_BYTES = 2 * 1024 * 1024
BACKUPS = 3


class SharedRotatingFileHandler(RotatingFileHandler):
    """A rotating log file that other processes rotate too."""

    def doRollover(self) -> None:
        try:
            super().doRollover()
        except OSError:  # another process renamed or removed a file first: its rotation stands
            if self.stream is None:
                self.stream = self._open()

    def handleError(self, record: logging.LogRecord) -> None:
        """Drop the line: logging's own report would print a traceback on the terminal."""


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
    handler = SharedRotatingFileHandler(path, maxBytes=MAX_BYTES, backupCount=BACKUPS, encoding="utf-8")
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    handler._gamenight = True  # type: ignore[attr-defined]
    root.addHandler(handler)
    root.setLevel(level)
    return path
