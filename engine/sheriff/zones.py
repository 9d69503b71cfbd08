"""Test hooks of the plain game (`Game.zones`, `swap_cards`, `secret_from`): every card named,
and two cards traded unseen, for the generic leak test."""

from __future__ import annotations

import re
from collections.abc import Sequence

from .cards import (
    GOODS,
    IDX,
    IS_LEGAL,
    NG,
    ZERO,
    counts_of,
    hidden_part,
)
from .common import Draft, put
from .state import (
    MARKET,
    OVER,
    State,
    build,
    draft,
)


def swap_goods(s: State, card: str, other: str) -> State | None:
    """`Sheriff.swap_cards`: the two goods trade places, each zone keeping its count."""
    where = {label: name for name, ids, _ in numbered_zones(s) for label in ids}
    if card not in where or other not in where:
        return None
    good_a, good_b = IDX[card.split("#")[0]], IDX[other.split("#")[0]]
    zone_a, zone_b = where[card], where[other]
    if good_a == good_b or zone_a == zone_b:
        return None  # goods of one kind are the same card; a zone is told by its counts
    face_down = [zone.endswith("_down") for zone in (zone_a, zone_b)]
    if any(face_down) and (IS_LEGAL[good_a] or IS_LEGAL[good_b]):
        return None  # a face-down stand holds only contraband and royal goods (§5.5)
    if "_up" in zone_a + zone_b or zone_a in _PUBLIC_ZONES or zone_b in _PUBLIC_ZONES:
        return None  # cards face up trade no places unseen
    d = draft(s)
    _trade(d, zone_a, good_a, good_b)
    _trade(d, zone_b, good_b, good_a)
    return build(d)


_PUBLIC_ZONES = frozenset(("confiscated", "pile1", "pile2"))


def _trade(d: Draft, zone: str, out: int, into: int) -> None:
    """In `zone` (a name of `numbered_zones`), one good `out` becomes a good `into`."""
    if zone == "draw":  # the first copy: copies of a good are alike, only counts are told
        pile = list(d["draw_pile"])
        pile[pile.index(GOODS[out])] = GOODS[into]
        d["draw_pile"] = tuple(pile)
        return
    if zone == "aside":
        d["aside"] = _traded(d["aside"], out, into)
        return
    kind, p = re.fullmatch(r"(hand|bag|stand)(\d+)(?:_up|_down)?", zone).group(1, 2)
    field = kind + "s"
    d[field] = put(d[field], int(p), _traded(d[field][int(p)], out, into))


def _traded(counts: Sequence[int], out: int, into: int) -> tuple[int, ...]:
    after = list(counts)
    after[out] -= 1
    after[into] += 1
    return tuple(after)


def numbered_zones(s: State) -> list[tuple[str, tuple[str, ...], tuple[int | None, Sequence[int]]]]:
    """(zone, numbered card ids, (owner, identified counts)) for every zone, in a fixed order.

    Cards of one good are identical, so the ids only number them; the owner and identified
    counts say who may see which: owner None = nobody, `ALL` counts = everyone.
    """
    n = s.n_players
    over = s.phase == OVER
    everyone = (10**6,) * NG
    zones: list[tuple[str, Sequence[int], int | None, Sequence[int]]] = []
    for p in range(n):
        zones.append((f"hand{p}", s.hands[p], p, s.hand_known[p]))
        zones.append((f"bag{p}", s.bags[p], p, ZERO))
        stand = s.stands[p]
        zones.append((f"stand{p}_up", tuple(x if IS_LEGAL[i] else 0 for i, x in enumerate(stand)),
                      p, everyone))
        zones.append((f"stand{p}_down", hidden_part(stand), p, everyone if over else s.stand_known[p]))
    zones.append(("aside", s.aside, s.turn if s.phase == MARKET else None, ZERO))
    zones.append(("confiscated", s.confiscated, None, everyone))
    zones.append(("draw", counts_of(s.draw_pile), None, ZERO))
    zones.append(("pile1", counts_of(s.piles[0]), None, everyone))
    zones.append(("pile2", counts_of(s.piles[1]), None, everyone))
    next_id = [0] * NG
    out = []
    for name, counts, owner, known in zones:
        ids = []
        for i, k in enumerate(counts):
            for _ in range(k):
                ids.append(f"{GOODS[i]}#{next_id[i]}")
                next_id[i] += 1
        out.append((name, tuple(ids), (owner, known)))
    return out


def secret_cards(s: State, seat: int | None) -> frozenset[str]:
    """`Sheriff.secret_from`: numbered ids of the cards `seat` may not see (identified ones
    excepted)."""
    out: set[str] = set()
    for _name, ids, (owner, known) in numbered_zones(s):
        if owner == seat:
            continue
        shown = list(known)
        for card in ids:
            i = IDX[card.split("#")[0]]
            if shown[i]:
                shown[i] -= 1
            else:
                out.add(card)
    return frozenset(out)
