"""Money! rules (money.md): setup, the simultaneous bid, the turns, round end, scoring.

One `apply` step is either the whole BID step (every seat's bid at once; the reveal happens
inside) or one turn of the acting bid (the round end and the refill happen inside the last
turn). Hot path: validation is O(hand) through the precomputed dicts of `cards`.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator, Mapping
from itertools import compress, filterfalse
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
    relabel,
    shuffle_or_stack,
)
from ..core.hidden import is_token, masked
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
from .events import money_events
from .scoring import score_hands
from .state import (
    ACTIONS,
    Bid,
    BidView,
    Event,
    Keep,
    MoneySetup,
    MoneyState,
    MoneyView,
    PendingBid,
    SwapBid,
    SwapMarket,
    new_bid,
    new_pending,
    new_state,
)

STALEMATE_ROUNDS = 200
"""The rules have no round limit (money.md §9.10); harnesses stop a game after this many."""

_SORT = SORT_KEY.__getitem__
_KEEP = Keep()
_SIDES = (SwapMarket(0), SwapMarket(1))
_SWAPS = tuple((SwapBid(owner, 0), SwapBid(owner, 1)) for owner in range(5))
_ALL_SEATS = {n: frozenset(range(n)) for n in range(1, 6)}
_ONE_SEAT = tuple(frozenset((seat,)) for seat in range(5))
_NOBODY: frozenset[int] = frozenset()
_VALUE_OF = VALUE.__getitem__
_BIT_BYTES = bytes.maketrans(b"01", b"\x00\x01")  # "0"/"1" digits to falsy/truthy bytes
# _PICK12[v][i] is bit i of v (v < 2^12): `compress` picks a subset of up to 12 cards with it.
_PICK12 = tuple(format(v, "012b")[::-1].encode().translate(_BIT_BYTES) for v in range(4096))
_MONEY_SERIAL = {c: SERIAL[c] for c in SERIAL if KIND[c] != "bluff"}
_WITHDRAWN = tuple(BidView(seat, 0, (), 0, 0, "withdrawn", "bluff card only") for seat in range(5))
_TURNS = frozenset(("market", "swap", "keep"))
_OVER: Event = ("over",)
_DECK_EMPTY: Event = ("deck_empty",)
_LAST_DEALT: Event = ("last_dealt",)
_FIXED_LINES = {
    "over": "the final round is over: the game ends",
    "deck_empty": "the deck is empty: the next round is the final round",
    "last_dealt": "the last card was dealt: the next round is the final round",
}


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
                mask = rng.below(1 << m)
                if m <= 12:
                    return new_bid(tuple(compress(cards, _PICK12[mask])), ())
                if m <= 24:
                    bits = _PICK12[mask & 4095] + _PICK12[mask >> 12]
                else:
                    bits = format(mask, "b")[::-1].encode().translate(_BIT_BYTES)
                return new_bid(tuple(compress(cards, bits)), ())
            picked: list[str] = []
            for start in range(0, m, 60):
                chunk = cards[start:start + 60]
                bits = format(rng.below(1 << len(chunk)), "b")[::-1].encode().translate(_BIT_BYTES)
                picked.extend(compress(chunk, bits))
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
    # Every zone is in serial order already (faces only: setup refuses tokens), so the state
    # is built as transitions build it, not through MoneyState's sorting constructor.
    return new_state(
        MoneySetup(n_players, edition, removed, BLUFFS[n_players:], rng), tuple(hands),
        (tuple(sorted(side1, key=_SORT)), tuple(sorted(side2, key=_SORT))), deck, "bid", 1,
        False, (), (), (), unseen,
    )


# ---- transitions -----------------------------------------------------------------------


def _reveal(state: MoneyState, bids: Mapping[Seat, Bid]) -> MoneyState:
    """§5.2: bids face up, bluff cards back, empty bids withdrawn, the rest ordered."""
    hands = list(state.hands)
    order: list[tuple[int, int, int, int, tuple[str, ...]]] = []
    withdrawn: list[int] = []
    shown: list[str] = []
    for seat, hand in enumerate(state.hands):
        bid = bids[seat]
        left = bid.left
        if not left:
            withdrawn.append(seat)
            continue
        order.append((-sum(map(_VALUE_OF, left)), SERIAL[left[0]], seat, 0, left))
        right = bid.right
        if right:
            order.append((-sum(map(_VALUE_OF, right)), SERIAL[right[0]], seat, 1, right))
            shown += right
        shown += left
        # A valid bid names cards of the hand, each once: removing them one by one keeps
        # the hand's order and is the fastest way to take a few cards out of a dozen.
        kept = list(hand)
        for card in left:
            kept.remove(card)
        for card in right:
            kept.remove(card)
        hands[seat] = tuple(kept)
    unseen = state.unseen
    if unseen and shown:
        unseen = tuple(filterfalse(set(shown).__contains__, unseen))
    order.sort()
    placed = []  # a loop, not a comprehension: one call fewer a reveal (its own frame)
    for _, _, seat, slot, cards in order:
        placed.append(new_pending(seat, slot, cards))
    pending = tuple(placed)
    history = (("reveal", state.round_no, state.final_round, pending, tuple(withdrawn)),)
    if not pending:
        return _end_round(state, tuple(hands), state.market, history, unseen)
    return new_state(
        state.setup, tuple(hands), state.market, state.deck, "turns", state.round_no,
        state.final_round, pending, history, state.last_history, unseen,
    )


def _turn(state: MoneyState, seat: Seat, action: object) -> MoneyState:
    """§5.3: the acting bid (its owner is `seat`) swaps with a side or another bid, or is kept."""
    pending = state.pending
    acting = pending[0]
    rest = pending[1:]
    hands = list(state.hands)
    market = state.market
    kind = type(action)
    # Each branch merges what the player takes into the hand, kept in serial order.
    if kind is SwapMarket:
        side = action.side
        taken = market[side]
        hands[seat] = tuple(sorted(hands[seat] + taken, key=_SORT))
        market = (acting.cards, market[1]) if side == 0 else (market[0], acting.cards)
        event: Event = ("market", acting, side, taken)
    elif kind is SwapBid:
        owner, slot = action.owner, action.slot
        i = 0
        while rest[i].owner != owner or rest[i].slot != slot:  # validated: it is there
            i += 1
        target = rest[i]
        hands[seat] = tuple(sorted(hands[seat] + target.cards, key=_SORT))
        # The acting bid's cards take the target's place and act at once (§5.3).
        rest = (new_pending(owner, slot, acting.cards),) + rest[:i] + rest[i + 1:]
        event = ("swap", acting, target)
    else:
        hands[seat] = tuple(sorted(hands[seat] + acting.cards, key=_SORT))
        event = ("keep", acting)
    history = state.history + (event,)
    if not rest:
        return _end_round(state, tuple(hands), market, history, state.unseen)
    return new_state(
        state.setup, tuple(hands), market, state.deck, "turns", state.round_no,
        state.final_round, rest, history, state.last_history, state.unseen,
    )


def _end_round(state: MoneyState, hands, market, history, unseen) -> MoneyState:
    """§5.4: score after the final round; otherwise refill side I then side II up to 4."""
    if state.final_round:
        return new_state(
            state.setup, hands, market, state.deck, "over", state.round_no, True, (), (),
            history + (_OVER,), unseen,
        )
    deck = state.deck
    final = False
    if not deck:  # a safeguard: a refill that dealt the last card already made this final
        final = True
        history += (_DECK_EMPTY,)
    else:
        side1, side2 = market
        dealt1 = dealt2 = ()  # a side still full draws nothing (most refills leave one so)
        if len(side1) < MARKET_TARGET:
            dealt1, deck = draw(deck, MARKET_TARGET - len(side1))
        if len(side2) < MARKET_TARGET:
            dealt2, deck = draw(deck, MARKET_TARGET - len(side2))
        if dealt1:
            side1 = tuple(sorted(side1 + dealt1, key=_SORT))
        if dealt2:
            side2 = tuple(sorted(side2 + dealt2, key=_SORT))
        market = (side1, side2)
        history += (("refill", state.round_no, len(dealt1), len(dealt2), len(deck)),)
        if (dealt1 or dealt2) and not deck:
            final = True
            history += (_LAST_DEALT,)
    return new_state(
        state.setup, hands, market, deck, "bid", state.round_no + 1, final, (), (), history,
        unseen,
    )


# ---- what the log and the table show ---------------------------------------------------


def _split_owners(history: tuple[Event, ...]) -> frozenset[int]:
    """Seats that made two bids this round (2 players): their bids are named left/right."""
    if history and history[0][0] == "reveal":
        return frozenset(b.owner for b in history[0][3] if b.slot == 1)
    return frozenset()


def _whose(split: frozenset[int], owner: int, slot: int) -> str:
    """"seat 1", or "seat 1's left bid" when seat 1 made two bids this round (2 players)."""
    if owner in split:
        return f"seat {owner}'s {'right' if slot else 'left'} bid"
    return f"seat {owner}"


def _outcome(split: frozenset[int], event: Event) -> str:
    """What a turn did, as a resolved bid's `outcome`."""
    kind = event[0]
    if kind == "market":
        return f"swapped with side {SIDE_NAMES[event[2]]}"
    if kind == "swap":
        target = event[2]
        outcome = f"swapped with {_whose(split, target.owner, target.slot)}"
        return outcome if outcome.endswith(" bid") else outcome + "'s bid"
    return "kept"


