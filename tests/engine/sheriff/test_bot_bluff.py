"""The Sheriff bot bluffs and judges (issue 22): talk that is no tell, mixed bribes and
inspections, decisions from the view only, and no fixed strategy that beats it."""

from __future__ import annotations

from collections import Counter

import pytest

from engine.bots import RandomBot, make_bot
from engine.bots.sheriff import PROMISES, SheriffBot
from engine.bots.sheriff_fixed import STRATEGIES, FixedOver, fixed_over, fixed_strategy, play_table
from engine.core import Stream
from engine.sheriff import GAME
from engine.sheriff.state import Accept, Choose, Demand, Inspect, Offer, Pass

from .bot_before import SheriffBotBefore
from .helpers import start, step, to_inspection

SEEDS = range(200)
HANDS = [["apple"] * 6, ["cheese"] * 5 + ["silk"], ["chicken"] * 5 + ["mead"], ["bread"] * 6]


def _dealing_with(bag1: list[str]):
    """Seat 1's bag (declared cheese) is being dealt with; seats 2 and 3 are honest."""
    state = to_inspection(start(HANDS), {1: (bag1, "cheese"), 2: (["chicken"] * 3, "chicken"),
                                         3: (["bread"] * 3, "bread")})
    return step(state, 0, Choose(1))


HONEST, LYING = ["cheese"] * 3, ["cheese", "cheese", "silk"]


def _decide(bot_seat: int, state, seed: int):
    bot = SheriffBot(GAME, bot_seat, Stream(f"bluff-{seed}"))
    return bot.choose(GAME.view(state, bot_seat), GAME.legal_actions(state, bot_seat))


def _said(offer) -> str:
    """The promise of an offer; an offer of nothing at all is played as NoOffer (says "")."""
    return offer.promise if isinstance(offer, Offer) else ""


def _gold(offer) -> int:
    return offer.gold if isinstance(offer, Offer) else 0


def test_what_a_merchant_says_does_not_depend_on_its_bag():
    """The phrase is drawn before the bag is read: an honest and a lying bag, same seed, say
    the same; and over seeds every phrase is used."""
    honest, lying = _dealing_with(HONEST), _dealing_with(LYING)
    said = Counter()
    for seed in SEEDS:
        a, b = _said(_decide(1, honest, seed)), _said(_decide(1, lying, seed))
        assert a == b
        said[a] += 1
    assert set(said) == set(PROMISES)
    assert min(said.values()) > len(SEEDS) / len(PROMISES) / 2


def test_merchants_bribe_unprompted_and_honest_ones_sometimes_too():
    honest, lying = _dealing_with(HONEST), _dealing_with(LYING)
    lying_gold = sum(_gold(_decide(1, lying, seed)) > 0 for seed in SEEDS)
    honest_gold = sum(_gold(_decide(1, honest, seed)) > 0 for seed in SEEDS)
    assert 0.1 * len(SEEDS) < lying_gold < len(SEEDS)  # mixed: sometimes, not always
    assert 0 < honest_gold < lying_gold  # gold alone proves nothing


def test_the_sheriff_sometimes_lets_a_bag_pass_and_sometimes_inspects():
    state = step(_dealing_with(LYING), 1, Offer(promise=PROMISES[1]))
    answers = Counter(type(_decide(0, state, seed)) for seed in SEEDS)
    assert answers[Inspect] > 10 and answers[Pass] + answers[Accept] > 10
    bribed = step(_dealing_with(LYING), 1, Offer(gold=4, promise=PROMISES[1]))
    answers = Counter(type(_decide(0, bribed, seed)) for seed in SEEDS)
    assert answers[Accept] > 10 and answers[Inspect] + answers[Demand] > 10


def test_the_sheriff_decides_from_its_view_only():
    """Seat 1's bag honest or lying looks the same to the Sheriff: the same seeded answers."""
    honest = step(_dealing_with(HONEST), 1, Offer(promise=PROMISES[2]))
    lying = step(_dealing_with(LYING), 1, Offer(promise=PROMISES[2]))
    assert GAME.view(honest, 0) == GAME.view(lying, 0)
    assert GAME.view(honest, 1) != GAME.view(lying, 1)
    for seed in range(60):
        assert _decide(0, honest, seed) == _decide(0, lying, seed)


def test_a_merchant_caught_lying_is_inspected_more_often():
    bot = SheriffBot(GAME, 0, Stream(b"judge"))
    view = GAME.view(_dealing_with(LYING), 0)
    before = bot.lie_rate(view, 1)
    bot.record.update({(0, 1): (2, "inspected", False), (1, 1): (3, "inspected", False),
                       (0, 2): (3, "inspected", True), (1, 2): (3, "inspected", True)})
    assert bot.lie_rate(view, 1) > before > bot.lie_rate(view, 2)
    assert bot.inspect_worth(view, 1, bot.lie_rate(view, 1)) > bot.inspect_worth(view, 1, bot.lie_rate(view, 2))


