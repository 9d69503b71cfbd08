"""The Sheriff detail panel: the negotiation, opened bags turned over, and consequences."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import replace

from rich.text import Text
from textual.widgets import Static

from engine.sheriff.cards import EXCHANGES, GOODS
from engine.sheriff.state import Accept, Demand, Inspect, NoOffer, Offer, Pass, SeatView, View
from engine.sheriff.view import accepted

from ...widgets.flow import Forms, Lines, fit_line
from .text import (
    OUTCOME_WORD,
    by_kind,
    good_name,
    good_text,
    goods_text,
    inspection_words,
)

log = logging.getLogger(__name__)

DETAIL_ROOM = 7
"""Lines the detail panel has (its max-height in sheriff.tcss)."""
TALL_DETAIL_ROOM = 12
"""... on a tall terminal (the -tall breakpoint): more of the negotiation is shown."""
TALL_MORE_SAID = 3
"""Words said shown on a tall terminal, beyond the 2 or 3 that fit at 80x24."""


def _within_room(lines: list[Text | Forms], room: int) -> list[Text | Forms]:
    """At most `room` lines: the words said (indented, also in the log) go first, oldest
    first; then the last lines give way to a note that the log has them."""
    said = [i for i, line in enumerate(lines) if isinstance(line, Text) and line.plain.startswith("  ")]
    dropped = set(said[:max(0, len(lines) - room)])
    lines = [line for i, line in enumerate(lines) if i not in dropped]
    if len(lines) > room:
        rest = len(lines) - room + 1
        lines = lines[:room - 1] + [Text(f"{rest} more lines in the log (F3)", style="dim")]
    return lines


class DetailPanel:
    """SheriffScreen's detail panel (a mixin: reads the screen's view and the offer being built)."""

    # ---- the detail panel: negotiation, opened bags, consequences -------------------------
    def _draw_detail(self) -> None:
        view = self.view
        if view is None:
            return
        room = TALL_DETAIL_ROOM if self.has_class("-tall") else DETAIL_ROOM
        lines = _within_room(self._detail_lines(view), room)
        detail = self.query_one("#detail", Static)
        # a line too long for the panel ends in "N more" between two of its parts, never mid-word
        detail.update(Lines(tuple(fit_line(line) for line in lines)) if lines else Text(""))
        detail.display = bool(lines)

    def _detail_lines(self, view: View) -> list[Text | Forms]:
        mode = self.mode
        lines: list[Text] = []
        me = self.me
        if me is not None and me.bag and mode != "offer":
            line = Text("Your bag: ", style="bold")
            line.append_text(goods_text(me.bag))
            if me.declared:
                line.append(f" · declared {len(me.bag)} {good_name(me.declared)}")
            lines.append(line)
        if mode == "draw" and me is not None and me.set_aside:
            lines.append(Text("Set aside: ", style="bold").append_text(goods_text(me.set_aside)))
        if mode in ("draw", "discard") and self.draws:
            line = Text("Drawn: ", style="bold")
            line.append_text(Text(", ").join(
                Text.assemble(good_text(card), (f" ({source})", "dim")) for source, card in self.draws))
            lines.append(line)
        if mode in ("discard", "confiscate"):
            line = Text("Placed in this order: ", style="bold")
            line.append_text(Text(" → ").join(good_text(c) for c in self.order))
            line.append(" (top)", style="dim")
            lines.append(line)
        if view.phase == "inspect":
            lines.extend(self._negotiation_lines(view))
        elif view.phase == "declare":
            bags = self._bags_line(view, view.players, title="Declared: ")
            if bags is not None:
                lines.append(bags)
        elif view.phase in ("market", "load") and mode not in ("draw", "discard"):
            lines.extend(self._last_round_lines(view))
        if mode == "offer":
            lines.extend(self._offer_consequences(view))
        if mode == "confiscate" and view.merchant >= 0:
            owed = view.consequences.confiscation_fine if view.consequences else 0
            lines.append(Text(f"{self.player_name(view.merchant)} then owes you {owed} gold in fines.", style="dim"))
        if mode == "pay" and view.debt is not None:
            lines.append(Text(f"No gold left: pay {self.player_name(view.debt.creditor)} in goods "
                              "(legal first, no change)", style="dim"))
        return lines

    def _declared_text(self, view: View, p: SeatView, round_: int | None = None) -> Text:
        size = self.bag_sizes.get((view.round if round_ is None else round_, p.seat))
        out = Text(f"{size} " if size else "")
        out.append_text(good_text(p.declared))
        return out

    def _bags_line(self, view: View, players: Sequence[SeatView], round_: int | None = None,
                   title: str = "Bags: ") -> Text | None:
        """Every declared bag of a round with what became of it."""
        parts = []
        for p in players:
            if not p.declared:
                continue
            part = Text("You" if p.seat == view.seat else self.player_name(p.seat), style="bold")
            part.append(" ")
            part.append_text(self._declared_text(view, p, round_))
            if p.outcome:
                part.append(f" {OUTCOME_WORD.get(p.outcome, p.outcome)}", style="dim")
            parts.append(part)
        if not parts:
            return None
        return Text(title, style="bold").append_text(Text(" · ").join(parts))

    def _negotiation_lines(self, view: View) -> list[Text]:
        name = self.player_name
        mode = self.mode
        lines: list[Text] = []
        if mode not in ("offer", "answer", "choose"):
            bags = self._bags_line(view, view.players)
            if bags is not None:
                lines.append(bags)
        if view.conditions:
            line = Text("Accepted: ", style="bold")
            line.append(", ".join(f"{kind} {name(x)}" for kind, x in view.conditions))
            lines.append(line)
        merchant = view.merchant if view.merchant >= 0 else (view.talk[0][0] if view.talk else -1)
        if merchant >= 0:
            m = view.players[merchant]
            head = Text(f"{'You' if merchant == view.seat else name(merchant)}", style="bold")
            if m.declared:
                head.append(" declared ")
                head.append_text(self._declared_text(view, m))
            if m.outcome:
                head.append(f" · {OUTCOME_WORD.get(m.outcome, m.outcome)}", style="dim")
            lines.append(head)
            # the last words said: two while the offer or the placed cards need the room
            said = (2 if mode in ("offer", "discard", "confiscate") else 3) + (TALL_MORE_SAID if self.has_class("-tall") else 0)
            for seat, action in view.talk[-said:]:
                lines.append(self._talk_line(view, seat, action))
        if mode != "offer":
            for p in view.players:  # every bag opened this round, turned over card by card
                if p.revealed:
                    lines.append(self._revealed_line(view, p))
        return lines

    def _last_round_lines(self, view: View) -> list[Text]:
        """During the market: what became of last round's bags (the view forgets them)."""
        if self.last_round is None or self.last_round[0] != view.round - 1:
            return []
        round_, seen = self.last_round
        players = [p if p.outcome or not p.declared
                   else replace(p, outcome=self.verdicts.get((round_, p.seat), "")) for p in seen]
        lines = []
        bags = self._bags_line(view, players, round_, f"Round {round_ + 1}: ")
        if bags is not None:
            lines.append(bags)
        for p in players:
            if p.revealed:
                lines.append(self._revealed_line(view, p, round_))
        return lines

    def _talk_line(self, view: View, seat: int, action: object) -> Text:
        who = "You" if seat == view.seat else self.player_name(seat)
        line = Text("  ")
        line.append(f"{who}: ", style="bold")
        if isinstance(action, Offer):
            line.append_text(self._offer_text(action, view))
        elif isinstance(action, NoOffer):
            line.append("no new offer", style="dim")
        elif isinstance(action, Demand):
            line.append(f'demands "{action.text}"' if action.text else "demands more", style="yellow")
        elif isinstance(action, Accept):
            line.append("accepts", style="green")
        elif isinstance(action, Pass):
            line.append("lets the bag pass", style="green")
        elif isinstance(action, Inspect):
            line.append("opens the bag!", style="bold red")
        else:
            line.append(str(action))
        return line

    def _offer_text(self, offer: Offer, view: View) -> Text:
        parts: list[Text] = []
        if offer.gold:
            parts.append(Text(f"{offer.gold} gold", style="bold yellow"))
        if offer.stand_goods:
            parts.append(Text("stand: ").append_text(goods_text(offer.stand_goods, " ")))
        if offer.bag_goods:
            parts.append(Text("from bag: ").append_text(goods_text(offer.bag_goods, " ")))
        for kind, x in offer.conditions:
            parts.append(Text(f"you {kind} {'me' if x == view.seat else self.player_name(x)}", style="cyan"))
        if offer.promise.strip():
            parts.append(Text(f'"{offer.promise}"', style="italic"))
        return Text("; ").join(parts) if parts else Text("nothing", style="dim")

    def _revealed_line(self, view: View, p: SeatView, round_: int | None = None) -> Forms:
        """An opened bag, card by card as they are turned over, then the verdict; said shorter
        ("Bot 3: …", the verdict without its word) where the panel is narrow."""
        key = (view.round if round_ is None else round_, p.seat)
        shown = self.turned.setdefault(key, 0) if round_ is None else len(p.revealed)
        hidden = len(p.revealed) - shown
        # card by card while they are turned over; then by good, so the verdict fits 80 columns
        opened = [(card, 1) for card in p.revealed[:shown]] if hidden > 0 else by_kind(p.revealed)
        cards = Text()
        for card, n in opened:
            ok = card == p.declared
            cards.append_text(good_text(card))
            cards.append(("✓" if ok else "✗") + (f"×{n} " if n > 1 else " "), style="green" if ok else "bold red")
        if hidden > 0:
            cards.append("▮ " * hidden, style="dim")
        verdicts = ("", "")
        if hidden == 0 and p.inspection is not None:
            fine = p.inspection.fine
            verdicts = (f"honest: paid {fine}", f"paid {fine}") if p.inspection.honest else (f"lie: fine {fine}", f"fine {fine}")
        style = "bold green" if p.inspection is not None and p.inspection.honest else "bold red"
        mine = p.seat == view.seat
        owners = ("Your opened bag: " if mine else f"{self.player_name(p.seat)}'s bag: ",
                  "You: " if mine else f"{self.player_name(p.seat)}: ")
        forms = [Text(owner, style="bold").append_text(cards).append(verdict, style=style)
                 for owner, verdict in ((owners[0], verdicts[0]), (owners[1], verdicts[0]), (owners[1], verdicts[1]))]
        return Forms(tuple(forms))

    def _turn_cards(self) -> None:
        """Timer: turn over one more card of every opened bag still face down, then redraw."""
        view = self.view
        if view is None or not self.is_attached or self._passing:
            return
        moved = False
        for p in view.players:
            key = (view.round, p.seat)
            if p.revealed and self.turned.get(key, 0) < len(p.revealed):
                self.turned[key] = self.turned.get(key, 0) + 1
                moved = True
        if moved:
            try:
                self._draw_detail()
            except Exception:
                log.exception("turning a card over failed")

    # ---- consequences shown with each choice (worked out by the engine) -----------------
    def _offer_consequences(self, view: View) -> list[Text | Forms]:
        me = self.me
        if me is None:
            return []
        offer = self._built_offer()
        lines = [Text("Your offer: ", style="bold").append_text(
            self._offer_text(offer, view) if isinstance(offer, Offer) else Text("nothing yet", style="dim"))]
        claimed = offer.bag_goods if isinstance(offer, Offer) else ()
        delivered, passing = accepted(me.bag, claimed)
        line = Text("Accepted: ", style="green")
        line.append(f"you give {self.gold} gold" if self.gold else "no gold")
        given = [g for g in GOODS for _ in range(self.stand_pick[g])]
        if given:
            line.append(" + ")
            line.append_text(goods_text(given, " "))
        if delivered:
            line.append(" + from the bag " + ", ".join(good_name(c) for c in delivered))
        line.append("; to your stand: ")
        line.append_text(goods_text(passing, " · ", "nothing"))
        lines.append(line)
        opened = view.consequences.if_opened if view.consequences else None
        if opened is not None:
            lines.append(Forms(tuple(Text("Inspected: ", style="red").append(inspection_words(opened, short=short))
                                     for short in (False, True))))
        return lines

    def _answer_consequence(self, view: View, action: object) -> str:
        if isinstance(action, Accept) and isinstance(view.offer, Offer):
            o = view.offer
            gets = []
            if o.gold:
                gets.append(f"{o.gold} gold")
            if o.stand_goods:
                gets.append(", ".join(good_name(c) for c in o.stand_goods))
            if o.bag_goods:
                gets.append("bag: " + ", ".join(good_name(c) for c in o.bag_goods) + " if there")
            text = ("get " + " + ".join(gets)) if gets else "get nothing"
            for kind, x in o.conditions:
                text += f"; must {kind} {self.player_name(x)}"
            return text + "; bag passes"
        if isinstance(action, Pass):
            return "bag passes; you get nothing"
        if isinstance(action, Inspect):
            honest = view.consequences.honest_fine if view.consequences else 0
            return f"honest: you pay {honest}; lie: they pay fines"
        if isinstance(action, Demand):
            return f"ask for more, exchange {view.exchange + 1}/{EXCHANGES}"
        return ""
