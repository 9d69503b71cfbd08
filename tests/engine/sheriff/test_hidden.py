"""Sheriff on partial knowledge (engine/sheriff/dealt.py): who sees which card, and when.

A trusted dealer (engine/core/dealer.py) deals the deck as tokens and shows a face only where
the rules say: `public` is what the table agrees on, `known[seat]` what a seat was shown alone,
`shown` what the whole table saw.
"""

from __future__ import annotations

from engine.bots.registry import make_bot
from engine.core import Stream, to_plain
from engine.core.dealer import HiddenPlay, checked_bot_game, play_hidden
from engine.core.hidden import is_token, masked, parse_token, reveal, tokens_in
from engine.sheriff import GAME
from engine.sheriff.cards import CARD_GOOD, GOOD_NAME, IS_LEGAL, NG, card_deck
from engine.sheriff.dealt import REBUILT
from engine.sheriff.state import (
    ANSWER,
    CHOOSE,
    DECLARE,
    LOAD,
    OFFER,
    OVER,
    UNPACK,
    Accept,
    Choose,
    Declare,
    Inspect,
    Load,
    NoOffer,
    Offer,
    Pass,
    SetAside,
    Unpack,
)


def _legal(card: str) -> bool:
    return IS_LEGAL[CARD_GOOD[card]]


def _token_of(play: HiddenPlay, seat: int, card: str) -> str:
    return next(t for t, face in play.known[seat].items() if face == card)


def _start(n: int = 3) -> HiddenPlay:
    """A 3-player game whose seat 1 holds a legal good and a contraband (first Sheriff: 0)."""
    for k in range(50):
        play = HiddenPlay.start(GAME, n, b"hidden-%d" % k, {"first_sheriff": 0})
        hand = play.mine(1).hands[1]
        if any(map(_legal, hand)) and not all(map(_legal, hand)):
            return play
    raise AssertionError("no deal with both kinds of goods")


def test_hands_are_dealt_face_down_each_shown_to_its_owner_and_the_piles_to_all() -> None:
    play = _start()
    public = play.public
    assert all(is_token(c) for hand in public.hands for c in hand)
    for seat in range(3):
        assert set(play.known[seat]) == set(public.hands[seat])  # its own hand, nothing more
    assert sorted(play.shown.values()) == sorted(public.piles[0] + public.piles[1])  # face up
    assert not any(is_token(c) for pile in public.piles for c in pile)
    # the faces written in give the plain game dealt alike: zones of cards, not of counts
    stacked = GAME.dealt_options(3, {"deck": play.order("deck")})
    assert play.truth() == GAME.setup(3, play.seed, {"first_sheriff": 0, **stacked})


def test_a_draw_from_the_deck_goes_to_the_drawer_only_a_discard_to_everyone() -> None:
    play = _start()
    card = play.mine(1).hands[1][0]
    play.apply({1: SetAside((card,))})
    aside = play.public.aside
    assert all(map(is_token, aside)) and not set(aside) & set(play.shown)  # face down
    top = play.public.draw_pile[0]
    play.apply({1: next(a for a in GAME.legal_actions(play.public, 1) if type(a).__name__ == "DrawDeck")})
    assert top in play.public.hands[1] and is_token(top)
    assert top in play.known[1] and top not in play.shown
    assert all(top not in play.known[s] for s in (0, 2))
    play.apply({1: next(iter(play.legal_actions(1)))})  # the discard, face up
    assert play.public.piles[0][-1] == card or play.public.piles[1][-1] == card
    assert aside[0] in play.shown


def test_a_card_taken_from_a_discard_pile_was_face_up_and_stays_identified() -> None:
    play = _start()
    play.apply({1: SetAside(play.mine(1).hands[1][:1])})
    top = play.public.piles[0][-1]
    play.apply({1: GAME.legal_actions(play.public, 1)[0]})  # DrawDiscard(1)
    assert top in play.public.hands[1] and not is_token(top)
    for seat in (0, 2):  # a view names the good (copies of a good are alike)
        assert play.view(seat).players[1].hand.count(GOOD_NAME[top]) == 1


def test_a_card_taken_from_a_discard_pile_goes_into_a_bag_unseen() -> None:
    """§6: a hand loses its identifications when cards leave it face down, because nobody
    sees which. Before the bags are loaded, a hand holding the card the table saw taken is
    dealt anew by its owner: the table holds tokens of a new deck it cannot tell apart, so
    loading the identified card names no card the table knows."""
    play = _start()
    play.apply({1: SetAside(play.mine(1).hands[1][:1])})
    top = play.public.piles[0][-1]
    play.apply({1: GAME.legal_actions(play.public, 1)[0]})  # DrawDiscard(1): seen by all
    play.apply({1: next(iter(play.legal_actions(1)))})  # the set-aside card, discarded
    play.apply({2: SetAside(())})
    assert play.public.phase == LOAD
    label = f"redeal{play.public.round}s1"
    assert play.public.hands[1] == masked(label, len(play.public.hands[1]))
    assert GAME.deck_owner(play.public, label) == 1 and top in GAME.deck_cards(play.public, label)
    assert GOOD_NAME[top] in play.view(0).players[1].hand  # identified until a card leaves (§6)
    assert not play.public.hands[2] or all(parse_token(t)[0] == "deck" for t in play.public.hands[2])
    play.apply({1: Load((top,)), 2: Load(play.mine(2).hands[2][:1])})
    bag = play.public.bags[1]
    assert len(bag) == 1 and parse_token(bag[0])[0] == label  # a token, like any other card
    assert set(play.view(0).players[1].hand) == {"?"} and top not in str(play.public.bags)
    assert play.known[1][bag[0]] == top and bag[0] not in play.known[0]


