"""Bot levels on every game: they decide from views only, finish every table, and a hard bot
with a node budget decides alike in every process."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from engine.bots import RandomBot, make_bot
from engine.bots.levels import LEVELS
from engine.bots.search import SearchBot
from engine.core import Stream
from engine.core.dealer import checked_bot_game
from engine.core.hashing import state_hash
from engine.registry import game_ids, get_game

SMALL = 12  # rollouts: two rounds over six candidates, enough to run every part of the search


def level_bot(game, seat: int, kind: str, seed: bytes, cheap: bool = True):
    """A bot of `kind`; a hard one with a small node budget (random rollouts when `cheap`)."""
    bot = make_bot(game, seat, kind, Stream(seed).fork(f"bot{seat}"))
    if isinstance(bot, SearchBot):
        bot.rollouts = SMALL
        if cheap:
            bot.rollout_factory = RandomBot
    return bot


def states_on_the_way(game, n: int, seed: bytes, every: int = 7, limit: int = 60):
    """Some states of a normal-bot game (every `every`-th step)."""
    bots = [make_bot(game, s, "normal", Stream(seed).fork(str(s))) for s in range(n)]
    state = game.setup(n, seed)
    for step in range(limit):
        active = game.active(state)
        if not active:
            return
        if step % every == 0:
            yield state
        state = game.apply(state, {s: bots[s].choose(game.view(state, s), game.legal_actions(state, s))
                                   for s in sorted(active)})


def hard_decisions(game, bots: dict, seed: bytes, limit: int):
    """(hard bot, view, actions, its candidates) at every decision of a normal-bot game, with
    `bots` (seat -> hard bot) asked; each candidate list is checked: the normal bot's move
    first, then only legal actions."""
    for state in states_on_the_way(game, len(bots), seed, every=1, limit=limit):
        for seat in sorted(game.active(state)):
            bot, view, actions = bots[seat], game.view(state, seat), game.legal_actions(state, seat)
            first = bot.normal.choose(view, actions)
            candidates = bot._candidates(view, first, actions, Stream(b"any"))
            assert candidates[0] == first and all(c in actions for c in candidates)
            yield bot, view, actions, candidates


def twin(game, state, seat: int):
    """A different state that gives `seat` the same view (two cards it cannot see swapped)."""
    secret = sorted(game.secret_from(state, seat))
    for i, card in enumerate(secret):
        for other in secret[i + 1:]:
            swapped = game.swap_cards(state, card, other)
            if swapped is not None and state_hash(swapped) != state_hash(state):
                assert game.view(swapped, seat) == game.view(state, seat)
                return swapped
    return None


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("game_id", game_ids())
def test_two_states_with_one_view_give_one_seeded_decision(game_id: str, level: str) -> None:
    game = get_game(game_id)
    n = max(game.min_players, 3)
    twins = 0
    for state in states_on_the_way(game, n, b"twins"):
        for seat in sorted(game.active(state)):
            other = twin(game, state, seat)
            if other is None:
                continue
            twins += 1
            first = level_bot(game, seat, level, b"same").choose(
                game.view(state, seat), game.legal_actions(state, seat))
            second = level_bot(game, seat, level, b"same").choose(
                game.view(other, seat), game.legal_actions(other, seat))
            assert first == second
    assert twins >= 2


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("game_id", game_ids())
def test_each_level_plays_every_game_to_the_end_at_every_player_count(game_id: str, level: str) -> None:
    game = get_game(game_id)
    for n in range(game.min_players, game.max_players + 1):
        seed = f"{level}-{n}".encode()
        # one seat of the level, normal bots in the others (a hard seat searches, cheaply)
        bots = [level_bot(game, s, level if s == n - 1 else "normal", seed) for s in range(n)]
        state = game.setup(n, seed)
        for _ in range(5_000):
            active = game.active(state)
            if not active or game.stalemate(state):
                break
            state = game.apply(state, {s: bots[s].choose(game.view(state, s), game.legal_actions(state, s))
                                       for s in sorted(active)})
        assert game.is_over(state) or game.stalemate(state), (game_id, n, level)


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("game_id", game_ids())
def test_each_level_plays_a_game_dealt_as_the_network_deals_it(game_id: str, level: str) -> None:
    """A bot seat at a network table sees a dealt game (cards it was never shown are tokens,
    Sheriff names each card); a hard bot searches it in its normal bot's terms (Sheriff's
    goods) and plays the seat's own cards. Checked at every step against the plain game."""
    game = get_game(game_id)
    n = max(game.min_players, 3)
    seed = f"dealt-{level}".encode()
    bots = [level_bot(game, s, level if s == 0 else "normal", seed, cheap=False) for s in range(n)]
    play = checked_bot_game(game, n, seed, bots)
    assert game.is_over(play.public), (game_id, level)


