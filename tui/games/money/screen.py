"""The Money! screen: market, revealed bids in acting order, your hand as a bid builder, choices.

Bid step: toggle hand cards into the bid (space, then the cursor moves on; with 2 players l/r
put a card in the left or right group, the bluff card dividing them), Enter places it (`rules.make_bid` gives the
canonical Bid). Turns: when your bid acts, pick swap with side I (1), side II (2), another
player's bid (3-9, as numbered in the Bids panel) or keep (k); only legal choices are enabled.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.widgets import Static

from engine.money import cards as money_cards
from engine.money import make_bid
from engine.money.state import BidView, Keep, MoneyView, SwapBid, SwapMarket

from ...widgets import PickList, PickRow
from ...widgets.flow import Fit, Flow, Lines
from ...widgets.panel import Panel
from ..base import STYLES, GameScreen, Legal
from .text import EDITION_NAMES, SIDES, card_style, grouped_cards, total


class MoneyScreen(GameScreen):
    GAME_ID = "money"
    CSS_PATH = STYLES / "money.tcss"

    BINDINGS = [
        Binding("space", "toggle", "Add card", show=True),
        Binding("l", "group('L')", "Left", show=True),
        Binding("r", "group('R')", "Right", show=True),
        Binding("c", "clear", "Clear", show=False),
        Binding("enter", "place_bid", "Place bid", show=True),
        Binding("enter", "choose", "Choose", show=True),
        Binding("1", "swap_side(0)", "Side I", show=True),
        Binding("2", "swap_side(1)", "Side II", show=True),
        *(Binding(str(n), f"swap_bid({n})", show=False) for n in range(3, 10)),
        Binding("k", "keep", "Keep", show=True),
    ]

    def __init__(self, table) -> None:
        super().__init__(table)
        self.add_class(f"-players-{len(table.names)}")  # the bids panel's height (money.tcss)
        self.groups: dict[str, str] = {}  # card -> "L" or "R": the bid being built
        self.view: MoneyView | None = None
        self.legal: Legal = ()
        self.bid_keys: dict[int, SwapBid] = {}
        self._phase_seen: tuple[Any, ...] = ()

    # ---- layout ------------------------------------------------------------------------
    def compose_board(self) -> ComposeResult:
        yield Panel("", id="market")
        yield Panel("", id="bids")
        yield PickList(id="choices", collapse_empty=True)
        yield Panel("", id="hand-title")
        yield PickList(id="hand", empty="(you are watching: no hand)")

    # ---- state helpers -----------------------------------------------------------------
    @property
    def two_player(self) -> bool:
        return self.view is not None and self.view.n_players == 2

    @property
    def bidding(self) -> bool:
        return self.view is not None and self.view.phase == "bid" and self.my_turn

    @property
    def choosing(self) -> bool:
        return self.view is not None and self.view.phase == "turns" and self.my_turn

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in ("toggle", "clear", "place_bid"):
            return self.bidding
        if action == "group":
            return self.bidding and self.two_player
        if action == "choose":
            return self.choosing
        if action == "swap_side":
            return self.is_legal(SwapMarket(int(parameters[0])))  # type: ignore[call-overload]
        if action == "keep":
            return self.is_legal(Keep())
        if action == "swap_bid":
            return self.choosing and parameters[0] in self.bid_keys
        return super().check_action(action, parameters)

    def is_legal(self, action: object) -> bool:
        return self.choosing and action in self.legal

    # ---- drawing -----------------------------------------------------------------------
    def render_view(self, view: MoneyView, legal: Legal) -> None:
        phase_key = (view.seat, view.phase, view.round_no, view.acting, self.my_turn)
        if phase_key != self._phase_seen:
            self.groups.clear()  # a new step or another seat: start a fresh bid
        if view.hand is not None:
            self.groups = {c: g for c, g in self.groups.items() if c in view.hand}
        else:
            self.groups.clear()
        self.view, self.legal = view, legal
        self.query_one("#market", Static).update(self._market_text(view))
        self.query_one("#bids", Static).update(self._bids_text(view))
        self._draw_choices(view, legal)
        self._draw_hand(view)
        if phase_key != self._phase_seen:
            self._phase_seen = phase_key
            target = "#choices" if self.choosing else "#hand"
            widget = self.query_one(target, PickList)
            widget.action_jump(0)
            if widget.display:
                widget.focus()

    def status_text(self, view: MoneyView) -> str:
        # The final round has an empty deck: "final round 8" says both in fewer columns.
        rounds = [f"final round {view.round_no}"] if view.final_round else [f"round {view.round_no}", f"deck {view.deck_size}"]
        parts = [self.table.game.name, *rounds, EDITION_NAMES.get(view.edition, view.edition)]
        if view.removed:
            parts.append("out: " + ", ".join(money_cards.CURRENCY_NAMES[c] for c in view.removed))
        who = f"you: {self.player_name(view.seat)}" if view.seat is not None else "watching"
        return " · ".join(parts) + f" · {who}"

    def scoreboard(self, view: MoneyView):
        acting = view.acting[0] if view.acting else None
        rows = []
        for seat, name in enumerate(self.table.names):
            score = "?"
            if view.seat == seat and view.own_score is not None:
                score = str(view.own_score)
            if self.table.is_over():
                score = str(self.table.result().scores[seat])
            mark = "▶" if seat == acting else ("•" if seat == view.seat else " ")
            rows.append([f"{mark}{name}", str(view.hand_sizes[seat]), score])
        highlight = [s for s in (view.seat, acting) if s is not None]
        return ["Player", "Cards", "Score"], rows, highlight

    def _market_text(self, view: MoneyView) -> Lines:
        """A side a line, its cards grouped by currency; a long side goes on under its cards."""
        lines = []
        for index, side in enumerate(view.market):
            head = Text.assemble((f"Side {SIDES[index]:<2}", "bold"), (f"{total(side):>4} ", "bold"))
            lines.append(Flow(tuple(grouped_cards(side)) or (Text("nothing", style="dim"),), "·", head, 12))
        return Lines(tuple(lines))

    def _bid_owner(self, bid: BidView, possessive: bool = False) -> str:
        """"Bob" / "Bob's bid", or with two bids of one owner "Bob (left)" / "Bob's left bid"."""
        name = self.player_name(bid.owner)
        split = self.view is not None and any(b.owner == bid.owner and b.slot == 1 for b in self.view.bids)
        side = "right" if bid.slot else "left"
        if possessive:
            return f"{name}'s {side} bid" if split else f"{name}'s bid"
        return f"{name} ({side})" if split else name

    def _bids_text(self, view: MoneyView) -> Lines:
        """The bids, a line each: at 80 columns a long bid ends in ", 2 more" (the log has all)."""
        lines: list[Text | Fit] = []
        self.bid_keys = {}
        if view.phase == "bid":
            if view.hand is not None and self.my_turn:
                lines.append(self._my_bid_text())
            elif view.seat is not None:
                lines.append(Text("Your bid is in; the others choose in secret.", style="italic"))
            else:
                lines.append(Text("Everyone chooses a bid in secret.", style="italic"))
            if view.last_round:
                lines.append(Text("Last round:", style="bold dim"))
                lines += [self._bid_line(bid, "  ") for bid in view.last_round]
            return Lines(tuple(lines))
        if view.phase == "over":
            return Lines((Text("The game is over: hands are scored.", style="bold"),))
        number = 3
        lines.append(Text("Bids in acting order", style="bold"))
        for bid in view.bids:
            key = "  "
            if bid.status in ("pending", "next") and view.acting and bid.owner != view.acting[0]:
                self.bid_keys[number] = SwapBid(bid.owner, bid.slot)
                key = f"{number} "
                number += 1
            lines.append(self._bid_line(bid, key))
        return Lines(tuple(lines))

    def _owner_width(self) -> int:
        """The owner column: as wide as the longest owner shown (12 at most), not always 12."""
        view = self.view
        owners = [self._bid_owner(b) for b in (*view.bids, *view.last_round)] if view else []
        return min(12, max((len(o) for o in owners), default=5))

    def _bid_line(self, bid: BidView, key: str) -> Fit:
        """One bid: marker or number key, owner, value, what happened to it, its cards."""
        view = self.view
        acting = view is not None and view.acting == (bid.owner, bid.slot) and bid.status in ("acting", "next")
        head = Text()
        head.append("▶ " if acting else key, style="bold reverse" if acting else "bold")
        width = self._owner_width()
        head.append(f"{self._bid_owner(bid):<{width}.{width}} ", style="bold" if acting else "")
        if bid.status == "withdrawn":
            head.append("  - bluff card only, no turn", style="dim")
            return Fit(head, ())
        head.append(f"{bid.value:>3} ", style="bold")
        if bid.status == "resolved":
            head.append(f"[{self._outcome(bid)}] ", style="dim")
        elif bid.status == "next":
            head.append("[acts next] ", style="italic")
        return Fit(head, tuple(grouped_cards(bid.cards)) or (Text("nothing", style="dim"),))

    def _outcome(self, bid: BidView) -> str:
        """What a resolved bid did, shortened: "→ side I", "→ Bob's bid", "kept"."""
        if bid.target is None:
            return bid.outcome.replace("swapped with ", "→ ")
        owner, slot = bid.target
        return "→ " + self._bid_owner(BidView(owner, slot, (), 0, 0, "pending"), possessive=True)

    def _my_bid_text(self) -> Text:
        left = [c for c, g in self.groups.items() if g == "L" and not money_cards.is_bluff(c)]
        right = [c for c, g in self.groups.items() if g == "R" and not money_cards.is_bluff(c)]
        bluff = any(money_cards.is_bluff(c) for c in self.groups)
        out = Text("Your secret bid: ", style="bold")
        if self.two_player and left and right:
            out.append_text(Text.assemble(f"left {total(left)} | right {total(right)}"))
            out.append("  (bluff card divides)", style="dim")
        elif left or right:
            out.append(f"{total(left + right)}", style="bold")
            out.append(f" in {len(left + right)} card{'s' if len(left + right) > 1 else ''}")
            if bluff:
                out.append(" + bluff card", style="dim")
        elif bluff:
            out.append("the bluff card alone (no turn this round)")
        else:
            out.append("no card yet (space adds one)", style="dim")
        return out

    def _draw_choices(self, view: MoneyView, legal: Legal) -> None:
        choices = self.query_one("#choices", PickList)
        if not self.choosing:
            choices.set_rows([])  # it collapses: hiding it instead would restyle the screen
            return
        legal_set = set(legal)
        acting = next(b for b in view.bids if (b.owner, b.slot) == view.acting and b.status in ("acting", "next"))
        rows = []
        for side in (0, 1):
            cards = view.market[side]
            text = Text.assemble((f"{side + 1} ", "bold"), f"Swap with side {SIDES[side]}: take {total(cards)} ",
                                 (f"({len(cards)} card{'s' if len(cards) != 1 else ''})", "dim"))
            rows.append(PickRow(SwapMarket(side), text, SwapMarket(side) in legal_set))
        for number, action in self.bid_keys.items():
            bid = next(b for b in view.bids if (b.owner, b.slot) == (action.owner, action.slot))
            text = Text.assemble((f"{number} ", "bold"), f"Swap with {self._bid_owner(bid, possessive=True)}: take {bid.value}")
            rows.append(PickRow(action, text, action in legal_set))
        rows.append(PickRow(Keep(), Text.assemble(("k ", "bold"), f"Keep your bid ({acting.value})"), Keep() in legal_set))
        choices.set_rows([row for row in rows if row.enabled])  # only what is legal now

    def _draw_hand(self, view: MoneyView) -> None:
        hand = self.query_one("#hand", PickList)
        title = self.query_one("#hand-title", Static)
        if view.hand is None:
            title.update(Text("Hands are hidden: you are watching.", style="dim"))
            hand.set_rows([])
            return
        head = Text.assemble(("Your hand", "bold"), f" ({len(view.hand)}): ")
        title.update(Flow(tuple(self._holdings(view.hand)), head=head))  # a second line at 80 columns
        rows = []
        for card in view.hand:
            group = self.groups.get(card)
            mark = {"L": "[L]" if self.two_player else "[x]", "R": "[R]"}.get(group or "", "[ ]")
            serial = money_cards.serial(card)
            line = Text.assemble(
                (f"{mark} ", "bold green" if group else "dim"),
                (f"{money_cards.label(card):<10}", card_style(card)),
                (f"{money_cards.value(card):>4}", "bold"),
                (f"  #{serial}" if serial is not None else "  bluff", "dim"),
            )
            rows.append(PickRow(card, line, self.bidding))
        # Outside the bid step the hand is only shown: start it from the top.
        hand.set_rows(rows, keep=None if self.bidding or not rows else rows[0].key)

    @staticmethod
    def _holdings(hand: Sequence[str]) -> list[Text]:
        """Each currency's total, largest first: green = strong (200+), yellow = pays less 100."""
        totals: dict[str, int] = {}
        for card in hand:
            cur = money_cards.currency(card)
            if cur:
                totals[cur] = totals.get(cur, 0) + money_cards.value(card)
        parts = []
        for cur, amount in sorted(totals.items(), key=lambda item: -item[1]):
            style = "bold green" if amount >= 200 else ("yellow" if amount > 100 else "dim")
            parts.append(Text(f"{money_cards.CURRENCY_NAMES[cur]} {amount}", style=style))
        extras = [c for c in hand if not money_cards.currency(c) and not money_cards.is_bluff(c)]
        if extras:
            parts.append(Text(f"+{total(extras)} extra", style="bold yellow"))
        return parts or [Text("no money", style="dim")]

    # ---- bid builder -------------------------------------------------------------------
    def _highlighted_card(self) -> str | None:
        card = self.query_one("#hand", PickList).highlighted
        return card if isinstance(card, str) else None

    def action_toggle(self) -> None:
        card = self._highlighted_card()
        if card is None:
            return
        if card in self.groups:
            del self.groups[card]
        else:
            self.groups[card] = "L"
        self.query_one("#hand", PickList).after_mark()
        self.refresh_table()

    def action_group(self, group: str) -> None:
        card = self._highlighted_card()
        if card is None:
            return
        if self.groups.get(card) == group:
            del self.groups[card]
        else:
            self.groups[card] = group
        self.query_one("#hand", PickList).after_mark()  # l / r mark as Space does
        self.refresh_table()

    def action_clear(self) -> None:
        self.groups.clear()
        self.refresh_table()

    def action_place_bid(self) -> None:
        if not self.groups:
            self.show_message("Choose at least one card (the bluff card alone is a bid too).", error=True)
            return
        left = [c for c, g in self.groups.items() if g == "L"]
        right = [c for c, g in self.groups.items() if g == "R"]
        n = self.view.n_players if self.view else 3
        bid = make_bid(left, right, n)
        self.groups.clear()
        self.submit(bid)

    # ---- turn choices ------------------------------------------------------------------
    def _choose(self, action: object) -> None:
        # Also sent when not legal: the table refuses it with the engine's reason, in words.
        self.submit(action)

    def action_choose(self) -> None:
        row = self.query_one("#choices", PickList).highlighted_row
        if row is not None:
            self._choose(row.key)

    def action_swap_side(self, side: int) -> None:
        self._choose(SwapMarket(side))

    def action_swap_bid(self, number: int) -> None:
        action = self.bid_keys.get(number)
        if action is None:
            self.show_message(f"There is no bid numbered {number}.", error=True)
            return
        self._choose(action)

    def action_keep(self) -> None:
        self._choose(Keep())
