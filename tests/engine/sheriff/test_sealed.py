"""Sealed bags (network play): a LOAD sends only the bag's size; the bag is opened when dealt with.

A game played through the sealed path (each `Load` replaced by `GAME.seal`, each open step
answered with `GAME.open_action` of the original) must be the same game as the plain one:
the same choices from the same views, the same state once every bag is open, the same result.
"""

from __future__ import annotations

import pytest

from engine.bots import make_bot
from engine.core import HIDDEN, IllegalAction, Stream, canonical, decode
from engine.sheriff import GAME
from engine.sheriff.state import (
    OPEN,
    Accept,
    Choose,
    Declare,
    Inspect,
    Load,
    NoOffer,
    Offer,
    OpenBag,
    Pass,
    SealedLoad,
    SetAside,
)

from .helpers import start, step

HANDS = (
    ("apple",) * 6,
    ("cheese", "cheese", "chicken", "pepper", "pepper", "silk"),
    ("chicken",) * 3 + ("mead",) * 3,
)


def _known(state, seat, originals):
    """The state as `seat` knows it on its own machine (its own sealed bag unsealed)."""
    if seat in originals:
        return GAME.unseal(state, seat, originals[seat])
    return state


def _play_both(n: int, seed: int, kinds: list[str]):
    """One game on both paths with twin bots; returns the plain and the sealed final states."""
    plain = GAME.setup(n, seed.to_bytes(4, "big"))
    sealed = plain
    streams = [Stream(b"sealed-test%d" % seed).fork(str(s)) for s in range(n)]
    plain_bots = [make_bot(GAME, s, kinds[s], streams[s].fork("x")) for s in range(n)]
    sealed_bots = [make_bot(GAME, s, kinds[s], streams[s].fork("x")) for s in range(n)]
    originals: dict[int, Load] = {}
    saw_open = False
    while not GAME.is_over(plain):
        assert GAME.active(plain) == GAME.active(sealed)
        plain_actions, sealed_actions = {}, {}
        for seat in sorted(GAME.active(plain)):
            plain_actions[seat] = plain_bots[seat].choose(GAME.view(plain, seat), GAME.legal_actions(plain, seat))
            known = _known(sealed, seat, originals)
            chosen = sealed_bots[seat].choose(GAME.view(known, seat), GAME.legal_actions(sealed, seat))
            assert chosen == plain_actions[seat], "the sealed path showed the bot something else"
            if GAME.sealed(sealed):
                originals[seat] = chosen
                chosen = GAME.seal(sealed, seat, chosen)
                assert isinstance(chosen, SealedLoad) and canonical(chosen).count(b"apple") == 0
            sealed_actions[seat] = chosen
        plain = GAME.apply(plain, plain_actions)
        sealed = GAME.apply(sealed, sealed_actions)
        while (seat := GAME.opening(sealed)) is not None:
            saw_open = True
            assert GAME.active(sealed) == {seat}
            _check_hidden(sealed, originals)
            sealed = GAME.apply(sealed, {seat: GAME.open_action(sealed, seat, originals.pop(seat))})
        _check_hidden(sealed, originals)
        for p in [None, *range(n)]:
            assert GAME.view(_known(sealed, p, originals), p) == GAME.view(plain, p)
        if not originals:
            assert sealed == plain, "with every bag open the two paths must hold the same state"
        assert decode(canonical(sealed)) == sealed
    assert saw_open
    return plain, sealed


def _check_hidden(state, originals):
    """While a bag is sealed, no view (not even its owner's public one) names its cards."""
    for owner in originals:
        assert state.sealed[owner]
        for viewer in [None, *range(state.n_players)]:
            seen = GAME.view(state, viewer).players[owner]
            assert seen.bag == (HIDDEN,) * state.sealed[owner]
            if viewer != owner:
                assert set(seen.hand) <= {HIDDEN} | set(GAME.view(state, None).players[owner].hand)


@pytest.mark.parametrize("seed", range(4))  # both bot mixes at every table size
@pytest.mark.parametrize("n", [3, 4, 5])
def test_a_game_through_sealed_bags_is_the_same_game(n, seed) -> None:
    kinds = ["heuristic" if (seed + s) % 2 else "random" for s in range(n)]
    plain, sealed = _play_both(n, seed, kinds)
    assert sealed == plain
    assert GAME.result(sealed) == GAME.result(plain)
    assert sealed.stands == plain.stands and sealed.gold == plain.gold


