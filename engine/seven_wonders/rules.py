"""7 Wonders rules (seven_wonders.md): setup, the steps of an Age, legality, resolution, view."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..core import (
    HIDDEN,
    Game,
    IllegalAction,
    InvalidOption,
    OptionSpec,
    Result,
    Rng,
    check_stacked,
    fast_maker,
    relabel,
    shuffle_or_stack,
)
from ..core.hidden import is_masked, is_token, masked, parse_token
from .cards import (
    BOARDS,
    CARD_RANK,
    CARDS,
    DEFEAT_TOKEN,
    DISCARD_COINS,
    GUILDS,
    HAND_SIZE,
    MAX_PLAYERS,
    MIN_PLAYERS,
    PASS_LEFT,
    STARTING_COINS,
    TURNS_PER_AGE,
    VICTORY_TOKEN,
    WONDER_ORDER,
    Counts,
    age_cards,
    guild_count,
)
from .events import conflict_events, seven_wonders_events
from .payment import Profile, profile
from .picks import Context, Picks
from .picks import card_options as card_options  # re-exported: screens and tests import it here
from .scoring import Table, result_of, science_symbols, score_table
from .state import (
    ACTIONS,
    BABYLON,
    BUILD,
    BUILD_FREE,
    DISCARD,
    HALIKARNASSOS,
    OVER,
    PICK,
    PICK_KINDS,
    STAGE,
    BabylonTurn,
    BuildFromDiscard,
    CardOption,
    Conflict,
    Decline,
    Move,
    Payment,
    Pick,
    Production,
    SeatScore,
    State,
    View,
)

SIDES = ("A", "B")
_evolve = fast_maker(State).evolve  # a copy of a state with some fields changed


# ---- the paying context of a seat ------------------------------------------------------------
def _context(state: State, seat: int) -> Context:
    cities = _memo(state).profiles()
    if state.phase == BABYLON and state.babylon is not None and state.babylon.seat == seat:
        b = state.babylon
        return Context(state.wonders, state.sides, state.stages, state.cities, seat, b.budget,
                       (b.start_stages, b.start_cards), cities)
    return Context(state.wonders, state.sides, state.stages, state.cities, seat, state.coins[seat],
                   None, cities)


def _free_build_ready(wonder: str, side: str, stages: int, used: bool) -> bool:
    """Olympia A: a stage with the free build is built (before this turn) and unused this Age."""
    if used:
        return False
    return any(s.effects.free_build_once_per_age for s in BOARDS[(wonder, side)].stages[:stages])


def _keeps_last_card(wonder: str, side: str, stages_after_pick: int) -> bool:
    return any(s.effects.play_last_card for s in BOARDS[(wonder, side)].stages[:stages_after_pick])


def view_context(view: View) -> Context:
    """The paying context of the viewing seat, rebuilt from its view alone (for screens/bots)."""
    if view.seat is None:
        raise IllegalAction("a spectator has no hand")
    return Context(view.wonders, view.sides, view.stages, view.cities, view.seat, view.budget,
                   view.discount_basis)


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

    # ---- setup -------------------------------------------------------------------------------
    def _setup(self, n_players: int, seed: bytes, options: dict[str, Any]) -> State:
        n = n_players
        stacked = _check_deck(options["deck"], n)
        rng = Rng(seed)
        wonders_opt = options["wonders"]
        if wonders_opt is None:
            order, rng = rng.shuffle(WONDER_ORDER)
            wonders = tuple(order[:n])
        else:
            wonders = _check_wonders(wonders_opt, n)
        sides, rng = _sides(options["wonder_side"], n, rng)
        if stacked[2] is None:
            drawn, rng = rng.shuffle(GUILDS)
            guilds = tuple(sorted(drawn[: guild_count(n)], key=CARD_RANK.__getitem__))
        else:  # a deck dealt by the table holds tokens: _setup_dealt sets the guild deck
            guilds = tuple(sorted((c for c in stacked[2] if c in GUILDS), key=CARD_RANK.__getitem__))
        state = State(
            n_players=n,
            wonders=wonders,
            sides=sides,
            age=0,
            turn=0,
            phase=PICK,
            hands=((),) * n,
            cities=((),) * n,
            stages=(0,) * n,
            tucked=((),) * n,
            coins=(STARTING_COINS,) * n,
            tokens=((),) * n,
            discard=(),
            free_used=(False,) * n,
            guilds=guilds,
            stacked=stacked,
            babylon=None,
            halikarnassos=-1,
            moves=(),
            rng=rng,
            conflicts=(),
        )
        return _start_age(state, 1)

    # ---- who acts, what is legal ---------------------------------------------------------------
    def is_over(self, state: State) -> bool:
        return state.phase == OVER

    def _active(self, state: State) -> frozenset[int]:
        return active_seats(state)

    def _legal_actions(self, state: State, seat: int) -> tuple | Picks:
        if state.phase == HALIKARNASSOS:
            return tuple(BuildFromDiscard(c) for c in _eligible_discards(state, seat)) + (Decline(),)
        return _pick_actions(state, seat)

    def _validate(self, state: State, seat: int, action: Any) -> None:
        if state.phase == HALIKARNASSOS:
            self._explain(state, seat, action)
            return
        if is_token(state.guilds[0]):  # a dealt game (its guild deck stays face down): tokens
            _check_dealt_pick(state, seat, action)
            return
        # the common case first: a pick in the seat's space (shared with legal_actions and the
        # view of this position), which checks exact types and only the picked card's payments
        if action in _position(state, seat):
            return
        self._explain(state, seat, action)
        # _explain accepts exactly the legal list; this line would mean the two disagree
        raise IllegalAction(f"seat {seat} cannot {action}")

    def _explain(self, state: State, seat: int, action: Any) -> None:
        """Raise IllegalAction with the reason `action` is not legal (returns if it is)."""
        if state.phase == HALIKARNASSOS:
            if isinstance(action, Decline):
                return
            if not isinstance(action, BuildFromDiscard) or not isinstance(action.card, str):
                raise IllegalAction(f"seat {seat} must build a card from the discard pile or decline")
            if action.card not in {c for _, c in state.discard}:
                raise IllegalAction(f"seat {seat} cannot build {action.card}: it is not in the discard pile")
            if CARDS[action.card].name in profile_of(state, seat).names:
                raise IllegalAction(
                    f"seat {seat} cannot build {action.card}: {CARDS[action.card].name} is already in the city")
            return
        if not isinstance(action, Pick) or not isinstance(action.card, str) or not isinstance(action.kind, str):
            raise IllegalAction(f"seat {seat} must pick a card from hand (build, stage or discard)")
        if not all(isinstance(p, int) and not isinstance(p, bool) for p in (action.pay_left, action.pay_right)):
            raise IllegalAction(f"seat {seat}: payments are whole numbers of coins")
        card = action.card
        if state.phase == BABYLON:
            if card != state.babylon.card:
                raise IllegalAction(f"seat {seat} cannot play {card}: the kept card is {state.babylon.card}")
            if action.kind == BUILD_FREE:
                raise IllegalAction(f"seat {seat} has no free build for the last card")
        elif card not in state.hands[seat]:
            raise IllegalAction(f"seat {seat} cannot play {card}: it is not in your hand")
        if action.kind not in PICK_KINDS:
            raise IllegalAction(f"seat {seat}: {action.kind!r} is not build, build_free, stage or discard")
        paid = (action.pay_left, action.pay_right)
        if action.kind == DISCARD or action.kind == BUILD_FREE:
            if paid != (0, 0):
                raise IllegalAction(f"seat {seat}: a {action.kind} pays nobody")
            if action.kind == BUILD_FREE:
                if not _free_build_ready(state.wonders[seat], state.sides[seat], state.stages[seat],
                                         state.free_used[seat]):
                    raise IllegalAction(f"seat {seat} has no free build available now")
                if CARDS[card].name in profile_of(state, seat).names:
                    raise IllegalAction(f"seat {seat} cannot build {card}: {CARDS[card].name} is already in the city")
            return
        ctx = _context(state, seat)
        if action.kind == BUILD:
            status, coin_cost, offered = ctx.build_status(card)
            what = f"build {card}"
            if status == "owned":
                raise IllegalAction(f"seat {seat} cannot {what}: {CARDS[card].name} is already in the city")
            if status == "impossible":
                raise IllegalAction(f"seat {seat} cannot {what}: its resources cannot be produced or bought")
            ways = ctx.ways(CARDS[card].cost) if status != "free" else ((0, 0),)
        else:
            if ctx.stage_cost is None:
                raise IllegalAction(f"seat {seat}: every stage of the wonder is built")
            what, coin_cost, offered = "build the next stage", ctx.stage_coins, ctx.stage_offers()
            ways = ctx.ways(ctx.stage_cost)
            if not ways:
                raise IllegalAction(f"seat {seat} cannot {what}: its resources cannot be produced or bought")
        if paid in offered:
            return
        if paid in ways:
            raise IllegalAction(
                f"seat {seat} cannot {what} paying {paid[0]} left and {paid[1]} right: "
                f"it costs {coin_cost + paid[0] + paid[1]} coins, you may spend {ctx.budget}")
        listed = ", ".join(f"({a}, {b})" for a, b in offered) or "none you can afford"
        raise IllegalAction(
            f"seat {seat} cannot {what} paying {paid[0]} left and {paid[1]} right: ways to pay are {listed}")

    # ---- resolution ------------------------------------------------------------------------------
    def _apply(self, state: State, actions: Mapping[int, Any]) -> State:
        if state.phase == PICK:
            return _resolve_picks(state, actions)
        if state.phase == BABYLON:
            return _resolve_babylon(state, actions[state.babylon.seat])
        return _resolve_halikarnassos(state, actions[state.halikarnassos])

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

        return {"deck": {age: [face(c) for c in orders[_AGE_DECK[age]]] for age in (1, 2, 3)}}

    def _setup_dealt(self, n_players: int, seed: bytes, options: dict[str, Any]) -> State:
        if options["deck"] is not None:
            raise InvalidOption("a table deals the decks itself: no stacked deck over the network")
        size = HAND_SIZE * n_players
        dealt = {age: masked(_AGE_DECK[age], size) for age in (1, 2, 3)}
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


class _Memo:
    """What one state object has already worked out: its cities' profiles, its seats' picks.

    legal_actions, validate, apply and view of one state share it; the entry holds the state,
    so its id cannot be reused while cached."""

    __slots__ = ("state", "_profiles", "_production", "picks")

    def __init__(self, state: State) -> None:
        self.state = state
        self._profiles: tuple[Profile, ...] | None = None
        self._production: tuple[Production, ...] | None = None
        self.picks: dict[int, Picks] = {}

    def production(self) -> tuple[Production, ...]:
        if self._production is None:
            s = self.state
            self._production = tuple(
                Production(p.own[0], p.own[1], p.sells[0], p.sells[1], p.shields,
                           *science_symbols(s.cities[seat], [stage.effects for stage in
                                            BOARDS[(s.wonders[seat], s.sides[seat])].stages[: s.stages[seat]]]))
                for seat, p in enumerate(self.profiles()))
        return self._production

    def profiles(self) -> tuple[Profile, ...]:
        if self._profiles is None:
            s = self.state
            self._profiles = tuple(profile(s.wonders[i], s.sides[i], s.stages[i], s.cities[i])
                                   for i in range(s.n_players))
        return self._profiles


_MEMO: dict[int, _Memo] = {}


def _memo(state: State) -> _Memo:
    memo = _MEMO.get(id(state))
    if memo is None or memo.state is not state:
        if len(_MEMO) > 64:
            _MEMO.clear()
        memo = _MEMO[id(state)] = _Memo(state)
    return memo


def _position(state: State, seat: int) -> Picks:
    """The seat's picks, worked out once per state object."""
    memo = _memo(state)
    hit = memo.picks.get(seat)
    if hit is None:
        hit = memo.picks[seat] = _positions(state, seat)
    return hit