def _round_bids(history: tuple[Event, ...]) -> tuple[tuple[BidView, ...], tuple[BidView, ...]]:
    """(the resolved bids in the order they acted, the withdrawn bids) of one round's log."""
    split = _split_owners(history)
    resolved = []
    withdrawn: tuple[BidView, ...] = ()
    for event in history:
        kind = event[0]
        if kind == "reveal":
            withdrawn = tuple(_WITHDRAWN[seat] for seat in event[4])
        elif kind in _TURNS:
            target = (event[2].owner, event[2].slot) if kind == "swap" else None
            resolved.append(_bid_view(event[1], "resolved", _outcome(split, event), target))
    return tuple(resolved), withdrawn


def _bid_view(bid: PendingBid, status: str, outcome: str = "",
              target: tuple[int, int] | None = None) -> BidView:
    cards = bid.cards
    return BidView(bid.owner, bid.slot, cards, sum(map(_VALUE_OF, cards)), SERIAL[cards[0]],
                   status, outcome, target)


def _history_lines(history: tuple[Event, ...]) -> list[str]:
    """One round's log worded for players."""
    split = _split_owners(history)
    lines = []
    for event in history:
        kind = event[0]
        if kind == "reveal":
            lines.extend(_reveal_lines(event))
        elif kind in _TURNS:
            bid = event[1]
            who = _whose(split, bid.owner, bid.slot)
            if kind == "market":
                lines.append(f"{who} {_outcome(split, event)}: took {labels(event[3])}")
            elif kind == "swap":
                target = event[2]
                lines.append(f"{who} {_outcome(split, event)}: took {labels(target.cards)}; "
                             f"seat {target.owner} acts next")
            else:
                lines.append(f"{who} kept {labels(bid.cards)}")
        elif kind == "refill":
            _, round_no, dealt1, dealt2, left = event
            lines.append(f"round {round_no} ends: refill side {SIDE_NAMES[0]} +{dealt1}, "
                         f"side {SIDE_NAMES[1]} +{dealt2}; {left} left in the deck")
        else:
            lines.append(_FIXED_LINES[kind])
    return lines


