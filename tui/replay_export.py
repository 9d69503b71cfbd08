"""A replay exported as JSON lines: a header, then one line per step (docs/tui.md, "Replays")."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import IO, Any

from engine.core import state_hash, to_plain

from .log_text import event_lines
from .replay import Replay

EXPORT_FORMAT = "gamenight-replay"
EXPORT_VERSION = 1


def export_lines(recorded: Replay) -> Iterator[str]:
    """One header line, then one line per step (see docs/tui.md, "Replays")."""
    game_log = recorded.game_log
    header: dict[str, Any] = {
        "format": EXPORT_FORMAT, "version": EXPORT_VERSION, "game": recorded.game.id,
        "players": game_log.n_players, "names": list(recorded.names),
        "options": {name: value for name, value in game_log.options}, "seed": game_log.seed.hex(),
        "source": recorded.source, "steps": recorded.steps, "over": recorded.is_over(),
        "start_hash": state_hash(recorded.states[0]),
    }
    if recorded.is_over():
        header["scores"] = list(recorded.game.result(recorded.states[-1]).scores)
    yield _json(header)
    for k, step in enumerate(game_log.steps):
        events = recorded.step_events[k]
        yield _json({
            "step": k,
            "actions": [
                {"seat": seat, "name": recorded.names[seat], "action": to_plain(action),
                 "text": "; ".join(event_lines(recorded.game.id, [e for e in events if e.seat == seat],
                                               recorded.names))}
                for seat, action in step
            ],
            "events": to_plain(events),
            "log": list(recorded.step_lines[k]),
            "hash": state_hash(recorded.states[k + 1]),
        })


def write_export(recorded: Replay, out: IO[str]) -> int:
    """Write the export; returns the number of lines."""
    count = 0
    for line in export_lines(recorded):
        out.write(line + "\n")
        count += 1
    return count


def _json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":"), default=_bytes_hex)


def _bytes_hex(value: Any) -> Any:
    if isinstance(value, bytes):  # no action carries bytes today; a hex string reads in jq
        return value.hex()
    raise TypeError(f"{type(value).__name__} is not JSON")
