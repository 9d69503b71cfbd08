"""The space of picks: it counts, indexes, checks and samples exactly the legal picks, in the
order of the full list (per card: builds, free build, stages, discard), without listing them."""

from __future__ import annotations

from collections import Counter

from engine.core import Stream, pick_uniform
from engine.seven_wonders import GAME
from engine.seven_wonders.cards import CARD_RANK
from engine.seven_wonders.picks import Picks
from engine.seven_wonders.state import BABYLON, PICK, Pick


def _positions(n: int, seed: bytes):
    """(state, seat, space) at every pick of a random game."""
    state = GAME.setup(n, seed, {"wonder_side": "random"})
    rng = Stream(seed)
    while not GAME.is_over(state):
        for seat in sorted(GAME.active(state)):
            if state.phase in (PICK, BABYLON):
                yield state, seat, GAME.legal_actions(state, seat)
        state = GAME.apply(state, {s: pick_uniform(GAME.legal_actions(state, s), rng) for s in GAME.active(state)})


def _listed(view) -> list[Pick]:
    """The legal picks as the screen's options list them, in the documented order."""
    out = []
    for o in sorted(view.options, key=lambda o: CARD_RANK[o.card]):
        out += [Pick(o.card, "build", p.pay_left, p.pay_right) for p in o.payments]
        if o.free_build:
            out.append(Pick(o.card, "build_free"))
        out += [Pick(o.card, "stage", p.pay_left, p.pay_right) for p in view.stage_payments]
        out.append(Pick(o.card, "discard"))
    return out


def test_the_space_counts_indexes_and_checks_the_listed_picks() -> None:
    for n, seed in ((3, b"a"), (5, b"b"), (7, b"c")):
        for state, seat, space in _positions(n, seed):
            assert isinstance(space, Picks)
            listed = _listed(GAME.view(state, seat))
            assert list(space) == listed
            assert len(space) == len(listed) == len(set(listed))
            assert [space[i] for i in range(len(space))] == listed and space[-1] == listed[-1]
            assert all(action in space for action in listed)
            card = listed[0].card
            for wrong in (Pick(card, "build", 9, 9), Pick(card, "discard", 0, 1), Pick(card, "burn"),
                          Pick(card, "discard", False, 0), Pick("age3_palace", "discard")):
                assert wrong not in space or wrong in listed


def test_the_sampling_bound_never_undercounts_a_card() -> None:
    for n, seed in ((3, b"d"), (7, b"e")):
        for _, _, space in _positions(n, seed):
            for card in space.cards:
                assert space.ctx.build_bound(card) >= len(space.status(card)[2]), card
            assert space.ctx.stage_bound() >= len(space.stage_ways())


def _loose_position() -> Picks:
    """A position where some card's bound exceeds its ways, so sampling must redraw."""
    for _, _, space in (p for seed in range(20) for p in _positions(5, bytes([seed]))):
        loose_build = any(space.ctx.build_bound(c) > len(space.status(c)[2]) and space.status(c)[2]
                          for c in space.cards)
        if loose_build and space.ctx.stage_bound() > len(space.stage_ways()) > 0:
            return space
    raise AssertionError("no position with loose bounds in these games")


def test_sampling_is_uniform_over_the_legal_picks() -> None:
    space = _loose_position()
    k = len(space)
    draws = 200 * k
    rng = Stream(b"uniform")
    seen = Counter(space.sample(rng) for _ in range(draws))
    assert set(seen) == set(space)
    # chi-square against equal chances; 3.1 standard deviations above its mean (df = k - 1)
    chi2 = sum((seen[a] - 200) ** 2 / 200 for a in space)
    assert chi2 < (k - 1) + 3.1 * (2 * (k - 1)) ** 0.5, chi2


def test_a_sample_depends_on_the_position_only() -> None:
    """Whether the payments were already worked out (a view, a count) changes no draw."""
    for _, _, space in _positions(3, b"same"):
        fresh = Picks(space.ctx, space.cards, space.free)
        known = Picks(space.ctx, space.cards, space.free)
        len(known)
        for salt in range(3):
            assert fresh.sample(Stream(bytes([salt]))) == known.sample(Stream(bytes([salt])))