def _positions(state: State, seat: int) -> Picks:
    ctx = _context(state, seat)
    if state.phase == BABYLON:
        hand: tuple[str, ...] = (state.babylon.card,)
        free = False
    else:
        hand = state.hands[seat]
        free = _free_build_ready(state.wonders[seat], state.sides[seat], state.stages[seat],
                                 state.free_used[seat])
    return Picks(ctx, hand, free)


def _pick_actions(state: State, seat: int) -> Picks:
    return _position(state, seat)


_EVERY_SEAT = tuple(frozenset(range(n)) for n in range(MAX_PLAYERS + 1))  # asked several times a step
_ONE_SEAT = tuple(frozenset((s,)) for s in range(MAX_PLAYERS))


def active_seats(state: State) -> frozenset[int]:
    if state.phase == PICK:
        return _EVERY_SEAT[state.n_players]
    if state.phase == BABYLON:
        return _ONE_SEAT[state.babylon.seat]
    if state.phase == HALIKARNASSOS:
        return _ONE_SEAT[state.halikarnassos]
    return frozenset()


def profile_of(state: State, seat: int) -> Profile:
    return _memo(state).profiles()[seat]


# ---- a dealt game's public state ---------------------------------------------------------------
# The Age III deck's guild cards are slots of the guild deck (its first n + 2 positions): the
# table draws them face down into Age III (the pool pass, docs/protocol.md §11), so a position
# opens straight to its guild. A seat's choice is masked with the cards in its reach
# (`in_reach`), in that order, not with every face it ever saw (two copies of one card).
GUILD_DECK = "guilds"
_AGE_DECK = {1: "age1", 2: "age2", 3: "age3"}


