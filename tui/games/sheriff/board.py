"""The Sheriff board: discard piles, stands, the scoreboard's bag cell and the prompt line."""

from __future__ import annotations

from rich.text import Text

from engine.core import HIDDEN
from engine.sheriff.cards import ASIDE_MAX, BAG_MAX, EXCHANGES, HAND_SIZE
from engine.sheriff.state import SeatView, View

from ...widgets.flow import Fit, Forms, Lines
from .text import OUTCOME_SHORT, by_kind, good_name, good_text, goods_text, plural


class BoardText:
    """SheriffScreen's board texts (a mixin: reads the screen's view, mode and names)."""

    def _bag_cell(self, view: View, p: SeatView) -> Text:
        """Short: the names need the room (the declared goods are on the board)."""
        if p.seat == view.sheriff:
            return Text("★", style="bold yellow")
        if p.outcome:
            return Text(OUTCOME_SHORT.get(p.outcome, p.outcome), style="dim")
        if p.bag:
            return Text(str(len(p.bag)), style="bold")
        if view.phase == "load" and p.seat in view.active:
            return Text("⋯", style="dim")  # still loading (not "…": that reads as a cut)
        return Text("")

    def _piles_text(self, view: View) -> Lines:
        """Each discard pile: its top card, its depth, and as many of the cards under it as fit."""
        lines: list[Text | Fit] = []
        for k, pile in enumerate(view.piles):
            head = Text(f"Pile {k + 1} ", style="bold")
            if not pile:
                lines.append(head.append("empty", style="dim"))
                continue
            head.append("top ").append_text(good_text(pile[0])).append(f" ({len(pile)} deep)", style="dim")
            if len(pile) == 1:
                lines.append(head)
                continue
            head.append(" under: ", style="dim")
            lines.append(Fit(head, tuple(Text(good_name(c), style="dim") for c in pile[1:])))
        return Lines(tuple(lines))

    def _stands_text(self, view: View) -> Lines:
        names = ["You" if p.seat == view.seat else self.player_name(p.seat)[:8] for p in view.players]
        width = max(len(n) for n in names)  # as narrow as the names allow: stands get long
        lines = []
        for p in view.players:
            mine = p.seat == view.seat
            mark = "★" if p.seat == view.sheriff else " "
            head = Text(f"{mark}{names[p.seat]:<{width}} ", style="bold" if mine else "")
            lines.append(self._stand_line(head, p, mine or view.phase == "over"))
        return Lines(tuple(lines))

    def _stand_line(self, head: Text, p: SeatView, open_: bool) -> Text | Forms:
        """A stand in full when it fits; else its face-down cards first, then as many face-up
        goods as fit and "N more" (a face-down count is what a Sheriff must not miss)."""
        up = [good_text(g, n) for g, n in by_kind(p.stand_up)]
        down = p.stand_down
        if not up and not down:
            return head + Text("empty stand", style="dim")
        known = [c for c in down if c != HIDDEN]
        if not down:
            shown_down = []
        elif open_ or len(known) == len(down):
            shown_down = [Text("▯", style="red") + goods_text(down, " ")]
        else:
            shown_down = [Text(f"▯{len(down)} face down", style="red")]
            if known:
                shown_down[0].append(" incl. ", style="dim").append_text(goods_text(known, " "))
        full = head + Text(" ").join(up + shown_down)
        short_down = [Text(f"▯{len(down)}", style="red")] if down else []
        return Forms((full, Fit(head, tuple(short_down + up), " · ")))

    def _prompt_text(self, view: View) -> Text:
        actor = view.active[0] if view.active else -1
        who = "You" if actor == view.seat else (self.player_name(actor) if actor >= 0 else "")
        if self._entry_for == "demand":
            line = "Type your demand: Enter sends it, Esc cancels"
        elif self._entry_for == "promise":
            line = "Type your promise (binds nothing): Enter keeps it, Esc cancels"
        elif view.phase == "over":
            line = "Game over: every stand is open (e: the results)"
        else:
            line = self._my_prompt(view, who) or self._watching_prompt(view, actor, who)
        return Text(line, style="bold")

    def _my_prompt(self, view: View, who: str) -> str:
        """What this seat is asked to do now ("" when it is not its move)."""
        name, mode, me = self.player_name, self.mode, self.me
        if mode == "draw":
            missing = HAND_SIZE - len(me.hand) if me else 0
            return (f"Draw {missing} more: 1 / 2 = a pile's top, d = draw pile" if missing > 0
                    else "Draw: 1 / 2 = a pile's top, d = draw pile")
        if mode == "load":
            return f"Load your bag: mark 1 to {min(BAG_MAX, len(me.hand))} cards, Enter"
        if mode == "declare":
            return f"Declare your bag of {plural(len(me.bag), 'card')}: pick the good"
        if mode == "answer":
            said = (f"Answer {name(view.merchant)}'s offer" if view.offer is not None
                    else f"{name(view.merchant)} has made no offer")
            return said + f" (exchange {view.exchange}/{EXCHANGES})"
        if mode == "pay":
            return f"Pay your debt with goods: {view.debt.amount} still owed" if view.debt else "Pay with goods"
        if mode == "unpack":
            return ("Your bag is emptied: legal goods face up, contraband face down" if self.unpacked_for_you
                    else "Empty your bag: pick how (u), legal goods go face up")
        return {
            "aside": f"Market: mark up to {ASIDE_MAX} cards to set aside, Enter",
            "discard": "Discard onto pile 1 or 2 (t = put on top)",
            "preload": f"While {who} is at the market: mark your bag now (Enter once the market ends)",
            "choose": "Sheriff: choose the next merchant to deal with",
            "offer": f"Make an offer to Sheriff {name(view.sheriff)} (exchange {view.exchange}/{EXCHANGES})",
            "confiscate": "Confiscated: put them on pile 1 or 2 (last = top)",
        }.get(mode, "")

    def _watching_prompt(self, view: View, actor: int, who: str) -> str:
        """What the others are doing while this seat waits."""
        name = self.player_name
        sheriff = "You" if view.sheriff == view.seat else name(view.sheriff)
        if view.phase == "market":
            aside = len(view.players[actor].set_aside) if actor >= 0 else 0
            doing = {"set_aside": "chooses cards to set aside", "draw": f"draws ({aside} set aside)",
                     "discard": f"discards {plural(aside, 'card')}"}.get(view.step, "")
            return f"Market: {who} {doing}"
        if view.phase == "load":
            return "Merchants load their bags in secret"
        if view.phase == "declare":
            return f"{who} declares {'your' if actor == view.seat else 'a'} bag"
        if view.step == "pay":
            payer = view.debt.payer if view.debt else actor
            return f"{name(payer)} pays the rest of the debt in goods"
        return {
            "choose": f"Sheriff {sheriff} chooses the next merchant",
            "offer": f"{name(view.merchant)} makes an offer (exchange {view.exchange}/{EXCHANGES})",
            "answer": f"Sheriff {sheriff} answers {name(view.merchant)}",
            "confiscate": f"Sheriff {sheriff} places the confiscated cards",
            # a dealt game: only the merchant knows which cards of its bag are legal goods
            "unpack": f"{name(view.merchant)} empties the bag: legal goods face up, contraband face down",
        }.get(view.step, "")
