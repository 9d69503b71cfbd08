"""The normal 7 Wonders bot as it was on 2026-12-03 before its speed-up (issue 22 item 6), kept
verbatim (imports made absolute, class renamed) so tests/engine/seven_wonders/test_bot_reference.py
can check that today's bot makes the same decision at every step, and the bench can time both.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.bots.base import Bot
from engine.core import Action, ActionSpace, View
from engine.seven_wonders.cards import BOARDS, CARDS, DEFEAT_TOKEN, SYMBOLS, VICTORY_TOKEN, Effects
from engine.seven_wonders.scoring import Table, best_science
from engine.seven_wonders.state import BUILD_FREE, DISCARD, STAGE, BuildFromDiscard, Decline, Pick

_RESOURCE_WORTH = {1: 2.5, 2: 1.6, 3: 0.0}  # per new unit of production, by Age
_DISCOUNT_WORTH = {1: 2.5, 2: 1.5, 3: 0.0}


class SevenWondersBotReference(Bot):
    kind = "heuristic"

    def choose(self, view: View, actions: Sequence[Action] | ActionSpace) -> Action:
        actions = list(actions)
        best, best_score = actions[0], None
        for action in actions:
            score = self._worth(view, action)
            if best_score is None or score > best_score:
                best, best_score = action, score
        return best

    # ---- worth of one action -----------------------------------------------------------------
    def _worth(self, view: View, action: Action) -> float:
        if isinstance(action, Decline):
            return 0.0
        if isinstance(action, BuildFromDiscard):
            return self._card_worth(view, action.card)
        assert isinstance(action, Pick)
        if action.kind == DISCARD:
            return 1.0 - 0.01 * self._card_worth(view, action.card)
        paid = action.pay_left + action.pay_right
        if action.kind == STAGE:
            board = BOARDS[(view.wonders[view.seat], view.sides[view.seat])]
            stage = board.stages[view.stages[view.seat]]
            return self._effects_worth(view, stage.effects, None) + 1.0 - (stage.coin_cost + paid * 1.3) / 3
        card = CARDS[action.card]
        worth = self._card_worth(view, action.card)
        if action.kind == BUILD_FREE:
            return worth + 0.2 * sum(k for _, k in card.cost) - 0.5
        chained = bool(card.chain_from & {CARDS[c].name for c in view.cities[view.seat]})
        spent = 0 if chained else card.coin_cost
        return worth - (spent + paid * 1.3) / 3

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
