"""Ten's `best_total` as it was before it cached each colour's options and its bounds
(engine/ten/scoring.py at 42f49f5), kept verbatim as the reference the faster one must equal
(tests/engine/ten/test_scoring.py) and that bench/ten_bots.py times it against."""

from __future__ import annotations

from functools import lru_cache

from engine.ten.scoring import _MASK_POINTS, N_COLOURS, Pool, _candidates, _coverable


@lru_cache(maxsize=1 << 16)
def best_total_before(masks: tuple[int, ...], pool: Pool) -> int:
    """The highest total reachable with these held numbers per colour and these wilds.

    Branch and bound over the colours. A colour's own colour wilds fill any of its gaps; what
    they leave open (its "need") is filled by the shared wilds (numbered, rainbow). The bound
    is a knapsack of the best points per colour for each total need, ignoring which numbers.
    """
    colour_wilds, numbered, rainbow = pool
    shared = numbered.bit_count() + rainbow
    if shared + sum(colour_wilds) == 0:
        return sum(map(_MASK_POINTS.__getitem__, masks))
    options = []
    for c, mask in enumerate(masks):
        found = []
        for points, gaps in _candidates(mask, colour_wilds[c] + shared):
            need = max(0, gaps.bit_count() - colour_wilds[c])
            found.append((points, need, gaps & numbered))
        options.append(found)
    by_need = [
        [max((p for p, need, _ in found if need <= k), default=0) for k in range(shared + 1)]
        for found in options
    ]
    bound = [[0] * (shared + 1) for _ in range(N_COLOURS + 1)]
    for c in range(N_COLOURS - 1, -1, -1):
        for k in range(shared + 1):
            bound[c][k] = max(by_need[c][j] + bound[c + 1][k - j] for j in range(k + 1))
    best = sum(row[0] for row in by_need)
    needs: list[int] = []
    usable: list[int] = []

    def search(c: int, points: int, used: int) -> None:
        nonlocal best
        if c == N_COLOURS:
            best = max(best, points)
            return
        left = shared - used
        for p, need, numbers in options[c]:
            if points + p + bound[c + 1][left] <= best:
                break  # sorted by points: nothing later in this colour can do better
            if need > left or points + p + bound[c + 1][left - need] <= best:
                continue
            needs.append(need)
            usable.append(numbers)
            if not need or _coverable(needs, usable, rainbow):
                search(c + 1, points + p, used + need)
            needs.pop()
            usable.pop()

    search(0, 0, 0)
    return best
