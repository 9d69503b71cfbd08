"""What the rules (rules.py, checks.py) share whatever the zone kind: steps that move no card,
checks of words (claims, declarations, conditions, texts), and small helpers."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cache, lru_cache
from typing import Any

from ..core import IllegalAction
from .cards import (
    EXCHANGES,
    GOODS,
    IDX,
    IS_LEGAL,
    LEGAL,
    NG,
    PAY_ORDER,
    REBUILD_ABOVE,
    VALUE,
    goods_in_game,
)
from .spaces import claims
from .state import (
    CHOOSE,
    INSPECT,
    OPPOSITE,
    PROMISE_MAX,
    Accept,
    Choose,
    Condition,
    Declare,
    Demand,
    DrawDeck,
    DrawDiscard,
    Inspect,
    Pass,
    PayGoods,
    State,
)

Draft = dict[str, Any]

PAY_RANK = {GOODS[i]: rank for rank, i in enumerate(PAY_ORDER)}


@cache
def absent_goods(n_players: int, royal: bool) -> tuple[int, ...]:
    """Indices of the goods not in this game (a bag claim may not name them)."""
    allowed = goods_in_game(n_players, royal)
    return tuple(i for i in range(NG) if i not in allowed)


def put(seq: tuple, index: int, value: Any) -> tuple:
    return seq[:index] + (value,) + seq[index + 1:]


@lru_cache(maxsize=1024)
def condition_choices(pending: tuple[int, ...], seat: int, accepted: tuple[Condition, ...]
                       ) -> tuple[tuple[Condition | None, ...], ...]:
    """Per other pending merchant: no condition, or inspect / pass unless it contradicts one
    the Sheriff accepted this round (the condition part of an offer's enumeration)."""
    choices = []
    for x in pending:
        if x == seat:
            continue
        options: list[Condition | None] = [None]
        for kind in ("inspect", "pass"):
            if (OPPOSITE[kind], x) not in accepted:
                options.append((kind, x))
        choices.append(tuple(options))
    return tuple(choices)


@cache
def claims_for_bag(n_players: int, royal: bool, bag: int) -> tuple[tuple[str, ...], ...]:
    return claims(goods_in_game(n_players, royal), bag)


def illegal(seat: int, what: str, why: str) -> IllegalAction:
    return IllegalAction(f"seat {seat} cannot {what}: {why}")


# ---- drawing (§5.7) ---------------------------------------------------------------------
def can_draw_deck(s: State) -> bool:
    return bool(s.draw_pile) or len(s.piles[0]) + len(s.piles[1]) > REBUILD_ABOVE


# ---- load and declare (§5.2, §5.3) ------------------------------------------------------
def loaders(s: State) -> tuple[int, ...]:
    return loaders_of(s.n_players, s.sheriff, s.hands)


def loaders_of(n: int, sheriff: int, hands: Sequence[Sequence[int]]) -> tuple[int, ...]:
    return tuple(p for p in range(n) if p != sheriff and any(hands[p]))


def clockwise(n: int, seats: Sequence[int], after: int) -> list[int]:
    return sorted(seats, key=lambda p: (p - after - 1) % n)


def loaded_seats(d: Draft) -> list[int]:
    """Merchants with a bag this round."""
    bags = d["bags"]
    return [p for p in range(d["n_players"]) if any(bags[p])]


def declare_step(d: Draft, a: Declare) -> None:
    d["declared"] = declared = put(d["declared"], d["turn"], a.good)
    loaded = loaded_seats(d)
    waiting = [p for p in clockwise(d["n_players"], loaded, d["sheriff"]) if not declared[p]]
    if waiting:
        d["turn"] = waiting[0]
        return
    d.update(phase=INSPECT, step=CHOOSE, turn=d["sheriff"], pending=tuple(loaded),
             conditions=(), merchant=-1, talk=())


def move_gold(d: Draft, payer: int, taker: int, amount: int) -> None:
    gold = list(d["gold"])
    gold[payer] -= amount
    gold[taker] += amount
    d["gold"] = tuple(gold)


# ---- validation -------------------------------------------------------------------------
def counts_named(seat: int, what: str, cards: Any, rank: Mapping[str, int] | None = None) -> tuple[int, ...]:
    """A count vector from an action's card tuple; with `rank`, the cards must follow it."""
    if not isinstance(cards, tuple):
        raise illegal(seat, what, "the cards must be a tuple of good ids")
    if rank is None:  # the tuples seen before (every action names cards): one dict look-up
        try:
            known = _COUNTED.get(cards)
        except TypeError:  # an unhashable element: the loop below names it
            known = None
        if known is not None:
            return known
    out = [0] * NG
    last = -1
    for card in cards:
        r = IDX.get(card) if isinstance(card, str) else None
        if r is None:
            raise illegal(seat, what, f"{card!r} is not a good")
        if rank is None:
            out[r] += 1
            continue
        r = rank[card]
        if r < last:
            order = sorted(rank, key=rank.__getitem__)
            raise illegal(seat, what, f"list the cards in the order {', '.join(order)}")
        last = r
        out[IDX[card]] += 1
    counts = tuple(out)
    if rank is None:
        if len(_COUNTED) >= _COUNTED_MAX:
            _COUNTED.clear()
        _COUNTED[cards] = counts
    return counts


_COUNTED: dict[tuple, tuple[int, ...]] = {}
"""Card tuples already checked to be good ids -> their count vectors (see `counts_named`)."""
_COUNTED_MAX = 1 << 16


def check_pile(seat: int, what: str, pile: Any) -> None:
    if pile not in (1, 2) or isinstance(pile, bool) or not isinstance(pile, int):
        raise illegal(seat, what, "the discard pile is 1 or 2")


def check_text(seat: int, what: str, text: Any) -> None:
    if not isinstance(text, str):
        raise illegal(seat, what, "the text must be a string")
    if len(text) > PROMISE_MAX:
        raise illegal(seat, what, f"the text is longer than {PROMISE_MAX} characters")
    if not text.isprintable():
        raise illegal(seat, what, "the text holds control characters")


def check_draw(s: State, seat: int, a: Any, z: Any = None) -> None:  # z: the zone kind (unread)
    if isinstance(a, DrawDiscard):
        check_pile(seat, "draw from a discard pile", a.pile)
        if s.drew_deck:
            raise illegal(seat, "draw from a discard pile",
                           "after drawing from the draw pile only the draw pile is allowed")
        if not s.piles[a.pile - 1]:
            raise illegal(seat, "draw from a discard pile", f"pile {a.pile} is empty")
    elif isinstance(a, DrawDeck):
        if not can_draw_deck(s):
            raise illegal(seat, "draw from the draw pile",
                           "it is empty and the discard piles hold 10 cards or fewer")
    else:
        raise illegal(seat, "do that now", "draw a card from a discard pile or the draw pile")


def check_declare(s: State, seat: int, a: Any, z: Any = None) -> None:  # z: the zone kind (unread)
    if not isinstance(a, Declare):
        raise illegal(seat, "do that now", "declare one legal good")
    if a.good not in LEGAL:
        raise illegal(seat, f"declare {a.good!r}", f"only {', '.join(LEGAL)} may be declared")


def check_choose(s: State, seat: int, a: Any, z: Any = None) -> None:  # z: the zone kind (unread)
    if not isinstance(a, Choose):
        raise illegal(seat, "do that now", "choose the next merchant to deal with")
    if a.seat not in s.pending or isinstance(a.seat, bool):
        raise illegal(seat, f"deal with seat {a.seat!r}", "that merchant is not waiting")


def check_conditions(s: State, seat: int, conditions: Any) -> None:
    what = "make that offer"
    if not isinstance(conditions, tuple):
        raise illegal(seat, what, "conditions must be a tuple of (kind, seat) pairs")
    named: dict[int, str] = {}
    for c in conditions:
        if (not isinstance(c, tuple) or len(c) != 2 or c[0] not in OPPOSITE
                or not isinstance(c[1], int) or isinstance(c[1], bool)):
            raise illegal(seat, what, f"{c!r} is not a condition (\"inspect\" or \"pass\", seat)")
        kind, x = c
        if x in named:
            if named[x] != kind:
                raise illegal(seat, what, f"it asks both to inspect and to pass seat {x}")
            raise illegal(seat, what, f"it names seat {x} twice")
        named[x] = kind
        if x == seat or x not in s.pending:
            raise illegal(seat, what, f"seat {x} is not another merchant still to be dealt with")
        if (OPPOSITE[kind], x) in s.conditions:
            raise illegal(seat, what,
                           f"the Sheriff already accepted to {OPPOSITE[kind]} seat {x} this round")


def check_answer(s: State, seat: int, a: Any, z: Any = None) -> None:  # z: the zone kind (unread)
    m = s.merchant
    if isinstance(a, Demand):
        if s.exchange >= EXCHANGES:
            raise illegal(seat, "demand more", "this is the last exchange: accept, pass or inspect")
        check_text(seat, "demand that", a.text)
    elif isinstance(a, Accept):
        if s.offer is None:
            raise illegal(seat, "accept", f"seat {m} has made no offer")
        for kind, x in s.offer.conditions:
            if (OPPOSITE[kind], x) in s.conditions:
                raise illegal(seat, "accept", f"the offer contradicts the accepted {OPPOSITE[kind]} of seat {x}")
    elif isinstance(a, Inspect):
        if ("pass", m) in s.conditions:
            raise illegal(seat, "inspect", f"you accepted to let seat {m} pass this round")
    elif not isinstance(a, Pass):
        raise illegal(seat, "do that now", "demand, accept, pass or inspect")


def pay_options(stand: Sequence[int], owed: int) -> tuple[PayGoods, ...]:
    """Every valid `pay_goods` (§5.8), each set of cards once, in the fixed order."""
    order = [(i, stand[i]) for i in PAY_ORDER if stand[i]]
    out: list[PayGoods] = []

    def extend(j: int, total: int, picked: list[str], legal_left: bool, all_taken: bool) -> None:
        if picked and (total >= owed or (j == len(order) and all_taken)):
            out.append(PayGoods(tuple(picked)))
            return
        if j == len(order):
            return
        i, have = order[j]
        legal = IS_LEGAL[i]
        if not legal and legal_left:
            return  # a legal good is still on the stand: no contraband yet
        for k in range(have + 1):
            if k and total + (k - 1) * VALUE[i] >= owed:
                break  # the debt would be paid before this card
            extend(j + 1, total + k * VALUE[i], picked + [GOODS[i]] * k,
                   legal_left or (legal and k < have), all_taken and k == have)

    extend(0, 0, [], False, True)
    return tuple(out)
