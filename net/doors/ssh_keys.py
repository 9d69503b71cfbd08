"""The SSH door's keys: its host key (made once, kept 0600) and the list of visitors' keys.

The host key's fingerprint is printed at start as `ssh-keygen -l` prints it (SHA256:...), so
a player can check it the first time they connect. The authorized-keys file is OpenSSH's
format; an edit while the door runs takes effect at the next visitor (a file that no longer
reads keeps the list it had, with a line in the log).
"""

from __future__ import annotations

import logging
import os
from pathlib import Path

import asyncssh

from ..paths import atomic_write

log = logging.getLogger("gamenight.net")

HOST_KEY_NAME = "ssh_host_ed25519_key"


class KeyFileError(ValueError):
    """A key file that cannot be used; the message is one line naming the file."""


def load_or_create_host_key(path: Path) -> asyncssh.SSHKey:
    """The door's ed25519 host key: read from `path`, or made there once (mode 0600).

    A file that does not read is an error, never replaced: a new host key would make every
    player's ssh client warn that the server changed.
    """
    if path.exists():
        try:
            return asyncssh.import_private_key(path.read_bytes())
        except (OSError, ValueError, asyncssh.KeyImportError) as exc:
            raise KeyFileError(f"cannot read the SSH host key {path}: {exc}; move it away to make a new one") from None
    key = asyncssh.generate_private_key("ssh-ed25519")
    path.parent.mkdir(parents=True, exist_ok=True)
    atomic_write(path, key.export_private_key(), mode=0o600)
    log.info("ssh door: made the SSH host key %s (%s)", path, fingerprint(key))
    return key


def fingerprint(key: asyncssh.SSHKey) -> str:
    """SHA256:... of the public key, as `ssh-keygen -l` and the ssh client print it."""
    return key.get_fingerprint("sha256")


class AuthorizedKeys:
    """The visitors' keys a door admits: an OpenSSH authorized_keys file, re-read when it changes."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._stamp: tuple[int, int] | None = None
        self._keys = self._read()

    def _read(self) -> asyncssh.SSHAuthorizedKeys:
        try:
            stat = os.stat(self.path)
            keys = asyncssh.import_authorized_keys(self.path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError) as exc:
            raise KeyFileError(f"cannot read the authorized keys {self.path}: {exc.strerror or exc}") from None
        except (ValueError, asyncssh.KeyImportError) as exc:
            raise KeyFileError(f"the authorized keys {self.path} do not read: {exc}") from None
        self._stamp = (stat.st_mtime_ns, stat.st_size)
        return keys

    def admits(self, key: asyncssh.SSHKey, host: str, address: str) -> bool:
        self._refresh()
        return self._keys.validate(key, host, address) is not None

    def _refresh(self) -> None:
        try:
            stat = os.stat(self.path)
        except OSError:
            return
        if (stat.st_mtime_ns, stat.st_size) == self._stamp:
            return
        try:
            self._keys = self._read()
            log.info("ssh door: re-read %s", self.path)
        except KeyFileError as exc:
            log.warning("ssh door: %s; keeping the list read before", exc)
            self._stamp = (stat.st_mtime_ns, stat.st_size)


def count_keys(path: Path) -> int:
    """The number of key lines in an authorized-keys file (for the line printed at start)."""
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError):
        return 0
    return sum(1 for line in lines if line.strip() and not line.lstrip().startswith("#"))
