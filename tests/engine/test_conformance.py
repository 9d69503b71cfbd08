"""Generic tests over every registered game: later games are covered with no new test code.

Random legal play from random seeds, checking after every step: the input state is not
mutated, state and actions round-trip through msgpack, no card is lost, duplicated or in two
places, no view shows a card its seat may not see, and at the end the score equals the sum of
its breakdown and the log replays to the same hash at every step. Then, step by step: the
fast lane of `Game.apply` answers exactly as the plain guards over `_validate` and `_apply`,
every illegal action raises the documented error, and a seat's view does not change when two
cards it may not see trade places.
"""

from __future__ import annotations

import dataclasses
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.bots import make_bot
from engine.core import (
    Game,
    GameError,
    GameOver,
    IllegalAction,
    NotYourTurn,
    Stream,
    canonical,
    decode,
    new_log,
    replay_hashes,
    state_hash,
    to_plain,
)
from engine.core.game import GUARDED
from engine.registry import game_ids, get_game

from .strings import strings_in

MAX_STEPS = 3000


def _check_zones(game, state, expected: Counter | None) -> Counter:
    zones = game.zones(state)
    cards = Counter(card for cards in zones.values() for card in cards)
    duplicated = [card for card, n in cards.items() if n > 1]
    assert not duplicated, f"cards in two places: {duplicated[:5]}"
    if expected is not None:
        assert cards == expected, f"cards changed: lost {expected - cards}, new {cards - expected}"
    return cards


def _check_views(game, state) -> None:
    for seat in [None, *range(game.n_players(state))]:
        view = game.view(state, seat)
        secret = game.secret_from(state, seat)
        leaked = secret & strings_in(to_plain(view))
        assert not leaked, f"seat {seat} sees hidden cards {sorted(leaked)[:5]}"


@pytest.mark.parametrize("game_id", game_ids())
@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_random_play_keeps_every_invariant(game_id: str, data) -> None:
    game = get_game(game_id)
    n_players = data.draw(st.integers(game.min_players, game.max_players), label="players")
    seed = data.draw(st.binary(min_size=1, max_size=16), label="seed")
    options = game.check_options({})
    low, high = game.player_range(options)
    n_players = min(max(n_players, low), high)
    state = game.setup(n_players, seed, options)
    log = new_log(game, n_players, seed, options)
    hashes = [state_hash(state)]
    cards = _check_zones(game, state, None)
    rng = Stream(seed)
    bots = [make_bot(game, s, "random", rng.fork(str(s))) for s in range(n_players)]
    steps = 0
    while not game.is_over(state) and steps < MAX_STEPS and not game.stalemate(state):
        _check_views(game, state)
        chosen = {}
        for seat in sorted(game.active(state)):
            action = bots[seat].choose(game.view(state, seat), game.legal_actions(state, seat))
            game.validate(state, seat, action)
            assert decode(canonical(action)) == action
            chosen[seat] = action
        assert chosen, "a game that is not over must have someone to act"
        before = canonical(state)
        new_state = game.apply(state, chosen)
        assert canonical(state) == before, "apply mutated its input"
        state = new_state
        assert decode(canonical(state)) == state
        cards = _check_zones(game, state, cards)
        log = log.append(chosen)
        hashes.append(state_hash(state))
        steps += 1
    if game.is_over(state):
        result = game.result(state)
        for seat, rows in enumerate(result.breakdown):
            assert result.scores[seat] == sum(points for _, points in rows)
        assert min(result.places) == 1 and result.winners
    assert replay_hashes(game, log) == hashes


# ---- one contract, its fast lane and its errors ----------------------------------------------
def _reference_apply(game: Game, state, actions):
    """Game.apply as the plain guards: every action through `_validate`, the step through
    `_apply` (what the fast lane must equal, error for error)."""
    if game.is_over(state):
        raise GameOver("the game is over")
    active = game._active(state)
    extra = sorted(set(actions) - active)
    if extra:
        raise NotYourTurn(f"seat {extra[0]} is not to act now")
    missing = sorted(active - set(actions))
    if missing:
        raise IllegalAction(f"waiting for seat {missing[0]}: a step needs every active seat")
    for seat in sorted(actions):
        game._validate(state, seat, actions[seat])
    return game._apply(state, actions)


def _reference_validate(game: Game, state, seat, action) -> None:
    if game.is_over(state):
        raise GameOver("the game is over")
    if seat not in game._active(state):
        raise NotYourTurn(f"it is not seat {seat}'s turn")
    game._check_shape(seat, action)  # then only a well-formed action of the game's types
    game._validate(state, seat, action)


def _outcome(call, *args):
    """What a call did: its resulting state's hash, or its documented error and message (any
    other exception is a defect and fails the test)."""
    try:
        result = call(*args)
    except GameError as exc:
        return type(exc).__name__, str(exc)
    return "ok", None if result is None else state_hash(result)


_BOGUS = (None, -1, 10**9, True, "?", "", (), ("?",), (None,), ((0, 0),))


def _candidates(action, pool: list, rng: Stream) -> list:
    """Actions to try besides the chosen one: earlier actions, broken copies, foreign values."""
    out = [pool[rng.below(len(pool))] for _ in range(min(3, len(pool)))]
    if dataclasses.is_dataclass(action):
        fields = [f.name for f in dataclasses.fields(action)]
        for _ in range(min(2, len(fields))):
            name = fields[rng.below(len(fields))]
            bogus = _BOGUS[rng.below(len(_BOGUS))]
            out.append(dataclasses.replace(action, **{name: bogus}))
    out.append(("not", "an", "action"))
    return out


