"""What a seat may pick (seven_wonders.md §5-§6): its paying context and the space of its picks.

A hand of 7 cards with several ways to pay each is dozens of picks; listing them (and building
a set to check one) was most of a random game's time. `Picks` counts, samples, indexes and
checks picks per card instead, searching a card's payments only when that card is asked about.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from functools import cache

from ..core import ActionSpace, Stream
from ..core.plain import fast_maker
from .cards import BOARDS, CARD_RANK, CARDS
from .payment import Profile, Way, city_ways, profile
from .state import BUILD, BUILD_FREE, DISCARD, STAGE, CardOption, Payment, Pick

# positional makers, every field in order: a frozen dataclass's own __init__ sets each field
# through object.__setattr__, and a bot's decision lists every pick of its hand
_pick = fast_maker(Pick)
_option = fast_maker(CardOption)
# each (left, right) made once: a neighbour is paid at most 2 coins a unit of a card's cost,
# so there are a few hundred pairs at most
_payment = cache(fast_maker(Payment))

_FREE_WAY: tuple[Way, ...] = ((0, 0),)
_NO_WAY: tuple[Way, ...] = ()


class Context:
    """What a seat's pick is checked against: its city, its neighbours', prices and budget.

    `discount_basis` (stages, cards) selects the city whose discounts apply (Babylon's last
    card: the city at the start of the turn); `budget` is the coins it may spend.
    """

    __slots__ = ("own", "left", "right", "prices", "budget", "stage_cost", "stage_coins", "n_stages")

    def __init__(
        self,
        wonders: Sequence[str],
        sides: Sequence[str],
        stages: Sequence[int],
        cities: Sequence[tuple[str, ...]],
        seat: int,
        budget: int,
        discount_basis: tuple[int, int] | None = None,
        profiles: Sequence[Profile] | None = None,
    ) -> None:
        """`profiles`: every seat's city profile when the caller has them already."""
        n = len(wonders)
        left, right = (seat + 1) % n, (seat - 1) % n
        if profiles is None:
            own, lp, rp = (profile(wonders[s], sides[s], stages[s], cities[s]) for s in (seat, left, right))
        else:
            own, lp, rp = profiles[seat], profiles[left], profiles[right]
        self.own: Profile = own
        self.left: Profile = lp
        self.right: Profile = rp
        if discount_basis is None:
            self.prices = self.own
        else:
            st, k = discount_basis
            self.prices = profile(wonders[seat], sides[seat], st, cities[seat][:k])
        self.budget = budget
        board = BOARDS[(wonders[seat], sides[seat])]
        self.n_stages = len(board.stages)
        if stages[seat] < self.n_stages:
            stage = board.stages[stages[seat]]
            self.stage_cost, self.stage_coins = stage.cost, stage.coin_cost
        else:
            self.stage_cost, self.stage_coins = None, 0

    def reach(self, r: int) -> int:
        """The most units of resource `r` the seat could have, its own and bought (an either/or
        unit counted for each of its resources): a cost above it cannot be paid at all, which
        settles about two thirds of the cards of a random game without the payment search."""
        return self.own.reach[r] + self.left.sell_reach[r] + self.right.sell_reach[r]

    def ways(self, cost: tuple[tuple[int, int], ...]) -> tuple[Way, ...]:
        """Every undominated (left, right) payment of `cost`, cheapest first; () if none."""
        fixed = self.own.own[0]
        covered = True
        for r, k in cost:
            if k > fixed[r]:
                if k > self.reach(r):
                    return _NO_WAY
                covered = False
        if covered:
            return _FREE_WAY
        return city_ways(self.own, self.left, self.right, self.prices, cost)

    def build_status(self, card_id: str) -> tuple[str, int, tuple[Way, ...]]:
        """(status, coin cost, offered ways) for building a card (see CardOption)."""
        card = CARDS[card_id]
        names = self.own.names
        if card.name in names:
            return "owned", card.coin_cost, ()
        if card.chain_from and not card.chain_from.isdisjoint(names):
            return "free", 0, _FREE_WAY
        ways = self.ways(card.cost)
        if not ways:
            return "impossible", card.coin_cost, ()
        offered = _affordable(ways, self.budget - card.coin_cost)
        return ("pay" if offered else "too_expensive"), card.coin_cost, offered

    def build_bound(self, card_id: str) -> int:
        """At least as many as the offered ways of building the card, without the search."""
        card = CARDS[card_id]
        names = self.own.names
        if card.name in names:
            return 0
        if card.chain_from and not card.chain_from.isdisjoint(names):
            return 1
        return self._bound(card.cost, card.coin_cost)

    def stage_bound(self) -> int:
        """At least as many as the offered ways of building the next stage."""
        return 0 if self.stage_cost is None else self._bound(self.stage_cost, self.stage_coins)

    def _bound(self, cost: tuple[tuple[int, int], ...], coin_cost: int) -> int:
        """Undominated ways differ in their coins to the left (of two with the same, the dearer
        on the right is dominated), and likewise to the right; so there are no more of them
        than the coin amounts one side could be paid within the budget (§6.6)."""
        room = self.budget - coin_cost
        if room < 0:
            return 0
        fixed, own_reach = self.own.own[0], self.own.reach
        left_reach, right_reach = self.left.sell_reach, self.right.sell_reach
        most_left = most_right = 0  # units each neighbour could be paid for
        for r, k in cost:
            short = k - fixed[r]
            if short > 0:
                if k > own_reach[r] + left_reach[r] + right_reach[r]:
                    return 0  # as `reach`, inlined
                most_left += min(short, left_reach[r])
                most_right += min(short, right_reach[r])
        if not most_left or not most_right:
            return 1  # one side only: its coins are the whole total, a single cheapest way
        return min(_sums(most_left, self.prices.price_left), _sums(most_right, self.prices.price_right),
                   room + 1)

    def stage_offers(self) -> tuple[Way, ...]:
        if self.stage_cost is None:
            return ()
        return _affordable(self.ways(self.stage_cost), self.budget - self.stage_coins)


