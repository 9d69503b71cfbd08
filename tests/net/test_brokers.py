"""Networked Money! over real brokers on loopback: embedded amqtt always, mosquitto when installed.

Full games must end with the same state on every peer and the scores of a local replay of the
log; a killed peer must resume and finish; a broker restart must lose and double nothing.
"""

from __future__ import annotations

import asyncio
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from engine.core import final_state, state_hash
from engine.registry import get_game
from net.identity import Identity
from net.invite import make_invite
from net.launch import BrokerSettings, connect, presence_will
from net.session import host_game, join_game, new_gid

from .brokers import HAVE_MOSQUITTO, Mosquitto, running_broker

pytestmark = pytest.mark.net

BROKERS = ["amqtt", pytest.param("mosquitto", marks=pytest.mark.skipif(not HAVE_MOSQUITTO, reason="mosquitto not on PATH"))]
ROOT = Path(__file__).resolve().parents[2]
MONEY = get_game("money")


async def _money_table(url: str, n: int, delay: float = 0.0, ids: list[Identity] | None = None):
    gid = new_gid("money")
    ids = ids or [Identity.generate() for _ in range(n)]
    settings = BrokerSettings(broker=url)
    transports = [await connect(url, settings, presence_will(i, gid, f"B{s}", settings.prefix)) for s, i in enumerate(ids)]
    peers = [await host_game(MONEY, transports[0], ids[0], players=n, gid=gid, persist=False, bot="best", name="B0")]
    for s in range(1, n):
        peers.append(await join_game(transports[s], ids[s], gid, name=f"B{s}", persist=False, bot="best",
                                     bot_delay=delay))
    peers[0].bot_delay = delay
    return gid, transports, peers


async def _close(peers, transports) -> None:
    for p in peers:
        await p.stop(clean=False)
    for t in transports:
        await t.stop()


def _assert_same_game(peers) -> None:
    ls0 = peers[0].lockstep
    assert ls0.phase == "over", f"stopped at step {ls0.step} in phase {ls0.phase}"
    assert {p.lockstep.hash for p in peers} == {ls0.hash}, "peers ended in different states"
    assert {p.lockstep.chain for p in peers} == {ls0.chain}, "peers hold different logs"
    assert ls0.deal_verdict == "verified"  # Money! hides its cards: the end audit checked the deal
    assert all(p.lockstep.replays() for p in peers)  # the log, with the verified deal, replays
    replayed = final_state(MONEY, ls0.game_log)
    for p in peers:
        assert MONEY.result(p.lockstep.state).scores == MONEY.result(replayed).scores
        assert not p.lockstep.frozen


@pytest.mark.parametrize("broker", BROKERS)
@pytest.mark.parametrize("n", [2, 3, 4, 5])
async def test_networked_money_games_agree_on_every_peer(broker, n) -> None:
    async with running_broker(broker) as url:
        _, transports, peers = await _money_table(url, n)
        try:
            await asyncio.wait_for(asyncio.gather(*(p.done.wait() for p in peers)), 60)
            _assert_same_game(peers)
            assert all(not p.dropped for p in peers), [p.dropped for p in peers]
        finally:
            await _close(peers, transports)


def _bot_process(code: str, home: Path, key: Path) -> subprocess.Popen:
    env = {**os.environ, "GAMENIGHT_HOME": str(home)}
    return subprocess.Popen(
        [sys.executable, "-m", "tui.cli", "bot", code, "--key", str(key), "--delay", "0.04", "--name", "Proc"],
        cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )


async def _until(predicate, timeout: float, what: str = "condition", proc=None) -> None:
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while not predicate():
        if loop.time() > end:
            detail = ""
            if proc is not None and proc.poll() is not None:
                detail = f"; bot process exited {proc.returncode}: {proc.stderr.read()[-2000:]}"
            raise TimeoutError(f"{what} not reached in time{detail}")
        await asyncio.sleep(0.02)


