"""7 Wonders rules (seven_wonders.md): setup, the steps of an Age, legality, resolution, view."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..core import (
    Game,
    IllegalAction,
    InvalidOption,
    OptionSpec,
    Result,
    fast_maker,
    relabel,
)
from ..core.hidden import is_token, masked, parse_token
from .cards import (
    CARDS,
    GUILDS,
    HAND_SIZE,
    MAX_PLAYERS,
    MIN_PLAYERS,
    age_cards,
)
from .checks import explain
from .dealt import AGE_DECK, GUILD_DECK, check_dealt_pick, in_reach, network_decks
from .events import conflict_events, seven_wonders_events
from .picks import Picks
from .position import active_seats, position_of
from .scoring import result_of
from .setup import setup_state
from .state import (
    ACTIONS,
    BABYLON,
    BUILD,
    BUILD_FREE,
    DISCARD,
    HALIKARNASSOS,
    OVER,
    PICK,
    STAGE,
    BuildFromDiscard,
    Decline,
    Pick,
    State,
    View,
)
from .steps import eligible_discards, resolve_babylon, resolve_halikarnassos, resolve_picks
from .view import final_scores, make_view

_evolve = fast_maker(State).evolve  # a copy of a state with some fields changed


# ---- the game ----------------------------------------------------------------------------------
class SevenWonders(Game):
    id = "seven_wonders"
    name = "7 Wonders"
    min_players = MIN_PLAYERS
    max_players = MAX_PLAYERS
    action_types = ACTIONS
    options = (
        OptionSpec("wonder_side", "A", None, 'side of every board: "A", "B", "random" or a list per seat'),
        OptionSpec("wonders", None, None, "board per seat (list of wonder ids), default shuffled"),
        OptionSpec("deck", None, None, "stacked decks: {age: [card ids, top first]} (tests, replays)"),
    )

    def _setup(self, n_players: int, seed: bytes, options: dict[str, Any]) -> State:
        return setup_state(n_players, seed, options)

    # ---- who acts, what is legal ---------------------------------------------------------------
    def is_over(self, state: State) -> bool:
        return state.phase == OVER

    def _active(self, state: State) -> frozenset[int]:
        return active_seats(state)

    def _legal_actions(self, state: State, seat: int) -> tuple | Picks:
        if state.phase == HALIKARNASSOS:
            return tuple(BuildFromDiscard(c) for c in eligible_discards(state, seat)) + (Decline(),)
        return position_of(state, seat)

    def _validate(self, state: State, seat: int, action: Any) -> None:
        if state.phase == HALIKARNASSOS:
            self._explain(state, seat, action)
            return
        if is_token(state.guilds[0]):  # a dealt game (its guild deck stays face down): tokens
            check_dealt_pick(state, seat, action)
            return
        # the common case first: a pick in the seat's space (shared with legal_actions and the
        # view of this position), which checks exact types and only the picked card's payments
        if action in position_of(state, seat):
            return
        self._explain(state, seat, action)
        # _explain accepts exactly the legal list; this line would mean the two disagree
        raise IllegalAction(f"seat {seat} cannot {action}")

    def _explain(self, state: State, seat: int, action: Any) -> None:
        explain(state, seat, action)

    # ---- resolution ------------------------------------------------------------------------------
    def _apply(self, state: State, actions: Mapping[int, Any]) -> State:
        if state.phase == PICK:
            return resolve_picks(state, actions)
        if state.phase == BABYLON:
            return resolve_babylon(state, actions[state.babylon.seat])
        return resolve_halikarnassos(state, actions[state.halikarnassos])

    def _result(self, state: State) -> Result:
        return result_of(final_scores(state))

    # ---- hidden cards over the network (engine/core/hidden.py) ------------------------------
    # Every Age deck is dealt face down before setup. The guild deck is shuffled too: its first
    # n + 2 cards are the guilds in play, which go face down into the Age III deck as "guild
    # slot" tokens of the guild deck (the table shuffles those tokens with the Age III cards);
    # the others stay in the box and are never shown.
    def decks(self, n_players: int, options: Mapping[str, Any]) -> tuple[tuple[str, tuple[Any, ...]], ...]:
        return network_decks(n_players)

    def dealt_options(self, n_players: int, orders: Mapping[str, tuple[Any, ...]]) -> dict[str, Any]:
        """The three Age decks stacked as dealt (the `deck` option), guild slots written in."""
        guild_deck = orders[GUILD_DECK]

        def face(card: str) -> str:  # a guild slot is the guild at that position of its deck
            return guild_deck[parse_token(card)[1]] if is_token(card) else card

        return {"deck": {age: [face(c) for c in orders[AGE_DECK[age]]] for age in (1, 2, 3)}}

    def _setup_dealt(self, n_players: int, seed: bytes, options: dict[str, Any]) -> State:
        if options["deck"] is not None:
            raise InvalidOption("a table deals the decks itself: no stacked deck over the network")
        size = HAND_SIZE * n_players
        dealt = {age: masked(AGE_DECK[age], size) for age in (1, 2, 3)}
        state = self._setup(n_players, seed, {**options, "deck": dealt})
        return _evolve(state, guilds=masked(GUILD_DECK, len(GUILDS)))

    def seen(self, state: State, seat: int | None) -> frozenset[Any]:
        """Built cards are turned face up by `needs`; besides them a seat sees only the cards
        it may play now (`in_reach`). Everything else stays face down: cards tucked under a
        board or sold, the last cards of an Age, the guild deck."""
        return frozenset() if seat is None else frozenset(in_reach(state, seat))

    def in_reach(self, state: State, seat: int) -> tuple[str, ...]:
        """The cards a choice of `seat` may name now, in the order the rules take copies of
        one card: what a network table masks the choice with (`in_reach` below)."""
        return in_reach(state, seat)

    def needs(self, state: State, actions: Mapping[int, Any]) -> frozenset[str]:
        """A card built (from hand, free, by Babylon, from the discard pile) is revealed with
        the picks: its cost, chain and effects are read. A stage's or a sale's card is not."""
        out = set()
        for seat, action in actions.items():
            card = getattr(action, "card", None)
            if not is_token(card) or (type(action) is not BuildFromDiscard
                                      and getattr(action, "kind", None) not in (BUILD, BUILD_FREE)):
                continue
            if card in in_reach(state, seat):  # never a card out of the seat's reach
                out.add(card)
        return frozenset(out)

    # ---- views and test hooks ----------------------------------------------------------------
    def _view(self, state: State, seat: int | None) -> View:
        return make_view(state, seat)

    def events(self, before: State, actions: Mapping[int, Any], after: State) -> tuple:
        """The picks every seat saw revealed (a stage's or a discard's card unnamed), then the
        conflicts of an Age that ended (events.py)."""
        return seven_wonders_events(actions) + conflict_events(before, after)

    def describe(self, action: Any) -> str:
        """One log line, safe for every seat: a stage's or a discard's card stays unnamed (§8)."""
        if isinstance(action, Pick):
            name = CARDS[action.card].name if action.card in CARDS else action.card
            pay = ""
            if action.pay_left or action.pay_right:
                pay = f", paying {action.pay_left} left and {action.pay_right} right"
            if action.kind == STAGE:
                return f"builds a wonder stage{pay}"
            if action.kind == DISCARD:
                return "discards a card for 3 coins"
            verb = "builds for free" if action.kind == BUILD_FREE else "builds"
            return f"{verb} {name}{pay}"
        if isinstance(action, BuildFromDiscard):
            name = CARDS[action.card].name if action.card in CARDS else action.card
            return f"builds {name} from the discard pile"
        return "builds nothing from the discard pile"

    def zones(self, state: State) -> dict[str, tuple[str, ...]]:
        """Every physical card by location; copies of an id are told apart as id#1, id#2...

        (copies are identical, so the label says nothing about which copy went where: the
        invariant checked is that each id keeps its number of copies.)
        """
        seen: dict[str, int] = {}
        out: dict[str, tuple[str, ...]] = {}
        for name, cards in self._zones(state).items():
            labels = []
            for card in cards:
                seen[card] = seen.get(card, 0) + 1
                labels.append(f"{card}#{seen[card]}")
            out[name] = tuple(labels)
        return out

    def _zones(self, state: State) -> dict[str, tuple[str, ...]]:
        out: dict[str, tuple[str, ...]] = {}
        for s in range(state.n_players):
            out[f"hand:{s}"] = state.hands[s]
            out[f"city:{s}"] = state.cities[s]
            out[f"tucked:{s}"] = state.tucked[s]
        out["discard"] = tuple(c for _, c in state.discard)
        out["kept"] = (state.babylon.card,) if state.babylon is not None else ()
        for age in (2, 3):
            future = ()
            if state.age < age:
                future = age_cards(age, state.n_players) + (state.guilds if age == 3 else ())
            out[f"undealt:{age}"] = future
        out["box"] = tuple(g for g in GUILDS if g not in state.guilds)
        return out

    def secret_from(self, state: State, seat: int | None) -> frozenset[str]:
        hidden: set[str] = set()
        seen: set[str] = set()
        for name, cards in self._zones(state).items():
            mine = seat is not None and name in (f"hand:{seat}", f"tucked:{seat}")
            public = name.startswith("city:")
            (seen if mine or public else hidden).update(cards)
        for who, card in state.discard:
            if who == seat or (state.phase == HALIKARNASSOS and state.halikarnassos == seat):
                seen.add(card)
        if state.babylon is not None and state.babylon.seat == seat:
            seen.add(state.babylon.card)
        for move in state.moves:
            if move.kind in (BUILD, BUILD_FREE, "from_discard") or move.seat == seat:
                seen.add(move.card)
        return frozenset(hidden - seen)

    def swap_cards(self, state: State, card: str, other: str) -> State | None:
        """Two cards of one Age (their backs show it) trading places, where each is the only
        copy of its id (as `secret_from` names cards) and lies in a zone the state holds (not
        the undealt Ages or the box, which the card lists make). A guild trades places only
        with a guild: the state names the game's guilds, so relabelling one would remake the
        box."""
        zones = self._zones(state)
        every = [c for cards in zones.values() for c in cards]
        held = {c for name, cards in zones.items() if name.split(":")[0] in _HELD_ZONES
                for c in cards}
        if card == other or card not in held or other not in held:
            return None
        if every.count(card) != 1 or every.count(other) != 1 or CARDS[card].age != CARDS[other].age:
            return None
        if (card in state.guilds) != (other in state.guilds):
            return None
        swapped = relabel(state, card, other)
        # two cards of one hand trading places leave it as it was: a hand is kept in rank order
        return None if swapped == state else swapped


_HELD_ZONES = frozenset(("hand", "tucked", "discard", "kept"))


GAME = SevenWonders()
