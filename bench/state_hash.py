"""What `state_hash` costs per step, today's encoder next to the one before, in the same run.

Usage: .venv/bin/python bench/state_hash.py [GAMES] (default 3). For each game (4 players; Ten
3) GAMES seeded random-bot games are played and every state along the way is kept; then each
encoder hashes the states in play order, as a peer does once per step (CPU µs per state, best
of three passes). "before" is the encoder of engine/core/plain.py before its per-class
encoders and cache of unchanged parts: to_plain, then sort every map, then msgpack. Both must
give the same hash for every state, or the script exits with an error. "no cache" is today's
canonical encoder alone (what a hash costs when the state's parts are not in the cache).
"""

from __future__ import annotations

import sys
import time
from hashlib import sha256
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


from engine.bots import make_bot  # noqa: E402
from engine.core import Stream, canonical, seed_bytes, state_hash  # noqa: E402
from engine.core.hashing import _PARTS, defined_canonical  # noqa: E402
from engine.registry import get_game  # noqa: E402

TABLES = (("money", 4), ("sheriff", 4), ("ten", 3), ("seven_wonders", 4))


def state_hash_before(state: Any) -> str:
    """engine.core.plain.state_hash as it was (89c6b63)."""
    return sha256(defined_canonical(state)).hexdigest()


def played_states(game_id: str, n_players: int, label: str) -> list[Any]:
    """Every state of one random-bot game, in play order."""
    game = get_game(game_id)
    seed = seed_bytes(label)
    root = Stream(seed)
    bots = [make_bot(game, seat, "random", root.fork(f"bot{seat}")) for seat in range(n_players)]
    state = game.setup(n_players, seed, None)
    states = [state]
    while not game.is_over(state):
        chosen = {seat: bots[seat].choose(None, game.legal_actions(state, seat))
                  for seat in sorted(game.active(state))}
        state = game.apply(state, chosen)
        states.append(state)
    return states


def cost_per_state(hash_of, states: list[Any]) -> float:
    """CPU µs per state, best of three passes over the states in play order."""
    best = float("inf")
    for _ in range(3):
        _PARTS.clear()  # each pass starts cold: a peer hashes each state once
        start = time.process_time()
        for state in states:
            hash_of(state)
        best = min(best, time.process_time() - start)
    return 1e6 * best / len(states)


def main(n_games: int) -> int:
    print(f"state_hash, CPU µs per step (every state of {n_games} random games, in play order)")
    print(f"{'game':<14} {'players':>7} {'steps':>6} {'before':>8} {'now':>8} {'ratio':>6} {'no cache':>9}")
    for game_id, n_players in TABLES:
        states = [s for g in range(n_games) for s in played_states(game_id, n_players, f"hash-{g}")]
        if any(state_hash(s) != state_hash_before(s) for s in states):
            print(f"{game_id}: the hashes differ", file=sys.stderr)
            return 1
        before = cost_per_state(state_hash_before, states)
        now = cost_per_state(state_hash, states)
        alone = cost_per_state(lambda state: sha256(canonical(state)).hexdigest(), states)
        print(f"{game_id:<14} {n_players:>7} {len(states):>6} {before:>8.1f} {now:>8.1f} {before / now:>5.2f}x"
              f" {alone:>9.1f}")
    print("(no cache: today's encoder without the cache of unchanged parts, as when thousands of")
    print(" tables in one process push each other's parts out of it)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(int(sys.argv[1]) if len(sys.argv) > 1 else 3))
