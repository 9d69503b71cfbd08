"""7 Wonders: the other hands, the face-down pile and boards, the guilds and later Ages.

Public: cities, stages, coins, tokens, conflicts, hand sizes, the pile's size. The cards of
this Age that the seat has not seen (in no city, not in its hand, pile or board) are dealt to
the other hands first, then to the pile and the boards' face-down cards. Guilds the seat has
not seen are drawn from the box; later Ages come from the fresh game RNG. What the seat once
saw in a hand passed to it is not in its view, so it is not used either.
"""

from __future__ import annotations

from collections import Counter

from ...core import HIDDEN, Game, Stream
from ...seven_wonders.cards import CARD_RANK, GUILDS, age_cards, guild_count
from ...seven_wonders.position import free_build_ready
from ...seven_wonders.state import BABYLON, HALIKARNASSOS, BabylonTurn, Move, State, View
from . import fresh_rng


def _ranked(cards) -> tuple[str, ...]:
    return tuple(sorted(cards, key=CARD_RANK.__getitem__))


def _guilds(view: View, seen: Counter, rng: Stream) -> tuple[str, ...]:
    """The guilds in play: those the seat has seen, and others drawn from the rest."""
    known = [g for g in GUILDS if seen[g]] if view.age == 3 else []
    rest = rng.shuffle([g for g in GUILDS if g not in known])
    return _ranked(known + rest[: guild_count(view.n_players) - len(known)])


def sample(game: Game, view: View, rng: Stream) -> State:
    n, me = view.n_players, view.seat
    mine = view.hand + view.tucked + view.my_discards + ((view.kept,) if view.kept else ())
    seen = Counter(c for city in view.cities for c in city) + Counter(mine) + Counter(view.discard_pile)
    guilds = _guilds(view, seen, rng)
    age_deck = age_cards(view.age, n) + (guilds if view.age == 3 else ())
    pool = rng.shuffle(sorted((Counter(age_deck) - seen).elements(), key=CARD_RANK.__getitem__))
    spare = list(age_deck)  # stand-ins once the pool is spent (cards of earlier Ages, unscored)

    def deal(k: int) -> list[str]:
        return [pool.pop() if pool else spare[i % len(spare)] for i in range(k)]

    babylon_step = view.phase == BABYLON and view.kept is not None
    # In Babylon's step its view's hand is the kept card, which the state keeps apart.
    own_hand = () if babylon_step else view.hand
    hands = tuple(own_hand if s == me else _ranked(deal(view.hand_sizes[s])) for s in range(n))
    tucked = tuple(view.tucked if s == me else tuple(deal(view.stages[s])) for s in range(n))
    discard = _discard(view, deal)
    babylon = None
    if babylon_step:
        stages, cards = view.discount_basis
        babylon = BabylonTurn(me, view.kept, view.budget, stages, cards)
    moves = tuple(Move(m.seat, m.kind, deal(1)[0], m.pay_left, m.pay_right) if m.card == HIDDEN else m
                  for m in view.moves)
    free_used = tuple(s == me and not view.free_build
                      and free_build_ready(view.wonders[s], view.sides[s], view.stages[s], False)
                      for s in range(n))
    return State(
        n_players=n, wonders=view.wonders, sides=view.sides, age=view.age, turn=view.turn,
        phase=view.phase, hands=hands, cities=view.cities, stages=view.stages, tucked=tucked,
        coins=view.coins, tokens=view.tokens, discard=discard, free_used=free_used,
        guilds=guilds, stacked=(None, None, None), babylon=babylon,
        halikarnassos=view.active[0] if view.phase == HALIKARNASSOS else -1, moves=moves,
        rng=fresh_rng(rng), conflicts=view.conflicts,
    )


def _discard(view: View, deal) -> tuple[tuple[int, str], ...]:
    """The pile: the seat's own cards, the rest unknown (its faces in Halikarnassos' step)."""
    me = view.seat
    other = (me + 1) % view.n_players if me is not None else 0
    if view.discard_pile:  # Halikarnassos' step: the faces are known, whose only in part
        others = Counter(view.discard_pile) - Counter(view.my_discards)
        return tuple((other, c) for c in _ranked(others.elements())) + tuple(
            (me, c) for c in view.my_discards)
    unknown = view.discard_count - len(view.my_discards)
    return tuple((other, c) for c in deal(unknown)) + tuple((me, c) for c in view.my_discards)
