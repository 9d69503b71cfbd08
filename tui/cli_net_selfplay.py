"""`gamenight selfplay GAME --net`: every seat a bot peer through the broker, the wire measured."""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import time
from dataclasses import dataclass, field
from typing import Any

from .cli_net_common import SelfplayStalled, cli_error, net_settings, read_config, run_network


def run_selfplay_net(args: argparse.Namespace) -> int:
    """`gamenight selfplay GAME --net`: every seat a bot peer through the broker; JSON summary."""
    from engine.core import GameError
    from tui.cli_args import find_game, player_count

    try:
        game = find_game(args.game)
    except GameError as exc:
        raise cli_error(str(exc)) from None
    players = player_count(game, args.players, {})
    if args.games < 1:
        raise cli_error(f"--games must be at least 1, not {args.games}")
    config = read_config()
    settings = net_settings(args, config, args.broker or "embedded")
    if settings.broker == "embedded":
        settings.port = 0  # a free port: self-play must not collide with a hosted game
    return run_network(_selfplay_net(game.id, players, args.games, args.bots, settings, bool(args.json)))


STALL_AFTER = 120.0
"""Seconds a self-play table may go without accepting a message before it counts as stalled:
far above a bot's think time and the peers' own 2-30 s re-asking (net/peer.py)."""


async def _close_all(peers: list[Any], transports: list[Any]) -> None:
    for p in peers:
        await p.stop(clean=False)
    for t in transports:
        await t.stop()


def _progress(peers: list[Any]) -> tuple:
    return tuple((p.lockstep.phase, p.lockstep.step, len(p.lockstep.accepted)) for p in peers)


async def _until_done_or_stalled(peers: list[Any], stall_after: float) -> float:
    """0 once every peer is done; else the seconds without progress when that reached `stall_after`.

    A slow game is fine as long as it moves: only a table where no peer accepted anything for
    `stall_after` seconds counts as stalled.
    """
    loop = asyncio.get_running_loop()
    last, since = _progress(peers), loop.time()
    while not all(p.done.is_set() for p in peers):
        await asyncio.sleep(0.2)
        mark = _progress(peers)
        if mark != last:
            last, since = mark, loop.time()
        elif loop.time() - since >= stall_after:
            return loop.time() - since
    return 0.0


def _stall_report(peers: list[Any], which: str, seconds: float) -> str:
    """One line: where each peer stands and whom it waits for."""
    parts = []
    for seat, peer in enumerate(peers):
        ls = peer.lockstep
        if peer.done.is_set():
            parts.append(f"Bot {seat} done ({ls.phase})")
            continue
        awaited = sorted(ls.awaited())
        if ls.phase == "lobby":
            wants = f"{len(ls.seat_keys)} of {ls.table.players if ls.table else '?'} seats taken"
        elif awaited:
            what = "seed" if ls.phase == "seed" else ls.step_mode()
            wants = f"waits for {', '.join(f'seat {s}' for s in awaited)} ({what})"
        else:
            wants = "waits for nothing it knows of (a message lost on the way?)"
        connected = "" if peer.transport.connected.is_set() else ", not connected to the broker"
        parts.append(f"Bot {seat} at step {ls.step} ({ls.phase}) {wants}{connected}")
    return f"{which} made no progress for {seconds:.0f} s: " + "; ".join(parts)


async def net_selfplay(game_id: str, players: int, games: int, bots: str, settings: Any,
                       stall_after: float | None = None) -> dict[str, Any]:
    """Play `games` networked bot games one after another and measure the wire.

    Raises SelfplayStalled when a game makes no progress for `stall_after` seconds
    (default STALL_AFTER).
    """
    stall_after = STALL_AFTER if stall_after is None else stall_after
    from engine.registry import get_game
    from net.launch import start_broker

    game = get_game(game_id)
    kinds = _bot_kinds(bots, players)
    url, broker = await start_broker(settings)
    tally = _Tally(players)
    started = time.perf_counter()
    try:
        for index in range(games):
            await _play_one(game, kinds, url, settings, f"game {index + 1} of {games}", stall_after, tally)
    finally:
        if broker is not None:
            await broker.stop()
    seconds = max(time.perf_counter() - started, 1e-9)
    return _summary(game.id, players, games, seconds, "embedded amqtt" if broker is not None else url, tally)


def _bot_kinds(bots: str, players: int) -> list[str]:
    """The bot of each seat: one kind for every seat, or one per seat separated by commas."""
    kinds = [k.strip() for k in bots.split(",")] if "," in bots else [bots] * players
    if len(kinds) != players:
        raise ValueError(f"--bots lists {len(kinds)} bots for {players} players")
    return kinds


@dataclass
class _Tally:
    """What the games of one self-play run add up to."""

    players: int
    sequential_ms: list[float] = field(default_factory=list)
    commit_reveal_ms: list[float] = field(default_factory=list)
    messages: int = 0
    desyncs: int = 0
    mismatched: int = 0
    """Finished games whose peers end on different states, or whose log does not replay."""
    finished: int = 0
    actions: int = 0
    audited: int = 0
    accused: set[int] = field(default_factory=set)
    wins: list[int] = field(init=False)
    totals: list[int] = field(init=False)

    def __post_init__(self) -> None:
        self.wins, self.totals = [0] * self.players, [0] * self.players

    def count_wire(self, peers: list[Any]) -> None:
        """Each peer's messages sent, whether it froze on a desync, and its step latencies."""
        for p in peers:
            ls = p.lockstep
            self.messages += p.sent
            self.desyncs += 1 if ls.frozen else 0
            for kind, seconds in p.metrics.step_kinds:
                (self.sequential_ms if kind == "act" else self.commit_reveal_ms).append(seconds * 1000)

    def count_result(self, game: Any, peers: list[Any]) -> None:
        """A finished game: whether every peer agrees on it and it replays, its deal audit,
        the seats accused, its winners, scores and actions."""
        ls0 = peers[0].lockstep
        if ls0.phase != "over":
            return
        self.finished += 1
        result = game.result(ls0.state)
        if len({p.lockstep.hash for p in peers}) != 1 or not ls0.replays():
            self.mismatched += 1
        self.audited += ls0.deal_verdict == "verified"
        for p in peers:
            self.accused.update(p.lockstep.accused())
        for seat in result.winners:
            self.wins[seat] += 1
        for seat, score in enumerate(result.scores):
            self.totals[seat] += score
        self.actions += sum(len(step) for step in ls0.game_log.steps)


