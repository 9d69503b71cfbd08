"""Scoring (ten.md §8): longest run per colour, the optimal wild assignment and its report."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.ten.cards import CELL, COLOURS, IS_WILD, TYPE_OF, deck_for, wild_uses
from engine.ten.result import result_of, score_collection
from engine.ten.scoring import collection_total, longest_run

from .helpers import RULES_JSON, physical

SCORE_EXAMPLES = [ex for ex in RULES_JSON["examples"] if ex["what"] == "score"]


def _points(score) -> dict[str, int]:
    return {run.colour: run.points for run in score.runs}


def _run_types(score, colour: str) -> list[str]:
    run = next(r for r in score.runs if r.colour == colour)
    return [TYPE_OF[cell.card] for cell in run.cells]


@pytest.mark.parametrize("example", SCORE_EXAMPLES, ids=[ex["id"] for ex in SCORE_EXAMPLES])
def test_rules_json_score_examples(example) -> None:
    score = score_collection(physical(example["collection"]))
    assert score.total == example["expected"]["total"]
    if example["id"] != "wilds_only":  # several optimal uses: ten.md §12.1 names the report
        assert _points(score) == example["expected"]["by_colour"]


def test_seed_blue_run_scores_only_the_run_one_to_three() -> None:
    score = score_collection(physical(["blue_1", "blue_2", "blue_3", "blue_5", "blue_7"]))
    blue = score.runs[COLOURS.index("blue")]
    assert (blue.low, blue.high, blue.points, score.total) == (1, 3, 3, 3)


def test_eleven_point_example_places_wild_five_in_red() -> None:
    cards = physical(
        ["red_3", "red_4", "red_6", "red_7", "wild_5", "green_1", "green_2", "green_3",
         "green_6", "blue_4", "blue_5", "blue_8", "orange_2", "orange_9"]
    )
    score = score_collection(cards)
    assert score.total == 11
    assert _points(score) == {"red": 5, "blue": 2, "green": 3, "orange": 1}
    assert [(w.card, w.colour, w.number) for w in score.wilds] == [("wild_5_a", "red", 5)]
    assert _run_types(score, "red") == ["red_3", "red_4", "wild_5", "red_6", "red_7"]


def test_full_run_scores_ten_with_both_wilds_placed() -> None:
    cards = physical(["blue_1", "blue_2", "blue_3", "blue_4", "blue_6", "blue_7", "blue_8",
                      "wild_5", "blue_wild"])
    score = score_collection(cards)
    assert score.total == 10
    assert {(w.card, w.colour, w.number) for w in score.wilds} == {
        ("wild_5_a", "blue", 5), ("blue_wild_a", "blue", 9)
    }
    assert len(score.runs[COLOURS.index("blue")].cells) == 9


def test_reported_assignment_is_the_first_in_the_rules_order() -> None:
    # ten.md §12.1: red wild as red 1, wild 3 as blue 3, wild 4 as blue 4 (red 1 + blue 2 = 3)
    score = score_collection(physical(["wild_3", "wild_4", "red_wild"]))
    assert [(w.card, w.colour, w.number) for w in score.wilds] == [
        ("red_wild_a", "red", 1), ("wild_3_a", "blue", 3), ("wild_4_a", "blue", 4)
    ]
    assert _points(score) == {"red": 1, "blue": 2, "green": 0, "orange": 0}


def test_unneeded_wild_is_reported_unused() -> None:
    # red is complete, so the red wild cannot add anything; wild 9 still scores a blue 9
    reds = [f"red_{n}" for n in range(1, 10)]
    score = score_collection(physical([*reds, "wild_9", "red_wild"]))
    assert score.total == 11
    uses = {w.card: (w.colour, w.number) for w in score.wilds}
    assert uses == {"red_wild_a": (None, None), "wild_9_a": ("blue", 9)}


def test_rainbow_fills_the_gap_rather_than_extending_the_longest_run() -> None:
    cards = physical(["red_1", "red_2", "red_3", "red_4", "red_5",
                      "green_1", "green_2", "green_4", "green_5", "rainbow_wild"])
    score = score_collection(cards)
    assert score.total == 10
    assert [(w.colour, w.number) for w in score.wilds] == [("green", 3)]


def _greedy_in_id_order(cards: list[str]) -> int:
    """Each wild in card-id order to the spot that adds most now: the natural shortcut."""
    held = [c for c in cards if c not in IS_WILD]
    for wild in sorted(c for c in cards if c in IS_WILD):
        best = (collection_total(held), None)
        for c, n in wild_uses(wild):
            stand_in = next(x for x in deck_for(5) if CELL.get(x) == (c, n))
            total = collection_total(held + [stand_in])
            if total > best[0]:
                best = (total, stand_in)
        if best[1]:
            held.append(best[1])
    return collection_total(held)


def test_greedy_assignment_is_wrong_and_the_optimum_is_found() -> None:
    # Greedy puts the blue wild on blue 1 (its first best spot), then wild 9 adds nothing.
    # Optimal: blue wild as blue 8 and wild 9 as blue 9, a blue run of 2.
    cards = physical(["blue_wild", "green_1", "green_9", "orange_5", "red_3", "red_4", "red_5",
                      "wild_9"])
    assert _greedy_in_id_order(cards) == 6
    score = score_collection(cards)
    assert score.total == 7
    assert _run_types(score, "blue") == ["blue_wild", "wild_9"]


def test_numbered_wild_goes_where_no_colour_wild_can_reach() -> None:
    # wild 4 fits red or blue equally; placing it in red wastes the red wild.
    cards = physical(["red_1", "red_2", "red_3", "red_5", "red_6",
                      "blue_1", "blue_2", "blue_3", "blue_5", "blue_6", "wild_4", "red_wild"])
    score = score_collection(cards)
    assert score.total == 12
    uses = {w.card: (w.colour, w.number) for w in score.wilds}
    assert uses == {"red_wild_a": ("red", 4), "wild_4_a": ("blue", 4)}


def test_two_equal_runs_report_the_lower_one() -> None:
    assert longest_run(0b1101110) == (1, 3)  # 1-3 and 5-6: the longer
    assert longest_run(0b0110110) == (1, 2)  # 1-2 and 4-5: the lower
    score = score_collection(physical(["orange_1", "orange_2", "orange_4", "orange_5"]))
    orange = score.runs[COLOURS.index("orange")]
    assert (orange.low, orange.high, orange.points) == (1, 2, 2)


def _brute_force_total(cards: list[str]) -> int:
    """ten.md's plain enumeration of every wild use (fine for a few wilds)."""
    base = [c for c in cards if c not in IS_WILD]
    wilds = [c for c in cards if c in IS_WILD]
    best = 0
    for combo in itertools.product(*[[None, *wild_uses(w)] for w in wilds]):
        held = {c: set() for c in range(len(COLOURS))}
        for card in base:
            held[CELL[card][0]].add(CELL[card][1])
        for use in combo:
            if use:
                held[use[0]].add(use[1])
        total = 0
        for numbers in held.values():
            length = run = 0
            for n in range(1, 10):
                run = run + 1 if n in numbers else 0
                length = max(length, run)
            total += 10 if length == 9 else length
        best = max(best, total)
    return best