def _to_inspection(play: HiddenPlay) -> tuple[str, str]:
    """Seats 1 and 2 keep their hands; seat 1 loads a legal good and a contraband, seat 2 one
    card; both declare. Returns seat 1's two cards (faces)."""
    play.apply({1: SetAside(())})
    play.apply({2: SetAside(())})
    assert play.public.phase == LOAD
    hand = play.mine(1).hands[1]
    legal = next(c for c in hand if _legal(c))
    contraband = next(c for c in hand if not _legal(c))
    play.apply({1: Load((legal, contraband)), 2: Load(play.mine(2).hands[2][:1])})
    bag = play.public.bags[1]
    assert len(bag) == 2 and all(map(is_token, bag))  # face down: tokens for the table
    assert set(bag) <= set(play.known[1]) and not set(bag) & set(play.known[0])
    assert play.public.phase == DECLARE
    play.apply({1: Declare("apple")})
    play.apply({2: Declare("cheese")})
    assert play.public.declared[1:] == ("apple", "cheese")  # the declaration is public
    return legal, contraband


def test_a_bag_let_through_shows_its_legal_goods_and_keeps_contraband_face_down() -> None:
    play = _start()
    legal, contraband = _to_inspection(play)
    t_legal, t_contraband = _token_of(play, 1, legal), _token_of(play, 1, contraband)
    play.apply({0: Choose(1)})
    play.apply({1: NoOffer()})
    assert play.public.step == ANSWER
    play.apply({0: Pass()})
    assert play.public.step == UNPACK and GAME.active(play.public) == {1}
    (unpack,) = play.legal_actions(1)
    assert unpack == Unpack((), (legal,))  # only the merchant knows which cards are legal
    play.apply({1: unpack})
    assert t_legal in play.shown and legal in play.public.stands[1]
    assert t_contraband in play.public.stands[1] and t_contraband not in play.shown
    assert all(t_contraband not in play.known[s] for s in (0, 2))
    assert play.view(0).players[1].stand_down == ("?",)
    assert play.view(1).players[1].stand_down == (GOOD_NAME[contraband],)


def test_an_inspection_opens_the_bag_for_everyone() -> None:
    play = _start()
    _to_inspection(play)
    play.apply({0: Choose(2)})
    bag = play.public.bags[2]
    assert play.public.step == OFFER
    play.apply({2: NoOffer()})
    assert GAME.needs(play.public, {0: Inspect()}) == frozenset(bag)
    play.apply({0: Inspect()})
    assert set(bag) <= set(play.shown)
    assert play.public.revealed[2] == tuple(play.faces[t] for t in bag)
    assert play.public.step in (CHOOSE, "confiscate", "pay")


def _bots(play_seed: int, n: int) -> list:
    root = Stream(play_seed.to_bytes(8, "big"))
    return [make_bot(GAME, s, "random", root.fork(f"bot{s}")) for s in range(n)]


def test_the_end_shows_every_stand_and_scores_it_as_the_plain_game() -> None:
    bots = _bots(3, 3)
    play = play_hidden(GAME, 3, b"end", lambda p, s: bots[s].choose(p.view(s), p.legal_actions(s)))
    assert play.public.phase == OVER
    assert not any(map(is_token, (c for stand in play.public.stands for c in stand)))
    assert GAME.result(play.public) == GAME.result(play.truth())


def test_a_rebuilt_draw_pile_is_a_deck_the_table_shuffles() -> None:
    """§5.7 over the network: the discard piles' cards (face up) become tokens of a new deck;
    the table deals it (`deck_cards`), shows the new piles to all and a draw to the drawer;
    the plain game set up with that deck stacked too (`dealt_options`) plays alike."""
    n, seed = 5, 1
    bots = _bots(seed, n)
    rebuilt: list[tuple[str, tuple]] = []

    def each_step(play: HiddenPlay) -> None:
        labels = sorted(lb for lb in {parse_token(t)[0] for t in play.faces} if lb.startswith(REBUILT))
        if len(labels) > len(rebuilt):  # a rebuild this step
            (label,) = labels[len(rebuilt):]
            rebuilt.append((label, GAME.deck_cards(play.public, label)))
            assert {parse_token(t)[0] for t in play.shown} >= {label}  # the new piles: to all
            assert all(parse_token(t)[0] == label for t in tokens_in(play.public.draw_pile))

    play = checked_bot_game(GAME, n, seed.to_bytes(8, "big"), bots, also=each_step)
    assert play.public.phase == OVER and rebuilt
    label, cards = rebuilt[0]
    assert label.startswith(REBUILT) and sorted(cards) == sorted(play.order(label))
    assert set(cards) <= set(card_deck(n, True))
    # the log of such a game replays with the plain engine: every deck stacked, rebuilds and
    # hands dealt anew too
    stack = GAME.dealt_options(n, {lb: play.order(lb) for lb in {parse_token(t)[0] for t in play.faces}})
    replayed = GAME.setup(n, play.seed, stack)
    for actions in play.history:
        replayed = GAME.apply(replayed, actions)
    assert GAME.result(replayed) == GAME.result(play.public)
    assert to_plain(GAME.view(replayed, None)) == to_plain(play.view(None))