def network_decks(n: int) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """The decks a table deals (label, cards in setup order): the guild deck before the Age III
    deck, whose guild cards are slots of it (the first n + 2 positions: the guilds in play)."""
    slots = masked(GUILD_DECK, guild_count(n))
    return (("age1", age_cards(1, n)), ("age2", age_cards(2, n)), (GUILD_DECK, GUILDS),
            ("age3", age_cards(3, n) + slots))


def in_reach(state: State, seat: int) -> tuple[str, ...]:
    """The cards `seat` may name in its action now, in the order the rules take copies of one
    card: its hand (a hand passed on is shown to its new owner; the passer knew it), Babylon's
    kept card, and during its step Halikarnassos the discard pile, oldest first (§5.4, §8).

    A seat's choice names a card id; over the network it is put back as the token of one of
    these cards (the first of that face), never of a copy elsewhere that the seat once saw."""
    if state.phase == HALIKARNASSOS and state.halikarnassos == seat:
        return tuple(c for _, c in state.discard)
    if state.babylon is not None and state.babylon.seat == seat:
        return (state.babylon.card, *state.hands[seat])
    return state.hands[seat]


def _check_dealt_pick(state: State, seat: int, action: Any) -> None:
    """A pick in the table's public state: the picked card is a token unless it is built (then
    `needs` revealed it), and the other hand cards are tokens, so only the card picked is read."""
    if type(action) is not Pick or not isinstance(action.card, str) or action.kind not in PICK_KINDS:
        raise IllegalAction(f"seat {seat} must pick a card from hand (build, stage or discard)")
    hand = (state.babylon.card,) if state.phase == BABYLON else state.hands[seat]
    if action.card not in hand:
        raise IllegalAction(f"seat {seat} cannot play {action.card}: it is not in your hand")
    if not is_token(action.card):
        if action not in _picks_of(state, seat, action.card):
            raise IllegalAction(f"seat {seat} cannot {action}")
        return
    paid = (action.pay_left, action.pay_right)
    if type(paid[0]) is int and type(paid[1]) is int:  # exact types, as Picks checks them
        if action.kind == DISCARD and paid == (0, 0):
            return
        if action.kind == STAGE and paid in _context(state, seat).stage_offers():
            return
    raise IllegalAction(f"seat {seat} cannot {action}: a face-down card is only sold or tucked under a stage")