def hard_trace(game_id: str, decisions: int = 3) -> str:
    """The state hash after a hard bot (seat 0, normal rollouts) made `decisions` choices."""
    game = get_game(game_id)
    n = 3
    bots = [level_bot(game, s, "hard" if s == 0 else "normal", b"trace", cheap=False) for s in range(n)]
    state = game.setup(n, b"trace")
    made = 0
    while made < decisions and game.active(state):
        active = game.active(state)
        made += 0 in active
        state = game.apply(state, {s: bots[s].choose(game.view(state, s), game.legal_actions(state, s))
                                   for s in sorted(active)})
    return state_hash(state)


def test_hard_bots_with_a_node_budget_decide_alike_in_another_process() -> None:
    here = {gid: hard_trace(gid) for gid in game_ids()}
    seed = "123" if os.environ.get("PYTHONHASHSEED") != "123" else "321"
    code = ("import json; from tests.engine.bots.test_levels import hard_trace; "
            "from engine.registry import game_ids; print(json.dumps({g: hard_trace(g) for g in game_ids()}))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300,
                          env=dict(os.environ, PYTHONHASHSEED=seed), check=True)
    assert json.loads(done.stdout) == here


class _Spent:
    """A time budget over before the decision begins (`engine.bots.search.Budget`)."""

    def __call__(self) -> bool:
        return True

    def spent(self) -> bool:
        return True


def test_a_spent_time_budget_drops_the_rollout_begun_and_plays_the_normal_move() -> None:
    game = get_game("seven_wonders")
    bot = level_bot(game, 0, "hard", b"budget")
    bot.rollouts = 600
    sampled = []
    sampler = bot.sampler
    bot.sampler = lambda *args: sampled.append(1) or sampler(*args)
    bot.stopper = _Spent
    state = game.setup(3, b"budget")
    view, legal = game.view(state, 0), game.legal_actions(state, 0)
    assert bot.choose(view, legal) == bot.normal.choose(view, legal)
    assert len(sampled) == 1  # one rollout begun and dropped: never the 600 of the node budget


def test_easy_and_hard_draw_on_their_own_stream() -> None:
    """Randomness: the same view, two streams (two private secrets), not always one move."""
    game = get_game("money")
    state = game.setup(4, b"streams")
    view, legal = game.view(state, 0), game.legal_actions(state, 0)
    for level in ("easy", "hard"):
        moves = {level_bot(game, 0, level, f"secret{i}".encode()).choose(view, legal) for i in range(12)}
        assert len(moves) > 1, level


@pytest.mark.parametrize("game_id", game_ids())
def test_a_sampled_state_gives_its_seat_back_the_view_it_came_from(game_id: str) -> None:
    """The sampler keeps to the view: every hidden card redealt, everything shown kept (Money!'s
    round log words the cards a swap took, which its view keeps only as text: left out)."""
    import dataclasses

    from engine.core.descriptor import _load

    game = get_game(game_id)
    sample = _load(f"engine.bots.samplers.{game_id}:sample")
    checked = 0
    for n in (game.min_players, game.max_players):
        for i, state in enumerate(states_on_the_way(game, n, f"sample{n}".encode(), every=3, limit=400)):
            for seat in range(n):
                view = game.view(state, seat)
                again = game.view(sample(game, view, Stream(f"s{i}".encode())), seat)
                if game_id == "money":
                    view, again = (dataclasses.replace(v, history=()) for v in (view, again))
                assert again == view, (n, i, seat)
                checked += 1
    assert checked > 10


def test_money_hard_bot_searches_the_bids_its_normal_bot_ranks_not_random_ones() -> None:
    """A Money! bid has thousands of legal card sets; the hard bot's candidates are the normal
    bot's choice and its next best bids (one of each size), all legal and distinct, best first."""
    game = get_game("money")
    bot = level_bot(game, 0, "hard", b"shortlist")
    checked = 0
    for state in states_on_the_way(game, 4, b"shortlist", every=1):
        if 0 not in game.active(state) or game.view(state, 0).phase != "bid":
            continue
        view, actions = game.view(state, 0), game.legal_actions(state, 0)
        ranked = bot.normal.shortlist(view, actions)
        first = bot.normal.choose(view, actions)
        candidates = bot._candidates(view, first, actions, Stream(b"any"))
        assert candidates[0] == first and len(set(map(repr, candidates))) == len(candidates)
        assert all(c in ranked for c in candidates[1:]) and all(c in actions for c in ranked)
        assert len({len(a.left) for a in ranked}) == len(ranked)  # one bid of each size
        assert len(candidates) == min(6, len({repr(a) for a in [first, *ranked]}))
        checked += 1
    assert checked >= 3