def test_plain_play_keeps_its_counts() -> None:
    plain = GAME.setup(3, b"plain", {"first_sheriff": 0})
    assert len(plain.aside) == len(plain.hands[0]) == NG  # count vectors, as always
    assert not GAME.seen(plain, None) and not GAME.needs(plain, {})
    for seat in (1, 2):
        plain = GAME.apply(plain, {seat: SetAside(())})
    assert plain.phase == LOAD and GAME.active(plain) == {1, 2}


def test_heuristic_bots_play_a_dealt_game_on_what_they_know() -> None:
    """The heuristic bot thinks in goods: on a dealt game it reads its view in goods and plays
    its own cards (`dealt_view.play_in_goods`); every step checked against the plain game."""
    from tests.engine.test_hidden_play import bot_game

    play = bot_game("sheriff", 4, 0, bots="best")
    assert play.public.phase == OVER


def test_goods_handed_over_in_a_deal_are_shown_and_stay_identified() -> None:
    play = _start()
    legal, contraband = _to_inspection(play)
    good = contraband.partition("#")[0]
    play.apply({0: Choose(1)})
    play.apply({1: Offer(gold=1, bag_goods=(good,))})  # a claim: words, not cards
    assert play.public.offer.bag_goods == (good,)
    play.apply({0: Accept()})
    (unpack,) = play.legal_actions(1)
    assert unpack == Unpack((contraband,), (legal,))
    play.apply({1: unpack})
    assert contraband in play.public.stands[0] and legal in play.public.stands[1]
    assert GOOD_NAME[contraband] in play.view(2).players[0].stand_down  # identified for everyone
    assert play.public.gold[0] == play.public.gold[1] + 2


def test_an_action_the_rules_refuse_shows_no_card() -> None:
    play = _start()
    _to_inspection(play)
    play.apply({0: Choose(1)})
    stranger = play.public.bags[2]  # another merchant's bag
    assert not GAME.needs(play.public, {1: Offer(stand_goods=stranger)})
    assert not GAME.needs(play.public, {2: Unpack(stranger, ())})  # not its turn
    play.apply({1: Offer(conditions=(("pass", 2),))})
    play.apply({0: Accept()})
    play.apply({1: next(iter(play.legal_actions(1)))})
    play.apply({0: Choose(2)})
    play.apply({2: NoOffer()})
    assert not GAME.needs(play.public, {0: Inspect()})  # the Sheriff promised to let it pass


def test_the_log_tells_the_same_public_story_as_the_plain_game() -> None:
    """Events read only what the table saw: from the public states and actions (their read
    faces shown) they are the plain game's, naming goods, never a card id or a token."""
    n = 4
    bots = _bots(7, n)
    play = HiddenPlay.start(GAME, n, b"log", {})
    stack = GAME.dealt_options(n, {"deck": play.order("deck")})
    plain = GAME.setup(n, b"log", stack)
    kinds = set()
    while not GAME.is_over(play.public):
        chosen = {s: bots[s].choose(play.view(s), play.legal_actions(s)) for s in GAME.active(play.public)}
        before = play.public
        play.apply(chosen)
        public = {s: reveal(play.public_action(s, a), play.shown) for s, a in chosen.items()}
        told = GAME.events(reveal(before, play.shown), public, play.public)
        after = GAME.apply(plain, chosen)
        assert told == GAME.events(plain, chosen, after)
        plain = after
        for event in told:
            kinds.add(event.kind)
            assert not any("#" in c or is_token(c) for c in event.cards + event.other)
    assert {"bag_opened", "discard", "draw_discard", "declare", "over"} <= kinds


def test_a_seat_whose_cards_are_still_on_their_way_sees_them_hidden() -> None:
    """Over the network a view may be drawn before the show of a new card reaches this seat:
    its own tokens are hidden cards there, not an error."""
    play = _start()
    view = GAME.view(play.public, 1)  # the public state: seat 1's hand is tokens here
    assert view.players[1].hand == ("?",) * 6
    assert GAME.view(play.mine(1), 1).players[1].hand == tuple(
        GOOD_NAME[c] for c in sorted(play.mine(1).hands[1], key=CARD_GOOD.__getitem__))
