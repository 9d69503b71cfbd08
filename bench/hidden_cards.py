"""What hiding cards costs a networked game (the deck protocol, net/lockstep/dealing.py).

On mosquitto when it is on PATH (else the embedded amqtt), bot peers in this one process,
each with its own connection and key. Figures only, no asserts; every comparison is measured
in the same run:

  deal     a 7 Wonders Age among 7 peers (49 cards shuffled and locked by all 7, then 7
           hands of 7 shown privately: a game that deals one Age and nothing else); the real
           7 Wonders start with 7 peers (all three Ages, 147 cards, with the pool pass that
           draws Age III's 9 guilds from 10, then the Age I hands); a 5-player Money! deal:
           wall time from the agreed seed until every peer holds its hand. Target: <= 250 ms
           (the Age).
  money    a whole 4-player Money! bot game, wall time, dealt by the protocol vs the same game
           dealt from the seed (the protocol switched off in this process), alternated; the
           ratio is taken per step (random games differ in length). Target: <= 2x.
  draw     Ten, 3 players: step latency at the peers that wait for the move (from the step
           becoming current to its being applied), for draws (a public reveal: every seat publishes its key for the
           top card) vs the other sequential steps of the same games. Target: <= 3x.
  reveal   CPU per private reveal of one card at the receiver (open a box, check the keys
           against their commitments, unmask), from bench/deck_protocol.py's measure.

    .venv/bin/python bench/hidden_cards.py [--games 3]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from dataclasses import dataclass  # noqa: E402

from engine.core import Game, Result, plain  # noqa: E402
from engine.core.hidden import masked  # noqa: E402
from engine.registry import get_game  # noqa: E402
from net.identity import Identity  # noqa: E402
from net.launch import BrokerSettings, connect, presence_will  # noqa: E402
from net.session import host_game, join_game, new_gid  # noqa: E402
from tests.net.brokers import HAVE_MOSQUITTO, running_broker  # noqa: E402


@plain("bench.AgeState")
@dataclass(frozen=True, slots=True)
class AgeState:
    n_players: int
    hands: tuple[tuple[str, ...], ...]


class AgeDeal(Game):
    """A 7 Wonders Age deal and nothing else: 7 cards a seat, dealt face down, each hand shown
    to its owner (the deck protocol's work for one Age; the real game deals its three Ages
    at the start)."""

    id = "bench_age_deal"
    name = "Age deal"
    min_players = 3
    max_players = 7
    options = ()

    def decks(self, n_players, options):
        return (("age1", tuple(f"card{i}" for i in range(7 * n_players))),)

    def _setup_dealt(self, n_players, seed, options):
        deck = masked("age1", 7 * n_players)
        return AgeState(n_players, tuple(deck[7 * s:7 * s + 7] for s in range(n_players)))

    def _setup(self, n_players, seed, options):
        return AgeState(n_players, tuple(tuple(f"card{7 * s + i}" for i in range(7)) for s in range(n_players)))

    def seen(self, state, seat):
        return frozenset(state.hands[seat]) if seat is not None else frozenset()

    def _active(self, state):
        return frozenset()

    def is_over(self, state):
        return True

    def _view(self, state, seat):
        return state.hands[seat] if seat is not None else ()

    def _result(self, state):
        return Result.from_breakdown([[("cards", 7)] for _ in range(state.n_players)])


async def table(url: str, game_id: str, n: int, bot: str | None = "random") -> tuple[list, list]:
    game = AgeDeal() if game_id == AgeDeal.id else get_game(game_id)
    gid = new_gid(game.id)
    settings = BrokerSettings(broker=url)
    ids = [Identity.generate() for _ in range(n)]
    transports = [await connect(url, settings, presence_will(i, gid, f"B{s}", settings.prefix))
                  for s, i in enumerate(ids)]
    peers = [await host_game(game, transports[0], ids[0], players=n, gid=gid, persist=False,
                             bot=bot, name="B0")]
    peers[0].bot_delay = 0.0
    for s in range(1, n):
        peers.append(await join_game(transports[s], ids[s], gid, name=f"B{s}", persist=False,
                                     bot=bot, bot_delay=0.0, game=game))
    return transports, peers


async def close(transports: list, peers: list) -> None:
    for p in peers:
        await p.stop(clean=False)
    for t in transports:
        await t.stop()


async def until(predicate, timeout: float = 120.0, step: float = 0.001) -> None:
    end = time.perf_counter() + timeout
    while not predicate():
        if time.perf_counter() > end:
            raise TimeoutError("no progress")
        await asyncio.sleep(step)


async def deal_time(url: str, game_id: str, n: int) -> tuple[float, int]:
    """Seconds from the agreed seed to every peer holding its hand; cards dealt."""
    transports, peers = await table(url, game_id, n, bot=None)
    try:
        await until(lambda: all(p.lockstep.seed is not None for p in peers))
        start = time.perf_counter()
        await until(lambda: all(len(p.lockstep.my_faces()) == 7 for p in peers)
                    if game_id == AgeDeal.id else
                    all(p.lockstep.phase == "play" and not p.lockstep.dealing_busy() for p in peers))
        seconds = time.perf_counter() - start
        cards = peers[0].lockstep.dealt_cards()
        return seconds, cards
    finally:
        await close(transports, peers)


async def game_time(url: str, game_id: str, n: int) -> tuple[float, Any]:
    transports, peers = await table(url, game_id, n)
    try:
        start = time.perf_counter()
        await asyncio.wait_for(asyncio.gather(*(p.done.wait() for p in peers)), 600)
        return time.perf_counter() - start, peers
    finally:
        await close(transports, peers)


async def game_steps(url: str, game_id: str, n: int) -> tuple[float, int]:
    """(seconds, steps) of one bot game."""
    seconds, peers = await game_time(url, game_id, n)
    return seconds, peers[0].lockstep.step


def without_protocol(game_id: str):
    """The game dealt from the seed as before the protocol (this process only)."""
    cls = type(get_game(game_id))
    original = cls.decks

    class Restore:
        def __enter__(self):
            cls.decks = lambda self, n, options: ()

        def __exit__(self, *exc):
            cls.decks = original

    return Restore()


def draw_latencies(peers: list) -> tuple[list[float], list[float]]:
    """(draw steps, other sequential steps): ms at each peer but the acting one from the step
    becoming current (the previous one applied) to its being applied; bots answer at once.
    (The acting peer applies its own move at once: it waits for nobody's message.)"""
    draws, others = [], []
    log = peers[0].lockstep.game_log
    for p in peers:
        for step, (mode, seconds) in enumerate(p.metrics.step_kinds):
            if mode != "act" or step >= len(log.steps):
                continue
            (seat, action), = log.steps[step]
            if seat == p.lockstep.my_seat:
                continue
            (draws if type(action).__name__ == "Draw" else others).append(seconds * 1000)
    return draws, others


def med(values: list[float]) -> float:
    return statistics.median(values) if values else float("nan")


async def main(games: int) -> None:
    kind = "mosquitto" if HAVE_MOSQUITTO else "amqtt"
    async with running_broker(kind) as url:
        print(f"broker: {kind} on loopback, peers in this process")
        for deal_game, deal_n in ((AgeDeal.id, 7), ("seven_wonders", 7), ("money", 5)):
            deals = [await deal_time(url, deal_game, deal_n) for _ in range(games)]
            best = min(s for s, _ in deals)
            what = {AgeDeal.id: "a 7 Wonders Age", "seven_wonders": "the 7 Wonders start (3 Ages)"
                    }.get(deal_game, f"{deal_game} {deal_n}p")
            print(f"deal     {what}: {deals[0][1]} cards shuffled and locked by {deal_n} peers, hands "
                  f"shown privately: best {best * 1000:.0f} ms, median {med([s for s, _ in deals]) * 1000:.0f} ms"
                  + (" (target <= 250)" if deal_game == AgeDeal.id else ""))
        dealt, plain = [], []  # (seconds, steps) of each game: random games differ in length
        for _ in range(games):
            dealt.append(await game_steps(url, "money", 4))
            with without_protocol("money"):
                plain.append(await game_steps(url, "money", 4))
        per_step = [med([s / n for s, n in runs]) * 1000 for runs in (dealt, plain)]
        print(f"money    4p bot game: dealt {med([s for s, _ in dealt]):.2f} s vs from the seed "
              f"{med([s for s, _ in plain]):.2f} s a game; per step {per_step[0]:.1f} ms vs {per_step[1]:.1f} ms "
              f"(x{per_step[0] / per_step[1]:.2f}; target <= 2)")
        draws, others = [], []
        for _ in range(games):
            _, peers = await game_time(url, "ten", 3)
            d, o = draw_latencies(peers)
            draws += d
            others += o
        print(f"draw     Ten 3p: a draw {med(draws):.1f} ms vs another sequential step {med(others):.1f} ms "
              f"(x{med(draws) / med(others):.2f}; target <= 3; {len(draws)} draws, {len(others)} others)")
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from deck_protocol import reveal_costs

    alone, in_hand, public = reveal_costs(20)
    print(f"reveal   CPU at the receiver per private reveal of one card: {alone * 1e3:.2f} ms alone, "
          f"{in_hand * 1e3:.2f} ms within a hand of 7 (7 seats); a public reveal {public * 1e3:.2f} ms")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3)
    asyncio.run(main(parser.parse_args().games))
