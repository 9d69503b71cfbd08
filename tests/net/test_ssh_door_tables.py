"""Two players at one table through the SSH door, by the real OpenSSH client in tmux (80x24).

A visitor hosts Money! for two "open to this server" and another picks it from Tables on this
server; a visitor hosts "invite only" and a player outside the door (a plain `gamenight join
CODE` on this machine, its own data folder) joins with the code, through a relay whose broker
asks for a login and TLS. Both players of each table see the deal verified at the end.
"""

from __future__ import annotations

import re

import pytest

from net.invite import parse_invite

from .sshdoor import (
    NEEDS_SSH,
    Visitor,
    host_money_for_two,
    invite_code,
    outside_player,
    play_together,
    relay_process,
    settled,
    wait_gone,
    write_config,
)

pytestmark = NEEDS_SSH


@pytest.fixture
def relay(tmp_path):
    with relay_process(tmp_path) as served:
        yield served
        assert wait_gone(served.children()) == []


def _same_end(ends: list[str]) -> None:
    for end in ends:
        assert "Money!: game over" in end and "Deal: verified" in end, end
    winners = [re.search(r"(\S+\s+wins|Shared\s+win:.+?)\s+with\s+[\d,]+\s+points?", end, re.S) for end in ends]  # a tie too
    assert all(winners) and len({w.group(0) for w in winners if w}) == 1, ends


def test_a_table_open_to_this_server_is_picked_from_the_list_and_both_see_the_deal_verified(relay):
    with Visitor(relay, "ann") as ann, Visitor(relay, "bob") as bob:
        host_money_for_two(ann, listed=True)
        bob.wait("Tables on this server")
        bob.keys("t")
        listed = bob.wait("host Ann")
        row = next(line for line in listed.splitlines() if "host Ann" in line)
        assert re.search(r"▶ Money!\s+1 of 2 free\s+host Ann", row), listed
        bob.keys("Enter")
        for player, me in ((ann, "Ann"), (bob, "Bob")):
            assert f"you: {me}" in player.wait("Your hand")
        _same_end(play_together([ann, bob]))
        assert relay.listed() == []  # the table left the list with its end
        bob.keys("m", "t")
        assert "No table here yet" in bob.wait("No table here yet")
    for key in ("ann", "bob"):
        assert "Traceback" not in relay.visitor_log(key)


def test_an_invite_code_made_inside_the_door_lets_a_player_from_outside_join(tmp_path):
    """The code names the relay's broker (its address as any client reaches it) and carries its
    certificate's pin; the visitor's app logs in and pins the certificate as the relay does, and
    the player outside needs only the login besides the code (no fingerprint to set by hand)."""
    login = {"GAMENIGHT_BROKER_USERNAME": "friends", "GAMENIGHT_BROKER_PASSWORD": "swordfish"}
    with relay_process(tmp_path / "relay", "--tls", env=login) as relay:
        start = relay.start_line()
        broker = re.search(r"relay on (mqtts://\S+) ", start)
        pin = re.search(r"certificate sha256 ([0-9a-f]{64})", start)
        assert broker and pin, start
        with Visitor(relay, "ann") as ann:
            code = invite_code(host_money_for_two(ann, listed=False))
            assert code.startswith(f"{broker.group(1)}/money-"), code
            assert parse_invite(code).cert == pin.group(1)
            assert relay.listed() == []  # invite only: not in the door's list
            home = write_config(tmp_path / "cy", "Cy")
            with outside_player(home, "join", code, env=login) as cy:
                for player, me in ((ann, "Ann"), (cy, "Cy")):
                    assert f"you: {me}" in player.wait("Your hand")
                _same_end(play_together([ann, cy]))
                assert "Cy" in settled(ann, 0.3)
        assert wait_gone(relay.children()) == []
        assert "Traceback" not in relay.visitor_log("ann")