def _picks_of(state: State, seat: int, card: str) -> Picks:
    """The picks of one (face-up) card, in the seat's position."""
    babylon = state.phase == BABYLON
    free = not babylon and _free_build_ready(state.wonders[seat], state.sides[seat], state.stages[seat],
                                             state.free_used[seat])
    return Picks(_context(state, seat), (card,), free)


# ---- options -----------------------------------------------------------------------------------
def _check_wonders(value: Any, n: int) -> tuple[str, ...]:
    if isinstance(value, (str, bytes)) or not isinstance(value, Sequence):
        raise InvalidOption("wonders must be a list of wonder ids in seat order")
    if len(value) != n:
        raise InvalidOption(f"wonders must name {n} boards, one per seat, not {len(value)}")
    for w in value:
        if w not in WONDER_ORDER:
            raise InvalidOption(f"unknown wonder {w!r} (wonders: {', '.join(WONDER_ORDER)})")
    if len(set(value)) != n:
        raise InvalidOption("wonders must not name a board twice")
    return tuple(value)


def _sides(value: Any, n: int, rng: Rng) -> tuple[tuple[str, ...], Rng]:
    if value in SIDES:
        return (value,) * n, rng
    if value == "random":
        out = []
        for _ in range(n):
            k, rng = rng.below(2)
            out.append(SIDES[k])
        return tuple(out), rng
    if isinstance(value, (list, tuple)):
        if len(value) != n:
            raise InvalidOption(f"wonder_side as a list needs {n} values, one per seat, not {len(value)}")
        if any(v not in SIDES for v in value):
            raise InvalidOption('wonder_side list values must be "A" or "B"')
        return tuple(value), rng
    raise InvalidOption(f'wonder_side must be "A", "B", "random" or a list of sides, not {value!r}')