def _reveal_lines(event: Event) -> list[str]:
    _, round_no, final_round, bids, withdrawn = event
    lines = [f"round {round_no}{' (final round)' if final_round else ''}: bids revealed"]
    by_slot = {(b.owner, b.slot): b for b in bids}
    for seat in sorted({*withdrawn, *(b.owner for b in bids)}):
        if seat in withdrawn:
            lines.append(f"seat {seat} bid only the bluff card: no turn")
            continue
        left, right = by_slot[seat, 0], by_slot.get((seat, 1))
        text = f"seat {seat} bid {labels(left.cards)} ({sum(map(_VALUE_OF, left.cards))})"
        if right is not None:
            text += f" and {labels(right.cards)} ({sum(map(_VALUE_OF, right.cards))})"
        lines.append(text)
    return lines


# ---- over the network: the deck dealt face down (issue #13) ---------------------------

DEALT = "deck"
"""The label of the one deck a network table deals (engine/core/hidden.py tokens)."""


def deal_options(n_players: int, seed: bytes, options: Mapping[str, Any]) -> dict[str, Any]:
    """§4.2 step 1 before a network deal: the removed currencies drawn from the agreed seed as
    setup draws them, then listed (they fix which cards the dealt deck holds)."""
    out = dict(options)
    k = REMOVED_COUNT[options["edition"]][n_players]
    if options["removed_currencies"] is None and options["deck"] is None and k:
        order, _ = Rng(seed).shuffle(CURRENCIES)
        out["removed_currencies"] = [c for c in CURRENCIES if c in order[:k]]
    return out


