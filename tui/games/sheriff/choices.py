"""The Sheriff pick list: the rows of what this seat does now, and the market as it saw it."""

from __future__ import annotations

from collections import Counter

from rich.text import Text

from engine.core import HIDDEN
from engine.sheriff.cards import COUNTS_AS, GOODS, IDX, KIND, LEGAL, PENALTY, VALUE, goods_in_game
from engine.sheriff.state import Choose, Declare, DrawDeck, DrawDiscard, PayGoods, Unpack, View

from ...widgets import PickList, PickRow
from ...widgets.flow import Fit, Forms
from ..base import Legal
from .text import (
    by_kind,
    good_name,
    good_style,
    good_text,
    goods_text,
    inspection_words,
    unpack_words,
    value,
)


class ChoicePanel:
    """SheriffScreen's pick list (a mixin: reads the screen's view, mode and builders)."""

    # ---- the pick list ----------------------------------------------------------------
    def _draw_choices(self, view: View, legal: Legal) -> None:
        choices = self.query_one("#choices", PickList)
        mode = self.mode
        rows: list[PickRow] = []
        me = self.me
        if mode in ("aside", "load", "preload") and me is not None:
            rows = [self._hand_row(i, card) for i, card in enumerate(me.hand)]
        elif mode == "draw":
            for pile in (1, 2):
                cards = view.piles[pile - 1]
                action = DrawDiscard(pile)
                text = Text.assemble((f"{pile} ", "bold"), f"Discard pile {pile}: take ")
                text.append_text(good_text(cards[0]) if cards else Text("(empty)", style="dim"))
                if action in legal:  # only what is legal now (not a pile after the draw pile)
                    rows.append(PickRow(action, text))
            text = Text.assemble(("d ", "bold"), f"Draw pile ({view.draw_size} left): a card only you see")
            if DrawDeck() in legal:
                rows.append(PickRow(DrawDeck(), text))
        elif mode in ("discard", "confiscate"):
            for i, card in enumerate(self.order):
                where = "top" if i == len(self.order) - 1 else ("bottom" if i == 0 else "")
                text = Text.assemble((f"{i + 1}. ", "dim"), good_text(card), (f"  {where}", "dim"))
                rows.append(PickRow(i, text))
        elif mode == "declare" and me is not None:
            rows = self._declare_rows(view, legal, len(me.bag))
        elif mode == "choose":
            for seat in view.pending:
                action = Choose(seat)
                p = view.players[seat]
                text = Text.assemble((f"{self.player_name(seat)}", "bold"),
                                     f": bag of {len(p.bag)}, says ", good_text(p.declared))
                if ("inspect", seat) in view.conditions:
                    text.append("  (you must inspect)", style="cyan")
                elif ("pass", seat) in view.conditions:
                    text.append("  (you may not inspect)", style="cyan")
                rows.append(PickRow(action, text, action in legal))
        elif mode == "offer" and me is not None:
            rows = self._offer_rows(view)
        elif mode == "answer":
            for key, label in (("accept", "a Accept "), ("demand", "d Demand…"),
                               ("pass", "p Pass   "), ("inspect", "i Inspect")):
                action = self._answer_action(key)
                if action is None:
                    continue
                text = Text.assemble((label, "bold"), " — ", (self._answer_consequence(view, action), "dim"))
                rows.append(PickRow(key, text, True))
        elif mode == "pay":
            for action in legal:
                if isinstance(action, PayGoods):
                    text = Text.assemble(goods_text(action.cards, ", "), (f"  worth {value(action.cards)}", "dim"))
                    rows.append(PickRow(action, text, True))
        elif mode == "unpack" and me is not None:
            for action in legal:
                if isinstance(action, Unpack):
                    rows.append(PickRow(action, Text(unpack_words(action, len(me.bag))), True))
        choices.display = bool(mode)
        choices.set_rows(rows)

    def _declare_rows(self, view: View, legal: Legal, size: int) -> list[PickRow]:
        """One row per legal good, with what an inspection would then do (from the engine)."""
        outcomes = view.consequences.declarations if view.consequences else ()
        rows = []
        for index, good in enumerate(LEGAL):
            action = Declare(good)
            text = Text.assemble(f"{size} ", good_text(good))
            if IDX[good] not in goods_in_game(view.n_players, view.royal_goods):
                text.append(" (none in this game)", style="dim")
            if index < len(outcomes):  # in full when it fits, else without the goods it would lose
                words = [Text.assemble(text, " — ", (inspection_words(outcomes[index], short=short), "dim"))
                         for short in (False, True)]
                text = Forms((words[0], words[1]))
            rows.append(PickRow(action, text, action in legal))
        return rows

    def _hand_row(self, index: int, card: str) -> PickRow:
        on = index in self.selected
        if card not in IDX:  # over the network: a card dealt to this seat still on its way
            return PickRow(index, Text.assemble(("[ ] ", "dim"), (f"{good_name(HIDDEN):<15} ", "dim"),
                                                ("on its way to you", "dim")))
        kind = KIND[IDX[card]]
        if card in COUNTS_AS:  # royal goods count as several legal goods for King and Queen
            base, times = COUNTS_AS[card]
            kind = f"royal={times} {base}"
        text = Text.assemble(
            ("[x] " if on else "[ ] ", "bold green" if on else "dim"),
            (f"{good_name(card):<15} ", good_style(card)),
            (f"value {VALUE[IDX[card]]} fine {PENALTY[IDX[card]]} {kind}", "dim"),
        )
        return PickRow(index, text)

    def _offer_rows(self, view: View) -> list[PickRow]:
        me = self.me
        assert me is not None
        rows = [PickRow(("gold",), Text.assemble(
            ("Gold       ", "bold"), ("◂ ", "dim"), (f"{self.gold:>2}", "bold yellow"), (" ▸", "dim"),
            (f"  of {me.gold} (type digits, ←/→)", "dim")))]
        stand = Counter(me.stand_up) + Counter(me.stand_down)
        for good in GOODS:
            if stand[good]:
                rows.append(PickRow(("stand", good), Text.assemble(
                    ("Stand      ", "bold"), ("◂ ", "dim"), (f"{self.stand_pick[good]:>2}", "bold"), (" ▸ ", "dim"),
                    good_text(good), (f"  of {stand[good]}", "dim"))))
        in_bag = Counter(me.bag)
        allowed = [GOODS[i] for i in goods_in_game(view.n_players, view.royal_goods)]
        bag_rows = []
        for good in sorted(allowed, key=lambda g: (not in_bag[g], IDX[g])):
            row = Text.assemble(("From bag   ", "bold"), ("◂ ", "dim"), (f"{self.bag_claim[good]:>2}", "bold"),
                                (" ▸ ", "dim"), good_text(good))
            notes = ((f"  ({in_bag[good]} really in it)", f"  ({in_bag[good]} in it)") if in_bag[good]
                     else ("  (not in it: a bluff)", "  (bluff)"))
            bag_rows.append(PickRow(("bag", good), Forms(tuple(row + Text(note, style="dim") for note in notes))))
        real = sum(1 for g in allowed if in_bag[g])
        rows.extend(bag_rows[:real])
        for x in view.pending:
            if x == view.seat:
                continue
            kind = self.conditions.get(x, "")
            rows.append(PickRow(("cond", x), Text.assemble(
                ("Condition  ", "bold"), ("◂ ", "dim"), (kind or "none", "bold cyan" if kind else "dim"),
                (" ▸ ", "dim"), f"you {kind or 'inspect/pass'} {self.player_name(x)}")))
        promise = self.promise or "(none: press t to type one)"
        rows.append(PickRow(("promise",), Text.assemble(("Promise    ", "bold"), (promise, "italic"))))
        rows.extend(bag_rows[real:])
        return rows

    def _hand_line(self, view: View) -> Text | Fit | Forms:
        """The hand (or what is marked of it), as many goods as fit and "N more"."""
        me = self.me
        if me is None:
            return Text("Hands are hidden: you are watching.", style="dim")
        if self.mode in ("aside", "load", "preload"):
            picked = [me.hand[i] for i in sorted(self.selected) if i < len(me.hand)]
            head = Text("Set aside: " if self.mode == "aside" else "Bag: ", style="bold")
            empty = "nothing (Enter keeps your hand)" if self.mode == "aside" else "nothing yet"
            items = tuple(good_text(g, n) for g, n in by_kind(picked)) or (Text(empty, style="dim"),)
            return Fit(head, items, " · ")
        head = Text(f"Your hand ({len(me.hand)}): ", style="bold")
        items = tuple(good_text(g, n) for g, n in by_kind(me.hand)) or (Text("empty", style="dim"),)
        return Forms((head + goods_text(me.hand, " "), Fit(head, items, " · ")))  # "Pepper 2 · 2 more"

    # ---- the market as this seat saw it ---------------------------------------------------
    def _track_market(self, view: View) -> None:
        """Remember each card this seat drew and where from (the view keeps only the hand)."""
        me = self.me
        key = (view.seat, view.round, view.phase, view.players[view.active[0]].seat if view.active else -1)
        if key != self._market_key:
            self._market_key = key
            self.draws = []
            self._hand_before = None
            self._draw_source = ""
        if me is None or view.phase != "market" or self._hand_before is None:
            return
        gained = Counter(me.hand) - Counter(self._hand_before)
        if HIDDEN in gained:
            return  # the drawn card is still on its way (network): note it once it arrives
        if sum(gained.values()) == 1 and self._draw_source:
            self.draws.append((self._draw_source, next(iter(gained))))
            self._hand_before = None
            self._draw_source = ""
