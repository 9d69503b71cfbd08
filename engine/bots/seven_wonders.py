"""7 Wonders heuristic bot: scores each legal action by its estimated end-of-game worth.

It sees only its view and its legal actions. Worth = the points a card or stage brings now
(civilian, wonder, science gained, guild and commercial counts), military tokens it would
swing this Age, production early in the game, coins at 1 point per 3, minus the coins spent
(paying a neighbour costs a little more: they gain what we pay).
"""

from __future__ import annotations

from collections.abc import Sequence

from ..core import Action, ActionSpace, View
from ..seven_wonders.cards import BOARDS, CARDS, DEFEAT_TOKEN, SYMBOLS, VICTORY_TOKEN, Effects
from ..seven_wonders.scoring import Table, best_science
from ..seven_wonders.state import BUILD, BUILD_FREE, DISCARD, STAGE, BuildFromDiscard, Pick
from .base import Bot

_RESOURCE_WORTH = {1: 2.5, 2: 1.6, 3: 0.0}  # per new unit of production, by Age
_DISCOUNT_WORTH = {1: 2.5, 2: 1.5, 3: 0.0}


class SevenWondersBot(Bot):
    kind = "heuristic"

    def choose(self, view: View, actions: Sequence[Action] | ActionSpace) -> Action:
        if view.options:  # a pick: the view offers what the legal space holds
            return self._best_pick(view)
        # Halikarnassos: build one of the discards free, or decline
        best, best_score = None, 0.0
        for action in actions:
            score = self._card_worth(view, action.card) if isinstance(action, BuildFromDiscard) else 0.0
            if best is None or score > best_score:
                best, best_score = action, score
        return best

    def _best_pick(self, view: View) -> Pick:
        """The best pick, read from the view's options in the order the legal space lists the
        picks (per card its builds, its free build, its stages, its discard; the first of equal
        worths wins): a card's worth is worked out once, whatever it is paid with or used for."""
        me = view.seat
        if view.stage_payments:
            board = BOARDS[(view.wonders[me], view.sides[me])]
            stage = board.stages[view.stages[me]]
            stage_worth = self._effects_worth(view, stage.effects, None) + 1.0
        best, best_score = None, None
        for option in view.options:
            card_id = option.card
            card = CARDS[card_id]
            worth = self._card_worth(view, card_id)
            scored: list[tuple[float, str, int, int]] = []
            if option.payments:
                bank = 0 if option.chain else card.coin_cost
                scored += [(_after_paying(worth, bank, p.pay_left + p.pay_right), BUILD, p.pay_left, p.pay_right)
                           for p in option.payments]
            if option.free_build:
                scored.append((worth + 0.2 * sum(k for _, k in card.cost) - 0.5, BUILD_FREE, 0, 0))
            scored += [(_after_paying(stage_worth, stage.coin_cost, p.pay_left + p.pay_right), STAGE,
                        p.pay_left, p.pay_right) for p in view.stage_payments]
            scored.append((1.0 - 0.01 * worth, DISCARD, 0, 0))
            for score, kind, left, right in scored:
                if best_score is None or score > best_score:
                    best, best_score = (card_id, kind, left, right), score
        assert best is not None  # every card can be discarded
        return Pick(*best)

    # ---- worth of one card or stage ------------------------------------------------------------
    def _card_worth(self, view: View, card_id: str) -> float:
        card = CARDS[card_id]
        worth = self._effects_worth(view, card.effects, card_id)
        if card.chain_to and view.age < 3:
            worth += 0.8 * len(card.chain_to)
        return worth

    def _effects_worth(self, view: View, e: Effects, card_id: str | None) -> float:
        me, age = view.seat, view.age
        worth = float(e.points)
        if e.coins:
            worth += e.coins / 3
        if e.coins_per is not None or e.points_per is not None:  # the table, with this card built
            table = Table(view.wonders, view.sides, view.stages,
                          [c + ((card_id,) if s == me and card_id else ()) for s, c in enumerate(view.cities)],
                          view.coins, view.tokens)
        if e.coins_per is not None:
            worth += e.coins_per.amount * table.count(me, e.coins_per) / 3
        if e.points_per is not None:
            worth += e.points_per.amount * table.count(me, e.points_per)
            if e.points_per.kind == "defeat_tokens":
                worth += 1.0
        if e.shields:
            worth += self._military_swing(view, e.shields)
        if e.science is not None or e.science_choice:
            worth += self._science_gain(view, e)
        makes = view.production[me].makes
        produced = sum(e.produce) + len(e.produce_one_of)
        if produced:
            new_kinds = sum(1 for r, k in enumerate(e.produce) if k and makes[r] == 0)
            new_kinds += sum(1 for opts in e.produce_one_of if all(makes[r] == 0 for r in opts))
            worth += _RESOURCE_WORTH[age] * (0.6 * produced + 0.6 * new_kinds)
        if e.discounts:
            worth += _DISCOUNT_WORTH[age]
        if e.free_build_once_per_age or e.build_from_discard:
            worth += 3.0
        if e.play_last_card:
            worth += 1.5 * (3 - age + 1)
        if e.copy_guild:
            worth += 4.0
        return worth

    def _military_swing(self, view: View, extra: int) -> float:
        me, n = view.seat, view.n_players
        shields = [p.shields for p in view.production]
        win = VICTORY_TOKEN[view.age]

        def tokens(mine: int) -> int:
            total = 0
            for other in ((me + 1) % n, (me - 1) % n):
                if mine > shields[other]:
                    total += win
                elif mine < shields[other]:
                    total += DEFEAT_TOKEN
            return total

        swing = tokens(shields[me] + extra) - tokens(shields[me])
        # later Ages pay more, and an edge now tends to last
        return swing + 0.3 * extra * (4 - view.age) / 3

    def _science_gain(self, view: View, e: Effects) -> float:
        me = view.seat
        counts = [0, 0, 0]
        wild = 0
        for c in view.cities[me]:
            ce = CARDS[c].effects
            if ce.science is not None:
                counts[SYMBOLS.index(ce.science)] += 1
            wild += ce.science_choice
        for s in BOARDS[(view.wonders[me], view.sides[me])].stages[: view.stages[me]]:
            wild += s.effects.science_choice
        before = best_science(counts, wild)[0]
        if e.science is not None:
            counts[SYMBOLS.index(e.science)] += 1
        after = best_science(counts, wild + e.science_choice)[0]
        return after - before + (1.5 if view.age < 3 else 0.0)


def _after_paying(worth: float, bank: int, paid: int) -> float:
    """A build's or a stage's worth less its coins (a neighbour's coin costs a little more: they
    gain what we pay)."""
    return worth - (bank + paid * 1.3) / 3
