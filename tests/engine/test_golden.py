"""Golden playthroughs (tests/vectors/golden.json) reproduce here and in a fresh process.

A rule that iterated a set or a dict in hash order, or kept state between games in a module,
could pass every test of one process and still play differently in the next one; the fresh
process runs with another PYTHONHASHSEED, so string hashing differs there.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from engine.registry import game_ids

from . import golden

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = golden.load()


def test_every_registered_game_has_golden_playthroughs_at_every_player_count() -> None:
    assert golden.differences(GOLDEN, [dict(c, **_figures(c)) for c in golden.cases()]) == []
    assert {c["game"] for c in GOLDEN} == set(game_ids())


def _figures(case: dict) -> dict:
    """The recorded figures of `case` (so that the set of cases alone is compared)."""
    key = (case["game"], case["players"], case["seed"])
    for c in GOLDEN:
        if (c["game"], c["players"], c["seed"]) == key:
            return {k: v for k, v in c.items() if k not in case}
    return {}


@pytest.mark.parametrize("case", GOLDEN, ids=lambda c: f"{c['game']}-{c['players']}p-{c['seed']}")
def test_a_golden_playthrough_replays_in_this_process(case: dict) -> None:
    inputs = {k: case[k] for k in ("game", "players", "seed", "options")}
    assert golden.play(inputs) == case


@pytest.mark.parametrize("hash_seed", ["0", "4242"])
def test_golden_playthroughs_replay_in_a_fresh_process_with_another_hash_seed(hash_seed) -> None:
    env = dict(os.environ, PYTHONHASHSEED=hash_seed)
    if os.environ.get("PYTHONHASHSEED") == hash_seed:  # make sure the child hashes differently
        env["PYTHONHASHSEED"] = str(int(hash_seed) + 1)
    done = subprocess.run(
        [sys.executable, "-m", "tests.engine.golden", "--json"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=240, check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert golden.differences(GOLDEN, json.loads(done.stdout)) == []
