"""Public log events: they name the cards the table saw, and never a card hidden from a seat."""

from __future__ import annotations

from collections import Counter

import pytest

from engine.core import DESCRIBED, Event, Stream, canonical, decode, pick_uniform
from engine.registry import game_ids, get_game
from engine.sheriff.events import SPOKEN
from engine.sheriff.state import Load

PLAYERS = {"money": (2, 4), "sheriff": (3, 5), "ten": (1, 3), "seven_wonders": (3, 7)}
MAX_STEPS = 400


def _steps(game_id: str, n_players: int, seed: int, max_steps: int = MAX_STEPS):
    """(before, actions, after) of one random game, step by step."""
    game = get_game(game_id)
    state = game.setup(n_players, seed.to_bytes(16, "big"))
    rng = Stream(b"events" + seed.to_bytes(8, "big"))
    for _ in range(max_steps):
        if game.is_over(state):
            return
        actions = {s: pick_uniform(game.legal_actions(state, s), rng) for s in sorted(game.active(state))}
        after = game.apply(state, actions)
        yield state, actions, after
        state = after


def _visible(game, state, seat) -> Counter:
    """How many copies of each card id `seat` can see now (ids numbered 'id#k' count by id)."""
    hidden = game.secret_from(state, seat)
    return Counter(label.split("#")[0] for cards in game.zones(state).values() for label in cards
                   if label not in hidden and label.split("#")[0] not in hidden)


@pytest.mark.parametrize("game_id", sorted(PLAYERS))
def test_no_event_names_a_card_hidden_from_some_seat(game_id):
    game = get_game(game_id)
    for n_players in PLAYERS[game_id]:
        for seed in range(2):
            for _before, actions, after in _steps(game_id, n_players, seed):
                events = game.events(_before, actions, after)
                assert all(type(e) is Event and e.kind != DESCRIBED for e in events)
                shown = [Counter(e.cards + e.other) for e in events if e.kind not in SPOKEN]
                if not any(shown):
                    continue
                for seat in range(n_players):
                    seen = _visible(game, after, seat)
                    for named in shown:
                        hidden = {card: n for card, n in named.items() if n > seen[card]}
                        assert not hidden, f"{game_id}: seat {seat} cannot see {hidden} named in {events}"


@pytest.mark.parametrize("game_id", sorted(game_ids()))
def test_events_are_plain_data_and_every_step_has_its_story(game_id):
    game = get_game(game_id)
    n_players = PLAYERS.get(game_id, (game.min_players,))[0]
    for before, actions, after in _steps(game_id, n_players, 7, 60):
        events = game.events(before, actions, after)
        assert decode(canonical(events)) == events
        acted = {e.seat for e in events}
        assert set(actions) <= acted, f"a seat acted and the log says nothing: {actions}"


def test_money_swap_names_the_cards_it_took():
    seen = set()
    for before, actions, after in _steps("money", 3, 1):
        for e in get_game("money").events(before, actions, after):
            if e.kind == "swap_market":
                side = e.amounts[0]
                assert e.cards == before.market[side]
                assert e.other == before.pending[0].cards
                seen.add(e.kind)
            elif e.kind == "swap_bid":
                target = next(b for b in before.pending if b.owner == e.target and b.slot == e.amounts[1])
                assert e.cards == target.cards
                seen.add(e.kind)
    assert seen == {"swap_market", "swap_bid"}


def test_money_bids_are_named_only_when_revealed():
    game = get_game("money")
    for before, actions, after in _steps("money", 4, 2, 60):
        bids = [e for e in game.events(before, actions, after) if e.kind == "bid"]
        if before.phase == "bid":
            assert {e.seat for e in bids} | {e.seat for e in game.events(before, actions, after)
                                             if e.kind == "bluff_only"} == set(actions)
            for e in bids:
                assert set(e.cards) <= set(actions[e.seat].left + actions[e.seat].right)
        else:
            assert not bids


def test_ten_draw_names_the_card_drawn():
    game = get_game("ten")
    draws = 0
    for before, actions, after in _steps("ten", 3, 3, 100):
        for e in game.events(before, actions, after):
            if e.kind == "draw":
                assert e.cards == (before.deck[0],)
                draws += 1
    assert draws > 5


def test_sheriff_never_names_a_loaded_bag_before_an_inspection():
    game = get_game("sheriff")
    opened = 0
    for before, actions, after in _steps("sheriff", 4, 4):
        events = game.events(before, actions, after)
        for e in events:
            if e.kind in ("load", "set_aside", "draw_deck"):
                assert e.cards == () and e.other == ()
            if e.kind == "bag_opened":
                opened += 1
                assert Counter(e.cards) == Counter(
                    c for c, n in zip(_goods(), before.bags[e.seat], strict=True) for _ in range(n))
        if any(type(a) is Load for a in actions.values()):
            assert all(not e.cards for e in events)
    assert opened


def _goods():
    from engine.sheriff.cards import GOODS

    return GOODS
