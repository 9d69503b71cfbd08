"""The 7 Wonders hand: each card with what it costs you, and every legal way to play one."""

from __future__ import annotations

from rich.text import Text
from textual.widgets import Static

from engine.seven_wonders.cards import BOARDS, CARDS, DISCARD_COINS, Effects
from engine.seven_wonders.state import (
    BABYLON,
    BUILD,
    BUILD_FREE,
    DISCARD,
    OVER,
    STAGE,
    BuildFromDiscard,
    CardOption,
    Payment,
    Pick,
    View,
)

from ...widgets import PickList, PickRow
from ...widgets.flow import Fit, Forms
from .text import COLOUR_STYLE, card_info, cost_text, cost_words, effect_parts, effects_text


class HandPanel:
    """SevenWondersScreen's hand and choices (a mixin: reads the screen's view and legal picks)."""

    def _options(self) -> dict[str, CardOption]:
        return {o.card: o for o in self.view.options} if self.view is not None else {}

    def _draw_hand(self, view: View, new_step: bool) -> None:
        hand = self.query_one("#sw-hand", PickList)
        choices = self.query_one("#sw-choices", PickList)
        title = self.query_one("#sw-hand-title", Static)
        if view.seat is None:
            title.update(Text("You are watching: hands are hidden.", style="dim"))
            hand.set_rows([])
            choices.display = False
            return
        if self.rebuilding:
            title.update(Text.assemble(("Halikarnassos: ", "bold"), "take one card free ",
                                       ("(Enter; n: none)", "dim")))
            rows = [PickRow(c, self._pile_row(c), BuildFromDiscard(c) in self.legal_set)
                    for c in dict.fromkeys(view.discard_pile)]
            hand.set_rows(rows)
            hand.display, choices.display = True, False
            self._focus(hand, new_step)
            return
        if self.picking and self.card is not None:
            title.update(Text.assemble((CARDS[self.card].name, "bold"), ": choose how to play it ",
                                       ("(⌫ back)", "dim")))
            first = self._choices_for != self.card
            self._choices_for = self.card
            choices.set_rows(self._choice_rows(view, self.card))
            hand.display, choices.display = False, True
            self._focus(choices, first)
            return
        self._choices_for = None
        title.update(self._hand_title(view))
        options = self._options() if self.picking else {}
        counts: dict[str, int] = {}
        for c in view.hand:
            counts[c] = counts.get(c, 0) + 1
        rows = [PickRow(c, self._hand_row(c, counts[c], options.get(c)), self.picking) for c in counts]
        hand.set_rows(rows, keep=None if self.picking or not rows else rows[0].key)
        hand.display, choices.display = True, False
        self._focus(hand, new_step)

    def _focus(self, widget: PickList, jump: bool) -> None:
        if jump:
            widget.action_jump(0)
        if widget.display and not widget.has_focus:
            widget.focus()

    def _hand_title(self, view: View) -> Text:
        if view.phase == BABYLON and self.picking:
            return Text.assemble(("Babylon: ", "bold"), "play your kept card ",
                                 (f"(you may spend {view.budget}¢)", "dim"))
        if self.picking:
            keys = "b/s/d/f" if view.free_build else "b/s/d"
            return Text.assemble(("Your hand: pick a card", "bold"), (f" (Enter, or {keys})", "dim"))
        if view.phase == OVER:
            return Text("The game is over: e shows the results.", style="bold")
        if self.sent:
            return Text.assemble(("You chose: ", "bold"), self.sent, (" · the others are choosing", "dim"))
        return Text.assemble(("Your hand", "bold"), (f" ({len(view.hand)} cards)", "dim"))

    def _hand_row(self, card_id: str, copies: int, option: CardOption | None) -> Forms:
        card = CARDS[card_id]
        out = Text()
        out.append("■ ", style=COLOUR_STYLE[card.color])
        name = card.name + (f" ×{copies}" if copies > 1 else "")
        onward = " »" if card.chain_to else ""  # a later card is free with it
        out.append(f"{name[:19 - len(onward)] + onward:<19} ", style=f"bold {COLOUR_STYLE[card.color]}")
        cost = cost_text(card.coin_cost, card.cost)
        out.append_text(cost)
        out.append(" " * max(1, 7 - cost.cell_len))
        if option is not None:
            status, style = self._status(option)
            out.append(f"{status:<10}", style=style)
        return _with_effects(out, card.effects)

    @staticmethod
    def _status(option: CardOption) -> tuple[str, str]:
        """free / chain / pay N / not possible (and why), as the hand shows it."""
        if option.build == "free":
            return "chain ✓", "bold green3"
        if option.build == "pay":
            cheapest = option.coin_cost + min(p.pay_left + p.pay_right for p in option.payments)
            return ("free ✓", "bold green3") if cheapest == 0 else (f"pay {cheapest}", "bold yellow")
        if option.build == "owned":
            return "✗ built", "red"
        if option.build == "too_expensive":
            return "✗ coins", "red"
        return "✗ no res.", "red"

    def _pile_row(self, card_id: str) -> Forms:
        card = CARDS[card_id]
        out = Text.assemble(("■ ", COLOUR_STYLE[card.color]), (f"{card.name:<19} ", f"bold {COLOUR_STYLE[card.color]}"))
        if BuildFromDiscard(card_id) not in self.legal_set:
            out.append("✗ built   ", style="red")
        return _with_effects(out, card.effects)

    def _payment_words(self, coin_cost: int, pay: Payment) -> str:
        """"1¢ bank + 2¢ to ◀Bob + 1¢ to Cy▶ = 4¢": who gets what (◀ left, ▶ right neighbour)."""
        view = self.view
        n = view.n_players
        left, right = self.player_name((view.seat + 1) % n)[:8], self.player_name((view.seat - 1) % n)[:8]
        parts = []
        if coin_cost:
            parts.append(f"{coin_cost}¢ bank")
        if pay.pay_left:
            parts.append(f"{pay.pay_left}¢ to ◀{left}")
        if pay.pay_right:
            parts.append(f"{pay.pay_right}¢ to {right}▶")
        if not parts:
            return "free"
        total = coin_cost + pay.pay_left + pay.pay_right
        return " + ".join(parts) + (f" = {total}¢" if len(parts) > 1 else "")

    def _choice_rows(self, view: View, card_id: str) -> list[PickRow]:
        """Every way to play the card: legal ones enabled, the rest dimmed with the reason."""
        card = CARDS[card_id]
        option = self._options().get(card_id)
        rows: list[PickRow] = []
        if option is not None and option.build in ("free", "pay"):
            for pay in option.payments:
                action = Pick(card_id, BUILD, pay.pay_left, pay.pay_right)
                words = "free by chain" if option.build == "free" else self._payment_words(option.coin_cost, pay)
                rows.append(PickRow(action, Text.assemble(("Build", "bold"), f": {words}"), action in self.legal_set))
        else:
            why = {"owned": f"{card.name} is already in your city",
                   "too_expensive": f"not enough coins (you may spend {view.budget}¢)",
                   "impossible": "its resources cannot be made or bought"}.get(option.build if option else "", "not now")
            rows.append(PickRow(("no", BUILD), Text.assemble(("Build", "bold"), f": not possible, {why}"), False))
        free = Pick(card_id, BUILD_FREE)
        if free in self.legal_set:
            rows.append(PickRow(free, Text.assemble(("Build free", "bold"), ": Olympia's once-per-Age free build"), True))
        board = BOARDS[(view.wonders[view.seat], view.sides[view.seat])]
        built = view.stages[view.seat]
        if built < len(board.stages):
            stage = board.stages[built]
            label = f"Wonder stage {built + 1}"
            for pay in view.stage_payments:
                action = Pick(card_id, STAGE, pay.pay_left, pay.pay_right)
                text = Text.assemble((label, "bold"), f": {self._payment_words(stage.coin_cost, pay)}",
                                     (f" → {effects_text(stage.effects)}", "dim"))
                rows.append(PickRow(action, text, action in self.legal_set))
            if not view.stage_payments:
                rows.append(PickRow(("no", STAGE), Text.assemble(
                    (label, "bold"), f": not possible (needs {cost_words(stage.coin_cost, stage.cost)})"), False))
        discard = Pick(card_id, DISCARD)
        rows.append(PickRow(discard, Text.assemble(("Discard", "bold"), f": sell it for {DISCARD_COINS} coins"),
                            discard in self.legal_set))
        return rows

    def _draw_card_info(self) -> None:
        info = self.query_one("#sw-card", Static)
        card = self.card
        if card is None:
            hand = self.query_one("#sw-hand", PickList)
            key = hand.highlighted if hand.display else None
            card = key if isinstance(key, str) else None
        info.display = card in CARDS
        if card not in CARDS:
            info.update("")
            return
        text = card_info(card)
        width, room = info.content_size.width, 2 if self.has_class("sw-short") else 3
        if width and len(text.wrap(self.app.console, width)) > room:
            text = card_info(card, short=True)  # the long form would be cut at the panel's edge
        info.update(text)


def _with_effects(head: Text, effects: Effects) -> Forms:
    """A row ending in what the card does: in full when the list is wide enough, else in short
    and "N more" ending what still does not fit (the card's line below the hand says all)."""
    full = head + Text(effects_text(effects), style="dim")
    short = tuple(Text(part, style="dim") for part in effect_parts(effects, short=True))
    return Forms((full, Fit(head, short)))
