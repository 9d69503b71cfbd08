"""Money! rules (money.md): setup, the simultaneous bid, the turns, round end, scoring.

One `apply` step is either the whole BID step (every seat's bid at once; the reveal happens
inside) or one turn of the acting bid (the round end and the refill happen inside the last
turn). Hot path: validation is O(hand) through the precomputed dicts of `cards`.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator, Mapping
from itertools import compress
from typing import Any

from ..core import (
    ActionSpace,
    Game,
    IllegalAction,
    InvalidOption,
    OptionSpec,
    Result,
    Rng,
    Seat,
    Stream,
    check_stacked,
    draw,
    shuffle_or_stack,
)
from .cards import (
    BLUFFS,
    CURRENCIES,
    DEFAULT_EDITION,
    EDITION_CARDS,
    EDITIONS,
    HAND_SIZE,
    KIND,
    MARKET_TARGET,
    PLAYER_RANGE,
    REMOVED_COUNT,
    SERIAL,
    SIDE_NAMES,
    SORT_KEY,
    VALUE,
    labels,
    money_cards,
)
from .cards import CURRENCY as CARD_CURRENCY
from .scoring import score_hands
from .state import Bid, BidView, Keep, MoneyState, MoneyView, SwapBid, SwapMarket

STALEMATE_ROUNDS = 200
"""The rules have no round limit (money.md §9.10); harnesses stop a game after this many."""

_SORT = SORT_KEY.__getitem__
_KEEP = Keep()
_SIDES = (SwapMarket(0), SwapMarket(1))
_SWAPS = tuple((SwapBid(owner, 0), SwapBid(owner, 1)) for owner in range(5))
_ALL_SEATS = {n: frozenset(range(n)) for n in range(1, 6)}
_ONE_SEAT = tuple(frozenset((seat,)) for seat in range(5))


# ---- bids ------------------------------------------------------------------------------


def _acts_before(a: tuple[str, ...], b: tuple[str, ...]) -> bool:
    """True if group a acts before group b (§5.3: higher value, then lower key serial)."""
    va = sum(VALUE[c] for c in a)
    vb = sum(VALUE[c] for c in b)
    if va != vb:
        return va > vb
    return SERIAL[a[0]] < SERIAL[b[0]]


def make_bid(left_cards, right_cards=(), n_players: int = 3) -> Bid:
    """The canonical Bid for the groups a player built (bluff ids dropped, sorted, oriented).

    3-5 players: both groups form one bid. 2 players: one non-empty group becomes `left`;
    of two non-empty groups the one that acts first becomes `left` (money.md §6). A card
    named in both groups stays in the left one.
    """
    for card in (*left_cards, *right_cards):
        if card not in KIND:
            raise IllegalAction(f"{card!r} is not a card")
    left = tuple(sorted({c for c in left_cards if KIND[c] != "bluff"}, key=_SORT))
    right = tuple(sorted({c for c in right_cards if KIND[c] != "bluff"} - set(left), key=_SORT))
    if n_players != 2:
        return Bid(tuple(sorted(set(left) | set(right), key=_SORT)), ())
    if not left or (right and not _acts_before(left, right)):
        left, right = right, left
    return Bid(left, right)


def _group_problem(group: object, hand: frozenset[str], what: str) -> str | None:
    if not isinstance(group, tuple):
        return f"the {what} must be a tuple of card ids (build bids with make_bid)"
    last = 0
    for card in group:
        if not isinstance(card, str) or card not in SERIAL:
            return f"{card!r} is not a card"
        if KIND[card] == "bluff":
            return f"{card} is a bluff card: a bid names only money cards (the bluff card is implied)"
        if card not in hand:
            return f"{card} is not in your hand"
        serial = SERIAL[card]
        if serial <= last:
            return f"the {what} must list each card once, in serial order"
        last = serial
    return None


def bid_problem(hand: frozenset[str], two_player: bool, bid: object) -> str | None:
    """Why `bid` is not a legal bid from `hand` (None if it is). O(size of the bid)."""
    if type(bid) is not Bid:
        return "it is the bidding step: choose a bid"
    problem = _group_problem(bid.left, hand, "bid") or _group_problem(bid.right, hand, "right group")
    if problem:
        return problem
    if not bid.right:
        return None
    if not two_player:
        return "with 3 or more players the bluff card does not split a bid: use one group"
    if not bid.left:
        return "a single group goes in `left` (use make_bid)"
    if not set(bid.left).isdisjoint(bid.right):
        return "a card cannot be in both groups"
    if not _acts_before(bid.left, bid.right):
        return "the group that acts first goes in `left` (use make_bid)"
    return None


class BidSpace(ActionSpace):
    """Every distinct canonical bid from a hand's money cards (uniform `sample`).

    3-5 players: the 2^m subsets. 2 players: the 2^m single groups plus the
    (3^m - 2*2^m + 1) / 2 unordered pairs of disjoint non-empty groups.
    """

    __slots__ = ("cards", "two_player", "_hand")

    def __init__(self, cards: tuple[str, ...], two_player: bool) -> None:
        self.cards = cards
        self.two_player = two_player
        self._hand: frozenset[str] | None = None

    @property
    def size(self) -> int:
        """The exact number of distinct bids (may exceed what `len` can return)."""
        m = len(self.cards)
        if not self.two_player:
            return 2**m
        return 2**m + (3**m - 2 * 2**m + 1) // 2

    def __len__(self) -> int:
        # len() must fit a C ssize_t: a 2-player hand of 40+ money cards has more bids.
        return min(self.size, sys.maxsize)

    def __contains__(self, action: object) -> bool:
        if self._hand is None:
            self._hand = frozenset(self.cards)
        return bid_problem(self._hand, self.two_player, action) is None

    def _subset(self, mask: int) -> tuple[str, ...]:
        return tuple(c for i, c in enumerate(self.cards) if mask >> i & 1)

    def __iter__(self) -> Iterator[Bid]:
        m = len(self.cards)
        for mask in range(2**m):
            yield Bid(self._subset(mask))
        if not self.two_player:
            return
        full = 2**m - 1
        for lmask in range(1, 2**m):
            rest = full & ~lmask
            sub = rest
            while sub:
                left, right = self._subset(lmask), self._subset(sub)
                if _acts_before(left, right):
                    yield Bid(left, right)
                sub = (sub - 1) & rest

    def sample(self, rng: Stream) -> Bid:
        cards = self.cards
        m = len(cards)
        if not self.two_player:
            if m <= 60:  # one draw: bit i of a uniform m-bit number picks card i
                bits = format(rng.below(1 << m), "b")[::-1] if m else ""
                return Bid(tuple(compress(cards, map("1".__eq__, bits))))
            picked: list[str] = []
            for start in range(0, m, 60):
                chunk = cards[start:start + 60]
                bits = format(rng.below(1 << len(chunk)), "b")[::-1]
                picked.extend(compress(chunk, map("1".__eq__, bits)))
            return Bid(tuple(picked))
        while True:  # an ordered (L, R) uniformly, kept only in canonical form: uniform
            left: list[str] = []
            right: list[str] = []
            for start in range(0, m, 40):
                chunk = cards[start:start + 40]
                code = rng.below(3 ** len(chunk))
                for card in chunk:
                    code, digit = divmod(code, 3)
                    if digit == 1:
                        left.append(card)
                    elif digit == 2:
                        right.append(card)
            lt, rt = tuple(left), tuple(right)
            if not rt or (lt and _acts_before(lt, rt)):
                return Bid(lt, rt)


def _money_of(hand: tuple[str, ...]) -> tuple[str, ...]:
    """A hand's money cards: all but its bluff card, which always sorts last."""
    return hand[:-1] if KIND[hand[-1]] == "bluff" else hand