_NUMBER_CARDS = [c for c in deck_for(5) if c in CELL]
_WILDS = sorted(c for c in deck_for(5) if c in IS_WILD)


@settings(max_examples=150, deadline=None)
@given(
    numbers=st.lists(st.sampled_from(_NUMBER_CARDS), max_size=14, unique=True),
    wilds=st.lists(st.sampled_from(_WILDS), max_size=3, unique=True),
)
def test_optimum_matches_brute_force(numbers, wilds) -> None:
    if wilds.count("rainbow_wild_a") and len(wilds) == 3:
        wilds = wilds[:2]
    cards = numbers + wilds
    score = score_collection(cards)
    assert score.total == _brute_force_total(cards)
    assert score.total == sum(run.points for run in score.runs)
    # the reported runs really are filled by the cards and wilds named
    for run in score.runs:
        for cell in run.cells:
            assert cell.card in cards
    placed = [w for w in score.wilds if w.colour is not None]
    assert len({(w.colour, w.number) for w in placed}) == len(placed)


def test_many_wilds_are_scored_quickly_and_exactly() -> None:
    # every wild of the game (18) and no number card: at most one full run (two would need
    # 18 cards with 9 distinct numbers twice, but only 9 numbered + 4 colour + 1 rainbow
    # wilds could serve two colours), so the best is all 18 in runs plus one bonus point:
    # e.g. red 2 red wilds + 7 numbered wilds = 10, blue 2 + 2 numbered + rainbow = 5, 2, 2.
    assert collection_total(_WILDS) == 19


def test_tie_breaks_currency_then_fewest_cards() -> None:
    # ten.md §12.7: both score 14; A 6 tokens and 2 bust tokens, B 6 tokens: still tied;
    # A has 15 cards, B 13: B wins.
    b = physical([f"red_{n}" for n in range(1, 10)] + ["blue_1", "blue_2", "blue_3", "blue_4"])
    a = physical(
        [f"green_{n}" for n in range(1, 7)] + [f"orange_{n}" for n in range(1, 7)]
        + ["blue_1", "blue_2", "green_1"],
        taken=set(b),
    )
    assert (len(a), len(b)) == (15, 13)
    result = result_of([a, b], [6, 6])
    assert result.scores == (14, 14)
    assert result.winners == (1,)
    assert result.places == (2, 1)
    assert result_of([a, b], [7, 6]).winners == (0,)  # more currency beats fewer cards
    assert result_of([a, a], [6, 6]).winners == (0, 1)  # all equal: shared win