def _check_deck(value: Any, n: int) -> tuple[tuple[str, ...] | None, ...]:
    """The stacked decks per Age (None = shuffle); a bad list raises InvalidOption."""
    out: list[tuple[str, ...] | None] = [None, None, None]
    if value is None:
        return tuple(out)
    if not isinstance(value, Mapping):
        raise InvalidOption("deck must map an Age (1, 2, 3) to a list of card ids")
    for key, cards in value.items():
        try:
            age = int(key)
        except (TypeError, ValueError):
            age = 0
        if age not in (1, 2, 3) or isinstance(key, bool):
            raise InvalidOption(f"deck: {key!r} is not an Age (1, 2 or 3)")
        if out[age - 1] is not None:
            raise InvalidOption(f"deck: Age {age} is given twice")
        if isinstance(cards, (str, bytes)) or not isinstance(cards, Sequence):
            raise InvalidOption(f"deck: Age {age} must be a list of card ids")
        expected = age_cards(age, n)
        if is_masked(cards, HAND_SIZE * n):  # dealt by the table (_setup_dealt): faces unknown
            out[age - 1] = tuple(cards)
            continue
        if age == 3:
            guilds = [c for c in cards if c in GUILDS]
            if len(guilds) != guild_count(n) or len(set(guilds)) != len(guilds):
                raise InvalidOption(f"deck: Age III must hold {guild_count(n)} different guilds for {n} players")
            expected = expected + tuple(guilds)
        check_stacked(expected, list(cards), f"Age {age} deck")
        out[age - 1] = tuple(cards)
    return tuple(out)


