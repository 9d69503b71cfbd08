"""What two peers must agree on before they can play in lockstep (the handshake)."""

from __future__ import annotations

import functools
import importlib
from hashlib import sha256
from importlib import metadata
from pathlib import Path

from engine.core import Game

from .codec import PROTOCOL_VERSION

LABELS = {"protocol": "protocol version", "engine": "gamenight version", "rules": "rules data"}


@functools.cache
def engine_version() -> str:
    try:
        return metadata.version("gamenight")
    except metadata.PackageNotFoundError:
        return "0+source"


@functools.cache
def rules_fingerprint(game: Game) -> str:
    """The game's rules version plus a hash of its packaged card data (engine/<game>/**.json).

    Two clients whose card data differ by one number would desync at the first draw; this
    catches it at the handshake instead.
    """
    digest = sha256(f"{game.id}:{game.rules_version}".encode())
    module = importlib.import_module(type(game).__module__)
    package = Path(module.__file__ or ".").parent
    for path in sorted(package.rglob("*.json")):
        digest.update(path.relative_to(package).as_posix().encode() + b"\x00")
        digest.update(path.read_bytes())
    return f"{game.rules_version}-{digest.hexdigest()[:16]}"


def local_versions(game: Game) -> dict[str, str]:
    return {
        "protocol": str(PROTOCOL_VERSION),
        "engine": engine_version(),
        "rules": rules_fingerprint(game),
    }


def version_mismatch(mine: dict[str, str], theirs: dict[str, str], me: str, them: str) -> str | None:
    """One clear line naming the first difference, or None when the versions agree."""
    for key, label in LABELS.items():
        if theirs.get(key) != mine.get(key):
            return (
                f"{label} differs ({them}: {theirs.get(key)!r}, {me}: {mine.get(key)!r}); "
                f"everyone at the table must run the same gamenight release"
            )
    return None
