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
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import wraps
from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import DataTable, Footer, Static

from engine.core import Result
from engine.ten import score_collection
from engine.ten.cards import (
    BUST_AT_CURRENCY,
    BUST_AT_TOTAL,
    CARD_TYPES,
    CELL,
    COLOUR_WILD,
    COLOURS,
    CURRENCY,
    NUMBER,
    NUMBER_VALUE,
    TOKEN_CAP,
    TYPE_OF,
    card_name,
)
from engine.ten.payment import payment_shapes
from engine.ten.scoring import CollectionScore, ColourRun, collection_total
from engine.ten.state import (
    AUCTION,
    BUST_CURRENCY,
    BUST_NUMBERS,
    BUY,
    CHOOSE,
    CLAIM_CURRENCY,
    CLAIM_NUMBERS,
    DRAW,
    FINAL_BUY,
    OVER,
    PAY,
    SOLO_WILD,
    Bid,
    Buy,
    BuyWild,
    ClaimCurrency,
    ClaimNumbers,
    DiscardWild,
    Draw,
    Pass,
    Pay,
    Payment,
    PlayerView,
    Skip,
    View,
)

from ..results import winners_line
from ..screens.end import EndScreen
from ..widgets import PickList, PickRow
from ..widgets.panel import Panel
from .base import STYLES, GameScreen, Legal

log = logging.getLogger(__name__)
COLOUR_STYLE = {"red": "bold red", "blue": "bold dodger_blue1", "green": "bold green", "orange": "bold dark_orange"}
WILD_STYLE = "bold magenta"
CURRENCY_STYLE = "bold yellow"
SUPERSCRIPT = {2: "²", 3: "³"}
PAYING_PHASES = (PAY, SOLO_WILD)
BUYING_PHASES = (BUY, FINAL_BUY)


# ---- pure helpers: cards and collections as text ---------------------------------------------
def card_style(card: str) -> str:
    kind = CARD_TYPES[TYPE_OF[card]]
    if kind.kind == NUMBER:
        return COLOUR_STYLE[kind.colour]
    if kind.kind == COLOUR_WILD:
        return COLOUR_STYLE[kind.colour] + " italic"
    if kind.kind == CURRENCY:
        return CURRENCY_STYLE
    return WILD_STYLE


def card_text(card: str) -> Text:
    return Text(card_name(card), style=card_style(card))


def cards_text(cards: Sequence[str], sep: str = " · ", empty: str = "none") -> Text:
    if not cards:
        return Text(empty, style="dim")
    return Text(sep).join(card_text(c) for c in cards)


def plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def points(n: int, sign: bool = False) -> str:
    """"1 pt", "3 pts"; with sign "+1 pt", "-2 pts"."""
    number = f"{n:+d}" if sign else str(n)
    return number + (" pt" if abs(n) == 1 else " pts")


def without(collection: Sequence[str], cards: Sequence[str]) -> tuple[str, ...]:
    gone = set(cards)
    return tuple(c for c in collection if c not in gone)


def market_text(market: Sequence[str]) -> Text:
    """The market grouped by colour, numbers ascending: it has no size limit, so it stays short."""
    out = Text("Market ", style="bold")
    if not market:
        out.append("empty", style="dim")
        return out
    out.append(f"({len(market)}) ", style="dim")
    parts = []
    for colour in COLOURS:
        numbers = sorted(NUMBER_VALUE[c] for c in market if CARD_TYPES[TYPE_OF[c]].colour == colour)
        if numbers:
            parts.append(Text(f"{colour} " + " ".join(map(str, numbers)), style=COLOUR_STYLE[colour]))
    out.append_text(Text(" · ").join(parts))
    return out


def colour_line(colour_index: int, cards: Sequence[str], score: CollectionScore) -> Text:
    """One colour: 1-9 held (² = two copies), the scoring run bold, wilds placed in reverse."""
    colour = COLOURS[colour_index]
    style = COLOUR_STYLE[colour]
    run = score.runs[colour_index]
    counts = [0] * 10
    for card in cards:
        cell = CELL.get(card)
        if cell and cell[0] == colour_index:
            counts[cell[1]] += 1
    wild_at = {use.number for use in score.wilds if use.colour == colour}
    out = Text(f"{colour:<7}", style=style)
    for n in range(1, 10):
        in_run = run.low <= n <= run.high
        if n in wild_at:
            out.append(str(n), style=style + " reverse")
        elif counts[n]:
            out.append(str(n), style=style if in_run else "dim")
        else:
            out.append("·", style="dim")
        out.append(SUPERSCRIPT.get(counts[n], " "), style="dim")
    out.append(f"{run.points:>3} pt{'s' if run.points != 1 else ' '}", style="bold" if run.points else "dim")
    return out