# ---- the steps ---------------------------------------------------------------------------------
def _start_age(state: State, age: int) -> State:
    n = state.n_players
    stacked = state.stacked[age - 1]
    if stacked is not None and any(map(is_token, stacked)):
        # dealt by the table, face down: nobody may sort what nobody has seen (a hand is put
        # in rank order where its faces are written in, see state.py)
        hands = tuple(stacked[HAND_SIZE * s: HAND_SIZE * (s + 1)] for s in range(n))
        return _evolve(state, age=age, turn=1, phase=PICK, hands=hands, free_used=(False,) * n,
                       moves=state.moves if age > 1 else ())
    cards = age_cards(age, n) + (state.guilds if age == 3 else ())
    deck, rng = shuffle_or_stack(cards, state.rng, stacked, f"Age {age} deck")
    hands = tuple(
        tuple(sorted(deck[HAND_SIZE * s: HAND_SIZE * (s + 1)], key=CARD_RANK.__getitem__)) for s in range(n)
    )
    return _evolve(state, age=age, turn=1, phase=PICK, hands=hands, free_used=(False,) * n, rng=rng,
                   moves=state.moves if age > 1 else ())


def _spend(state: State, seat: int, action: Pick) -> int:
    if action.kind == BUILD:
        card = CARDS[action.card]
        if card.chain_from and not card.chain_from.isdisjoint(profile_of(state, seat).names):
            return 0
        return card.coin_cost + action.pay_left + action.pay_right
    if action.kind == STAGE:
        stage = BOARDS[(state.wonders[seat], state.sides[seat])].stages[state.stages[seat]]
        return stage.coin_cost + action.pay_left + action.pay_right
    return 0


class _Turn:
    """Mutable scratch copy of the parts of the state a resolution changes."""

    def __init__(self, state: State) -> None:
        self.n = state.n_players
        self.wonders, self.sides = state.wonders, state.sides
        self.hands = [list(h) for h in state.hands]
        self.cities = list(state.cities)
        self.stages = list(state.stages)
        self.tucked = list(state.tucked)
        self.coins = list(state.coins)
        self.discard = list(state.discard)
        self.free_used = list(state.free_used)
        self.tokens = state.tokens

    def count(self, seat: int, counts: Counts) -> int:
        return Table(self.wonders, self.sides, self.stages, self.cities, self.coins, self.tokens).count(
            seat, counts)

    def place(self, seat: int, action: Pick) -> list:
        """Put the picked card where it goes; return the effects that pay coins on arrival."""
        if action.kind in (BUILD, BUILD_FREE):
            self.cities[seat] = self.cities[seat] + (action.card,)
            return [CARDS[action.card].effects]
        if action.kind == STAGE:
            stage = BOARDS[(self.wonders[seat], self.sides[seat])].stages[self.stages[seat]]
            self.tucked[seat] = self.tucked[seat] + (action.card,)
            self.stages[seat] += 1
            return [stage.effects]
        self.discard.append((seat, action.card))
        return []

    def income(self, seat: int, action: Pick, effects: list) -> int:
        gained = DISCARD_COINS if action.kind == DISCARD else 0
        for e in effects:
            gained += e.coins
        for e in effects:
            if e.coins_per is not None:
                gained += e.coins_per.amount * self.count(seat, e.coins_per)
        return gained

    def pay_neighbours(self, seat: int, action: Pick) -> None:
        self.coins[(seat + 1) % self.n] += action.pay_left
        self.coins[(seat - 1) % self.n] += action.pay_right

    def into(self, state: State, **changes: Any) -> State:
        return _evolve(
            state,
            hands=tuple(tuple(h) for h in self.hands),
            cities=tuple(self.cities),
            stages=tuple(self.stages),
            tucked=tuple(self.tucked),
            coins=tuple(self.coins),
            discard=tuple(self.discard),
            free_used=tuple(self.free_used),
            **changes,
        )