@pytest.mark.parametrize("broker", BROKERS)
async def test_a_killed_peer_resumes_from_its_log_and_the_game_completes(broker, tmp_path) -> None:
    async with running_broker(broker) as url:
        gid = new_gid("money")
        ids = [Identity.generate() for _ in range(2)]
        settings = BrokerSettings(broker=url)
        transports = [await connect(url, settings, presence_will(i, gid, f"B{s}", settings.prefix)) for s, i in enumerate(ids)]
        host = await host_game(MONEY, transports[0], ids[0], players=3, gid=gid, persist=False, bot="best", name="B0",
                               invite=True)
        other = await join_game(transports[1], ids[1], gid, name="B1", persist=False, bot="best", pin=host.lockstep.pin)
        host.bot_delay = other.bot_delay = 0.04
        offline = []
        host.listeners.append(lambda note: note.kind == "presence" and offline.append(note.text))
        code = make_invite(url, gid, host.lockstep.pin)
        key = tmp_path / "proc.key"
        proc = _bot_process(code, tmp_path, key)
        try:
            await _until(lambda: host.lockstep.step >= 6, 30, "step 6", proc)
            proc.kill()
            proc.wait(5)
            await _until(lambda: any("Proc is offline" in t for t in offline), 10, "offline notice")
            await _until(lambda: 2 in host.lockstep.awaited(), 20, "a step that needs the lost seat")
            stalled_at = host.lockstep.step
            await asyncio.sleep(0.3)
            assert host.lockstep.step == stalled_at, "the table did not wait for the lost seat"
            proc = _bot_process(code, tmp_path, key)
            await _until(lambda: host.done.is_set() and other.done.is_set(), 60,
                         f"the end (host at step {host.lockstep.step}, awaiting {sorted(host.lockstep.awaited())})", proc)
            out, err = await asyncio.to_thread(proc.communicate, timeout=40)  # the loop keeps serving
            assert proc.returncode == 0, err
            _assert_same_game([host, other])
            match = re.search(r"state ([0-9a-f]{16})", out)
            assert match and match.group(1) == host.lockstep.hash.hex()[:16], out
            assert len(host.lockstep.game_log.steps) == host.lockstep.step
        finally:
            if proc.poll() is None:
                proc.kill()
            await _close([host, other], transports)


@pytest.mark.skipif(not HAVE_MOSQUITTO, reason="mosquitto not on PATH")
async def test_clients_reconnect_after_a_mosquitto_restart_and_nothing_is_lost_or_doubled() -> None:
    mosq = Mosquitto()
    await mosq.start()
    try:
        _, transports, peers = await _money_table(mosq.url, 3, delay=0.03)
        await _until(lambda: peers[0].lockstep.step >= 6, 30)
        await mosq.stop()
        at_restart = peers[0].lockstep.step
        await asyncio.sleep(0.5)
        await mosq.start()
        await asyncio.wait_for(asyncio.gather(*(p.done.wait() for p in peers)), 60)
        assert all(t.reconnects >= 1 for t in transports)
        assert peers[0].lockstep.step > at_restart
        _assert_same_game(peers)
        # every step applied exactly once: the log has one entry per step and replays
        assert len(peers[0].lockstep.game_log.steps) == peers[0].lockstep.step
        await _close(peers, transports)
    finally:
        await mosq.stop()


async def test_a_crashed_host_reopens_its_table_and_embedded_broker_and_the_game_completes(tmp_path) -> None:
    """The host process dies with its embedded broker; `gamenight join --headless` (no code)
    restarts both from the host's files, its local bot resumes too, and the remote peer
    reconnects and plays on."""
    from net.broker import free_port
    from net.invite import parse_invite

    port = free_port()
    env = {**os.environ, "GAMENIGHT_HOME": str(tmp_path / "host")}
    host_cmd = [sys.executable, "-m", "tui.cli", "host", "money", "--players", "3", "--bots", "1", "--headless",
                "--port", str(port), "--bot-delay", "0.04", "--name", "Hal"]
    proc = subprocess.Popen(host_cmd, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    line = proc.stdout.readline()
    assert line.startswith("invite code: "), proc.stderr.read()
    _, gid, pin, _ = parse_invite(line.split(": ", 1)[1])
    url = f"mqtt://127.0.0.1:{port}"
    identity = Identity.generate()
    transport = await connect(url, BrokerSettings(broker=url), presence_will(identity, gid, "Rem", "gamenight/v1"))
    peer = await join_game(transport, identity, gid, name="Rem", persist=False, bot="best", bot_delay=0.04, pin=pin)
    try:
        await _until(lambda: peer.lockstep.step >= 6, 30, "step 6", proc)
        proc.kill()
        proc.wait(5)
        await _until(lambda: not transport.connected.is_set(), 10, "the broker gone")
        proc = subprocess.Popen([sys.executable, "-m", "tui.cli", "join", "--headless"], cwd=ROOT, env=env,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        await _until(lambda: peer.done.is_set(), 60, "the end", proc)
        try:
            out, err = await asyncio.to_thread(proc.communicate, timeout=40)
        except subprocess.TimeoutExpired:
            proc.kill()
            out, err = proc.communicate()
            pytest.fail(f"the reopened host did not finish: {out[-1500:]} {err[-1500:]}")
        assert proc.returncode == 0, err
        assert peer.lockstep.phase == "over" and not peer.lockstep.frozen
        match = re.search(r"state ([0-9a-f]{16})", out)
        assert match and match.group(1) == peer.lockstep.hash.hex()[:16], out
        replayed = final_state(MONEY, peer.lockstep.game_log)
        assert state_hash(replayed) == peer.lockstep.hash.hex()
    finally:
        if proc.poll() is None:
            proc.kill()
        await _close([peer], [transport])