def placed_wilds(run: ColourRun) -> str:
    """The wilds filling a run: "wild 5 as 5, red wild as 7" ("" when none)."""
    return ", ".join(f"{card_name(cell.card)} as {cell.number}" for cell in run.cells if cell.card not in CELL)


def run_summary(score: CollectionScore) -> Text:
    """Each colour's scoring run, short: "r3-7 b1-2 g– o4" in the colours' styles."""
    out = Text()
    for run in score.runs:
        label = "–" if not run.low else (f"{run.low}" if run.low == run.high else f"{run.low}-{run.high}")
        out.append(f"{run.colour[0]}{label:<5}", style=COLOUR_STYLE[run.colour] if run.low else "dim")
    return out


def collections_text(names: Sequence[str], players: Sequence[PlayerView], result: Result | None = None) -> Text:
    """Every player's collection as runs per colour with the wilds in place (the end screen)."""
    out = Text()
    for player in players:
        score = score_collection(player.collection)
        if player.seat:
            out.append("\n\n")
        out.append(names[player.seat] if player.seat < len(names) else f"seat {player.seat}", style="bold underline")
        total = result.scores[player.seat] if result is not None else score.total
        out.append(f"  {total} points · {plural(player.currency, 'token')} · "
                   f"{plural(player.busts, 'bust token')} · {plural(len(player.collection), 'card')}")
        for index in range(len(COLOURS)):
            out.append("\n")
            out.append_text(colour_line(index, player.collection, score))
            run = score.runs[index]
            placed = placed_wilds(run)
            if run.low:
                out.append(f"  run {run.low}-{run.high}", style="dim")
            if placed:
                out.append(f" ({placed})", style=WILD_STYLE)
        unused = [card_name(use.card) for use in score.wilds if use.colour is None]
        if unused:
            out.append("\n")
            out.append("unused: " + ", ".join(unused), style="dim")
    return out


@dataclass(frozen=True)
class PayOption:
    """One way to pay, with what the collection would score afterwards."""

    payment: Payment
    score_after: int


def payment_text(payment: Payment) -> str:
    """ "2 tokens + 1 bust token + green 1 ×2 + red 7" """
    parts = []
    if payment.currency:
        parts.append(plural(payment.currency, "token"))
    if payment.busts:
        parts.append(plural(payment.busts, "bust token"))
    names = [card_name(c) for c in payment.cards]
    for name in dict.fromkeys(names):
        count = names.count(name)
        parts.append(name + (f" ×{count}" if count > 1 else ""))
    return " + ".join(parts) or "nothing"


def card_losses(collection: Sequence[str]) -> list[tuple[int, str]]:
    """(points lost, card) for giving each card alone, cheapest first."""
    base = collection_total(collection)
    return sorted((base - collection_total(collection[:i] + collection[i + 1:]), card)
                  for i, card in enumerate(collection))


def payment_options(price: int, me: PlayerView, gained: str | None, marked: Sequence[str]) -> list[PayOption]:
    """Every valid shape of payment for `price`; the cards given are the marked ones when they
    are as many as the shape needs, else the ones the collection misses least."""
    held = tuple(me.collection)
    cheapest = [card for _, card in card_losses(held)]
    marked = sorted(c for c in marked if c in held)
    options = []
    for tokens, busts, n_cards in payment_shapes(price, me.currency, me.busts, len(held)):
        cards = marked if n_cards and len(marked) == n_cards else cheapest[:n_cards]
        payment = Payment.of(tokens, busts, cards)
        after = without(held, payment.cards) + ((gained,) if gained else ())
        options.append(PayOption(payment, collection_total(after)))
    # Most points kept first; then fewer bust tokens (worth 3), then fewer cards.
    options.sort(key=lambda o: (-o.score_after, len(o.payment.cards), o.payment.busts, -o.payment.currency))
    return options


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