# ---- setup -----------------------------------------------------------------------------


def _check_removed(value: Any, edition: str, n_players: int) -> tuple[str, ...] | None:
    if value is None:
        return None
    if isinstance(value, (str, bytes)) or not isinstance(value, (list, tuple)):
        raise InvalidOption("removed_currencies must be a list of currency ids or null")
    want = REMOVED_COUNT[edition][n_players]
    for cur in value:
        if cur not in CURRENCIES:
            raise InvalidOption(
                f"removed_currencies: unknown currency {cur!r} (currencies: {', '.join(CURRENCIES)})"
            )
    if len(set(value)) != len(value):
        raise InvalidOption(f"removed_currencies names a currency twice: {list(value)}")
    if len(value) != want:
        raise InvalidOption(
            f"removed_currencies must name {want} currenc{'y' if want == 1 else 'ies'} "
            f"for {n_players} players, not {len(value)}"
        )
    return tuple(c for c in CURRENCIES if c in value)


def _removed_by_deck(deck: Any, edition: str, n_players: int) -> tuple[str, ...]:
    if isinstance(deck, (str, bytes)) or not isinstance(deck, (list, tuple)):
        raise InvalidOption("deck must be a list of card ids (top card first) or null")
    cards = EDITION_CARDS[edition]
    for card in deck:
        if not isinstance(card, str) or card not in SERIAL:
            raise InvalidOption(f"the stacked deck holds {card!r}, which is not a card")
        if KIND[card] == "bluff":
            raise InvalidOption(f"the stacked deck may not hold a bluff card ({card})")
        if card not in cards:
            raise InvalidOption(f"the stacked deck holds {card}, which is not in the {edition} edition")
    present = {CARD_CURRENCY[c] for c in deck}
    removed = tuple(c for c in CURRENCIES if c not in present)
    want = REMOVED_COUNT[edition][n_players]
    if len(removed) != want:
        raise InvalidOption(
            f"the stacked deck leaves out {len(removed)} currencies "
            f"({', '.join(removed) or 'none'}); {n_players} players remove {want}"
        )
    return removed