def _resolve_picks(state: State, actions: Mapping[int, Pick]) -> State:
    t = _Turn(state)
    n = state.n_players
    seats = range(n)
    for seat in seats:
        t.hands[seat].remove(actions[seat].card)
    kept = None
    if state.turn == TURNS_PER_AGE:  # DISCARD_REST, except Babylon B's kept card
        for seat in seats:
            after = state.stages[seat] + (actions[seat].kind == STAGE)
            if t.hands[seat] and _keeps_last_card(state.wonders[seat], state.sides[seat], after):
                kept = (seat, t.hands[seat][0])
            else:
                t.discard += [(seat, c) for c in t.hands[seat]]
            t.hands[seat] = []
    spent = [_spend(state, seat, actions[seat]) for seat in seats]
    for seat in seats:
        t.coins[seat] -= spent[seat]
    hali = -1
    arriving = []
    for seat in seats:
        effects = t.place(seat, actions[seat])
        arriving.append(effects)
        if any(e.build_from_discard for e in effects) and actions[seat].kind == STAGE:
            hali = seat
        if actions[seat].kind == BUILD_FREE:
            t.free_used[seat] = True
    gains = [t.income(seat, actions[seat], arriving[seat]) for seat in seats]
    for seat in seats:
        t.coins[seat] += gains[seat]
    for seat in seats:
        t.pay_neighbours(seat, actions[seat])
    moves = tuple(
        Move(seat, actions[seat].kind, actions[seat].card, actions[seat].pay_left, actions[seat].pay_right)
        for seat in seats
    )
    if kept is not None:
        seat, card = kept
        babylon = BabylonTurn(seat, card, state.coins[seat] - spent[seat], state.stages[seat],
                              len(state.cities[seat]))
        return t.into(state, phase=BABYLON, babylon=babylon, halikarnassos=hali, moves=moves)
    if hali < 0 and state.turn < TURNS_PER_AGE:  # the usual turn: pass the hands in the same step
        step = 1 if PASS_LEFT[state.age] else -1
        t.hands = [t.hands[(s - step) % n] for s in seats]
        return t.into(state, moves=moves, halikarnassos=-1, turn=state.turn + 1)
    nxt = t.into(state, moves=moves, halikarnassos=hali)
    return _after_turn(nxt)


def _resolve_babylon(state: State, action: Pick) -> State:
    seat = state.babylon.seat
    t = _Turn(state)
    t.coins[seat] -= _spend(state, seat, action)
    effects = t.place(seat, action)
    t.coins[seat] += t.income(seat, action, effects)
    t.pay_neighbours(seat, action)
    move = Move(seat, action.kind, action.card, action.pay_left, action.pay_right)
    nxt = t.into(state, babylon=None, moves=state.moves + (move,))
    return _after_turn(nxt)


def _resolve_halikarnassos(state: State, action: BuildFromDiscard | Decline) -> State:
    seat = state.halikarnassos
    if isinstance(action, Decline):
        move = Move(seat, "decline", "")
        return _after_turn(_evolve(state, halikarnassos=-1, moves=state.moves + (move,)))
    t = _Turn(state)
    index = next(i for i, (_, c) in enumerate(t.discard) if c == action.card)
    del t.discard[index]
    pick = Pick(action.card, BUILD)
    effects = t.place(seat, pick)
    t.coins[seat] += t.income(seat, pick, effects)
    move = Move(seat, "from_discard", action.card)
    return _after_turn(t.into(state, halikarnassos=-1, moves=state.moves + (move,)))


def _after_turn(state: State) -> State:
    """Halikarnassos if due, then pass hands or end the Age."""
    if state.halikarnassos >= 0:
        if state.discard:
            return _evolve(state, phase=HALIKARNASSOS)
        state = _evolve(state, halikarnassos=-1)
    if state.turn < TURNS_PER_AGE:
        n = state.n_players
        step = 1 if PASS_LEFT[state.age] else -1
        hands = tuple(state.hands[(s - step) % n] for s in range(n))
        return _evolve(state, phase=PICK, turn=state.turn + 1, hands=hands)
    state = _military(state)
    if state.age < 3:
        return _start_age(state, state.age + 1)
    return _evolve(state, phase=OVER)