def _sums(units: int, prices: tuple[int, ...]) -> int:
    """At least the number of different coin sums that buying up to `units` units can make."""
    low, high = min(prices), max(prices)
    # one price p: 0, p, ..., units * p; mixed prices (a trading post's 1): any sum up to the top
    return units + 1 if low == high else units * high + 1


def _affordable(ways: tuple[Way, ...], room: int) -> tuple[Way, ...]:
    """The ways whose coins fit in `room` (ways are sorted by total: a prefix)."""
    if not ways or sum(ways[-1]) <= room:
        return ways
    return tuple(w for w in ways if w[0] + w[1] <= room)


class Picks(ActionSpace):
    """Every legal Pick of one seat at one position, without listing them.

    The order (iteration, indexing, hence sampling) is the list's: per distinct hand card in
    card-data order, its builds (offered payments, cheapest first), its free build (Olympia A),
    the next stage with each offered payment, and its discard. Discarding is always legal, so
    the space is never empty. A card's payments are searched the first time it is asked about:
    checking a pick asks about its card only, counting asks about every card, and sampling
    (see `sample`) about the cards its draws land on.
    """

    __slots__ = ("ctx", "free", "cards", "_known", "_status", "_stage", "_counts", "_total", "_options",
                 "_bounds", "_slots")

    def __init__(self, ctx: Context, hand: Sequence[str], free: bool) -> None:
        self.ctx, self.free = ctx, free
        distinct = dict.fromkeys(hand)
        self.cards: tuple[str, ...] = tuple(sorted(distinct, key=CARD_RANK.__getitem__))
        self._known = distinct  # membership only
        self._status: dict[str, tuple[str, int, tuple[Way, ...]]] = {}
        self._stage: tuple[Way, ...] | None = None
        self._counts: tuple[int, ...] | None = None
        self._total = 0
        self._options: tuple[tuple[CardOption, ...], tuple[Payment, ...]] | None = None
        self._bounds: tuple[tuple[tuple[str, int, bool, int], ...], int] | None = None
        self._slots = 0

    # ---- per card, on demand ---------------------------------------------------------------
    def status(self, card: str) -> tuple[str, int, tuple[Way, ...]]:
        hit = self._status.get(card)
        if hit is None:
            hit = self._status[card] = self.ctx.build_status(card)
        return hit

    def stage_ways(self) -> tuple[Way, ...]:
        if self._stage is None:
            self._stage = self.ctx.stage_offers()
        return self._stage

    def _free_for(self, card: str) -> bool:
        return self.free and CARDS[card].name not in self.ctx.own.names

    def counts(self) -> tuple[int, ...]:
        """How many picks each distinct card offers, in order."""
        if self._counts is None:
            rest = len(self.stage_ways()) + 1
            self._counts = tuple(
                len(self.status(c)[2]) + self._free_for(c) + rest for c in self.cards)
            self._total = sum(self._counts)
        return self._counts

    # ---- the ActionSpace -------------------------------------------------------------------
    def __len__(self) -> int:
        self.counts()
        return self._total

    def __bool__(self) -> bool:
        return bool(self.cards)

    def __contains__(self, action: object) -> bool:
        # exact types: True == 1 must not slip into the state through a payment
        if type(action) is not Pick:
            return False
        card, kind, left, right = action.card, action.kind, action.pay_left, action.pay_right
        if type(card) is not str or type(left) is not int or type(right) is not int or card not in self._known:
            return False
        if kind == BUILD:
            return (left, right) in self.status(card)[2]
        if kind == STAGE:
            return (left, right) in self.stage_ways()
        if kind == DISCARD:
            return left == 0 and right == 0
        if kind == BUILD_FREE:
            return left == 0 and right == 0 and self._free_for(card)
        return False

    def __iter__(self) -> Iterator[Pick]:
        for card in self.cards:
            yield from self._of(card)

    def _of(self, card: str) -> list[Pick]:
        out = [_pick(card, BUILD, left, right) for left, right in self.status(card)[2]]
        if self._free_for(card):
            out.append(_pick(card, BUILD_FREE, 0, 0))
        out += [_pick(card, STAGE, left, right) for left, right in self.stage_ways()]
        out.append(_pick(card, DISCARD, 0, 0))
        return out

    def __getitem__(self, index: int) -> Pick:
        counts = self.counts()
        if index < 0:
            index += self._total
        if not 0 <= index < self._total:
            raise IndexError(f"pick {index} of {self._total}")
        for card, count in zip(self.cards, counts, strict=True):
            if index >= count:
                index -= count
                continue
            offered = self.status(card)[2]
            if index < len(offered):
                return _pick(card, BUILD, *offered[index])
            index -= len(offered)
            if self._free_for(card):
                if index == 0:
                    return _pick(card, BUILD_FREE, 0, 0)
                index -= 1
            stage = self.stage_ways()
            if index < len(stage):
                return _pick(card, STAGE, *stage[index])
            return _pick(card, DISCARD, 0, 0)
        raise AssertionError("counts and cards disagree")  # unreachable: index < total

    def sample(self, rng: Stream) -> Pick:
        """Uniform over the picks, searching the payments of one card only (most of the time).

        Each card is laid out as slots: as many builds as `Context.build_bound` allows, its free
        build, as many stages as `Context.stage_bound` allows, its discard. A draw that lands on
        a slot beyond the real ways is drawn again, so each pick keeps the same chance. The
        bounds depend on the position alone, never on what was computed before, so the same
        position and stream give the same pick in every process."""
        layout, stage_slots = self._layout()
        while True:
            index = rng.below(self._slots)
            for entry in layout:
                if index < entry[3]:
                    break
                index -= entry[3]
            card, bound, free, _ = entry
            if index < bound:
                offered = self.status(card)[2]
                if index < len(offered):
                    return _pick(card, BUILD, *offered[index])
                continue  # a slot beyond the card's ways: draw again
            index -= bound
            if free:
                if index == 0:
                    return _pick(card, BUILD_FREE, 0, 0)
                index -= 1
            if index < stage_slots:
                stage = self.stage_ways()
                if index < len(stage):
                    return _pick(card, STAGE, *stage[index])
                continue
            return _pick(card, DISCARD, 0, 0)

    def _layout(self) -> tuple[tuple[tuple[str, int, bool, int], ...], int]:
        """Per card (card, build slots, free build, all its slots), and the stage slots."""
        if self._bounds is None:
            ctx = self.ctx
            stage_slots = ctx.stage_bound()
            names = ctx.own.names
            layout = []
            for card_id in self.cards:  # Context.build_bound and _free_for, inlined: the hot loop
                card = CARDS[card_id]
                if card.name in names:
                    bound, free = 0, False
                elif card.chain_from and not card.chain_from.isdisjoint(names):
                    bound, free = 1, self.free
                else:
                    bound, free = ctx._bound(card.cost, card.coin_cost), self.free
                layout.append((card_id, bound, free, bound + free + stage_slots + 1))
            self._bounds = tuple(layout), stage_slots
            self._slots = sum(size for *_, size in layout)
        return self._bounds

    # ---- what a screen shows -----------------------------------------------------------------
    @property
    def options(self) -> tuple[tuple[CardOption, ...], tuple[Payment, ...]]:
        """Per distinct card what can be done with it, and the offered stage payments."""
        if self._options is None:
            free = self.free
            cards = tuple(
                # CardOption(card, build, coin_cost, payments, chain, free_build)
                _option(c, status, coin_cost, tuple([_payment(left, right) for left, right in offered]), status == "free",
                        free and status != "owned")
                for c in self.cards
                for status, coin_cost, offered in (self.status(c),)
            )
            self._options = cards, tuple([_payment(left, right) for left, right in self.stage_ways()])
        return self._options


def card_options(
    ctx: Context, hand: Sequence[str], free_build: bool
) -> tuple[tuple[CardOption, ...], tuple[Payment, ...]]:
    """Per distinct hand card what can be done with it, and the offered stage payments."""
    return Picks(ctx, hand, free_build).options
