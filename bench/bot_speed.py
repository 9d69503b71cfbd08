"""Normal bots' speed against random bots' (issue 22 item 6: a normal bot keeps at least a third
of its game's random-bot games/s), with the frozen reference bot timed in the same run.

Usage: .venv/bin/python bench/bot_speed.py [--games N] [--game money|ten|sheriff|seven_wonders ...]

For each game and player count: complete seeded games with every seat a random bot, every seat
the reference bot where the game keeps one (the normal bot as it was before its speed-up, in
tests/engine/<game>/bot_reference.py, Ten's bot_before.py; it decides identically,
test_bot_reference.py proves it) and every seat today's normal bot. The loop is `gamenight
selfplay`'s (engine/bots/selfplay.py): a view is built only for a bot that reads one (random
bots read none), every action goes through `apply`.
Rounds interleave the three kinds, in turn forwards and backwards, so a change in the machine's
load hits all of them alike; the figure is games per CPU second of this process (the machine
is shared).
"""

from __future__ import annotations

import argparse
import gc
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.bots import make_bot  # noqa: E402
from engine.bots.base import Bot  # noqa: E402
from engine.core import Game, Stream, seed_bytes  # noqa: E402
from engine.registry import get_game  # noqa: E402
from tests.engine.seven_wonders.bot_reference import SevenWondersBotReference  # noqa: E402
from tests.engine.sheriff.bot_reference import SheriffBotReference  # noqa: E402
from tests.engine.ten.bot_before import TenBotBefore  # noqa: E402

MakeBot = Callable[[Game, int, Stream], Bot]
TABLES = {"sheriff": (4, 3, 5), "seven_wonders": (3, 7), "ten": (3, 2, 5), "money": (4, 3, 5)}
REFERENCE: dict[str, MakeBot] = {"sheriff": SheriffBotReference, "seven_wonders": SevenWondersBotReference,
                                 "ten": TenBotBefore}
ROUNDS = 4


def play(game: Game, n_players: int, label: str, make: MakeBot) -> None:
    """One complete game, every seat a bot from `make` (the selfplay harness's loop)."""
    seed = seed_bytes(label)
    root = Stream(seed)
    bots = [make(game, seat, root.fork(f"bot{seat}")) for seat in range(n_players)]
    state = game.setup(n_players, seed, None)
    while not game.stalemate(state):
        active = game._active(state)
        if not active:
            break
        chosen = {}
        for seat in sorted(active):
            bot = bots[seat]
            view = game.view(state, seat) if bot.wants_view else None
            chosen[seat] = bot.choose(view, game._legal_actions(state, seat))
        state = game.apply(state, chosen)
    assert game.is_over(state) or game.stalemate(state), label  # random Money! games can stall


def kinds(game_id: str) -> dict[str, MakeBot]:
    reference = {"reference": REFERENCE[game_id]} if game_id in REFERENCE else {}
    return {
        "random": lambda g, seat, rng: make_bot(g, seat, "random", rng),
        **reference,
        "now": lambda g, seat, rng: make_bot(g, seat, "normal", rng),
    }


def speeds(game_id: str, n_players: int, games: int) -> dict[str, float]:
    """Games per CPU second of each kind, over ROUNDS interleaved rounds of `games` games."""
    game = get_game(game_id)
    cpu = dict.fromkeys(kinds(game_id), 0.0)
    for make in kinds(game_id).values():  # warm every cache and import once
        play(game, n_players, "bot-speed-warm", make)
    for r in range(ROUNDS):
        order = list(kinds(game_id).items())
        for kind, make in order if r % 2 == 0 else order[::-1]:  # no kind always goes first
            gc.collect()
            start = time.process_time()
            for i in range(games):
                # each kind its own games: the same game played again would find the view's
                # and the payment search's caches warm from the other kind's run
                play(game, n_players, f"bot-speed-{game_id}-{n_players}-{kind}-{r}-{i}", make)
            cpu[kind] += time.process_time() - start
    return {kind: ROUNDS * games / took for kind, took in cpu.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20, help="games per kind per round")
    parser.add_argument("--game", action="append", choices=sorted(TABLES))
    args = parser.parse_args()
    for game_id in args.game or sorted(TABLES, reverse=True):
        for n in TABLES[game_id]:
            rate = speeds(game_id, n, args.games)
            reference = then = ""
            if "reference" in rate:
                reference = (f", reference bot {rate['reference']:6.1f} "
                             f"({rate['reference'] / rate['random']:.2f} of random)")
                then = f"; {rate['now'] / rate['reference']:.2f}x the reference"
            print(f"{game_id:14} {n}p  games/s: random {rate['random']:6.1f}{reference}, normal bot now "
                  f"{rate['now']:6.1f} ({rate['now'] / rate['random']:.2f} of random{then})", flush=True)


if __name__ == "__main__":
    main()