class TenScreen(GameScreen):
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

    def _tableau_text(self, view: View) -> Text:
        out = Text()
        if view.tableau:
            out.append("Tableau ", style="bold")
            out.append_text(cards_text(view.tableau))
        elif view.last_turn is not None and view.phase in (DRAW, FINAL_BUY, OVER, BUY):
            out.append_text(self._last_turn_text(view))
        elif view.phase == OVER:
            out.append("The game is over.", style="bold")
        else:
            out.append("Tableau ", style="bold")
            out.append("empty", style="dim")
        out.append("\n")
        total_style = "bold red" if view.total >= BUST_AT_TOTAL - 3 else "bold"
        out.append("Total ", style="bold")
        out.append(f"{view.total}", style=total_style)
        out.append(f"/{BUST_AT_TOTAL} · currency ", style="dim")
        out.append(f"{view.currency_sum}", style="bold red" if view.currency_sum >= BUST_AT_CURRENCY - 3 else "bold")
        out.append(f"/{BUST_AT_CURRENCY} · ", style="dim")
        if view.deck_size:
            risk = view.bust_cards * 100 // view.deck_size
            style = "bold green" if risk < 20 else ("bold yellow" if risk < 50 else "bold red")
            out.append("bust risk ", style="bold")
            out.append(f"{view.bust_cards}/{view.deck_size} = {risk}%", style=style)
        else:
            out.append("the deck is empty", style="bold yellow")
        return out

    def _last_turn_text(self, view: View) -> Text:
        last = view.last_turn
        who = self.player_name(last.seat)
        numbers = cards_text(last.numbers, ", ", empty="no number cards")
        gained = sum(g for s, g in enumerate(last.gains) if s != last.seat)
        out = Text("Last: ", style="bold")
        if last.outcome == CLAIM_NUMBERS:
            out.append(f"{who} took ")
            out.append_text(numbers)
            if gained:
                out.append(f" (others +{last.amount})")
        elif last.outcome == CLAIM_CURRENCY:
            out.append(f"{who} took {plural(last.gains[last.seat], 'token')}; ")
            out.append_text(numbers)
            out.append(" to the market")
        elif last.outcome == BUST_NUMBERS:
            out.append(f"{who} bust on numbers: ", style="bold red")
            out.append_text(numbers)
            out.append(" to the market" + (f" (others +{last.amount})" if gained else ""))
        elif last.outcome == BUST_CURRENCY:
            out.append(f"{who} bust on currency ({last.amount}): ", style="bold red")
            out.append_text(numbers)
            out.append(" to the market")
        return out

    def _draw_collections(self, view: View) -> None:
        shown = view.seat if view.seat is not None else view.turn
        player = view.players[shown]
        score = score_collection(player.collection)
        head = Text()
        head.append("You" if shown == view.seat else f"{self.player_name(shown)}", style="bold reverse")
        head.append(f" {plural(player.currency, 'token')} · {plural(player.busts, 'bust')} · "
                    f"power {player.power} · ")
        head.append(points(score.total), style="bold")
        unused = sum(1 for use in score.wilds if use.colour is None)
        if unused:
            head.append(f" · {unused} wild{'s' * (unused > 1)} unused", style=WILD_STYLE)
        lines = [head]
        for index in range(len(COLOURS)):
            line = colour_line(index, player.collection, score)
            placed = placed_wilds(score.runs[index])
            if placed:
                line.append(f" {placed}", style=WILD_STYLE)
            lines.append(line)
        self.query_one("#mine", Static).update(Text("\n").join(lines))
        others = self.query_one("#others", Static)
        rows = []
        for other in view.players:
            if other.seat == shown:
                continue
            line = Text(f"{self.player_name(other.seat):<9.9}", style="bold")
            line.append_text(run_summary(score_collection(other.collection)))
            line.append(f"{plural(len(other.collection), 'card'):>9} {points(other.score):>6}", style="dim")
            rows.append(line)
        others.display = bool(rows)
        others.update(Text("\n").join(rows))

    # ---- the decision panel -----------------------------------------------------------------
    def _draw_panel(self, view: View, legal: Legal, new_step: bool) -> None:
        prompt = self.query_one("#prompt", Static)
        choices = self.query_one("#choices", PickList)
        mine = self.my_turn and view.phase != OVER
        if view.phase == AUCTION:
            text, rows = self._auction_panel(view, legal, mine)
        elif not mine:
            text, rows = self._watching_text(view), []
        elif view.phase in (DRAW, CHOOSE):
            text, rows = self._choose_panel(view, legal)
        elif view.phase == PAY:
            text = Text(f"You won {card_name(view.auction.wild)} for {view.price}: choose how to pay.", style="bold")
            rows = self._payment_rows(view.price, view.auction.wild, legal, lambda p: Pay(p))
        elif view.phase == SOLO_WILD:
            text, rows = self._solo_wild_panel(view, legal)
        elif view.phase in BUYING_PHASES:
            text, rows = self._buy_panel(view, legal)
        else:
            text, rows = Text(""), []
        prompt.update(text)
        keep = None
        if new_step and rows:
            keep = next((r.key for r in rows if r.enabled), rows[0].key)
        choices.set_rows(rows, keep=keep)
        if rows and self.focused is None:
            choices.focus()

    def _watching_text(self, view: View) -> Text:
        if view.phase == OVER:
            return Text("The game is over: e shows the results, v every collection.", style="bold")
        actor = view.active[0] if view.active else view.turn
        who = self.player_name(actor)
        text = {
            DRAW: f"{who} starts a turn.",
            CHOOSE: f"{who} draws again or claims.",
            PAY: f"{who} pays {view.price} for {card_name(view.auction.wild) if view.auction else 'the wild'}.",
            SOLO_WILD: f"{who} keeps or discards the wild.",
            BUY: f"{who} may buy one market card.",
        }.get(view.phase)
        if view.phase == FINAL_BUY:
            order = ", then ".join(self.player_name(s) for s in view.buyers)
            text = f"Final buys: {order}."
        return Text(text or "", style="italic")

    def _choose_panel(self, view: View, legal: Legal) -> tuple[Text, list[PickRow]]:
        me = self.me
        numbers = [c for c in view.tableau if c in NUMBER_VALUE]
        if view.phase == DRAW:
            text = Text("Your turn: draw the first card.", style="bold")
        else:
            text = Text("Draw again, or stop and claim.", style="bold")
        gain = collection_total(me.collection + tuple(numbers)) - me.score
        others = view.n_players > 1 and view.currency_sum
        draw = Text.assemble(("d ", "bold"), "Draw" + (" again" if view.phase == CHOOSE else ""))
        if view.deck_size:
            draw.append(f"  ({view.bust_cards} of {view.deck_size} cards bust you)", style="dim")
        else:
            draw.append("  (the deck is empty)", style="dim")
        claim = Text.assemble(("n ", "bold"), f"Claim numbers: {points(gain, sign=True)}")
        claim.append(f", others +{view.currency_sum} tokens" if others else "", style="yellow")
        claim.append(", then buy", style="dim")
        takes = min(view.currency_sum, TOKEN_CAP - me.currency) if view.currency_sum else 0
        currency = Text.assemble(("c ", "bold"), f"Claim currency: +{plural(takes, 'token')}")
        if numbers:
            currency.append(f"; {len(numbers)} number{'s' * (len(numbers) != 1)} to the market", style="dim")
        rows = [
            PickRow(("act", Draw()), draw, Draw() in legal),
            PickRow(("act", ClaimNumbers()), claim, ClaimNumbers() in legal),
            PickRow(("act", ClaimCurrency()), currency, ClaimCurrency() in legal),
        ]
        return text, [row for row in rows if row.enabled]  # only what is legal now

    def _lowest_bid(self, view: View) -> int:
        return max(1, view.auction.high_bid + 1) if view.auction is not None else 1

    def _auction_panel(self, view: View, legal: Legal, mine: bool) -> tuple[Text, list[PickRow]]:
        auction = view.auction
        text = Text("Auction ", style="bold")
        text.append_text(card_text(auction.wild))
        text.append(f" drawn by {self.player_name(view.turn)} · ")
        if auction.high_bidder >= 0:
            text.append(f"high bid {auction.high_bid} ({self.player_name(auction.high_bidder)})", style="bold")
        else:
            text.append("no bid yet", style="dim")
        if auction.bids:
            said = ", ".join(f"{self.player_name(s)} {amount or 'pass'}" for s, amount in auction.bids)
            text.append(f"\nBids: {said}", style="dim")
        if not mine:
            later = [self.player_name(s) for s in auction.bidders]
            if later:
                text.append(f"\nTo bid: {', '.join(later)}", style="italic")
            return text, []
        me = self.me
        low = self._lowest_bid(view)
        self.bid_amount = max(low, min(self.bid_amount, me.power))
        gain = collection_total(me.collection + (auction.wild,)) - me.score
        text.append(f"\nThe wild gives you {points(gain, sign=True)} · your power {me.power}", style="italic")
        if me.power < low:
            bid = Text(f"  You cannot bid: it takes {low}, your power is {me.power}", style="dim")
            return text, [PickRow(("act", Pass()), Text.assemble(("p ", "bold"), "Pass")), PickRow(("none",), bid, False)]
        bid = Text.assemble(("⏎ ", "bold"), "Bid ", ("◀ ", "bold"), (f"{self.bid_amount}", "bold reverse"),
                            (" ▶", "bold"), (f"  (←/→ or type: {low} to {me.power})", "dim"))
        rows = [
            PickRow(("bid",), bid, Bid(self.bid_amount) in legal),
            PickRow(("act", Pass()), Text.assemble(("p ", "bold"), "Pass"), Pass() in legal),
        ]
        return text, rows

    def _solo_wild_panel(self, view: View, legal: Legal) -> tuple[Text, list[PickRow]]:
        wild = view.auction.wild
        gain = collection_total(self.me.collection + (wild,)) - self.me.score
        text = Text("You drew ", style="bold")
        text.append_text(card_text(wild))
        text.append(f" ({points(gain, sign=True)} if kept): keep it for {view.price}, or discard it (x).", style="bold")
        rows = self._payment_rows(view.price, wild, legal, lambda p: BuyWild(p))
        discard = Text.assemble(("x ", "bold"), "Discard the wild")
        index = next((i for i, row in enumerate(rows) if row.key[0] == "none"), len(rows))
        rows.insert(index, PickRow(("act", DiscardWild()), discard, DiscardWild() in legal))
        return text, rows

    def _buy_panel(self, view: View, legal: Legal) -> tuple[Text, list[PickRow]]:
        me = self.me
        final = view.phase == FINAL_BUY
        if self.buy_card is not None and self.buy_card in view.buyable:
            price = NUMBER_VALUE[self.buy_card]
            text = Text("Buy ", style="bold")
            text.append_text(card_text(self.buy_card))
            text.append(f" for {price}: choose how to pay (b: back).", style="bold")
            return text, self._payment_rows(price, self.buy_card, legal, lambda p: Buy(self.buy_card, p))
        self.buy_card = None
        text = Text("Final buy: " if final else "Buy phase: ", style="bold")
        if view.market:
            text.append(f"one market card (price = its number), power {me.power}.")
        else:
            text.append("the market is empty: s to go on.")
        rows = [PickRow(("act", Skip()), Text.assemble(("s ", "bold"), "Skip: buy nothing"), Skip() in legal)]
        seen: set[str] = set()
        held = {CELL[c] for c in me.collection if c in CELL}
        offers, blocked = [], []
        for card in view.market:
            if TYPE_OF[card] in seen:
                continue
            seen.add(TYPE_OF[card])
            price = NUMBER_VALUE[card]
            gain = collection_total(me.collection + (card,)) - me.score
            line = Text.assemble(card_text(card), f"  price {price}  ")
            best = -1
            if card in view.buyable:
                line.append(points(gain, sign=True), style="bold green" if gain > 0 else "dim")
                best = max(o.score_after for o in payment_options(price, me, card, ()))
                line.append(f"  → {points(best)} after paying", style="bold" if best > me.score else "dim")
            else:
                blocked.append(f"{card_name(card)} ({'you hold one' if CELL[card] in held else 'too dear'})")
                continue
            offers.append((-best, -gain, price, card, line))
        offers.sort(key=lambda o: o[:4])  # what you would score after paying, best first
        # Only what can be bought is offered; the rest is named once, with the reason.
        rows.extend(PickRow(("market", card), line) for *_, card, line in offers)
        if blocked:
            text.append("\nNot for you now: " + ", ".join(blocked), style="dim")
        return text, rows

    def _payment_rows(self, price: int, gained: str, legal: Legal, make) -> list[PickRow]:
        me = self.me
        rows = []
        for option in payment_options(price, me, gained, sorted(self.marked)):
            action = make(option.payment)
            worth = option.payment.currency + 3 * option.payment.busts + len(option.payment.cards)
            line = Text(f"→{points(option.score_after):>7}  ", style="bold")
            line.append(payment_text(option.payment))
            if worth > price:
                line.append(f" ({worth - price} lost)", style="dim")
            if action in legal:
                rows.append(PickRow(("pay", action), line))
        if me.collection:
            rows.append(PickRow(("none",), Text("cards you could give (space marks):", style="dim italic"), False))
            losses = dict((card, loss) for loss, card in card_losses(me.collection))
            for card in sorted(me.collection, key=lambda c: (losses[c], c)):
                mark = "[x]" if card in self.marked else "[ ]"
                line = Text.assemble((f"{mark} ", "bold green" if card in self.marked else "dim"), card_text(card))
                line.append(f"  -{losses[card]} pt" if losses[card] else "  scores nothing now", style="dim")
                rows.append(PickRow(("mark", card), line))
        return rows

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
        else:
            self.show_message("Move to a card under \"cards you could give\" to mark it.", error=True)

    def _toggle_mark(self, card: str) -> None:
        if card in self.marked:
            self.marked.discard(card)
        else:
            self.marked.add(card)
        shapes = {option.payment.cards for option in self._current_options()}
        if self.marked and tuple(sorted(self.marked)) not in shapes:
            self.show_message(f"No way to pay uses exactly {plural(len(self.marked), 'card')}: "
                              "the other rows pay with the cards you miss least.")
        else:
            self.show_message("")
        self.refresh_table()

    def _current_options(self) -> list[PayOption]:
        view, me = self.view, self.me
        if view is None or me is None:
            return []
        if view.phase in PAYING_PHASES and view.auction is not None:
            return payment_options(view.price, me, view.auction.wild, sorted(self.marked))
        if self.buy_card is not None:
            return payment_options(NUMBER_VALUE[self.buy_card], me, self.buy_card, sorted(self.marked))
        return []

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
            if CELL[card] in {CELL[c] for c in me.collection if c in CELL}:
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
                                              self.view))


