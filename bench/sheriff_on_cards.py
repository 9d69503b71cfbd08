"""Sheriff played on cards (a dealt game: zones of card ids, as every network game is) next to the
plain game (zones of counts of goods), random and normal bots, in the same run (issue 21 item 1:
one rule set on cards, at or above today's random games/s).

Usage: .venv/bin/python bench/sheriff_on_cards.py [--games N] [--players P]

A dealt game here is the plain game set up with its deck in a seeded order of card ids
(`GAME.dealt_options`, what a network table stands at once every card is shown); its views name
goods as the plain game's do, and its normal bot picks among the legal actions (which name
cards) in goods (engine/sheriff/dealt_view.py `play_in_goods`). Rounds
alternate the two forms, forwards and backwards; figures are games per CPU second.
"""

from __future__ import annotations

import argparse
import gc
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.bots import make_bot  # noqa: E402
from engine.core import Stream, seed_bytes  # noqa: E402
from engine.sheriff import GAME  # noqa: E402
from engine.sheriff.cards import card_deck  # noqa: E402

ROUNDS = 4


def play(label: str, kind: str, on_cards: bool, n_players: int) -> None:
    """One complete game with every seat a bot of `kind` (the selfplay harness's loop)."""
    seed = seed_bytes(label)
    root = Stream(seed)
    options = None
    if on_cards:
        order = tuple(Stream(seed).fork("deck").shuffle(card_deck(n_players, True)))
        options = GAME.dealt_options(n_players, {"deck": order})
    bots = [make_bot(GAME, seat, kind, root.fork(f"bot{seat}")) for seat in range(n_players)]
    state = GAME.setup(n_players, seed, options)
    while active := GAME._active(state):
        state = GAME.apply(state, {
            seat: bots[seat].choose(GAME.view(state, seat) if bots[seat].wants_view else None,
                                    GAME._legal_actions(state, seat))
            for seat in sorted(active)})
    assert GAME.is_over(state), label


def rates(kind: str, games: int, n_players: int) -> dict[bool, float]:
    """Games per CPU second, plain (False) and on cards (True)."""
    cpu = {False: 0.0, True: 0.0}
    for on_cards in cpu:
        play(f"warm-{kind}", kind, on_cards, n_players)
    for r in range(ROUNDS):
        for on_cards in (False, True) if r % 2 == 0 else (True, False):
            gc.collect()
            start = time.process_time()
            for i in range(games):
                play(f"on-cards-{kind}-{r}-{i}", kind, on_cards, n_players)
            cpu[on_cards] += time.process_time() - start
    return {form: ROUNDS * games / took for form, took in cpu.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20, help="games per form per round")
    parser.add_argument("--players", type=int, default=4)
    args = parser.parse_args()
    for kind in ("random", "normal"):
        rate = rates(kind, args.games, args.players)
        print(f"sheriff {args.players}p {kind:6} bots: plain {rate[False]:6.1f} games/s, on cards "
              f"{rate[True]:6.1f} games/s ({rate[True] / rate[False]:.2f} of plain)", flush=True)


if __name__ == "__main__":
    main()
