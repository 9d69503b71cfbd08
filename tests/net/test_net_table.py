"""NetTable: the Table interface over a lockstep peer (what a game screen sees)."""

from __future__ import annotations

import pytest

from engine.core import IllegalAction
from tui.net_table import NetTable

from .fakegame import Bid
from .helpers import memory_table, settle


async def test_net_table_shows_one_seat_and_who_is_awaited() -> None:
    _, _, peers = await memory_table(3)
    tables = [NetTable(p, invite=f"mqtt://127.0.0.1:1883/{p.lockstep.gid}") for p in peers]
    events = []
    tables[0].subscribe(events.append)
    t0 = tables[0]
    assert t0.names == ["P0", "P1", "P2"] and t0.local_seats == (0,)
    assert t0.awaiting() == {0, 1, 2}
    assert t0.legal_actions(0) and t0.legal_actions(1) == ()
    assert t0.view(1) == t0.view(None)  # another seat's view is never shown here
    with pytest.raises(IllegalAction, match="this terminal plays seat 0"):
        await t0.submit(1, Bid(1))
    await t0.submit(0, Bid(2))
    await settle()
    assert t0.awaiting() == {1, 2}, "our own pending reveal is not something to wait for"
    waits = [e for e in events if e.kind == "waiting"]
    assert waits and waits[-1].text == "waiting for P1, P2" and waits[-1].data["seats"] == [1, 2]
    who, seconds = t0.waiting_for()
    assert who == ["P1", "P2"] and seconds >= 0
    await tables[1].submit(1, Bid(1))
    await tables[2].submit(2, Bid(3))
    await settle()
    step = [e.log for e in events if e.kind == "changed" and e.data.get("step") == 1]
    assert step == [("P0: bid 2", "P1: bid 1", "P2: bid 3")], "one event a step, a line per event"
    await tables[2].chat("well played")
    await settle()
    assert t0.chat_lines == ["P2: well played"]
    assert "P2: well played" in t0.log_lines
    assert t0.log_lines[0].startswith("Invite code: mqtt://")


async def test_every_peer_logs_the_same_named_story_of_a_sealed_sheriff_game() -> None:
    from engine.registry import get_game
    from engine.sheriff.cards import NAME

    from .helpers import finish

    _, _, peers = await memory_table(3, game=get_game("sheriff"))
    tables = [NetTable(p) for p in peers]
    await finish(peers, bot="random", timeout=60)
    await settle()
    logs = [[line for line in t.log_lines if not line.startswith("the game")] for t in tables]
    assert logs[0] == logs[1] == logs[2], "events come from public steps: the same on every peer"
    text = "\n".join(logs[0])
    assert "P1 loads" in text and "seat " not in text
    assert not any(good in text for good in NAME if "_" in good), "good names, never ids"
    assert any(name in text for name in NAME.values())
    for line in logs[0]:
        assert not ("loads" in line and any(name in line for name in NAME.values())), line


async def test_a_resumed_network_table_shows_the_log_as_it_was(tmp_path, monkeypatch) -> None:
    from net.identity import Identity
    from net.session import join_game
    from net.transport import MemoryBroker, MemoryTransport

    from .fakegame import GAME
    from .helpers import finish, ready, table_of, until

    monkeypatch.setenv("GAMENIGHT_HOME", str(tmp_path))
    broker = MemoryBroker()
    transports = [MemoryTransport(broker) for _ in range(3)]
    ids = [Identity.generate() for _ in range(3)]
    for t in transports:
        await t.start()
    peers = await table_of(3, transports, options={"rounds": 4}, persist=True, identities=ids)
    await until(lambda: all(map(ready, peers)))
    before = NetTable(peers[2])
    for seat, p in enumerate(peers):
        p.decide(Bid(1 + seat))
    await until(lambda: all(p.lockstep.step == 1 for p in peers))
    await settle()
    transports[2].kill()
    await peers[2].stop(clean=False)
    again = MemoryTransport(broker)
    await again.start()
    resumed = await join_game(again, ids[2], peers[0].lockstep.gid, name="P2", game=GAME, persist=True)
    table = NetTable(resumed)
    assert table.log_lines[-len(before.log_lines):] == before.log_lines
    assert table.log_lines[-3:] == ["P0: bid 1", "P1: bid 2", "P2: bid 3"]
    await finish(peers[:2] + [resumed])