def _setup(n_players: int, seed: bytes, options: dict[str, Any]) -> MoneyState:
    edition = options["edition"]
    rng = Rng(seed)
    listed = _check_removed(options["removed_currencies"], edition, n_players)
    stacked = options["deck"]
    # Step 1: removed currencies.
    if stacked is not None:
        removed = _removed_by_deck(stacked, edition, n_players)
        if listed is not None and listed != removed:
            raise InvalidOption(
                f"removed_currencies ({', '.join(listed)}) disagrees with the stacked deck, "
                f"which leaves out {', '.join(removed)}"
            )
    elif listed is not None:
        removed = listed
    else:
        k = REMOVED_COUNT[edition][n_players]
        if k:
            order, rng = rng.shuffle(CURRENCIES)
            removed = tuple(c for c in CURRENCIES if c in order[:k])
        else:
            removed = ()
    # Steps 2-3: the deck of the currencies in play plus the edition's cards, shuffled.
    in_play = tuple(c for c in CURRENCIES if c not in removed)
    cards = money_cards(edition, in_play)
    if stacked is not None:
        check_stacked(cards, tuple(stacked))
    deck, rng = shuffle_or_stack(cards, rng, None if stacked is None else tuple(stacked))
    # Step 4: deal 6 cards each from the top, seat 0 first, plus one bluff card each.
    hands = []
    for seat in range(n_players):
        dealt, deck = draw(deck, HAND_SIZE)
        hands.append(tuple(sorted(dealt + (BLUFFS[seat],), key=_SORT)))
    # Step 5: market side I, then side II.
    side1, deck = draw(deck, MARKET_TARGET)
    side2, deck = draw(deck, MARKET_TARGET)
    unseen = tuple(sorted((c for h in hands for c in h), key=_SORT))
    return MoneyState(
        n_players=n_players,
        edition=edition,
        removed=removed,
        hands=tuple(hands),
        market=(tuple(sorted(side1, key=_SORT)), tuple(sorted(side2, key=_SORT))),
        deck=deck,
        box=BLUFFS[n_players:],
        phase="bid",
        round_no=1,
        final_round=False,
        pending=(),
        done=(),
        withdrawn=(),
        last_round=(),
        history=(),
        last_history=(),
        unseen=unseen,
        rng=rng,
    )


# ---- transitions -----------------------------------------------------------------------