async def _play_one(game: Any, kinds: list[str], url: str, settings: Any, which: str, stall_after: float,
                    tally: _Tally) -> None:
    """One game to its end (and its end audit), counted into `tally`; SelfplayStalled, naming
    `which` game, if it stops moving."""
    from net.session import new_gid

    gid = new_gid(game.id)
    peers, transports = await _seat_bots(game, kinds, url, settings, gid)
    stalled = await _until_done_or_stalled(peers, stall_after)
    if stalled:
        report = _stall_report(peers, f"{which} ({gid})", stalled)
        await _close_all(peers, transports)
        raise SelfplayStalled(report)
    if peers[0].lockstep.dealt:  # the end audit follows the last step at once
        await _until_audited(peers, stall_after)
    for p in peers:
        await p.flush()
    tally.count_wire(peers)
    tally.count_result(game, peers)
    await _close_all(peers, transports)


async def _seat_bots(game: Any, kinds: list[str], url: str, settings: Any, gid: str) -> tuple[list[Any], list[Any]]:
    """(peers, transports): a connection and a bot peer per seat; seat 0 hosts `gid`, the others join it."""
    from net.identity import Identity
    from net.launch import connect, presence_will
    from net.session import host_game, join_game

    players = len(kinds)
    ids = [Identity.generate() for _ in range(players)]
    transports = [await connect(url, settings, presence_will(i, gid, f"Bot {s}", settings.prefix))
                  for s, i in enumerate(ids)]
    peers = [await host_game(game, transports[0], ids[0], players=players, name="Bot 0", gid=gid,
                             prefix=settings.prefix, persist=False, bot=kinds[0])]
    for s in range(1, players):
        peers.append(await join_game(transports[s], ids[s], gid, name=f"Bot {s}", prefix=settings.prefix,
                                     persist=False, bot=kinds[s], game=game))
    return peers, transports


def _summary(game_id: str, players: int, games: int, seconds: float, broker: str, tally: _Tally) -> dict[str, Any]:
    """The run's JSON summary (what `--json` prints)."""
    finished = tally.finished
    return {
        "game": game_id, "players": players, "games": games, "finished": finished, "actions": tally.actions,
        "seconds": round(seconds, 3), "games_per_s": round(games / seconds, 2),
        "actions_per_s": round(tally.actions / seconds, 1), "wins": tally.wins,
        "mean_score": [round(t / finished, 2) if finished else 0 for t in tally.totals],
        "net": True, "broker": broker,
        "messages": tally.messages, "desyncs": tally.desyncs + tally.mismatched,
        # hidden cards: games whose end audit verified the deal, seats an audit or proof named
        "audited": tally.audited, "accused": sorted(tally.accused),
        "step_latency_ms": {"sequential": _stats(tally.sequential_ms), "commit_reveal": _stats(tally.commit_reveal_ms)},
    }


async def _until_audited(peers: list[Any], seconds: float) -> None:
    """Wait (at most `seconds`) for every peer's verdict on the deal."""
    loop = asyncio.get_running_loop()
    end = loop.time() + seconds
    while loop.time() < end and not all(p.lockstep.deal_verdict for p in peers):
        await asyncio.sleep(0.01)


def _stats(values: list[float]) -> dict[str, Any]:
    if not values:
        return {"steps": 0, "median": None, "p99": None}
    ordered = sorted(values)
    p99 = ordered[min(len(ordered) - 1, int(round(0.99 * (len(ordered) - 1))))]
    return {"steps": len(values), "median": round(statistics.median(ordered), 3), "p99": round(p99, 3)}


async def _selfplay_net(game_id: str, players: int, games: int, bots: str, settings: Any, as_json: bool) -> int:
    summary = await net_selfplay(game_id, players, games, bots, settings)
    if as_json:
        print(json.dumps(summary))
    else:
        lat = summary["step_latency_ms"]
        print(
            f"{summary['games']} networked games of {summary['game']} for {summary['players']} via "
            f"{summary['broker']} in {summary['seconds']} s: {summary['messages']} messages, "
            f"{summary['desyncs']} desyncs; deal verified by the end audit in {summary['audited']} games"
            f"{', seats accused: ' + str(summary['accused']) if summary['accused'] else ''}\n"
            f"step latency ms: sequential median {lat['sequential']['median']} p99 {lat['sequential']['p99']}; "
            f"commit-reveal median {lat['commit_reveal']['median']} p99 {lat['commit_reveal']['p99']}\n"
            f"wins per seat: {summary['wins']}\nmean score per seat: {summary['mean_score']}"
        )
    return 0 if summary["desyncs"] == 0 and summary["finished"] == summary["games"] and not summary["accused"] else 1
