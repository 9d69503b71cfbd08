"""The Ten screen: the tableau with its running total and bust risk, your collection as runs
per colour, the others' runs, the market, and one panel for whatever is to be decided now.

The panel is a PickList; Enter takes the highlighted row, and every choice also has its key:
draw (d) / claim numbers (n) / claim currency (c); in an auction ←/→ (or digits) set the bid,
Enter bids, p passes; to pay (an auction won, a market card, the solo wild) pick one of the ways to pay
(tokens, bust tokens, collection cards — space marks the cards you want to give); in a buy
phase pick a market card or skip (s); b goes back to the market. `v` shows every collection
with the wilds in place, and so does the end screen (TenEndScreen).

Everything is read from the view and the legal actions; an action is offered as enabled only
when it is `in` the legal space, and whatever is sent anyway is refused by the engine in words.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from functools import wraps
from typing import Any

from textual.app import ComposeResult
from textual.binding import Binding
from textual.widgets import Static

from engine.ten.cards import NUMBER_VALUE, card_name
from engine.ten.state import (
    AUCTION,
    FINAL_BUY,
    OVER,
    Bid,
    ClaimCurrency,
    ClaimNumbers,
    DiscardWild,
    Draw,
    Pass,
    PlayerView,
    Skip,
    View,
)

from ...widgets import PickList
from ...widgets.panel import Panel
from ..base import STYLES, GameScreen, Legal
from .board import BoardText
from .panels import DecisionPanels
from .text import BUYING_PHASES, PAYING_PHASES, market_text, plural
from .widgets import CollectionsScreen, TenEndScreen

log = logging.getLogger(__name__)


# ---- the screen --------------------------------------------------------------------------
def player_safe(method: Callable[..., None]) -> Callable[..., None]:
    """A key handler whose unexpected error becomes a line for the player (and the log)."""

    @wraps(method)
    def run(self: TenScreen, *args: Any) -> None:
        try:
            method(self, *args)
        except Exception as exc:
            log.exception("the Ten key handler %s failed", method.__name__)
            self.show_message(f"Unexpected error: {exc}", error=True)

    return run


class TenScreen(BoardText, DecisionPanels, GameScreen):
    GAME_ID = "ten"
    CSS_PATH = STYLES / "ten.tcss"

    BINDINGS = [
        Binding("d", "draw", "Draw", show=True),
        Binding("n", "claim_numbers", "Numbers", show=True),
        Binding("c", "claim_currency", "Currency", show=True),
        Binding("left,minus", "bid_step(-1)", "Bid -", key_display="←", show=True),
        Binding("right,plus,equals_sign", "bid_step(1)", "Bid +", key_display="→", show=True),
        Binding("p", "pass_bid", "Pass", show=True),
        *(Binding(str(d), f"bid_digit({d})", show=False) for d in range(10)),
        Binding("s", "skip", "Skip", show=True),
        Binding("x", "discard_wild", "Discard", show=True),
        Binding("space", "mark", "Mark card", show=True),
        Binding("b,backspace", "back", "Back", show=True),
        Binding("enter", "choose", "Choose", show=True),
        Binding("v", "collections", "All cards", show=False),
    ]

    def __init__(self, table) -> None:
        super().__init__(table)
        self.view: View | None = None
        self.legal: Legal = ()
        self.bid_amount = 0
        self.typed = ""  # digits typed for the bid
        self.buy_card: str | None = None  # the market card being paid for (buy phases)
        self.marked: set[str] = set()  # collection cards the player wants to pay with
        self._step_seen: tuple[Any, ...] = ()

    def compose_board(self) -> ComposeResult:
        yield Panel("", id="tableau")
        yield Panel("", id="market")
        yield Panel("", id="mine")
        yield Panel("", id="others")
        yield Panel("", id="prompt")
        yield PickList(id="choices", empty="")

    # ---- state helpers ---------------------------------------------------------------------
    @property
    def me(self) -> PlayerView | None:
        if self.view is None or self.view.seat is None:
            return None
        return self.view.players[self.view.seat]

    @property
    def phase(self) -> str:
        return self.view.phase if self.view is not None else ""

    def acting(self, *phases: str) -> bool:
        return self.view is not None and self.phase in phases and self.my_turn

    def is_legal(self, action: object) -> bool:
        return self.my_turn and action in self.legal

    @property
    def paying(self) -> bool:
        return self.acting(*PAYING_PHASES) or (self.acting(*BUYING_PHASES) and self.buy_card is not None)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # A key shows in the footer only when its action is legal now (not "Numbers" before
        # the first draw, not "Draw" on an empty deck).
        simple = {"draw": Draw(), "claim_numbers": ClaimNumbers(), "claim_currency": ClaimCurrency(),
                  "pass_bid": Pass(), "skip": Skip(), "discard_wild": DiscardWild()}
        if action in simple:
            return self.is_legal(simple[action])
        if action in ("bid_step", "bid_digit"):
            return self.acting(AUCTION)
        if action == "mark":
            return self.paying and bool(self.me and self.me.collection)
        if action == "back":
            return self.acting(*BUYING_PHASES) and self.buy_card is not None
        if action == "choose":
            return self.my_turn and not self.table.is_over()
        if action == "collections":
            return self.view is not None
        return super().check_action(action, parameters)

    # ---- drawing -----------------------------------------------------------------------------
    def on_resize(self) -> None:
        super().on_resize()
        if self.view is not None:  # the others' collections are drawn whole on a tall terminal only
            self.call_after_refresh(self._redraw_collections)

    def _redraw_collections(self) -> None:
        if self.view is not None and self.is_attached:
            self._draw_collections(self.view)

    def render_view(self, view: View, legal: Legal) -> None:
        step = (view.seat, view.phase, view.turn, view.active, view.deck_size, len(view.market),
                view.auction.bids if view.auction else None, self.my_turn)
        new_step = step != self._step_seen
        if new_step:
            self._step_seen = step
            self.buy_card = None
            self.marked.clear()
            self.bid_amount = self._lowest_bid(view)
            self.typed = ""
        self.view, self.legal = view, legal
        self.query_one("#tableau", Static).update(self._tableau_text(view))
        self.query_one("#market", Static).update(market_text(view.market))
        self._draw_collections(view)
        self._draw_panel(view, legal, new_step)

    def status_text(self, view: View) -> str:
        parts = [self.table.game.name]
        if view.n_players == 1:
            parts.append("solo")
        if view.phase == OVER:
            parts.append("game over")
        elif view.phase == FINAL_BUY:
            parts.append("final buys")
        else:
            parts.append(f"{self.player_name(view.turn)}'s turn" if view.seat != view.turn else "your turn")
        parts.append(f"deck {view.deck_size}")
        parts.append(f"you: {self.player_name(view.seat)}" if view.seat is not None else "watching")
        return " · ".join(parts)

    def scoreboard(self, view: View):
        acting = view.active[0] if view.active else None
        rows = []
        for player in view.players:
            name = self.player_name(player.seat)
            mark = "▶" if player.seat == acting else ("•" if player.seat == view.seat else " ")
            score = self.table.result().scores[player.seat] if self.table.is_over() else player.score
            rows.append([f"{mark}{name}", str(player.currency), str(player.busts), str(score)])
        highlight = [s for s in (view.seat, acting) if s is not None]
        return ["Player", "Tok", "B", "Pts"], rows, highlight


    # ---- keys ----------------------------------------------------------------------------------
    @player_safe
    def action_draw(self) -> None:
        self.submit(Draw())

    @player_safe
    def action_claim_numbers(self) -> None:
        self.submit(ClaimNumbers())

    @player_safe
    def action_claim_currency(self) -> None:
        self.submit(ClaimCurrency())

    @player_safe
    def action_pass_bid(self) -> None:
        self.submit(Pass())

    @player_safe
    def action_skip(self) -> None:
        self.submit(Skip())

    @player_safe
    def action_discard_wild(self) -> None:
        self.submit(DiscardWild())

    @player_safe
    def action_bid_step(self, step: int) -> None:
        if self.view is None or self.me is None or self.view.auction is None:
            return
        low = self._lowest_bid(self.view)
        high = max(low, self.me.power)
        self.bid_amount = max(low, min(high, self.bid_amount + step))
        self.typed = ""
        self.refresh_table()

    @player_safe
    def action_bid_digit(self, digit: int) -> None:
        """Type the bid: digits add up to a number (a new number once it would exceed your power)."""
        if self.view is None or self.me is None or self.view.auction is None:
            return
        typed = self.typed + str(digit)
        if int(typed) > self.me.power:
            typed = str(digit)
        self.typed = typed.lstrip("0")
        low = self._lowest_bid(self.view)
        self.bid_amount = max(low, min(max(low, self.me.power), int(typed)))
        if int(typed) < low:
            self.show_message(f"The bid must be at least {low}.")
        else:
            self.show_message("")
        self.refresh_table()

    @player_safe
    def action_mark(self) -> None:
        key = self.query_one("#choices", PickList).highlighted
        if isinstance(key, tuple) and key[0] == "mark":
            self._toggle_mark(key[1])
            self.query_one("#choices", PickList).after_mark()
        else:
            self.show_message("Move to a card under \"cards you could give\" to mark it.", error=True)

    def _toggle_mark(self, card: str) -> None:
        if card in self.marked:
            self.marked.discard(card)
        else:
            self.marked.add(card)
        priced = self._paying()
        shapes = {option.payment.cards for option in priced.payments} if priced else set()
        if self.marked and tuple(sorted(self.marked)) not in shapes:
            self.show_message(f"No way to pay uses exactly {plural(len(self.marked), 'card')}: "
                              "the other rows pay with the cards you miss least.")
        else:
            self.show_message("")
        self.refresh_table()

    @player_safe
    def action_back(self) -> None:
        self.buy_card = None
        self.marked.clear()
        self.refresh_table()

    @player_safe
    def action_choose(self) -> None:
        row = self.query_one("#choices", PickList).highlighted_row
        if row is None:
            return
        key = row.key
        kind = key[0] if isinstance(key, tuple) else None
        if kind in ("act", "pay"):
            self.submit(key[1])  # also when disabled: the engine says why, in words
        elif kind == "bid":
            self.submit(Bid(self.bid_amount))
        elif kind == "mark":
            self._toggle_mark(key[1])
        elif kind == "market":
            self._pick_market_card(key[1])

    def _pick_market_card(self, card: str) -> None:
        view, me = self.view, self.me
        if view is None or me is None:
            return
        if card not in view.buyable:
            why = dict(self.prospects.not_buyable).get(card)
            if why == "held":
                self.show_message(f"You cannot buy {card_name(card)}: you already hold an identical card.", error=True)
            else:
                self.show_message(f"You cannot buy {card_name(card)}: it costs {NUMBER_VALUE[card]}, "
                                  f"your purchasing power is {me.power}.", error=True)
            return
        self.buy_card = card
        self.marked.clear()
        self.show_message("")
        self.refresh_table()
        self.query_one("#choices", PickList).action_jump(0)

    @player_safe
    def action_collections(self) -> None:
        if self.view is not None:
            self.app.push_screen(CollectionsScreen(self.table.names, self.view))

    # ---- the end ---------------------------------------------------------------------------
    @player_safe
    def show_end(self) -> None:
        """Ten's end screen: the breakdown plus every player's runs with the wilds in place."""
        if self.is_attached and self.table.is_over():
            self.app.push_screen(TenEndScreen(self.table.game.name, self.table.names, self.table.result(),
                                              self.view, self.table))