def _merge(hand: tuple[str, ...], cards: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(sorted(hand + cards, key=_SORT))


def _reveal(state: MoneyState, bids: Mapping[Seat, Bid]) -> MoneyState:
    """§5.2: bids face up, bluff cards back, empty bids withdrawn, the rest ordered."""
    hands = list(state.hands)
    order: list[tuple[int, int, int, int, tuple[str, ...]]] = []
    withdrawn: list[BidView] = []
    shown: list[str] = []
    final = " (final round)" if state.final_round else ""
    lines = [f"round {state.round_no}{final}: bids revealed"]
    value_of = VALUE.__getitem__
    for seat in range(state.n_players):
        bid = bids[seat]
        left, right = bid.left, bid.right
        if not left:
            withdrawn.append(BidView(seat, 0, (), 0, 0, "withdrawn", "bluff card only"))
            lines.append(f"seat {seat} bid only the bluff card: no turn")
            continue
        value = sum(map(value_of, left))
        order.append((-value, SERIAL[left[0]], seat, 0, left))
        text = f"seat {seat} bid {labels(left)} ({value})"
        if right:
            value = sum(map(value_of, right))
            order.append((-value, SERIAL[right[0]], seat, 1, right))
            text += f" and {labels(right)} ({value})"
        lines.append(text)
        out = set(left + right)
        shown.extend(out)
        hands[seat] = tuple([c for c in hands[seat] if c not in out])
    history = tuple(lines)
    if shown:
        seen = set(shown)
        unseen = tuple([c for c in state.unseen if c not in seen])
    else:
        unseen = state.unseen
    if not order:
        return _end_round(state, tuple(hands), state.market, (), tuple(withdrawn), history, unseen)
    order.sort()
    pending = tuple(
        BidView(seat, slot, cards, -neg, key, "acting" if i == 0 else "pending")
        for i, (neg, key, seat, slot, cards) in enumerate(order)
    )
    return MoneyState(
        state.n_players, state.edition, state.removed, tuple(hands), state.market, state.deck,
        state.box, "turns", state.round_no, state.final_round, pending, (),
        tuple(withdrawn), state.last_round, history, state.last_history, unseen, state.rng,
    )


def _whose(state: MoneyState, owner: int, slot: int) -> str:
    """"seat 1", or "seat 1's left bid" when seat 1 made two bids this round (2 players)."""
    if state.n_players == 2 and any(b.owner == owner and b.slot == 1
                                    for b in state.pending + state.done):
        return f"seat {owner}'s {'right' if slot else 'left'} bid"
    return f"seat {owner}"


def _turn(state: MoneyState, action: object) -> MoneyState:
    """§5.3: the acting bid swaps with a side or another bid, or is kept."""
    acting = state.pending[0]
    rest = state.pending[1:]
    seat = acting.owner
    hands = list(state.hands)
    market = state.market
    who = _whose(state, seat, acting.slot)
    if type(action) is SwapMarket:
        side = action.side
        taken = market[side]
        hands[seat] = _merge(hands[seat], taken)
        market = (acting.cards, market[1]) if side == 0 else (market[0], acting.cards)
        outcome = f"swapped with side {SIDE_NAMES[side]}"
        line = f"{who} {outcome}: took {labels(taken)}"
    elif type(action) is SwapBid:
        target = next(b for b in rest if b.owner == action.owner and b.slot == action.slot)
        hands[seat] = _merge(hands[seat], target.cards)
        moved = BidView(target.owner, target.slot, acting.cards, acting.value,
                        acting.key_serial, "next")
        rest = (moved,) + tuple(b for b in rest if b is not target)
        outcome = f"swapped with {_whose(state, target.owner, target.slot)}"
        if not outcome.endswith(" bid"):
            outcome += "'s bid"
        line = f"{who} {outcome}: took {labels(target.cards)}; seat {target.owner} acts next"
    else:
        hands[seat] = _merge(hands[seat], acting.cards)
        outcome = "kept"
        line = f"{who} kept {labels(acting.cards)}"
    done = state.done + (BidView(seat, acting.slot, acting.cards, acting.value,
                                 acting.key_serial, "resolved", outcome),)
    history = state.history + (line,)
    if not rest:
        return _end_round(state, tuple(hands), market, done, state.withdrawn, history, state.unseen)
    first = rest[0]
    if first.status == "pending":
        rest = (BidView(first.owner, first.slot, first.cards, first.value,
                        first.key_serial, "acting"),) + rest[1:]
    return MoneyState(
        state.n_players, state.edition, state.removed, tuple(hands), market, state.deck,
        state.box, "turns", state.round_no, state.final_round, rest, done, state.withdrawn,
        state.last_round, history, state.last_history, state.unseen, state.rng,
    )


def _end_round(state: MoneyState, hands, market, done, withdrawn, history, unseen) -> MoneyState:
    """§5.4: score after the final round; otherwise refill side I then side II up to 4."""
    last_round = done + withdrawn
    if state.final_round:
        history += ("the final round is over: the game ends",)
        return MoneyState(
            state.n_players, state.edition, state.removed, hands, market, state.deck,
            state.box, "over", state.round_no, True, (), (), (), last_round, (), history,
            unseen, state.rng,
        )
    deck = state.deck
    final = False
    if not deck:  # a safeguard: a refill that dealt the last card already made this final
        final = True
        history += ("the deck is empty: the next round is the final round",)
    else:
        sides = []
        parts = []
        dealt_total = 0
        for name, side in zip(SIDE_NAMES, market, strict=True):
            dealt, deck = draw(deck, max(0, MARKET_TARGET - len(side)))
            dealt_total += len(dealt)
            parts.append(f"side {name} +{len(dealt)}")
            sides.append(tuple(sorted(side + dealt, key=_SORT)) if dealt else side)
        market = (sides[0], sides[1])
        history += (
            f"round {state.round_no} ends: refill {', '.join(parts)}; {len(deck)} left in the deck",
        )
        if dealt_total and not deck:
            final = True
            history += ("the last card was dealt: the next round is the final round",)
    return MoneyState(
        state.n_players, state.edition, state.removed, hands, market, deck, state.box, "bid",
        state.round_no + 1, final, (), (), (), last_round, (), history, unseen, state.rng,
    )


# ---- the game --------------------------------------------------------------------------


def _turn_actions(state: MoneyState) -> tuple[Any, ...]:
    acting = state.pending[0]
    owner = acting.owner
    swaps = tuple(_SWAPS[b.owner][b.slot] for b in state.pending[1:] if b.owner != owner)
    sides = tuple(_SIDES[i] for i in (0, 1) if state.market[i])
    return sides + swaps + (_KEEP,)


def _turn_problem(state: MoneyState, seat: Seat, action: object) -> str | None:
    kind = type(action)
    if kind is Keep:
        return None
    if kind is SwapMarket:
        side = action.side
        if type(side) is not int or side not in (0, 1):
            return f"there is no market side {side!r} (0 = side I, 1 = side II)"
        if not state.market[side]:
            return f"market side {SIDE_NAMES[side]} is empty"
        return None
    if kind is SwapBid:
        owner, slot = action.owner, action.slot
        if type(owner) is not int or type(slot) is not int:
            return "a bid is named by its owner's seat and its slot (0 or 1)"
        if owner == seat:
            return "you cannot swap with your own bid"
        for bid in state.pending:
            if bid.owner == owner and bid.slot == slot:
                return None
        return f"seat {owner} has no such bid on the table (it has acted, or bid only the bluff card)"
    if kind is Bid:
        return "the bids are revealed: it is your turn to swap or keep"
    return "choose swap with a market side, swap with a bid, or keep"


class MoneyGame(Game):
    id = "money"
    name = "Money!"
    min_players = 2
    max_players = 5
    options = (
        OptionSpec("edition", DEFAULT_EDITION, EDITIONS,
                   "gold_silver (Gold and Silver cards, 2-5 players) or classic (coins, 3-5)"),
        OptionSpec("removed_currencies", None, None,
                   "currencies returned to the box (null: chosen by the seeded shuffle)"),
        OptionSpec("deck", None, None, "stacked deck for tests and replays, top card first"),
    )

    def player_range(self, options: Mapping[str, Any]) -> tuple[int, int]:
        return PLAYER_RANGE.get(options.get("edition", DEFAULT_EDITION), (2, 5))

    def _setup(self, n_players: int, seed: bytes, options: dict[str, Any]) -> MoneyState:
        return _setup(n_players, seed, options)

    # ---- whose turn ----
    def is_over(self, state: MoneyState) -> bool:
        return state.phase == "over"

    def _active(self, state: MoneyState) -> frozenset[Seat]:
        if state.phase == "bid":
            return _ALL_SEATS[state.n_players]
        return _ONE_SEAT[state.pending[0].owner]

    def _legal_actions(self, state: MoneyState, seat: Seat):
        if state.phase == "bid":
            return BidSpace(_money_of(state.hands[seat]), state.n_players == 2)
        return _turn_actions(state)

    def _validate(self, state: MoneyState, seat: Seat, action: object) -> None:
        if state.phase == "bid":
            problem = bid_problem(frozenset(state.hands[seat]), state.n_players == 2, action)
        else:
            problem = _turn_problem(state, seat, action)
        if problem:
            raise IllegalAction(f"seat {seat} cannot {self.describe(action)}: {problem}")

    def _apply(self, state: MoneyState, actions: Mapping[Seat, Any]) -> MoneyState:
        if state.phase == "bid":
            return _reveal(state, actions)
        ((_, action),) = actions.items()
        return _turn(state, action)

    # ---- what a seat sees ----
    def _view(self, state: MoneyState, seat: Seat | None) -> MoneyView:
        pending = state.pending
        over = state.phase == "over"
        hand = None if seat is None else state.hands[seat]
        if state.phase == "bid":
            to_act = tuple(range(state.n_players))
        elif pending:
            to_act = (pending[0].owner,)
        else:
            to_act = ()
        return MoneyView(
            seat, state.n_players, state.edition, state.removed, hand,
            tuple(map(len, state.hands)), state.market, len(state.deck), state.phase,
            state.round_no, state.final_round, state.done + pending + state.withdrawn,
            (pending[0].owner, pending[0].slot) if pending else None, to_act,
            state.last_history + state.history, state.last_round,
            state.hands if over else None,
        )

    def _result(self, state: MoneyState) -> Result:
        return score_hands(state.hands, state.edition)

    # ---- presentation and test hooks ----
    def describe(self, action: object) -> str:
        kind = type(action)
        if kind is Bid:
            if not action.left and not action.right:
                return "bid only the bluff card"
            if action.right:
                return f"bid {_cards_text(action.left)} | {_cards_text(action.right)}"
            return f"bid {_cards_text(action.left)}"
        if kind is SwapMarket:
            side = action.side
            name = SIDE_NAMES[side] if type(side) is int and side in (0, 1) else repr(side)
            return f"swap with market side {name}"
        if kind is SwapBid:
            slot = {0: "", 1: " (right bid)"}.get(action.slot, f" (slot {action.slot!r})")
            return f"swap with seat {action.owner}'s bid{slot}"
        if kind is Keep:
            return "keep the bid"
        return f"play {action!r}"

    def zones(self, state: MoneyState) -> dict[str, tuple[str, ...]]:
        out = {f"hand{seat}": hand for seat, hand in enumerate(state.hands)}
        out["market_I"] = state.market[0]
        out["market_II"] = state.market[1]
        out["deck"] = state.deck
        out["bids"] = tuple(c for bid in state.pending for c in bid.cards)
        out["box"] = state.box
        return out

    def secret_from(self, state: MoneyState, seat: Seat | None) -> frozenset[str]:
        """The deck, and the cards of other hands never shown face up (§7: every revealed
        card's path is public, so a card once bid or seen in the market is no secret)."""
        if state.phase == "over":
            return frozenset(state.deck)
        unseen = set(state.unseen)
        others = (
            c for s, hand in enumerate(state.hands) if s != seat for c in hand if c in unseen
        )
        return frozenset(state.deck).union(others)

    def stalemate(self, state: MoneyState) -> bool:
        return state.round_no > STALEMATE_ROUNDS


def _cards_text(cards: tuple[str, ...]) -> str:
    if not isinstance(cards, tuple) or not all(isinstance(c, str) and c in KIND for c in cards):
        return repr(cards)
    return labels(cards) if cards else "nothing"


GAME = MoneyGame()
