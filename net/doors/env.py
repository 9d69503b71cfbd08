"""What a door tells the gamenight process it starts for one visitor (the contract both sides read).

A door (SSH or browser) runs each visitor's TUI as a child process with its own data folder
(`GAMENIGHT_HOME`: settings, saves, the game key pair; one per SSH key), and with three
variables that say it is behind a door: the door's folder (where its table list lives), the
broker of the relay the door belongs to (every table a visitor hosts or joins goes through it:
no child starts a broker of its own), and the door's kind. The TUI reads them with `current()`.
What the relay's broker asks of a client (its login, the pin of its certificate, a CA file) is
passed on in the variables a player would set (`GAMENIGHT_BROKER_*`): the visitor's app then
reaches the broker whose address every invite code it makes carries, as a player from outside
the door does with the same settings.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

HOME = "GAMENIGHT_HOME"
DOOR = "GAMENIGHT_DOOR"  # the door's folder
DOOR_BROKER = "GAMENIGHT_DOOR_BROKER"  # mqtt://host:port of the relay's broker
DOOR_KIND = "GAMENIGHT_DOOR_KIND"  # "ssh" or "web"
KINDS = ("ssh", "web")
# The relay's broker access, as the variables tui/config.py reads (they win over a visitor's file).
ACCESS = ("GAMENIGHT_BROKER_USERNAME", "GAMENIGHT_BROKER_PASSWORD", "GAMENIGHT_BROKER_CA",
          "GAMENIGHT_BROKER_FINGERPRINT")


@dataclass(frozen=True)
class Door:
    """The door a TUI process runs behind."""

    root: Path
    broker: str
    kind: str
    # (variable in ACCESS, value), see `broker_access`; a password among them: never in a repr
    access: tuple[tuple[str, str], ...] = field(default=(), repr=False)

    @property
    def tables(self) -> Path:
        """The folder of the tables hosted through this door, open to its visitors."""
        return self.root / "tables"

    def player_home(self, key_id: str) -> Path:
        """The data folder of the visitor known by `key_id` (see `key_id`)."""
        return self.root / "players" / key_id


def current(environ: Mapping[str, str] | None = None) -> Door | None:
    """The door this process runs behind, or None (a local terminal)."""
    env = os.environ if environ is None else environ
    root, broker, kind = env.get(DOOR), env.get(DOOR_BROKER), env.get(DOOR_KIND, "ssh")
    if not root or not broker or kind not in KINDS:
        return None
    return Door(Path(root), broker, kind)


def broker_access(*, username: str = "", password: str = "", ca_file: str = "",
                  fingerprint: str = "") -> tuple[tuple[str, str], ...]:
    """A `Door.access` from the relay's broker settings: only what is set."""
    values = zip(ACCESS, (username, password, ca_file, fingerprint), strict=True)
    return tuple((name, value) for name, value in values if value)


def key_id(public_key_blob: bytes) -> str:
    """A visitor's name for its folder: the first 32 hex digits of SHA-256 of its SSH public
    key (the wire blob), so the same key is the same player next time."""
    return hashlib.sha256(public_key_blob).hexdigest()[:32]


def child_environ(base: Mapping[str, str], door: Door, home: Path, *, term: str = "xterm-256color",
                  colorterm: str | None = None) -> dict[str, str]:
    """The environment of one visitor's TUI process: `base` (the relay's own) without what
    must not leak into a visitor's session, plus the door's variables and the terminal's."""
    env = {k: v for k, v in base.items() if not k.startswith(("GAMENIGHT_", "SSH_", "TMUX"))}
    env.update({HOME: str(home), DOOR: str(door.root), DOOR_BROKER: door.broker, DOOR_KIND: door.kind,
                "TERM": term or "xterm-256color"})
    env.update((name, value) for name, value in door.access if name in ACCESS)
    if colorterm:
        env["COLORTERM"] = colorterm
    else:
        env.pop("COLORTERM", None)
    return env