def dealt_removed(n_players: int, options: Mapping[str, Any]) -> tuple[str, ...]:
    """The currencies a dealt game leaves out: the listed ones (the network table lists them
    from the seed, `deal_options`), else the last ones of §2.1.

    A dealt deck is a stacked one, whose removed currencies are those absent from it (§3).
    """
    edition = options["edition"]
    listed = _check_removed(options["removed_currencies"], edition, n_players)
    if listed is not None:
        return listed
    k = REMOVED_COUNT[edition][n_players]
    return CURRENCIES[len(CURRENCIES) - k:]


def dealt_cards(n_players: int, options: Mapping[str, Any]) -> tuple[str, ...]:
    """The cards of the dealt deck in setup order (§4.2 step 2: ascending serials)."""
    removed = dealt_removed(n_players, options)
    return money_cards(options["edition"], tuple(c for c in CURRENCIES if c not in removed))


def setup_dealt(n_players: int, seed: bytes, options: Mapping[str, Any]) -> MoneyState:
    """§4.2 with the deck dealt face down: what `_setup` makes of a stacked deck, every card
    of it a token (hands face down, the market still to be turned over by `seen`)."""
    deck = masked(DEALT, len(dealt_cards(n_players, options)))
    hands = []
    for seat in range(n_players):
        dealt, deck = draw(deck, HAND_SIZE)
        hands.append(dealt + (BLUFFS[seat],))  # a token sorts first, the bluff card last
    side1, deck = draw(deck, MARKET_TARGET)
    side2, deck = draw(deck, MARKET_TARGET)
    removed = dealt_removed(n_players, options)
    return MoneyState(
        # a stacked setup draws no random number (§3): its RNG is the seed's own
        setup=MoneySetup(n_players, options["edition"], removed, BLUFFS[n_players:], Rng(seed)),
        hands=tuple(hands), market=(side1, side2), deck=deck, phase="bid", round_no=1,
        final_round=False, pending=(), history=(), last_history=(),
        unseen=tuple(sorted((c for hand in hands for c in hand), key=_SORT)),
    )


def seen(state: MoneyState, seat: Seat | None) -> tuple[str, ...]:
    """What lies face up for `seat` (§7): the market (the cards setup and every refill deal
    onto it are turned over), its own hand, every hand once scored.

    Cards taken from the market or from a bid were face up: they are faces in the state
    already, so a hand's tokens are only the cards dealt to it and never shown.
    """
    cards = state.market[0] + state.market[1]
    if state.phase == "over":  # the hands are scored face up (§8)
        return cards + tuple(c for hand in state.hands for c in hand)
    if seat is not None and 0 <= seat < state.n_players:
        cards += state.hands[seat]
    return cards


def needs(state: MoneyState, actions: Mapping[Seat, object]) -> frozenset[str]:
    """The faces a step reads: the bids, turned over together at the reveal (§5.2).

    A refill reads no face: it deals the deck's top cards onto the market, where `seen`
    turns them over for everyone after the step (and the side is put in order then).
    """
    # a bid turns over cards of its owner's hand only: a step naming any other card (a
    # token of the deck, say) is refused by the rules and must show nothing first. Asked for
    # one seat's bid alone (its owner proves what it shows), it answers for that bid.
    if state.phase != "bid" or not actions.keys() <= _ALL_SEATS[state.n_players] or not all(
            _from_hand(state.hands[seat], bid) for seat, bid in actions.items()):
        return frozenset()
    return frozenset(c for bid in actions.values() for c in bid.left + bid.right if is_token(c))


