"""Golden seeded playthroughs: random bots, fixed seeds, every registered game and player count.

Each case plays one whole game through the public engine contract only (active,
legal_actions, apply) and records what any correct build must reproduce in any process: the
number of steps, the final state hash, a hash over every step's state hash, and the scores
(as they stand, for a game stopped by the stalemate limit).
The figures live in tests/vectors/golden.json; tests/engine/test_golden.py replays them in
this process and in a fresh one with another PYTHONHASHSEED.

    python -m tests.engine.golden --write   # after a deliberate rules change: say why
    python -m tests.engine.golden --check   # print mismatches, exit 1 if any
    python -m tests.engine.golden --json    # the cases as played now, on stdout
"""

from __future__ import annotations

import argparse
import json
import sys
from hashlib import sha256
from pathlib import Path
from typing import Any

from engine.bots import make_bot
from engine.core import Stream, seed_bytes, state_hash
from engine.registry import game_ids, get_game

PATH = Path(__file__).resolve().parents[1] / "vectors" / "golden.json"
SEEDS_PER_COUNT = 2
MAX_STEPS = 20_000
VARIANTS: dict[str, tuple[dict[str, Any], ...]] = {
    # options worth a playthrough of their own, at the game's most common table size
    "money": ({"edition": "classic"},),
    "sheriff": ({"royal_goods": False},),
    "seven_wonders": ({"wonder_side": "B"},),
}
COMMON_TABLE = 4


def cases() -> list[dict[str, Any]]:
    """Every (game, players, seed, options) played, in a fixed order."""
    out = []
    for game_id in game_ids():
        game = get_game(game_id)
        low, high = game.player_range(game.check_options({}))
        for players in range(low, high + 1):
            for k in range(SEEDS_PER_COUNT):
                out.append({"game": game_id, "players": players,
                            "seed": f"golden-{game_id}-{players}-{k}", "options": {}})
        for options in VARIANTS.get(game_id, ()):
            low, high = game.player_range(game.check_options(options))
            players = min(max(COMMON_TABLE, low), high)
            out.append({"game": game_id, "players": players,
                        "seed": f"golden-{game_id}-{players}-variant", "options": options})
    return out


def play(case: dict[str, Any]) -> dict[str, Any]:
    """Play one case with random bots through the public contract; its golden figures."""
    game = get_game(case["game"])
    players, seed = case["players"], seed_bytes(case["seed"])
    root = Stream(seed)
    bots = [make_bot(game, s, "random", root.fork(f"bot{s}")) for s in range(players)]
    state = game.setup(players, seed, case["options"])
    trace = sha256(bytes.fromhex(state_hash(state)))
    steps = 0
    while steps < MAX_STEPS and not game.stalemate(state):
        active = game.active(state)
        if not active:
            break
        chosen = {}
        for seat in sorted(active):
            view = game.view(state, seat) if bots[seat].wants_view else None
            chosen[seat] = bots[seat].choose(view, game.legal_actions(state, seat))
        state = game.apply(state, chosen)
        trace.update(bytes.fromhex(state_hash(state)))
        steps += 1
    over = game.is_over(state)
    return {
        **case,
        "steps": steps,
        "over": over,
        "final_hash": state_hash(state),
        "trace": trace.hexdigest(),
        # a game the harness stopped (no round limit in the rules) is scored as it stands
        "scores": list((game.result(state) if over else game.result_now(state)).scores),
    }


def play_all() -> list[dict[str, Any]]:
    return [play(case) for case in cases()]


def load() -> list[dict[str, Any]]:
    return json.loads(PATH.read_text())["playthroughs"]


def differences(expected: list[dict[str, Any]], got: list[dict[str, Any]]) -> list[str]:
    """One line per case that differs (or is missing on either side)."""
    key = lambda c: (c["game"], c["players"], c["seed"])  # noqa: E731
    want = {key(c): c for c in expected}
    have = {key(c): c for c in got}
    out = [f"{k}: no golden figures (run --write)" for k in have.keys() - want.keys()]
    out += [f"{k}: golden case no longer played" for k in want.keys() - have.keys()]
    for k in sorted(want.keys() & have.keys()):
        diff = [f for f in want[k] if want[k][f] != have[k].get(f)]
        if diff:
            out.append(f"{k}: {', '.join(f'{f} {want[k][f]!r} != {have[k].get(f)!r}' for f in diff)}")
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    group = parser.add_mutually_exclusive_group(required=True)
    group.add_argument("--write", action="store_true", help="play every case, write golden.json")
    group.add_argument("--check", action="store_true", help="compare with golden.json")
    group.add_argument("--json", action="store_true", help="print the cases as played now")
    args = parser.parse_args(argv)
    played = play_all()
    if args.json:
        json.dump(played, sys.stdout)
        return 0
    if args.write:
        PATH.write_text(json.dumps({"playthroughs": played}, indent=1) + "\n")
        print(f"wrote {len(played)} playthroughs to {PATH}")
        return 0
    problems = differences(load(), played)
    for line in problems:
        print(line)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