def test_merchants_meet_a_sheriff_who_opens_everything_with_honest_bags():
    """The bags it would load against a Sheriff who opened every bag so far, and against one
    who let every bag pass: more contraband for the second."""
    hands = [["apple"] * 6, ["cheese"] * 3 + ["silk", "mead", "pepper"], ["chicken"] * 6, ["bread"] * 6]
    from .helpers import skip_market

    state = skip_market(start(hands))
    smuggled = {}
    for outcome in ("inspected", "passed"):
        total = 0
        for seed in range(100):
            bot = SheriffBot(GAME, 1, Stream(f"load-{seed}"))
            bot.record.update({(r, m): (0, outcome, True if outcome == "inspected" else None)
                               for r in range(2) for m in (2, 3)})
            load = bot.choose(GAME.view(state, 1), GAME.legal_actions(state, 1))
            total += sum(card in ("silk", "mead", "pepper") for card in load.cards)
        smuggled[outcome] = total
    assert smuggled["inspected"] < smuggled["passed"] / 2


@pytest.mark.parametrize("mix", [("heuristic", "random", "heuristic"), "heuristic"])
@pytest.mark.parametrize("n", [3, 5])
def test_the_bot_plays_every_player_count_to_the_end_beside_the_fixed_strategies(n, mix):
    seats = [SheriffBot, RandomBot, *(fixed_strategy(name, SheriffBot) for name in STRATEGIES)][:n]
    assert play_table(GAME, f"ends-{n}-{mix}", seats) is not None


# Wins of the fixed seat over these 100 seeded games, measured: truthful 13, smuggler 5,
# always_inspect 18, never_inspect 3 (bench/sheriff_exploits.py has the large samples). Each
# bound leaves room above the measure and is the fair share 25 % or under it, except for
# always_inspect, nearest to it, whose bound leaves about two standard errors.
EXPLOIT_BOUNDS = {"truthful": 0.25, "smuggler": 0.12, "always_inspect": 0.30, "never_inspect": 0.12}


@pytest.mark.parametrize("strategy", sorted(STRATEGIES))
def test_no_fixed_strategy_beats_three_bots(strategy):
    games = 100
    tested = fixed_strategy(strategy, SheriffBot)
    wins = 0
    for k in range(games):
        seats = [SheriffBot] * 4
        seats[k % 4] = tested
        wins += (k % 4) in play_table(GAME, f"exploit-{k}", seats).winners
    assert wins / games <= EXPLOIT_BOUNDS[strategy]


@pytest.mark.parametrize("strategy", sorted(STRATEGIES))
def test_a_strategy_over_a_bot_plays_as_the_bot_built_with_it(strategy):
    """`fixed_over` (any bot, the hard one too: bench/sheriff_exploits.py --hard) wins the same
    games as `fixed_strategy`'s subclass of the normal bot."""
    for k in range(4):
        seats = [SheriffBot] * 4
        seats[k] = fixed_strategy(strategy, SheriffBot)
        built = play_table(GAME, f"over-{k}", seats)
        seats[k] = fixed_over(strategy, SheriffBot)
        assert play_table(GAME, f"over-{k}", seats) == built


def test_a_strategy_over_the_hard_bot_plays_its_fixed_part_and_searches_the_rest():
    asked = Counter()

    class Counting(FixedOver):
        def choose(self, view, actions):
            action = super().choose(view, actions)
            if view.step == "answer" and Inspect() in actions:
                asked["inspected" if action == Inspect() else "did not inspect"] += 1
            else:
                asked["other"] += 1
            return action

    def hard(game, seat, rng):
        bot = make_bot(game, seat, "hard", rng)
        bot.rollouts = 12  # two rounds of six candidates: the search runs
        return bot

    seats = [SheriffBot] * 4
    seats[0] = lambda game, seat, rng: Counting(game, seat, rng, "always_inspect", hard(game, seat, rng))
    assert play_table(GAME, "over-hard", seats) is not None
    assert asked["inspected"] >= 6 and asked["did not inspect"] == 0
    assert asked["other"] > 20  # the rest of its decisions went to the hard bot


def test_the_bot_beats_the_bot_before_it():
    wins = 0
    for k in range(40):
        seats = [SheriffBotBefore] * 4
        seats[k % 4] = SheriffBot
        wins += (k % 4) in play_table(GAME, f"before-{k}", seats).winners
    assert wins >= 28  # measured 39 of 40


def test_the_record_holds_every_bag_and_reads_each_right():
    """Views show only this round's outcomes, and a bot sees a view only when it acts: the bags
    dealt with after its last decision of a round are read from gold and stands (`record`)."""
    bots = [SheriffBot(GAME, s, Stream(f"record-{s}")) for s in range(4)]
    state = GAME.setup(4, b"record", None)
    truth = {}
    while GAME.active(state):
        state = GAME.apply(state, {s: bots[s].choose(GAME.view(state, s), GAME.legal_actions(state, s))
                                   for s in sorted(GAME.active(state))})
        for p, outcome in enumerate(state.outcomes):
            if outcome:
                shown = GAME.view(state, None).players[p].inspection
                truth[(state.round, p)] = (state.sheriff, outcome, shown.honest if shown else None)
    for bot in bots:
        assert len(bot.record) >= 7 * 3  # all bags but the last round's last ones (game over)
        assert all(truth[key] == seen for key, seen in bot.record.items() if key in truth)