def _from_hand(hand: tuple[str, ...], bid: object) -> bool:
    """True if `bid` names money cards of `hand`, each once: what can be checked of a bid
    before its faces are known (the rules check the rest once they are)."""
    if type(bid) is not Bid or type(bid.left) is not tuple or type(bid.right) is not tuple:
        return False
    cards = bid.left + bid.right
    return (all(type(c) is str and c in hand and KIND.get(c) != "bluff" for c in cards)
            and len(set(cards)) == len(cards))


# ---- the game --------------------------------------------------------------------------


def _check(state: MoneyState, seat: Seat, action: object) -> None:
    """Raise IllegalAction unless the acting `seat` may play `action` now."""
    if state.phase == "bid":
        if type(action) is Bid:  # the fast lane's check: the usual bid at once, else its fault
            _check_bid(state, seat, action)
            return
        problem = bid_problem(frozenset(state.hands[seat]), state.setup.n_players == 2, action)
    elif type(action) is Keep:  # always open to the acting bid
        return
    else:
        problem = _turn_problem(state, seat, action)
    if problem:
        raise _refusal(seat, action, problem)


def _refusal(seat: Seat, action: object, problem: str) -> IllegalAction:
    return IllegalAction(f"seat {seat} cannot {describe(action)}: {problem}")


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
    action_types = ACTIONS
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
        phase = state.phase
        if phase == "turns":
            return _ONE_SEAT[state.pending[0].owner]
        return _ALL_SEATS[state.setup.n_players] if phase == "bid" else _NOBODY

    def _legal_actions(self, state: MoneyState, seat: Seat):
        if state.phase == "bid":
            hand = state.hands[seat]
            # The money cards: all but the bluff card, which always sorts last.
            money = hand[:-1] if KIND[hand[-1]] == "bluff" else hand
            return BidSpace(money, state.setup.n_players == 2)
        # A turn: the market sides that hold cards, the other players' pending bids, then
        # keep (written out here: the random bots of every benchmark ask this at each turn).
        pending = state.pending
        owner = pending[0].owner
        side1, side2 = state.market
        actions = [_SIDES[0]] if side1 else []
        if side2:
            actions.append(_SIDES[1])
        for bid in pending[1:]:
            if bid.owner != owner:
                actions.append(_SWAPS[bid.owner][bid.slot])
        actions.append(_KEEP)
        return tuple(actions)

    def _validate(self, state: MoneyState, seat: Seat, action: object) -> None:
        _check(state, seat, action)

    def _apply(self, state: MoneyState, actions: Mapping[Seat, Any]) -> MoneyState:
        if state.phase == "bid":
            return _reveal(state, actions)
        ((seat, action),) = actions.items()
        return _turn(state, seat, action)

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
        history = state.history
        shown = ()
        if pending:
            # The first bid acts: "next" when a swap with a bid just moved it into this place.
            moved = history[-1][0] == "swap"
            shown = (_bid_view(pending[0], "next" if moved else "acting"),) + tuple(
                _bid_view(bid, "pending") for bid in pending[1:])
        resolved, withdrawn = _round_bids(history)
        last_resolved, last_withdrawn = _round_bids(state.last_history)
        return MoneyView(
            seat, state.n_players, state.edition, state.removed, hand,
            tuple(map(len, state.hands)), state.market, len(state.deck), state.phase,
            state.round_no, state.final_round, resolved + shown + withdrawn,
            (pending[0].owner, pending[0].slot) if pending else None, to_act,
            tuple(_history_lines(state.last_history) + _history_lines(state.history)),
            last_resolved + last_withdrawn,
            state.hands if over else None,
        )

    def _result(self, state: MoneyState) -> Result:
        return score_hands(state.hands, state.edition)

    # ---- presentation and test hooks ----
    def events(self, before: MoneyState, actions: Mapping[Seat, object], after: MoneyState) -> tuple:
        """The round log's new entries: bids once revealed, what each swap took (events.py)."""
        return money_events(before, after)

    def describe(self, action: object) -> str:
        return describe(action)

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

    def swap_cards(self, state: MoneyState, card: str, other: str) -> MoneyState | None:
        # every card has the same back and its own id: two ids trade places everywhere, each
        # keeping the other's place (built field by field: `MoneyState(...)` would sort them)
        if card == other:
            return None
        return new_state(*(relabel(value, card, other) for value in new_state.values(state)))

    def stalemate(self, state: MoneyState) -> bool:
        return state.round_no > STALEMATE_ROUNDS

    # ---- over the network: one deck dealt face down (issue #13) ----
    def decks(self, n_players: int, options: Mapping[str, Any]) -> tuple[tuple[str, tuple[str, ...]], ...]:
        opts = self.check_options(options)
        self.check_players(n_players, opts)
        return ((DEALT, dealt_cards(n_players, opts)),)

    def _setup_dealt(self, n_players: int, seed: bytes, options: dict[str, Any]) -> MoneyState:
        return setup_dealt(n_players, seed, options)

    def seen(self, state: MoneyState, seat: Seat | None) -> frozenset[str]:
        return frozenset(seen(state, seat))

    def needs(self, state: MoneyState, actions: Mapping[Seat, Any]) -> frozenset[str]:
        return needs(state, actions)

    def scored_cards(self, state: MoneyState, seat: Seat) -> tuple[str, ...]:
        return state.hands[seat]  # a hand is scored face up (§8)

    def deal_options(self, n_players: int, seed: bytes, options: Mapping[str, Any]) -> dict[str, Any]:
        return deal_options(n_players, seed, options)