def _play_checked(game: Game, n_players: int, seed: bytes, on_step) -> None:
    state = game.setup(n_players, seed, game.check_options({}))
    rng = Stream(seed + b"/checks")
    bots = [make_bot(game, s, "random", rng.fork(str(s))) for s in range(n_players)]
    steps = 0
    while not game.is_over(state) and steps < MAX_STEPS and not game.stalemate(state):
        chosen = {}
        for seat in sorted(game.active(state)):
            chosen[seat] = bots[seat].choose(None, game.legal_actions(state, seat))
        on_step(state, chosen, rng)
        state = game.apply(state, chosen)
        steps += 1
    on_step(state, {}, rng)


def _tables(game_id: str, seeds: int = 2) -> list[tuple[str, int, bytes]]:
    """Every player count of the game, `seeds` seeded games each."""
    game = get_game(game_id)
    low, high = game.player_range(game.check_options({}))
    return [(game_id, n, f"conformance-{n}-{k}".encode()) for n in range(low, high + 1)
            for k in range(seeds)]


def test_no_game_redefines_a_guarded_method_of_game() -> None:
    for game_id in game_ids():
        game = get_game(game_id)
        for name in GUARDED:
            assert getattr(type(game), name) is getattr(Game, name), f"{game_id} redefines {name}"
    with pytest.raises(TypeError, match="redefines apply"):
        type("Sloppy", (Game,), {"apply": lambda self, state, actions: state})


@pytest.mark.parametrize(("game_id", "n_players", "seed"),
                         [t for g in game_ids() for t in _tables(g)])
def test_the_fast_lane_equals_the_plain_guards_and_illegal_actions_raise_game_errors(
        game_id: str, n_players: int, seed: bytes) -> None:
    game = get_game(game_id)
    pool: list = []

    def check(state, chosen, rng) -> None:
        active = game.active(state)
        assert active == (frozenset() if game.is_over(state) else game._active(state))
        assert game.is_over(state) == (not active), "a game not over has someone to act"
        if not chosen:  # the game is over: every entry says so
            last = pool[-1] if pool else None
            for seat in range(n_players):
                assert game.legal_actions(state, seat) == ()
                with pytest.raises(GameOver):
                    game.validate(state, seat, last)
                with pytest.raises(GameOver):
                    game.apply(state, {seat: last})
            return
        assert _outcome(game.apply, state, chosen) == _outcome(_reference_apply, game, state, chosen)
        for seat, action in chosen.items():
            for other in _candidates(action, pool, rng):
                tried = {**chosen, seat: other}
                assert _outcome(game.apply, state, tried) == _outcome(_reference_apply, game, state, tried)
                assert (_outcome(game.validate, state, seat, other)
                        == _outcome(_reference_validate, game, state, seat, other))
        idle = [s for s in range(n_players) if s not in active]
        if idle:  # a seat not to act is told so, whatever it sends
            seat = idle[rng.below(len(idle))]
            action = next(iter(chosen.values()))
            with pytest.raises(NotYourTurn):
                game.validate(state, seat, action)
            with pytest.raises(NotYourTurn):
                game.apply(state, {**chosen, seat: action})
        if len(chosen) > 1:  # a simultaneous step needs every active seat
            with pytest.raises(IllegalAction, match="waiting for seat"):
                game.apply(state, dict(list(chosen.items())[1:]))
            # seats listed last first, several actions broken: the first fault in seat order
            tried = {}
            for seat in sorted(chosen, reverse=True):
                others = _candidates(chosen[seat], pool, rng)
                tried[seat] = others[rng.below(len(others))]
            assert _outcome(game.apply, state, tried) == _outcome(_reference_apply, game, state, tried)
        pool.extend(chosen.values())
        del pool[:-40]

    _play_checked(game, n_players, seed, check)


@pytest.mark.parametrize(("game_id", "n_players", "seed"),
                         [t for g in game_ids() for t in _tables(g, seeds=1)])
def test_a_view_is_unchanged_when_two_cards_its_seat_may_not_see_trade_places(
        game_id: str, n_players: int, seed: bytes) -> None:
    """The real leak test: a view that showed any hidden card would change with it."""
    game = get_game(game_id)
    swaps = [0]

    def check(state, chosen, rng) -> None:
        for seat in [None, *range(n_players)]:
            secret = sorted(game.secret_from(state, seat))
            for _ in range(min(2, len(secret) // 2)):
                card, other = secret[rng.below(len(secret))], secret[rng.below(len(secret))]
                swapped = game.swap_cards(state, card, other)
                if swapped is None:
                    continue
                assert state_hash(swapped) != state_hash(state), f"{card} <-> {other} changed nothing"
                assert Counter(c for z in game.zones(swapped).values() for c in z) == Counter(
                    c for z in game.zones(state).values() for c in z), "a swap only moves cards"
                assert game.view(swapped, seat) == game.view(state, seat), (
                    f"seat {seat}'s view shows {card} or {other}, which it may not see")
                swaps[0] += 1

    _play_checked(game, n_players, seed, check)
    if any(game.zones(game.setup(n_players, seed, game.check_options({}))).values()):
        assert swaps[0] > 0, "a card game must let hidden cards trade places (swap_cards)"
