"""The replay viewer and the JSON-lines export: saves, network logs and relay archives."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from engine.core import final_state, from_plain, replay_hashes, state_hash, to_plain
from engine.registry import get_game
from net.codec import decode_envelope
from net.identity import Identity
from net.store import read_log
from net.transport import MemoryBroker, MemoryTransport
from tests.net.helpers import finish, table_of
from tui.app import GamenightApp, ReplayApp
from tui.cli import main
from tui.local_table import LocalTable
from tui.replay import CannotReplay, ReplayTable, load_replay
from tui.savefile import Seating, save_bytes, saves_dir
from tui.screens.dialogs import ErrorDialog
from tui.screens.end import EndScreen
from tui.screens.replay import ReplayFrame
from tui.widgets import GameLogPanel

from .helpers import screen_text, settle

ROOT = Path(__file__).resolve().parents[2]
GAMES = [("money", 4), ("ten", 3), ("sheriff", 4), ("seven_wonders", 3)]


async def _finished_save(game_id: str, n: int, seed: int = 11) -> LocalTable:
    """A bot game played to its end; its save is on disk."""
    table = LocalTable.new(game_id, n, humans=0, seed=seed, bot_delay=0)
    await table.start()
    await table.close()
    assert table.is_over()
    return table


def _line(app, prefix: str) -> str:
    return next(line for line in screen_text(app).splitlines() if line.strip().startswith(prefix))


@pytest.mark.parametrize(("game_id", "n"), GAMES)
async def test_the_viewer_steps_through_a_finished_game_and_ends_at_its_scores(config, game_id, n):
    table = await _finished_save(game_id, n)
    recorded = load_replay(table.save_path)
    steps = len(table.game_log.steps)
    assert recorded.steps == steps
    app = ReplayApp(recorded, config)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        viewer = app.screen
        assert isinstance(viewer, ReplayFrame)
        assert f"Replay · step 0/{steps}" in _line(app, "Replay ·")
        await pilot.press("right", "right", "right")
        await settle(pilot)
        assert f"step 3/{steps}" in _line(app, "Replay ·")
        before = screen_text(app)
        await pilot.press("right")
        await settle(pilot)
        assert screen_text(app) != before, "a step forward changed nothing on screen"
        await pilot.press("left")
        await settle(pilot)
        assert screen_text(app) == before, "forward then back does not give the same screen"
        await pilot.press("end")
        await settle(pilot)
        end = app.screen
        assert isinstance(end, EndScreen), "the end of the replay does not show the final scores"
        assert end.result == table.result()
        text = screen_text(app)
        for name, score in zip(table.names, table.result().scores, strict=True):
            assert name in text and str(score) in text
        await pilot.press("b")  # back to the board, at the last step
        await settle(pilot)
        assert app.screen is viewer
        assert f"step {steps}/{steps}" in _line(app, "Replay ·") and "the game is over" in screen_text(app)
        await pilot.press("home")
        await settle(pilot)
        assert f"step 0/{steps}" in _line(app, "Replay ·")


def _panel_words(app) -> list[str]:
    panel = app.screen.query_one("#game-log", GameLogPanel)
    return " ".join(strip.text for strip in panel.lines).split()


def _words(lines: list[str]) -> list[str]:
    return " ".join(lines).split()


async def test_the_log_panel_and_the_board_follow_the_cursor(config):
    table = await _finished_save("ten", 2, seed=3)
    recorded = load_replay(table.save_path)
    app = ReplayApp(recorded, config)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press(*["right"] * 6)
        await settle(pilot)
        replay_table = app.screen.table
        assert replay_table.cursor == 6
        assert state_hash(replay_table.state) == replay_hashes(recorded.game, recorded.game_log)[6]
        assert _panel_words(app) == _words(recorded.lines_until(6))
        await pilot.press("left", "left")
        await settle(pilot)
        assert state_hash(replay_table.state) == replay_hashes(recorded.game, recorded.game_log)[4]
        assert _panel_words(app) == _words(recorded.lines_until(4)), "the log still shows undone steps"


async def test_jump_asks_for_a_round_where_the_game_has_rounds_else_a_step(config):
    money = load_replay((await _finished_save("money", 4, seed=5)).save_path)
    app = ReplayApp(money, config)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("g", "9", "9", "enter")  # out of range: the prompt stays and says so
        await settle(pilot)
        assert "A number from 1 to" in screen_text(app)
        await pilot.press("backspace", "backspace", "3", "enter")
        await settle(pilot)
        cursor = app.screen.table.cursor
        assert money.round_at(cursor) == 3 and money.round_at(cursor - 1) == 2
        assert "round 3" in _line(app, "Replay ·")
    ten = load_replay((await _finished_save("ten", 2, seed=5)).save_path)
    assert ten.round_label() is None
    app = ReplayApp(ten, config)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert "Step…" in screen_text(app)
        await pilot.press("g", "1", "7", "enter")
        await settle(pilot)
        assert app.screen.table.cursor == 17


async def test_a_human_seat_of_a_save_can_be_watched_with_its_own_view(config):
    table = await _finished_save("money", 3, seed=8)
    # The same game as if its seat 1 had been played by the human at this terminal.
    path = saves_dir() / "money-human.save"
    path.write_bytes(save_bytes(table.game_log, Seating(tuple(table.names), (1,)), table.game.rules_version))
    recorded = load_replay(path)
    assert recorded.own_seats == (1,)
    app = ReplayApp(recorded, config)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert "w View" in screen_text(app)
        assert "watching" in screen_text(app) and "public view" in _line(app, "Replay ·")
        await pilot.press("right", "w")
        await settle(pilot)
        assert app.screen.table.viewed_seat == 1
        assert "Bot 2's view" in _line(app, "Replay ·")
        assert "you are watching" not in screen_text(app)
        await pilot.press("w")
        await settle(pilot)
        assert app.screen.table.viewed_seat is None and "you are watching" in screen_text(app)
    bots_only = load_replay(table.save_path)
    assert bots_only.own_seats == ()
    app = ReplayApp(bots_only, config)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert "w View" not in screen_text(app)
        await pilot.press("w")
        await settle(pilot)
        assert app.screen.table.viewed_seat is None


async def test_a_replay_takes_no_action(config):
    table = await _finished_save("ten", 2, seed=4)
    replay_table = ReplayTable(load_replay(table.save_path))
    seat = sorted(replay_table.active())[0]
    action = list(replay_table.legal_actions(seat))[0]
    with pytest.raises(Exception, match="replay"):
        await replay_table.submit(seat, action)
    app = ReplayApp(replay_table.replay, config)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        before = app.screen.table.cursor
        await pilot.press("d", "enter", "space", "p")  # Ten's play keys do nothing here
        await settle(pilot)
        assert app.screen.table.cursor == before and isinstance(app.screen, ReplayFrame)
        assert "⚠" not in screen_text(app), "a play key reached the game and was refused"
        assert "Draw" not in screen_text(app).splitlines()[-1]


# ---- export ---------------------------------------------------------------------------------
@pytest.mark.parametrize(("game_id", "n"), [("money", 3), ("sheriff", 3)])
async def test_export_round_trips_every_action_and_hash(tmp_path, game_id, n):
    table = await _finished_save(game_id, n, seed=21)
    out = tmp_path / "game.jsonl"
    assert main(["replay", str(table.save_path), "--export", str(out)]) == 0
    lines = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    head, steps = lines[0], lines[1:]
    game_log = table.game_log
    assert head["game"] == game_id and head["players"] == n and head["names"] == table.names
    assert head["seed"] == game_log.seed.hex() and head["over"] is True
    assert head["scores"] == list(table.result().scores)
    assert head["options"] == {k: v for k, v in game_log.options}
    hashes = replay_hashes(table.game, game_log)
    assert head["start_hash"] == hashes[0]
    assert len(steps) == len(game_log.steps)
    for k, (line, logged) in enumerate(zip(steps, game_log.steps, strict=True)):
        assert line["step"] == k
        assert [(a["seat"], from_plain(a["action"])) for a in line["actions"]] == list(logged)
        assert all(a["text"] for a in line["actions"])
        assert line["hash"] == hashes[k + 1]


async def test_export_to_stdout_is_read_by_jq(capsys):
    table = await _finished_save("seven_wonders", 3, seed=2)
    assert main(["replay", str(table.save_path), "--export", "-"]) == 0
    text = capsys.readouterr().out
    assert len(text.splitlines()) == len(table.game_log.steps) + 1
    if shutil.which("jq") is None:
        pytest.skip("jq is not installed")
    steps = subprocess.run(["jq", "-c", "select(.step != null) | .step"], input=text, capture_output=True,
                           text=True, check=True).stdout.split()
    assert steps == [str(k) for k in range(len(table.game_log.steps))]


# ---- network logs ---------------------------------------------------------------------------
async def _network_game(game_id: str, n: int) -> list:
    """A bot game over an in-memory broker, each peer keeping its files (persist=True)."""
    broker = MemoryBroker()
    transports = [MemoryTransport(broker) for _ in range(n)]
    for transport in transports:
        await transport.start()
    peers = await table_of(n, transports, game=get_game(game_id), persist=True,
                           identities=[Identity.generate() for _ in range(n)])
    await finish(peers, bot="best", timeout=120)
    for peer in peers:
        await peer.stop(clean=False)  # closes its log file
    for transport in transports:
        await transport.stop()
    peers[0].store.sync()  # the writer thread is done: the files can be copied as they are
    return peers


async def test_a_network_log_replays_verified_with_the_seat_this_machine_held(config):
    peers = await _network_game("seven_wonders", 3)
    ls = peers[1].lockstep
    folder = peers[1].store.path
    recorded = load_replay(folder)
    assert recorded.source == "network" and recorded.steps == ls.step
    # the deal was verified: the replay shows every card (the plain engine on the completed
    # log), and the table saw the same public game
    assert ls.deal_verdict == "verified" and recorded.is_over()
    assert _public(recorded.states[-1]) == _public(ls.state)
    assert recorded.names == ("P0", "P1", "P2")
    assert recorded.own_seats == (1,), "the seat bound to the key that wrote this log"
    assert load_replay(ls.gid).steps == ls.step  # a game id finds its files
    app = ReplayApp(recorded, config)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("w")
        await settle(pilot)
        assert "P1's view" in _line(app, "Replay ·")
        await pilot.press("end")
        await settle(pilot)
        assert isinstance(app.screen, EndScreen) and app.screen.result == ls.game.result(ls.state)
        assert "Deal: verified" in screen_text(app)  # the end audit's verdict, as at the table


async def test_a_tampered_network_log_replays_only_what_checks_out(tmp_path):
    peers = await _network_game("seven_wonders", 3)
    ls = peers[0].lockstep
    log_file = peers[0].store.path / "log.bin"
    raws = read_log(log_file)
    # One bit of the first message of step 5 (a signed commit) changes: its signature fails.
    k = next(i for i, raw in enumerate(raws) if decode_envelope(raw).step == 5
             and decode_envelope(raw).kind in ("act", "commit", "reveal"))
    raws[k] = raws[k][:-1] + bytes([raws[k][-1] ^ 1])
    forged = tmp_path / "log.bin"
    forged.write_bytes(b"".join(len(raw).to_bytes(4, "big") + raw for raw in raws))
    recorded = load_replay(forged)
    honest = load_replay(log_file)
    assert honest.steps == ls.step
    assert recorded.steps == 5 and not recorded.is_over(), "a step was applied from a forged message"
    # the forged log ends unaudited (public states, cards face down); the table saw the same
    assert [_public(s) for s in recorded.states] == [_public(s) for s in honest.states[: recorded.steps + 1]]


def _public(state) -> object:
    """What the whole table sees of a 7 Wonders state (the same with or without its faces)."""
    game = get_game("seven_wonders")
    return to_plain(game.view(state, None))


async def test_a_relay_archive_replays(gamenight_home):
    peers = await _network_game("ten", 2)
    ls = peers[0].lockstep
    archive = gamenight_home / "data" / "archive" / ls.gid
    archive.mkdir(parents=True)
    shutil.copy(peers[0].store.path / "log.bin", archive / "log.bin")
    (archive / "meta.json").write_text(json.dumps({"gid": ls.gid, "game": "ten", "role": "archive"}))
    recorded = load_replay(archive / "log.bin")
    assert recorded.source == "archive" and recorded.own_seats == ()
    assert state_hash(recorded.states[-1]) == ls.hash.hex()
    # This machine's key held seat 1: its own view is offered.
    key_file = gamenight_home / "data" / "identity.key"
    key_file.write_bytes(bytes(peers[1].lockstep.me.signing_key))
    assert load_replay(archive).own_seats == (1,)
    key_file.write_bytes(b"not a key")  # a damaged key file is neither used nor replaced
    assert load_replay(archive).own_seats == ()
    assert key_file.read_bytes() == b"not a key"


REPLAY_IN_A_NEW_PROCESS = """
import sys
from tui.app import GamenightApp
from tui.cli import main
raise SystemExit(main(["replay", sys.argv[1], "--export", "-"]))
"""


async def test_a_network_game_is_read_by_a_new_process_with_another_hash_seed(gamenight_home):
    """Issue 10.1: the files a persisted peer wrote reopen in a new process (string hashing
    randomised differently) and replay to the same final state."""
    peers = await _network_game("sheriff", 3)
    ls = peers[2].lockstep
    # Sheriff is dealt by the deck protocol: the peers agree on the public state (cards never
    # shown are tokens); the log, with the deal the end audit verified, replays in full
    assert ls.dealt and ls.deal_verdict == "verified" and ls.replays()
    full = state_hash(final_state(ls.game, ls.game_log))
    for hash_seed in ("1", "2"):
        if os.environ.get("PYTHONHASHSEED") == hash_seed:
            continue
        env = {**os.environ, "GAMENIGHT_HOME": str(gamenight_home), "PYTHONHASHSEED": hash_seed}
        out = subprocess.run([sys.executable, "-c", REPLAY_IN_A_NEW_PROCESS, str(peers[2].store.path)],
                             capture_output=True, text=True, env=env, cwd=ROOT, timeout=120, check=False)
        assert out.returncode == 0, out.stderr[-2000:]
        lines = [json.loads(line) for line in out.stdout.splitlines()]
        assert lines[0]["over"] is True and lines[0]["names"] == ["P0", "P1", "P2"]
        assert len(lines) - 1 == ls.step
        assert lines[-1]["hash"] == full


# ---- bad files ------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("content", "says"),
    [
        (None, "no such file"),
        (b"", "is empty"),
        (b"\x93not a save at all", "is not a gamenight save"),
        (b"\x00\x00\x00\x05hello", "holds no started game"),
        (b"\x00\x00", "holds no game messages"),
    ],
)
def test_a_bad_file_is_one_line_and_exit_2(tmp_path, capsys, content, says):
    path = tmp_path / "game.bin"
    if content is not None:
        path.write_bytes(content)
    assert main(["replay", str(path)]) == 2
    err = capsys.readouterr().err
    assert says in err and err.count("\n") == 1 and err.startswith("gamenight: ")
    with pytest.raises(CannotReplay, match=says):
        load_replay(path)


async def test_the_menu_lists_games_to_replay_and_explains_a_bad_one(config):
    table = await _finished_save("ten", 2, seed=6)
    bad = saves_dir() / "money-20000101-000000-dead.save"
    bad.write_bytes(b"\x93garbage")
    os.utime(bad, (1, 1))  # the oldest: listed last
    app = GamenightApp(config=config)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("p")
        await settle(pilot)
        text = screen_text(app)
        assert "Ten · local save" in text and "Money! · local save" in text
        assert text.index("Ten · local save") < text.index("Money! · local save"), "newest first"
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, ReplayFrame) and app.screen.table.game.id == "ten"
        await pilot.press("escape", "down", "enter")
        await settle(pilot)
        assert isinstance(app.screen, ErrorDialog)
        assert "is not a gamenight save" in screen_text(app)
    assert table.save_path.exists()


async def test_an_unfinished_game_replays_to_where_its_record_ends(config):
    table = LocalTable.new("sheriff", 3, humans=1, seed=9, bot_delay=0)
    await table.start()  # the bots play until the human must act
    await table.close()
    steps = len(table.game_log.steps)
    recorded = load_replay(table.save_path)
    assert recorded.steps == steps and not recorded.is_over()
    app = ReplayApp(recorded, config)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("end")
        await settle(pilot)
        assert isinstance(app.screen, ReplayFrame), "an unfinished game has no final scores"
        assert "the record ends here, unfinished" in screen_text(app)
