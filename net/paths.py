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


def atomic_write(path: Path, data: bytes, mode: int = 0o644) -> None:
    """Write `path` whole or not at all: a temporary file, fsync, rename, fsync of the directory.

    A crash at any moment leaves either the old content or the new, never half a file.
    `mode` applies to a new file (0o600 for keys and secrets).
    """
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")  # two processes never share one
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, mode)
    with os.fdopen(fd, "wb") as fh:
        fh.write(data)
        fh.flush()
        os.fsync(fh.fileno())
    os.replace(tmp, path)
    try:
        dir_fd = os.open(path.parent, os.O_RDONLY)
    except OSError:  # a platform without directory handles: the rename is still atomic
        return
    try:
        os.fsync(dir_fd)
    except OSError:
        pass
    finally:
        os.close(dir_fd)
