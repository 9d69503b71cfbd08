"""A game's files on this machine: the signed log (appended as it goes), secrets, metadata.

Layout under <data dir>/games/<gid>/<peer id>/: `log.bin` (each accepted envelope as a 4-byte
big-endian length then the bytes, in acceptance order), `secrets.bin` (msgpack map, rewritten
atomically: the seed share and the opening of an unrevealed commitment), `meta.json` (what
`gamenight resume` needs to reconnect).
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import msgpack

from .paths import data_dir


def games_dir() -> Path:
    path = data_dir() / "games"
    path.mkdir(parents=True, exist_ok=True)
    return path


class GameStore:
    """The files of one peer in one game."""

    def __init__(self, path: Path) -> None:
        self.path = path
        path.mkdir(parents=True, exist_ok=True)
        self._log = open(path / "log.bin", "ab")  # noqa: SIM115 - kept open while playing

    @staticmethod
    def for_peer(gid: str, peer: str) -> GameStore:
        return GameStore(games_dir() / gid / peer)

    def append(self, raw: bytes) -> None:
        self._log.write(len(raw).to_bytes(4, "big") + raw)
        self._log.flush()

    def read_log(self) -> list[bytes]:
        return read_log(self.path / "log.bin")

    def save_secrets(self, secrets: dict[str, bytes]) -> None:
        atomic_write(self.path / "secrets.bin", msgpack.packb(secrets, use_bin_type=True))

    def load_secrets(self) -> dict[str, bytes]:
        try:
            data = msgpack.unpackb((self.path / "secrets.bin").read_bytes(), raw=False)
        except (FileNotFoundError, ValueError, msgpack.ExtraData):
            return {}
        return {str(k): bytes(v) for k, v in data.items() if isinstance(v, bytes)}

    def save_meta(self, meta: dict[str, Any]) -> None:
        atomic_write(self.path / "meta.json", json.dumps(meta, indent=1, sort_keys=True).encode())

    def load_meta(self) -> dict[str, Any]:
        try:
            return json.loads((self.path / "meta.json").read_text())
        except (FileNotFoundError, ValueError):
            return {}

    def close(self) -> None:
        self._log.close()


def read_log(path: Path) -> list[bytes]:
    """The envelopes of a log file; a torn last record (crash mid-write) is ignored."""
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return []
    out: list[bytes] = []
    i = 0
    while i + 4 <= len(data):
        size = int.from_bytes(data[i : i + 4], "big")
        if i + 4 + size > len(data):
            break
        out.append(data[i + 4 : i + 4 + size])
        i += 4 + size
    return out


def atomic_write(path: Path, data: bytes) -> None:
    """Write via a temporary file and os.replace, so a crash never leaves half a file."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    with open(tmp, "wb") as fh:
        fh.write(data)
        fh.flush()
        os.fsync(fh.fileno())
    os.replace(tmp, path)


def saved_games() -> list[tuple[str, str, dict[str, Any]]]:
    """(gid, peer id, meta) of every game with files here, newest first."""
    out = []
    for meta_path in games_dir().glob("*/*/meta.json"):
        try:
            meta = json.loads(meta_path.read_text())
        except ValueError:
            continue
        out.append((meta_path.parent.parent.name, meta_path.parent.name, meta, meta_path.stat().st_mtime))
    out.sort(key=lambda t: -t[3])
    return [(g, p, m) for g, p, m, _ in out]