def _market_done():
    """3 players, seat 0 Sheriff; seats 1 and 2 keep their hands: the LOAD step."""
    s = start(HANDS, first=0)
    for seat in (1, 2):
        s = step(s, seat, SetAside(()))
    return s


def _sealed_round():
    """The LOAD step played sealed by seats 1 and 2."""
    s = _market_done()
    assert GAME.sealed(s)
    bags = {1: Load(("cheese", "cheese", "silk")), 2: Load(("mead", "mead"))}
    s = GAME.apply(s, {seat: GAME.seal(s, seat, bag) for seat, bag in bags.items()})
    return s, bags


def test_a_sealed_load_keeps_the_cards_in_the_hand_and_shows_only_the_size() -> None:
    s, bags = _sealed_round()
    assert s.sealed == (0, 3, 2) and s.bags == ((0,) * len(s.bags[0]),) * 3
    view = GAME.view(s, 0)
    assert view.players[1].bag == (HIDDEN,) * 3 and len(view.players[1].hand) == 3
    own = GAME.view(GAME.unseal(s, 1, bags[1]), 1)
    assert own.players[1].bag == ("cheese", "cheese", "silk")
    assert sorted(own.players[1].hand) == ["chicken", "pepper", "pepper"]


def test_declaring_and_offering_check_the_sealed_count() -> None:
    s, _ = _sealed_round()
    s = step(step(s, 1, Declare("cheese")), 2, Declare("chicken"))
    s = step(s, 0, Choose(1))
    with pytest.raises(IllegalAction, match="holds only 3 cards"):
        GAME.validate(s, 1, Offer(bag_goods=("cheese",) * 4))
    GAME.validate(s, 1, Offer(bag_goods=("cheese",) * 3))


@pytest.mark.parametrize(("offer", "decision"), [
    (NoOffer(), Pass()), (NoOffer(), Inspect()), (Offer(gold=1, bag_goods=("silk",)), Accept()),
])
def test_the_sheriffs_decision_waits_for_the_bag_then_applies_as_with_a_plain_bag(offer, decision) -> None:
    s, bags = _sealed_round()
    s = step(step(s, 1, Declare("cheese")), 2, Declare("chicken"))
    s = step(step(s, 0, Choose(1)), 1, offer)
    s = step(s, 0, decision)
    assert s.step == OPEN and GAME.active(s) == {1} and GAME.opening(s) == 1
    assert GAME.view(s, 0).players[1].stand_down == () and s.held in ("pass", "inspect", "deal")
    with pytest.raises(IllegalAction, match="holds 3 cards, not 2"):
        GAME.validate(s, 1, OpenBag(("cheese", "cheese")))
    with pytest.raises(IllegalAction, match="not all among your hand"):
        GAME.validate(s, 1, OpenBag(("cheese", "silk", "silk")))
    with pytest.raises(IllegalAction, match="open your sealed bag"):
        GAME.validate(s, 1, NoOffer())
    assert OpenBag(("cheese", "chicken", "silk")) in GAME.legal_actions(s, 1)
    assert len(GAME.legal_actions(s, 1)) == len(list(GAME.legal_actions(s, 1)))
    opened = step(s, 1, GAME.open_action(s, 1, bags[1]))
    # the same decision on a plainly loaded bag
    q = GAME.apply(_market_done(), bags)
    q = step(step(q, 1, Declare("cheese")), 2, Declare("chicken"))
    q = step(step(step(q, 0, Choose(1)), 1, offer), 0, decision)
    assert opened.stands == q.stands and opened.gold == q.gold and opened.revealed == q.revealed
    assert opened.hands[1] == q.hands[1] and opened.step == q.step and opened.sealed[1] == 0


def test_a_sealed_load_of_a_wrong_size_is_refused() -> None:
    s = _market_done()
    for count in (0, 6):
        with pytest.raises(IllegalAction, match="a bag holds 1 to 5 cards"):
            GAME.validate(s, 1, SealedLoad(count))
    for count in (True, "3"):  # the shape check refuses these before the rules
        with pytest.raises(IllegalAction, match="count is .*, which is not a whole number"):
            GAME.validate(s, 1, SealedLoad(count))
    GAME.validate(s, 1, SealedLoad(5))
