"""Real dealt games whose peers sit on different brokers of one fabric (a cluster, a bridge)."""

from __future__ import annotations

import asyncio

from engine.core import final_state, to_plain
from engine.registry import get_game
from net.identity import Identity
from net.launch import BrokerSettings, connect, presence_will
from net.mqtt import MqttTransport
from net.peer import Peer
from net.session import host_game, join_game, new_gid

from .helpers import until

FOUR_GAMES = ("money", "sheriff", "ten", "seven_wonders")


class Table:
    """One game with seat s connected to `urls[s % len(urls)]`: the host on the first broker."""

    def __init__(self, game_id: str, urls: list[str], players: int = 3, bot_delay: float = 0.0) -> None:
        self.game = get_game(game_id)
        self.urls = urls
        self.players = players
        self.bot_delay = bot_delay
        self.gid = new_gid(game_id)
        self.transports: list[MqttTransport] = []
        self.peers: list[Peer] = []

    def url_of(self, seat: int) -> str:
        return self.urls[seat % len(self.urls)]

    async def open(self) -> None:
        ids = [Identity.generate() for _ in range(self.players)]
        for seat, identity in enumerate(ids):
            url = self.url_of(seat)
            settings = BrokerSettings(broker=url)
            self.transports.append(await connect(url, settings, presence_will(identity, self.gid, f"B{seat}",
                                                                              settings.prefix)))
        self.peers.append(await host_game(self.game, self.transports[0], ids[0], players=self.players,
                                          gid=self.gid, persist=False, bot="best", name="B0"))
        self.peers[0].bot_delay = self.bot_delay
        for seat in range(1, self.players):  # the others find the table by asking (no retained copy on their node)
            self.peers.append(await join_game(self.transports[seat], ids[seat], self.gid, name=f"B{seat}",
                                              persist=False, bot="best", bot_delay=self.bot_delay,
                                              game=self.game, timeout=10))

    async def finish(self, timeout: float = 150) -> None:
        """Every peer ends with one hash and chain, the deal verified, the log replaying."""
        await asyncio.wait_for(asyncio.gather(*(p.done.wait() for p in self.peers)), timeout)
        first = self.peers[0].lockstep
        assert first.phase == "over", f"{self.gid} stopped at step {first.step} in phase {first.phase}"
        assert {p.lockstep.hash for p in self.peers} == {first.hash}
        assert {p.lockstep.chain for p in self.peers} == {first.chain}
        assert first.steps.dealing.on
        await until(lambda: all(p.lockstep.steps.dealing.verdict for p in self.peers), timeout=20)
        assert {p.lockstep.steps.dealing.verdict for p in self.peers} == {"verified"}
        replayed = final_state(self.game, first.game_log)
        assert to_plain(self.game.view(replayed, None)) == to_plain(self.game.view(first.state, None))
        assert not any(p.lockstep.frozen for p in self.peers)

    async def close(self) -> None:
        for p in self.peers:
            await p.stop(clean=False)
        for t in self.transports:
            await t.stop()


async def four_games_across(urls: list[str]) -> None:
    """A dealt game of each of the four games at once, its seats spread over `urls`."""
    tables = [Table(game_id, urls) for game_id in FOUR_GAMES]
    try:
        await asyncio.gather(*(t.open() for t in tables))
        await asyncio.gather(*(t.finish() for t in tables))
    finally:
        for t in tables:
            await t.close()


async def survives_a_restart(urls: list[str], restart, game_id: str = "money") -> None:
    """A game whose broker `urls[1]` restarts mid-game (`restart()`): the peers on the other
    broker play on, the ones on the restarted broker reconnect, and the game ends as one."""
    table = Table(game_id, urls, players=3, bot_delay=0.05)
    try:
        await table.open()
        await until(lambda: table.peers[0].lockstep.phase == "play" and table.peers[0].lockstep.step >= 3, 60)
        step = table.peers[0].lockstep.step
        assert table.peers[0].lockstep.phase == "play"
        await restart()
        # the game may go on once the restarted broker is back (before `restart` returns, on a
        # loaded machine): what shows the restart came mid-game is that its seats reconnected
        await table.finish()
        assert table.peers[0].lockstep.step > step
        moved = [t for seat, t in enumerate(table.transports) if table.url_of(seat) == urls[1]]
        assert moved and all(t.reconnects >= 1 for t in moved)
    finally:
        await table.close()
