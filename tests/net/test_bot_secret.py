"""A network bot's choices come from a secret kept with its key: an outsider cannot predict them.

The outsider knows everything public (the gid, every public key, the whole log) and replays
each bot's choices with the seed the bots used to draw from (their public key). Only the
holder of the key file, who knows `bot_secret`, predicts them all — which shows the
predictor itself is right.
"""

from __future__ import annotations

from engine.bots import make_bot
from engine.core import Stream
from engine.core.log import replay
from engine.registry import get_game
from net.identity import Identity

from .helpers import memory_table, until

MONEY = get_game("money")


def _predicted(ls, seeds: dict[int, bytes]) -> tuple[int, int]:
    """(choices predicted, choices made) replaying the log with a bot per seat from `seeds`."""
    game, log = ls.game, ls.game_log
    bots = {s: make_bot(game, s, "random", Stream(seed).fork(ls.gid)) for s, seed in seeds.items()}
    hits = total = 0
    for state, step in zip(replay(game, log), log.steps, strict=False):
        for seat, action in step:
            guess = bots[seat].choose(game.view(state, seat), game.legal_actions(state, seat))
            hits += guess == action
            total += 1
    return hits, total


async def test_an_outsider_cannot_predict_a_network_bot_but_its_owner_can() -> None:
    ids = [Identity.generate() for _ in range(3)]
    _, transports, peers = await memory_table(3, game=MONEY, bot="random", identities=ids)
    try:
        await until(lambda: all(p.done.is_set() for p in peers), timeout=60)
        ls = peers[0].lockstep
        assert ls.phase == "over"
        owner_hits, total = _predicted(ls, {s: i.bot_secret for s, i in enumerate(ids)})
        outsider_hits, _ = _predicted(ls, {s: i.public for s, i in enumerate(ids)})
    finally:
        for p in peers:
            await p.stop(clean=False)
    assert total > 20 and owner_hits == total
    assert outsider_hits < total * 0.8, f"{outsider_hits} of {total} choices predicted from public keys"


def test_the_bot_secret_is_kept_with_the_key_and_differs_per_key(tmp_path) -> None:
    from net.identity import load_or_create

    first = load_or_create(tmp_path / "k.key")
    again = load_or_create(tmp_path / "k.key")
    other = Identity.generate()
    assert first.bot_secret == again.bot_secret != other.bot_secret
    assert first.public not in first.bot_secret and len(first.bot_secret) == 32