def test_ten_hard_bot_searches_claims_bids_and_buys_but_not_safe_draws_or_payments() -> None:
    """Ten's legal payments and buys number in the hundreds; the hard bot's candidates are the
    normal bot's move and, where a rollout can show a difference, its rivals: claim or draw
    while a draw can bust, passing or bidding up to the wild's worth, each card type at its
    cheapest price or skipping. A draw that cannot bust, a forced draw and the cards a payment
    gives up stay the normal bot's (one candidate: no rollout is played)."""
    from engine.ten.cards import NUMBER_VALUE
    from engine.ten.state import Bid, Buy, ClaimCurrency, ClaimNumbers, Draw, Pass, Skip

    game = get_game("ten")
    bots = {seat: level_bot(game, seat, "hard", b"ten-shortlist") for seat in range(3)}
    seen = set()
    for bot, view, actions, candidates in hard_decisions(game, bots, b"ten-shortlist", 400):
        ranked = bot.normal.shortlist(view, actions)
        if view.phase == "choose" and view.deck_size and not view.bust_cards:
            assert candidates == [Draw()]
            seen.add("safe draw")
        elif view.phase == "choose" and view.deck_size:
            assert {Draw(), ClaimNumbers(), ClaimCurrency()} >= set(candidates) >= {Draw(), ClaimNumbers()}
            seen.add("risky draw")
        elif view.phase in ("pay", "draw"):
            assert len(candidates) == 1
            seen.add(view.phase)
        elif view.phase == "auction":
            bids = sorted(a.amount for a in candidates if isinstance(a, Bid))
            assert Pass() in candidates and all(isinstance(a, Bid | Pass) for a in candidates)
            assert not bids or bids[0] == min(a.amount for a in actions if isinstance(a, Bid))
            seen.add("auction")
        elif view.phase == "buy" and view.buyable:
            nets = [bot.normal._gain(view, [a.card]) - bot.normal._cheapest(view, NUMBER_VALUE[a.card])[0]
                    if isinstance(a, Buy) else 0.0 for a in ranked]
            assert Skip() in ranked and nets == sorted(nets, reverse=True)
            assert len({a.card for a in ranked if isinstance(a, Buy)}) == len(ranked) - 1
            seen.add("buy")
    assert {"safe draw", "risky draw", "pay", "auction", "buy"} <= seen


def test_sheriff_hard_bot_searches_bags_and_bribes_but_not_the_sheriffs_judgement() -> None:
    """A merchant's candidates are its normal bot's bags, best valued first, and bribes it can
    pay; as the Sheriff the hard bot keeps its normal bot's choice (a sampled closed bag is
    goods drawn at random, nearly always a lie, so a rollout would open every bag)."""
    from engine.bots.sheriff import Record
    from engine.sheriff.state import NoOffer, Offer

    game = get_game("sheriff")
    bots = {seat: level_bot(game, seat, "hard", b"sheriff-shortlist") for seat in range(4)}
    seen = set()
    for bot, view, actions, candidates in hard_decisions(game, bots, b"sheriff-shortlist", 120):
        if view.phase == "inspect" and view.seat == view.sheriff:
            assert len(candidates) == 1
            seen.add("sheriff")
        elif view.phase == "load":
            ranked = bot.normal.shortlist(view, actions)
            worth = {tuple(sorted(bag)): ev
                     for ev, bag in bot.normal.bag_choices(view, view.players[view.seat].hand)}
            values = [worth[tuple(sorted(c.cards))] for c in ranked]
            assert len(ranked) > 1 and values == sorted(values, reverse=True)
            assert len(candidates) == min(6, len(set(ranked) | {candidates[0]}))
            seen.add("load")
        elif view.phase == "inspect" and view.step == "offer":
            assert all(isinstance(c, Offer | NoOffer) for c in candidates) and len(candidates) > 1
            seen.add("offer")
    assert seen == {"sheriff", "load", "offer"}
    rollout_bot = make_bot(game, 1, "normal", Stream(b"rollout"))
    bots[0].normal.share_memory(rollout_bot)
    assert isinstance(rollout_bot.record, Record) and rollout_bot.record == bots[0].normal.record
    assert rollout_bot.record is not bots[0].normal.record and bots[0].normal.record