def describe(action: object) -> str:
    """One log line for an action (also the wording of its IllegalAction)."""
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
        slot = action.slot  # a value of any type (this words refusals too): no dict look-up
        words = _SLOT_WORDS[slot] if type(slot) is int and 0 <= slot <= 1 else f" (slot {slot!r})"
        return f"swap with seat {action.owner}'s bid{words}"
    if kind is Keep:
        return "keep the bid"
    return f"play {action!r}"


_SLOT_WORDS = ("", " (right bid)")


def _cards_text(cards: tuple[str, ...]) -> str:
    if not isinstance(cards, tuple) or not all(isinstance(c, str) and c in KIND for c in cards):
        return repr(cards)
    return labels(cards) if cards else "nothing"


# ---- the fast lane: each action type's usual legal case accepted in one call ----------
# Game.apply calls these by the action's type. Each accepts its usual case at once and hands
# everything else to `_check` (or, for a bid, to `bid_problem`), so the errors and their
# wording are `_check`'s; `_check` itself takes a bid through `_check_bid`.


def _check_bid(state: MoneyState, seat: Seat, bid: Bid) -> None:
    """A bid in the bid step: the usual one (one group of money cards listed in hand order)
    accepted at once, any other through `bid_problem`.

    The hand is sorted by serial, so a group that walks through it in order names each card
    once, in serial order (what `bid_problem` asks); its bluff card sorts last, hence the test
    of the group's last card only.
    """
    if state.phase != "bid":
        _check(state, seat, bid)
        return
    left = bid.left
    if bid.right == () and type(left) is tuple:
        cards = iter(state.hands[seat])
        for card in left:
            if type(card) is not str or card not in cards:  # `in` consumes up to card
                break
        else:
            if not left or left[-1] in _MONEY_SERIAL:
                return
    problem = bid_problem(frozenset(state.hands[seat]), state.setup.n_players == 2, bid)
    if problem:
        raise _refusal(seat, bid, problem)


def _check_keep(state: MoneyState, seat: Seat, action: Keep) -> None:
    """Keep is open to the acting bid in every turn; in the bid step it is no bid."""
    if state.phase != "turns":
        _check(state, seat, action)


def _check_market(state: MoneyState, seat: Seat, action: SwapMarket) -> None:
    """A swap with a market side (0 or 1) that holds cards."""
    side = action.side
    if state.phase != "turns" or type(side) is not int or not 0 <= side <= 1 or not state.market[side]:
        _check(state, seat, action)


def _check_swap(state: MoneyState, seat: Seat, action: SwapBid) -> None:
    """A swap with another seat's bid still pending."""
    owner, slot = action.owner, action.slot
    if state.phase == "turns" and type(owner) is int and type(slot) is int and owner != seat:
        for bid in state.pending:
            if bid.owner == owner and bid.slot == slot:
                return
    _check(state, seat, action)


MoneyGame._checks = {Bid: _check_bid, Keep: _check_keep, SwapMarket: _check_market,
                     SwapBid: _check_swap}
MoneyGame._steps = {kind: _turn for kind in (Keep, SwapMarket, SwapBid)}

GAME = MoneyGame()