class CollectionsScreen(ModalScreen[None]):
    """Every collection as runs per colour with the wilds where the scoring puts them now."""

    CSS_PATH = STYLES / "ten.tcss"

    BINDINGS = [Binding("escape,v,q,enter", "close", "Close", show=True)]

    def __init__(self, names: Sequence[str], view: View) -> None:
        super().__init__(id="ten-collections")
        self.names = list(names)
        self.shown_view = view

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="ten-collections-scroll"):
            yield Static(Text("Collections now (wilds where they score best; ↑/↓ scroll)", style="bold"))
            yield Static(collections_text(self.names, self.shown_view.players), id="ten-collections-text")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#ten-collections-scroll").focus()

    def action_close(self) -> None:
        self.dismiss(None)


class TenEndScreen(EndScreen):
    """The generic end screen (points per colour, total, place) plus each player's runs with
    the wilds in place, as the scoring assigned them."""

    CSS_PATH = STYLES / "ten.tcss"

    def __init__(self, game_name: str, names: Sequence[str], result: Result, view: View) -> None:
        super().__init__(game_name, names, result)
        self.final_view = view

    def compose(self) -> ComposeResult:
        with Vertical(id="end-box", classes="ten-end"):
            yield Static(f"{self.game_name}: game over", id="end-title", markup=False)
            yield Static(self._winners(), id="end-winners", markup=False)
            yield DataTable(id="end-table", cursor_type="row", zebra_stripes=True)
            with VerticalScroll(id="ten-runs-scroll"):
                yield Static(Text("Runs with the wilds in place (↑/↓ scroll)", style="bold italic"))
                yield Static(collections_text(self.names, self.final_view.players, self.result), id="ten-runs")
        yield Footer()

    def on_mount(self) -> None:
        # Textual also runs EndScreen.on_mount (handlers run along the MRO): this only adds focus.
        self.call_after_refresh(self.query_one("#ten-runs-scroll", VerticalScroll).focus)

    def _winners(self) -> str:
        if len(self.names) == 1:
            return f"Solo: {self.names[0]} scores {self.result.scores[0]} points."
        return winners_line(self.names, self.result)