@settings(max_examples=400, deadline=None)
@given(
    masks=st.tuples(*[st.integers(0, 0b1111111110).map(lambda m: m & ~1)] * len(COLOURS)),
    colour_wilds=st.tuples(*[st.integers(0, 2)] * len(COLOURS)),
    numbered=st.integers(0, 0b1111111110).map(lambda m: m & ~1),
    rainbow=st.integers(0, 3),
)
def test_best_total_equals_the_one_before_its_caches(masks, colour_wilds, numbered, rainbow) -> None:
    """The cached per-colour options, bounds and early stops change no total."""
    from engine.ten.scoring import best_total

    from .scoring_before import best_total_before

    pool = (colour_wilds, numbered, rainbow)
    assert best_total(masks, pool) == best_total_before.__wrapped__(masks, pool)


@settings(max_examples=300, deadline=None)
@given(
    masks=st.tuples(*[st.integers(0, 0b1111111110).map(lambda m: m & ~1)] * len(COLOURS)),
    colour_wilds=st.tuples(*[st.integers(0, 2)] * len(COLOURS)),
    numbered=st.integers(0, 0b1111111110).map(lambda m: m & ~1),
    rainbow=st.integers(0, 3),
)
def test_a_number_outside_its_scored_interval_can_go_without_lowering_the_total(
    masks, colour_wilds, numbered, rainbow
) -> None:
    """`best_runs` names intervals worth the total; numbers held outside them are spare (the
    bot prices giving such a card without a search)."""
    from engine.ten.scoring import best_runs, best_total

    from .scoring_before import best_total_before

    pool = (colour_wilds, numbered, rainbow)
    total, spans = best_runs(masks, pool)
    assert total == best_total_before.__wrapped__(masks, pool) == best_total(masks, pool)
    for c, mask in enumerate(masks):
        for n in range(1, 10):
            if mask >> n & 1 and not spans[c] >> n & 1:
                fewer = masks[:c] + (mask & ~(1 << n),) + masks[c + 1:]
                assert best_total_before.__wrapped__(fewer, pool) == total


@settings(max_examples=400, deadline=None)
@given(
    masks=st.tuples(*[st.integers(0, 0b1111111110).map(lambda m: m & ~1)] * len(COLOURS)),
    colour_wilds=st.tuples(*[st.integers(0, 2)] * len(COLOURS)),
    numbered=st.integers(0, 0b1111111110).map(lambda m: m & ~1),
    rainbow=st.integers(0, 2),
    colour=st.integers(0, len(COLOURS) - 1),
    number=st.integers(1, 9),
)
def test_a_number_card_adds_no_more_than_its_gain_ceiling(
    masks, colour_wilds, numbered, rainbow, colour, number
) -> None:
    """`number_gain_ceiling` (the bot skips a search when a decision holds up to it) is never
    under what the card really adds to the best total."""
    from engine.ten.ceilings import number_gain_ceiling
    from engine.ten.scoring import best_total

    from .scoring_before import best_total_before

    pool = (colour_wilds, numbered, rainbow)
    more = masks[:colour] + (masks[colour] | 1 << number,) + masks[colour + 1:]
    rise = best_total_before.__wrapped__(more, pool) - best_total_before.__wrapped__(masks, pool)
    assert best_total(more, pool) - best_total(masks, pool) == rise
    assert rise <= number_gain_ceiling(masks[colour], number, colour_wilds[colour], numbered, rainbow)


@settings(max_examples=200, deadline=None)
@given(
    held=st.lists(st.sampled_from(_NUMBER_CARDS + _WILDS), max_size=12, unique=True),
    added=st.lists(st.sampled_from(_NUMBER_CARDS + _WILDS), max_size=3, unique=True),
)
def test_a_collection_grown_from_its_masks_is_the_collection_counted_afresh(held, added) -> None:
    """The bot prices a gain from the held masks and pool plus the new cards (`with_cards`):
    the very masks and pool a fresh count of the whole collection gives, so the same score."""
    from engine.ten.scoring import best_total, masks_and_pool, with_cards

    grown = with_cards(*masks_and_pool(tuple(held)), added)
    assert grown == masks_and_pool(tuple(held + added))
    assert best_total(*grown) == collection_total(held + added)
