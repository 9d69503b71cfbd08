"""Play a seeded game with today's bots while asking a frozen reference bot at every decision:
the one comparison the bot speed-ups are held to (Ten, Sheriff, 7 Wonders)."""

from __future__ import annotations

from typing import Any

from engine.core import Game, Stream, seed_bytes


def compare_one_game(game: Game, now_bot: type, reference_bot: type, n_players: int, label: str, *,
                     options: dict[str, Any] | None = None, same_draws: bool = False) -> tuple[list, list, list]:
    """(the actions, today's bots, the reference bots) of one game played by today's bots, each
    decision asserted equal to the reference's on the same view; with `same_draws`, each pair of
    streams is also asserted to be at the same point after the decision."""
    seed = seed_bytes(label)
    root = Stream(seed)
    now = [now_bot(game, seat, root.fork(f"bot{seat}")) for seat in range(n_players)]
    before = [reference_bot(game, seat, root.fork(f"bot{seat}")) for seat in range(n_players)]
    state = game.setup(n_players, seed, options)
    decisions: list = []
    while not game.is_over(state):
        chosen = {}
        for seat in sorted(game.active(state)):
            view, actions = game.view(state, seat), game.legal_actions(state, seat)
            chosen[seat] = now[seat].choose(view, actions)
            assert chosen[seat] == before[seat].choose(view, actions), (label, len(decisions), view.phase)
            if same_draws:
                assert now[seat].rng.below(1 << 30) == before[seat].rng.below(1 << 30), (label, len(decisions))
            decisions.append(chosen[seat])
        state = game.apply(state, chosen)
    return decisions, now, before
