"""The Sheriff's negotiation keys: the merchant's offer builder and the Sheriff's answers."""

from __future__ import annotations

from engine.sheriff.cards import GOODS
from engine.sheriff.state import Accept, Demand, Inspect, NoOffer, Offer, Pass
from engine.sheriff.view import condition_kinds

from .widgets import guarded


class OfferKeys:
    """SheriffScreen's offer and answer keys (a mixin: edits the screen's offer builders)."""

    # ---- offers --------------------------------------------------------------------------
    def _built_offer(self) -> Offer | NoOffer:
        stand = tuple(g for g in GOODS for _ in range(self.stand_pick[g]))
        bag = tuple(g for g in GOODS for _ in range(self.bag_claim[g]))
        conditions = tuple(sorted(((kind, x) for x, kind in self.conditions.items() if kind),
                                  key=lambda c: (c[1], c[0])))
        if not (self.gold or stand or bag or self.promise.strip() or conditions):
            return NoOffer()
        return Offer(self.gold, stand, bag, self.promise, conditions)

    @guarded
    def action_adjust(self, delta: int) -> None:
        me, view = self.me, self.view
        key = self._highlighted()
        if me is None or view is None or not isinstance(key, tuple):
            return
        if key[0] == "gold":
            self.gold = max(0, min(me.gold, self.gold + delta))
        elif key[0] == "stand":
            good = key[1]
            have = me.stand_up.count(good) + me.stand_down.count(good)
            self.stand_pick[good] = max(0, min(have, self.stand_pick[good] + delta))
        elif key[0] == "bag":
            good = key[1]
            room = len(me.bag) - sum(self.bag_claim.values()) + self.bag_claim[good]
            self.bag_claim[good] = max(0, min(room, self.bag_claim[good] + delta))
        elif key[0] == "cond":
            x = key[1]
            options = list(condition_kinds(view.conditions, x))
            current = self.conditions.get(x, "")
            index = options.index(current) if current in options else 0
            self.conditions[x] = options[(index + delta) % len(options)]
        elif key[0] == "promise":
            self.action_promise()
            return
        self.refresh_table()

    @guarded
    def action_digit(self, digit: int) -> None:
        me = self.me
        if me is None:
            return
        if digit < 0:
            self.gold //= 10
        else:
            self.gold = min(me.gold, self.gold * 10 + digit)
        self.refresh_table()

    @guarded
    def action_make_offer(self) -> None:
        self._send(self._built_offer())

    @guarded
    def action_no_offer(self) -> None:
        self._send(NoOffer())

    @guarded
    def action_promise(self) -> None:
        self.open_entry("promise", self.promise, "your promise (not binding); Enter keeps it, Esc cancels")

    # ---- the Sheriff's answers -----------------------------------------------------------
    def _answer_action(self, key: str) -> object | None:
        """The answer for a key if the engine allows it now (a demand: with any text)."""
        legal = self.legal
        if key == "demand":
            return Demand("") if any(isinstance(a, Demand) for a in legal) else None
        action = {"accept": Accept(), "pass": Pass(), "inspect": Inspect()}.get(key)
        return action if action is not None and action in legal else None

    @guarded
    def action_answer(self, key: str) -> None:
        if self.mode != "answer":
            return
        if key == "demand":
            if self._answer_action("demand") is None:
                self.show_message("This is the last exchange: accept, pass or inspect.", error=True)
                return
            self.open_entry("demand", "", "what you demand (optional); Enter sends, Esc cancels")
            return
        action = self._answer_action(key)
        self._send(action if action is not None else {"accept": Accept(), "pass": Pass()}.get(key, Inspect()))