def _military(state: State) -> State:
    """The conflicts of the Age ending (§7): tokens to each seat, and the results kept."""
    n = state.n_players
    shields = tuple(p.shields for p in _memo(state).profiles())
    win = VICTORY_TOKEN[state.age]
    tokens = []
    results = []
    for s in range(n):
        got = []
        for other in ((s + 1) % n, (s - 1) % n):
            if shields[s] > shields[other]:
                got.append(win)
            elif shields[s] < shields[other]:
                got.append(DEFEAT_TOKEN)
            else:
                got.append(0)
        results.append((got[0], got[1]))
        tokens.append(state.tokens[s] + tuple(t for t in got if t))
    conflict = Conflict(state.age, shields, tuple(results))
    return _evolve(state, tokens=tuple(tokens), conflicts=state.conflicts + (conflict,))


def _eligible_discards(state: State, seat: int) -> tuple[str, ...]:
    names = profile_of(state, seat).names
    return tuple(sorted({c for _, c in state.discard if CARDS[c].name not in names},
                        key=CARD_RANK.__getitem__))


# ---- scoring and view --------------------------------------------------------------------------
def final_scores(state: State) -> tuple[SeatScore, ...]:
    return score_table(Table(state.wonders, state.sides, state.stages, state.cities, state.coins,
                             state.tokens))


def make_view(state: State, seat: int | None) -> View:
    n = state.n_players
    me = seat if seat is not None and 0 <= seat < n else None
    active = tuple(sorted(active_seats(state)))
    hand: tuple[str, ...] = ()
    kept = None
    budget = 0
    basis = None
    free = False
    options: tuple[CardOption, ...] = ()
    stage_pay: tuple[Payment, ...] = ()
    pile: tuple[str, ...] = ()
    if me is not None:
        hand = state.hands[me]
        budget = state.coins[me]
        free = _free_build_ready(state.wonders[me], state.sides[me], state.stages[me], state.free_used[me])
        if state.babylon is not None and state.babylon.seat == me:
            kept = state.babylon.card
            if state.phase == BABYLON:
                hand = (kept,)
                budget = state.babylon.budget
                basis = (state.babylon.start_stages, state.babylon.start_cards)
                free = False
        if me in active and state.phase in (PICK, BABYLON):
            options, stage_pay = _position(state, me).options
        if state.phase == HALIKARNASSOS and state.halikarnassos == me:
            pile = tuple(sorted((c for _, c in state.discard), key=CARD_RANK.__getitem__))
    moves = tuple(
        m if m.kind in (BUILD, BUILD_FREE, "from_discard", "decline") or m.seat == me
        else Move(m.seat, m.kind, HIDDEN, m.pay_left, m.pay_right)
        for m in state.moves
    )
    hand_sizes = tuple(len(h) for h in state.hands)
    return View(
        seat=me,
        n_players=n,
        age=state.age,
        turn=state.turn,
        phase=state.phase,
        active=active,
        pass_left=PASS_LEFT[state.age],
        wonders=state.wonders,
        sides=state.sides,
        cities=state.cities,
        stages=state.stages,
        coins=state.coins,
        tokens=state.tokens,
        hand_sizes=hand_sizes,
        discard_count=len(state.discard),
        moves=moves,
        hand=hand,
        tucked=state.tucked[me] if me is not None else (),
        my_discards=tuple(c for who, c in state.discard if who == me) if me is not None else (),
        discard_pile=pile,
        kept=kept,
        budget=budget,
        discount_basis=basis,
        free_build=free,
        options=options,
        stage_payments=stage_pay,
        final=final_scores(state) if state.phase == OVER else (),
        production=_memo(state).production(),
        conflicts=state.conflicts,
    )


GAME = SevenWonders()
