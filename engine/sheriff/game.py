"""The Sheriff `Game`: the shared engine contract wired to the rules (rules.py, checks.py:
written once, for a plain game and a dealt one), to the views (view.py: one shape, in goods,
for either kind) and to what each kind offers: a plain game's conformance hooks (zones.py), a
dealt game's legal actions (dealt_legal.py), which name cards (dealt_view.py plays them in
goods)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..core import Game, InvalidOption, OptionSpec, Result
from . import dealt as _dealt
from . import dealt_legal as _dealt_legal
from .cards import (
    ASIDE_MAX,
    BAG_MAX,
    EXCHANGES,
    GOOD_NAME,
    LEGAL,
    NG,
    card_deck,
    ids_of,
)
from .checks import check_step
from .common import can_draw_deck, claims_for_bag, condition_choices, loaders, pay_options
from .counted import Counted
from .dealt import Carded
from .events import sheriff_events
from .rules import APPLY, next_state
from .scoring import final_result
from .setup import setup_state
from .spaces import DEMANDS, OfferSpace, OrderSpace, SubsetSpace
from .state import (
    ACTIONS,
    ANSWER,
    ASIDE,
    CHOOSE,
    CONFISCATE,
    DECLARE,
    DISCARD,
    DRAW,
    LOAD,
    OFFER,
    OPPOSITE,
    OVER,
    PAY,
    Accept,
    Choose,
    Confiscate,
    Declare,
    Demand,
    Discard,
    DrawDeck,
    DrawDiscard,
    Inspect,
    Load,
    Pass,
    SetAside,
    State,
    View,
    build,
    draft,
)
from .view import make_view
from .zones import numbered_zones, secret_cards, swap_goods

_DECLARES = tuple(Declare(g) for g in LEGAL)


# ---- the game ---------------------------------------------------------------------------
_DRAW_CHOICES = {  # (pile 1 allowed, pile 2 allowed, draw pile allowed) -> the draw actions
    (one, two, deck): tuple(a for a, ok in zip((DrawDiscard(1), DrawDiscard(2), DrawDeck()),
                                                (one, two, deck), strict=True) if ok)
    for one in (False, True) for two in (False, True) for deck in (False, True)
}
_NOBODY: frozenset[int] = frozenset()
_ONLY = {seat: frozenset((seat,)) for seat in range(8)} | {-1: _NOBODY}  # -1: game over
_CHOOSE = {seat: Choose(seat) for seat in range(8)}
_DEMAND_ACTIONS = tuple(Demand(text) for text in DEMANDS)
_ACCEPT, _PASS, _INSPECT = Accept(), Pass(), Inspect()
_ANSWERS = {  # (may demand, may accept, may inspect) -> the Sheriff's answers, in this order
    (demand, accept, inspect): (
        (_DEMAND_ACTIONS if demand else ()) + ((_ACCEPT,) if accept else ()) + (_PASS,)
        + ((_INSPECT,) if inspect else ())
    )
    for demand in (False, True) for accept in (False, True) for inspect in (False, True)
}


class Sheriff(Game):
    id = "sheriff"
    name = "Sheriff of Nottingham"
    face_names = GOOD_NAME  # a view names a card by its good: copies of a good are alike
    min_players = 3
    max_players = 5
    action_types = ACTIONS
    options = (
        OptionSpec("royal_goods", True, (True, False),
                   "false = the first-game setup without the 12 royal goods"),
        OptionSpec("first_sheriff", None, None, "seat of the first Sheriff (null = drawn)"),
        OptionSpec("deck", None, None, "stacked deck: good ids, top card first (tests, replays); "
                   "card ids (good#k) stack a dealt game"),
    )

    # ---- setup ---------------------------------------------------------------------------
    def _setup(self, n_players: int, seed: bytes, options: dict[str, Any]) -> State:
        royal = options["royal_goods"]
        if not isinstance(royal, bool):
            raise InvalidOption("royal_goods must be true or false")
        first = options["first_sheriff"]
        if first is not None and (
            not isinstance(first, int) or isinstance(first, bool) or not 0 <= first < n_players
        ):
            raise InvalidOption(f"first_sheriff must be null or a seat from 0 to {n_players - 1}")
        return setup_state(n_players, seed, royal, first, options["deck"])

    # ---- turn structure ------------------------------------------------------------------
    def is_over(self, state: State) -> bool:
        return state.phase == OVER

    def _active(self, state: State) -> frozenset[int]:
        if state.phase == LOAD:
            return frozenset(loaders(state))
        return _ONLY[state.turn]  # turn -1 (game over): nobody

    def _legal_actions(self, s: State, seat: int) -> Any:
        if len(s.aside) != NG:  # a dealt game
            return _dealt_legal.legal_actions(self, s, seat)
        # load and declare have no sub-step; every other step name is unique to its phase
        return self._legal_by_step[s.step or s.phase](self, s, seat)

    def _check(self, s: State, seat: int) -> Any:
        def check(action: object) -> None:  # membership of the large spaces = validation
            self._validate(s, seat, action)

        return check

    def _legal_set_aside(self, s: State, seat: int) -> SubsetSpace:
        hand = s.hands[seat]
        return SubsetSpace(hand, 0, min(ASIDE_MAX, sum(hand)), SetAside, self._check(s, seat))

    def _legal_draw(self, s: State, seat: int) -> tuple:
        piles = s.piles
        fresh = not s.drew_deck
        return _DRAW_CHOICES[fresh and bool(piles[0]), fresh and bool(piles[1]), can_draw_deck(s)]

    def _legal_discard(self, s: State, seat: int) -> OrderSpace:
        return OrderSpace(ids_of(s.aside), Discard, self._check(s, seat))

    def _legal_load(self, s: State, seat: int) -> SubsetSpace:
        hand = s.hands[seat]
        return SubsetSpace(hand, 1, min(BAG_MAX, sum(hand)), Load, self._check(s, seat))

    def _legal_declare(self, s: State, seat: int) -> tuple:
        return _DECLARES

    def _legal_choose(self, s: State, seat: int) -> tuple:
        return tuple(_CHOOSE[p] for p in s.pending)

    def _legal_confiscate(self, s: State, seat: int) -> OrderSpace:
        return OrderSpace(ids_of(s.confiscated), Confiscate, self._check(s, seat))

    def _legal_pay(self, s: State, seat: int) -> tuple:
        return pay_options(s.stands[seat], s.debt.amount)

    def _legal_offer(self, s: State, seat: int) -> OfferSpace:
        return self._offer_space(s, seat, self._check(s, seat))

    def _legal_answer(self, s: State, seat: int) -> tuple:
        return self._answers(s)

    _legal_by_step = {
        ASIDE: _legal_set_aside, DRAW: _legal_draw, DISCARD: _legal_discard, LOAD: _legal_load,
        DECLARE: _legal_declare, CHOOSE: _legal_choose, OFFER: _legal_offer,
        ANSWER: _legal_answer, CONFISCATE: _legal_confiscate, PAY: _legal_pay,
    }

    def _offer_space(self, s: State, seat: int, check: Any) -> OfferSpace:
        choices = condition_choices(s.pending, seat, s.conditions)
        bag_claims = claims_for_bag(s.n_players, s.royal, sum(s.bags[seat]))
        return OfferSpace(s.gold[seat], s.stands[seat], bag_claims, choices, check)

    def _answers(self, s: State) -> tuple:
        return _ANSWERS[
            s.exchange < EXCHANGES,
            s.offer is not None and not any(
                (OPPOSITE[kind], x) in s.conditions for kind, x in s.offer.conditions
            ),
            ("pass", s.merchant) not in s.conditions,
        ]

    def _validate(self, s: State, seat: int, a: Any) -> None:
        check_step(s, seat, a)

    def _apply(self, s: State, actions: Mapping[int, Any]) -> State:
        return next_state(s, actions)

    # ---- views and results ---------------------------------------------------------------
    def _view(self, state: State, seat: int | None) -> View:
        return make_view(state, seat)  # either zone kind (view.py)

    def _result(self, state: State) -> Result:
        # every stand is scored face up at the end (§7): counts of goods in either zone kind
        z = Carded if len(state.aside) != NG else Counted
        return final_result(state.gold, tuple(map(z.goods, state.stands)))

    def events(self, before: State, actions: Mapping[int, Any], after: State) -> tuple:
        """Public events: bags unnamed until an inspection opens them (events.py)."""
        return sheriff_events(before, actions, after)

    # ---- hidden cards over the network (engine/sheriff/dealt.py) -------------------------
    def decks(self, n_players: int, options: Mapping[str, Any]) -> tuple[tuple[str, tuple[str, ...]], ...]:
        royal = self.check_options(options)["royal_goods"]  # the dealer passes them unchecked
        return (("deck", card_deck(n_players, royal)),)

    def dealt_options(self, n_players: int, orders: Mapping[str, tuple[Any, ...]]) -> dict[str, Any]:
        return _dealt.dealt_options(orders)

    def deck_cards(self, state: State, label: str) -> tuple[str, ...] | None:
        return _dealt.deck_cards(state, label)

    def deck_owner(self, state: State, label: str) -> int | None:
        return _dealt.deck_owner(state, label)

    def seen(self, state: State, seat: int | None) -> frozenset[str]:
        return _dealt_legal.seen(state, seat) if _dealt.is_dealt(state) else frozenset()

    def needs(self, state: State, actions: Mapping[int, Any]) -> frozenset[str]:
        return _dealt_legal.needs(state, actions) if _dealt.is_dealt(state) else frozenset()

    def scored_cards(self, state: State, seat: int) -> tuple[str, ...]:
        # a stand is scored face up, its contraband turned over (§7); the plain game counts goods
        return tuple(state.stands[seat]) if _dealt.is_dealt(state) else ()

    def in_reach(self, state: State, seat: int) -> tuple[str, ...] | None:
        return _dealt_legal.in_reach(state, seat) if _dealt.is_dealt(state) else None

    def describe(self, action: Any) -> str:
        return str(action)

    # ---- test hooks ----------------------------------------------------------------------
    def zones(self, state: State) -> dict[str, tuple[str, ...]]:
        """Every card, named `good#k` (k numbers the copies of a good across zones in order)."""
        return {name: ids for name, ids, _ in numbered_zones(state)}

    def swap_cards(self, state: State, card: str, other: str) -> State | None:
        return swap_goods(state, card, other)

    def secret_from(self, state: State, seat: int | None) -> frozenset[str]:
        """Numbered ids of the cards `seat` may not see (identified ones excepted)."""
        return secret_cards(state, seat)


def _one_step(s: State, seat: int, a: Any) -> State:
    """The state after `seat`'s validated action in a step where it acts alone (not LOAD)."""
    d = draft(s)
    APPLY[type(a)](d, a, Carded if len(s.aside) != NG else Counted)  # `rules.zones_of` inline
    return build(d)


# Game's fast lane: every action is checked by the step it is sent in; every one but a load is
# played by the one seat to act, applied to a draft (a load takes `_apply`, even by one loader).
Sheriff._checks = {kind: check_step for kind in (*APPLY, Load)}
Sheriff._steps = {kind: _one_step for kind in APPLY}

GAME = Sheriff()
