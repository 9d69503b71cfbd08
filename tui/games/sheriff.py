"""The Sheriff of Nottingham screen: the table, the market, bags and declarations, and the
inspection phase as a negotiation panel.

The board shows the discard piles (top and depth), every stand (legal goods face up by kind,
face-down goods as a count unless known), then what this seat does now in one pick list whose
rows change with the step: hand cards to set aside or load (space), draw sources (1 / 2 / d),
the set-aside or confiscated cards in placement order (t puts one on top; 1 / 2 chooses the
pile), the declaration with each choice's consequence, the merchants to deal with, the offer
builder (gold, stand goods, bag goods, conditions, promise), the Sheriff's answers with their
consequences (a / p / i / d), and debt payments. Free text (promise, demand) is typed in a
one-line box that opens with t or d. Opened bags are turned over card by card.

Everything drawn comes from the seat's view and its legal actions; actions are built here,
checked with `in` against the legal ones, and an illegal one is still sent so the table
answers with the engine's reason (the base shows it on the message line).
"""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import replace
from functools import wraps
from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.widgets import Input, Static

from engine.core import HIDDEN
from engine.sheriff.cards import (
    ASIDE_MAX,
    BAG_MAX,
    COUNTS_AS,
    EXCHANGES,
    GOODS,
    HAND_SIZE,
    IDX,
    KIND,
    LEGAL,
    NAME,
    PENALTY,
    VALUE,
    goods_in_game,
)
from engine.sheriff.state import (
    Accept,
    Choose,
    Confiscate,
    Declare,
    Demand,
    Discard,
    DrawDeck,
    DrawDiscard,
    Inspect,
    Load,
    NoOffer,
    Offer,
    Pass,
    PayGoods,
    SeatView,
    SetAside,
    View,
)

from ..screens.dialogs import ConfirmDialog
from ..widgets import PickList, PickRow
from ..widgets.panel import Panel
from .base import STYLES, GameScreen, Legal

log = logging.getLogger(__name__)

KIND_STYLE = {"legal": "green", "contraband": "red", "royal": "magenta"}
GOOD_STYLE = {"apple": "bold green", "cheese": "bold yellow", "bread": "bold #d7875f", "chicken": "bold white"}
OUTCOME_WORD = {"passed": "passed", "deal": "deal", "inspected": "opened"}
OUTCOME_SHORT = {"passed": "pass", "deal": "deal", "inspected": "open"}
REVEAL_SECONDS = 0.35
"""Time between two cards of an opened bag being turned over."""


# ---- card text ------------------------------------------------------------------------------
def good_style(good: str) -> str:
    if good == HIDDEN:
        return "dim"
    return GOOD_STYLE.get(good) or KIND_STYLE[KIND[IDX[good]]]


def good_name(good: str) -> str:
    return "?" if good == HIDDEN else NAME[good]


def short_name(good: str) -> str:
    """The good's id as a word ("apple", "green apples"): stand lines are tight at 80 columns."""
    return "?" if good == HIDDEN else good.replace("_", " ")


def good_text(good: str, n: int | None = None, short: bool = False) -> Text:
    name = short_name(good) if short else good_name(good)
    return Text(name if n is None else f"{name} {n}", style=good_style(good))


def by_kind(cards: Sequence[str]) -> list[tuple[str, int]]:
    """(good, count) in card order, unknown cards ("?") last."""
    counts = Counter(cards)
    out = [(g, counts[g]) for g in GOODS if counts[g]]
    if counts[HIDDEN]:
        out.append((HIDDEN, counts[HIDDEN]))
    return out


def goods_text(cards: Sequence[str], sep: str = " · ", empty: str = "nothing", short: bool = False) -> Text:
    if not cards:
        return Text(empty, style="dim")
    return Text(sep).join(good_text(g, n, short) for g, n in by_kind(cards))


def value(cards: Sequence[str]) -> int:
    return sum(VALUE[IDX[c]] for c in cards if c != HIDDEN)


def fine(cards: Sequence[str]) -> int:
    return sum(PENALTY[IDX[c]] for c in cards if c != HIDDEN)


def plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def guarded(method: Callable[..., Any]) -> Callable[..., Any]:
    """A key handler that can never take the app down: a bug becomes a line for the player."""

    @wraps(method)
    def run(self: SheriffScreen, *args: Any) -> Any:
        try:
            return method(self, *args)
        except Exception as exc:
            log.exception("sheriff screen: %s failed", method.__name__)
            self.show_message(f"Unexpected error: {exc}", error=True)
            return None

    return run


class TextEntry(Input):
    """The one-line box for a promise or a demand; Esc closes it without sending."""

    BINDINGS = [Binding("escape", "cancel", "Cancel", show=True)]

    @property
    def focusable(self) -> bool:
        # Textual's auto focus (e.g. back from the end screen) would pick it even while hidden.
        return self.display and super().focusable

    def action_cancel(self) -> None:
        screen = self.screen
        if isinstance(screen, SheriffScreen):
            screen.close_entry()


class SheriffScreen(GameScreen):
    GAME_ID = "sheriff"
    CSS_PATH = STYLES / "sheriff.tcss"

    BINDINGS = [
        Binding("space", "toggle", "Select", show=True),
        Binding("enter", "set_aside", "Set aside", show=True),
        Binding("enter", "load", "Load bag", show=True),
        Binding("enter", "make_offer", "Make offer", show=True),
        Binding("enter", "pick", "Choose", show=True),
        Binding("1", "pile(1)", "Pile 1", show=True),
        Binding("2", "pile(2)", "Pile 2", show=True),
        Binding("d", "draw_deck", "Draw pile", show=True),
        Binding("t", "to_top", "On top", show=True),
        Binding("left", "adjust(-1)", "Less", show=False),
        Binding("right", "adjust(1)", "Change", key_display="←→", show=True),
        *(Binding(str(n), f"digit({n})", show=False) for n in range(10)),
        Binding("backspace", "digit(-1)", show=False),
        Binding("t", "promise", "Promise", show=True),
        Binding("n", "no_offer", "No offer", show=True),
        Binding("a", "answer('accept')", "Accept", show=True),
        Binding("p", "answer('pass')", "Pass", show=True),
        Binding("i", "answer('inspect')", "Inspect", show=True),
        Binding("d", "answer('demand')", "Demand", show=True),
    ]

    def __init__(self, table) -> None:
        super().__init__(table)
        self.view: View | None = None
        self.legal: Legal = ()
        self.mode = ""  # what the pick list holds now (see _mode)
        self._step_key: tuple[Any, ...] = ()
        # what the player is building (reset when the step changes)
        self.selected: set[int] = set()  # hand indexes marked to set aside / load
        self.order: list[str] = []  # set-aside or confiscated cards, first placed first
        self.gold = 0
        self.stand_pick: Counter[str] = Counter()
        self.bag_claim: Counter[str] = Counter()
        self.conditions: dict[int, str] = {}
        self.promise = ""
        self._entry_for = ""  # "promise" or "demand" while the text box is open
        # the market turn as this seat saw it: (source, card) per draw
        self.draws: list[tuple[str, str]] = []
        self._draw_source = ""
        self._hand_before: tuple[str, ...] | None = None
        self._market_key: tuple[Any, ...] = ()
        # opened bags: (round, seat) -> cards turned over so far
        self.turned: dict[tuple[int, int], int] = {}
        # bag sizes stay public after the bag is emptied: (round, seat) -> cards
        self.bag_sizes: dict[tuple[int, int], int] = {}
        # the inspection phase as last seen, shown during the next market: (round, players)
        self.last_round: tuple[int, tuple[SeatView, ...]] | None = None
        # this seat's own answers as Sheriff: (round, merchant) -> outcome (the round may end
        # with that answer, so no view shows its outcome)
        self.verdicts: dict[tuple[int, int], str] = {}

    # ---- layout --------------------------------------------------------------------------
    def compose_board(self) -> ComposeResult:
        yield Panel("", id="piles")
        yield Panel("", id="stands")
        yield Panel("", id="prompt")
        yield Panel("", id="detail")
        yield TextEntry(id="text-entry", max_length=200, compact=True)
        yield PickList(id="choices")
        yield Panel("", id="hand-line")

    def on_mount(self) -> None:
        # Textual also runs GameScreen.on_mount (handlers run for every class in the MRO).
        self.set_interval(REVEAL_SECONDS, self._turn_cards)

    # ---- who does what now ---------------------------------------------------------------
    @property
    def me(self) -> SeatView | None:
        v = self.view
        return None if v is None or v.seat is None else v.players[v.seat]

    def _mode(self, view: View) -> str:
        """The pick list's content for this seat now ("" = not this seat's move)."""
        if view.seat is not None and self._market_done(view):
            return "preload"  # the others still at the market: mark the bag already
        if view.seat is None or not self.my_turn or view.seat not in view.active:
            return ""
        if view.phase == "market":
            return {"set_aside": "aside", "draw": "draw", "discard": "discard"}.get(view.step, "")
        if view.phase in ("load", "declare"):
            return view.phase
        if view.phase == "inspect":
            return view.step  # choose, offer, answer, confiscate, pay
        return ""

    @staticmethod
    def _market_done(view: View) -> bool:
        """This merchant's market turn is over and another merchant's is on: the hand is final."""
        if view.phase != "market" or view.seat is None or view.seat == view.sheriff or not view.active:
            return False
        order = [(view.sheriff + k) % view.n_players for k in range(1, view.n_players)]
        actor = view.active[0]
        return actor != view.seat and actor in order and order.index(view.seat) < order.index(actor)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        mode = self.mode
        wanted = {
            "toggle": mode in ("aside", "load", "preload"),
            "set_aside": mode == "aside",
            "load": mode == "load",
            "make_offer": mode == "offer",
            "pick": mode in ("draw", "declare", "choose", "answer", "pay"),
            "pile": mode in ("draw", "discard", "confiscate"),
            "draw_deck": mode == "draw",
            "to_top": mode in ("discard", "confiscate"),
            "adjust": mode == "offer",
            "digit": mode == "offer",
            "promise": mode == "offer",
            "no_offer": mode == "offer",
            "answer": mode == "answer",
        }
        if action in wanted:
            if not wanted[action] or self._entry_for:
                return False
            if action == "answer":
                return self._answer_action(str(parameters[0])) is not None
            if mode == "draw" and action == "pile":  # only a pile that may be drawn from now
                return DrawDiscard(int(parameters[0])) in self.legal  # type: ignore[call-overload]
            if action == "draw_deck":
                return DrawDeck() in self.legal
            return True
        return super().check_action(action, parameters)

    # ---- drawing -------------------------------------------------------------------------
    def render_view(self, view: View, legal: Legal) -> None:
        self.view, self.legal = view, legal
        mode = self._mode(view)
        step_key = (view.seat, view.round, view.phase, view.step, view.merchant, view.exchange, mode)
        fresh = step_key != self._step_key
        carried = fresh and self._carries_bag(mode)
        if fresh:
            self._reset_builders(view, mode)
        self.mode = mode
        self._remember(view)
        self._track_market(view)
        self.query_one("#piles", Static).update(self._piles_text(view))
        self.query_one("#stands", Static).update(self._stands_text(view))
        self.query_one("#prompt", Static).update(self._prompt_text(view))
        self._draw_detail()
        self._draw_choices(view, legal)
        self.query_one("#hand-line", Static).update(self._hand_line(view))
        if fresh:
            self._step_key = step_key
            choices = self.query_one("#choices", PickList)
            if not carried:  # the player may be marking cards right now: keep the cursor
                choices.action_jump(0)
            if mode and not self._entry_for and not isinstance(self.focused, Input):
                choices.focus()  # but never out of a box being typed in (the chat)
        if not mode and self._entry_for:
            self.close_entry()
        if not self._entry_for and isinstance(self.focused, TextEntry):
            self.set_focus(None)  # a hidden box must not keep the keyboard

    def _remember(self, view: View) -> None:
        for p in view.players:
            if p.bag:
                self.bag_sizes[(view.round, p.seat)] = len(p.bag)
        if view.phase in ("inspect", "over") and any(p.outcome for p in view.players):
            self.last_round = (view.round, view.players)

    def _carries_bag(self, mode: str) -> bool:
        """Cards marked for the bag during the others' market turns stay marked into the load."""
        return self.mode == "preload" and mode in ("preload", "load")

    def _reset_builders(self, view: View, mode: str) -> None:
        if not self._carries_bag(mode):
            self.selected.clear()
        me = view.players[view.seat] if view.seat is not None else None
        if mode == "discard" and me is not None:
            self.order = list(me.set_aside)
        elif mode == "confiscate":
            self.order = list(view.confiscated)
        else:
            self.order = []
        if mode == "offer" and me is not None:
            standing = view.offer if isinstance(view.offer, Offer) else None
            self.gold = standing.gold if standing else 0
            self.stand_pick = Counter(standing.stand_goods) if standing else Counter()
            self.bag_claim = Counter(standing.bag_goods) if standing else Counter()
            self.conditions = {x: kind for kind, x in standing.conditions} if standing else {}
            self.promise = standing.promise if standing else ""

    def status_text(self, view: View) -> str:
        parts = [self.table.game.name, f"round {view.round + 1}/{view.rounds}",
                 f"Sheriff: {self.player_name(view.sheriff)}", f"deck {view.draw_size}"]
        if view.phase == "over":
            parts[1] = "game over"
        who = f"you: {self.player_name(view.seat)}" if view.seat is not None else "watching"
        return " · ".join(parts) + f" · {who}"

    def scoreboard(self, view: View):
        awaiting = self.table.awaiting()
        rows = []
        for p in view.players:
            mark = "▶" if p.seat in awaiting else " "
            rows.append([f"{mark}{self.player_name(p.seat)}", str(p.gold), self._bag_cell(view, p)])
        highlight = [s for s in range(view.n_players) if s == view.seat or s in awaiting]
        return ["Player", "Gold", "Bag"], rows, highlight

    def _bag_cell(self, view: View, p: SeatView) -> Text:
        """Short: the names need the room (the declared goods are on the board)."""
        if p.seat == view.sheriff:
            return Text("★", style="bold yellow")
        if p.outcome:
            return Text(OUTCOME_SHORT.get(p.outcome, p.outcome), style="dim")
        if p.bag:
            return Text(str(len(p.bag)), style="bold")
        if view.phase == "load" and p.seat in view.active:
            return Text("…", style="dim")
        return Text("")

    def _piles_text(self, view: View) -> Text:
        out = Text(no_wrap=True, overflow="ellipsis")
        for k, pile in enumerate(view.piles):
            if k:
                out.append("\n")
            out.append(f"Pile {k + 1} ", style="bold")
            if not pile:
                out.append("empty", style="dim")
            else:
                out.append("top ")
                out.append_text(good_text(pile[0]))
                out.append(f" ({len(pile)} deep)", style="dim")
                if len(pile) > 1:
                    out.append(" under: ", style="dim")
                    out.append(", ".join(good_name(c) for c in pile[1:]), style="dim")
        return out

    def _stands_text(self, view: View) -> Text:
        out = Text(no_wrap=True, overflow="ellipsis")
        names = ["You" if p.seat == view.seat else self.player_name(p.seat)[:8] for p in view.players]
        width = max(len(n) for n in names)  # as narrow as the names allow: stands get long
        for p in view.players:
            if p.seat:
                out.append("\n")
            mine = p.seat == view.seat
            mark = "★" if p.seat == view.sheriff else " "
            out.append(f"{mark}{names[p.seat]:<{width}} ", style="bold" if mine else "")
            out.append_text(self._stand_text(p, mine or view.phase == "over"))
        return out

    def _stand_text(self, p: SeatView, open_: bool) -> Text:
        out = Text()
        if p.stand_up:
            out.append_text(goods_text(p.stand_up, " ", short=True))
        down = p.stand_down
        if down:
            if p.stand_up:
                out.append(" ")
            known = [c for c in down if c != HIDDEN]
            if open_ or len(known) == len(down):
                out.append("▯", style="red")
                out.append_text(goods_text(down, " ", short=True))
            else:
                out.append(f"▯{len(down)} face down", style="red")
                if known:
                    out.append(" incl. ", style="dim")
                    out.append_text(goods_text(known, " ", short=True))
        if not p.stand_up and not down:
            out.append("empty stand", style="dim")
        return out

    def _prompt_text(self, view: View) -> Text:
        name = self.player_name
        mode = self.mode
        sheriff = "You" if view.sheriff == view.seat else name(view.sheriff)
        actor = view.active[0] if view.active else -1
        you = actor == view.seat
        who = "You" if you else (name(actor) if actor >= 0 else "")
        out = Text(style="bold")
        if self._entry_for == "demand":
            out.append("Type your demand: Enter sends it, Esc cancels")
        elif self._entry_for == "promise":
            out.append("Type your promise (binds nothing): Enter keeps it, Esc cancels")
        elif view.phase == "over":
            out.append("Game over: every stand is open (e: the results)")
        elif mode == "aside":
            out.append(f"Market: mark up to {ASIDE_MAX} cards to set aside, Enter")
        elif mode == "draw":
            missing = HAND_SIZE - len(self.me.hand) if self.me else 0
            out.append(f"Draw {missing} more: 1 / 2 = a pile's top, d = draw pile" if missing > 0
                       else "Draw: 1 / 2 = a pile's top, d = draw pile")
        elif mode == "discard":
            out.append("Discard onto pile 1 or 2 (t = put on top)")
        elif mode == "load":
            out.append(f"Load your bag: mark 1 to {min(BAG_MAX, len(self.me.hand))} cards, Enter")
        elif mode == "preload":
            out.append(f"While {who} is at the market: mark your bag now (Enter once the market ends)")
        elif mode == "declare":
            out.append(f"Declare your bag of {plural(len(self.me.bag), 'card')}: pick the good")
        elif mode == "choose":
            out.append("Sheriff: choose the next merchant to deal with")
        elif mode == "offer":
            out.append(f"Make an offer to Sheriff {name(view.sheriff)} (exchange {view.exchange}/{EXCHANGES})")
        elif mode == "answer":
            out.append(f"Answer {name(view.merchant)}'s offer" if view.offer is not None
                       else f"{name(view.merchant)} has made no offer")
            out.append(f" (exchange {view.exchange}/{EXCHANGES})")
        elif mode == "confiscate":
            out.append("Confiscated: put them on pile 1 or 2 (last = top)")
        elif mode == "pay":
            out.append(f"Pay your debt with goods: {view.debt.amount} still owed" if view.debt else "Pay with goods")
        elif view.phase == "market":
            aside = len(view.players[actor].set_aside) if actor >= 0 else 0
            doing = {"set_aside": "chooses cards to set aside", "draw": f"draws ({aside} set aside)",
                     "discard": f"discards {plural(aside, 'card')}"}.get(view.step, "")
            out.append(f"Market: {who} {doing}")
        elif view.phase == "load":
            out.append("Merchants load their bags in secret")
        elif view.phase == "declare":
            out.append(f"{who} declares {'your' if you else 'a'} bag")
        elif view.step == "choose":
            out.append(f"Sheriff {sheriff} chooses the next merchant")
        elif view.step == "offer":
            out.append(f"{name(view.merchant)} makes an offer (exchange {view.exchange}/{EXCHANGES})")
        elif view.step == "answer":
            out.append(f"Sheriff {sheriff} answers {name(view.merchant)}")
        elif view.step == "confiscate":
            out.append(f"Sheriff {sheriff} places the confiscated cards")
        elif view.step == "pay":
            payer = view.debt.payer if view.debt else actor
            out.append(f"{name(payer)} pays the rest of the debt in goods")
        elif view.step == "open":  # network play: the merchant's client opens its sealed bag
            out.append(f"{name(view.merchant)}'s bag is opened (its sealed contents are checked)")
        return out

    # ---- the detail panel: negotiation, opened bags, consequences -------------------------
    def _draw_detail(self) -> None:
        view = self.view
        if view is None:
            return
        lines = self._detail_lines(view)
        detail = self.query_one("#detail", Static)
        detail.update(Text("\n").join(lines) if lines else Text(""))
        detail.display = bool(lines)

    def _detail_lines(self, view: View) -> list[Text]:
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
            owed = fine(view.confiscated)
            lines.append(Text(f"{self.player_name(view.merchant)} then owes you {owed} gold in fines.", style="dim"))
        if mode == "pay" and view.debt is not None:
            lines.append(Text(f"No gold left: pay {self.player_name(view.debt.creditor)} in goods "
                              "(legal first, no change)", style="dim"))
        return lines

    def _declared_text(self, view: View, p: SeatView, round_: int | None = None) -> Text:
        size = self.bag_sizes.get((view.round if round_ is None else round_, p.seat))
        out = Text(f"{size} " if size else "")
        out.append_text(good_text(p.declared, short=True))
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
            for seat, action in view.talk[-(2 if mode == "offer" else 3):]:
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

    def _revealed_line(self, view: View, p: SeatView, round_: int | None = None) -> Text:
        key = (view.round if round_ is None else round_, p.seat)
        shown = self.turned.setdefault(key, 0) if round_ is None else len(p.revealed)
        owner = "Your opened bag" if p.seat == view.seat else f"{self.player_name(p.seat)}'s bag"
        line = Text(f"{owner}: ", style="bold")
        for card in p.revealed[:shown]:
            ok = card == p.declared
            line.append_text(good_text(card, short=True))
            line.append("✓ " if ok else "✗ ", style="green" if ok else "bold red")
        hidden = len(p.revealed) - shown
        if hidden > 0:
            line.append("▮ " * hidden, style="dim")
        else:
            lies = [c for c in p.revealed if c != p.declared]
            line.append(f"lie: fine {fine(lies)}" if lies else f"honest: paid {fine(p.revealed)}",
                        style="bold red" if lies else "bold green")
        return line

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

    # ---- consequences shown with each choice ---------------------------------------------
    def _inspection_outcome(self, bag: Sequence[str], declared: str) -> str:
        """What opening this bag would do, in a few words (for the merchant who knows it)."""
        lies = [c for c in bag if c != declared]
        if not lies:
            return f"honest: Sheriff pays you {fine(bag)}"
        kept = len(bag) - len(lies)
        lost = ", ".join(f"{short_name(g)} {n}" for g, n in by_kind(lies))
        return f"lie: {kept} kept, you pay {fine(lies)} ({lost} lost)"

    def _offer_consequences(self, view: View) -> list[Text]:
        me = self.me
        if me is None:
            return []
        offer = self._built_offer()
        lines = [Text("Your offer: ", style="bold").append_text(
            self._offer_text(offer, view) if isinstance(offer, Offer) else Text("nothing yet", style="dim"))]
        delivered = [c for c, n in self.bag_claim.items() for _ in range(min(n, me.bag.count(c)))]
        passing = list(me.bag)
        for card in delivered:
            passing.remove(card)
        line = Text("Accepted: ", style="green")
        line.append(f"you give {self.gold} gold" if self.gold else "no gold")
        given = [g for g in GOODS for _ in range(self.stand_pick[g])]
        if given:
            line.append(" + ")
            line.append_text(goods_text(given, " ", short=True))
        if delivered:
            line.append(" + from the bag " + ", ".join(good_name(c) for c in delivered))
        line.append("; to your stand: ")
        line.append_text(goods_text(passing, " ", "nothing", short=True))
        lines.append(line)
        lines.append(Text("Inspected: ", style="red").append(self._inspection_outcome(me.bag, me.declared)))
        return lines

    def _answer_consequence(self, view: View, action: object) -> str:
        m = view.players[view.merchant] if view.merchant >= 0 else None
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
            honest = len(m.bag) * PENALTY[IDX[m.declared]] if m and m.declared else 0
            return f"honest: you pay {honest}; lie: they pay fines"
        if isinstance(action, Demand):
            return f"ask for more, exchange {view.exchange + 1}/{EXCHANGES}"
        return ""

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
            for good in LEGAL:
                action = Declare(good)
                text = Text.assemble(f"{len(me.bag)} ", good_text(good))
                if IDX[good] not in goods_in_game(view.n_players, view.royal_goods):
                    text.append(" (none in this game)", style="dim")
                text.append_text(Text.assemble(" — ", (self._inspection_outcome(me.bag, good), "dim")))
                rows.append(PickRow(action, text, action in legal))
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
        choices.display = bool(mode)
        choices.set_rows(rows)

    def _hand_row(self, index: int, card: str) -> PickRow:
        on = index in self.selected
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
            note = f"  ({in_bag[good]} really in it)" if in_bag[good] else "  (not in it: a bluff)"
            bag_rows.append(PickRow(("bag", good), Text.assemble(
                ("From bag   ", "bold"), ("◂ ", "dim"), (f"{self.bag_claim[good]:>2}", "bold"), (" ▸ ", "dim"),
                good_text(good), (note, "dim"))))
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

    def _hand_line(self, view: View) -> Text:
        me = self.me
        if me is None:
            return Text("Hands are hidden: you are watching.", style="dim")
        out = Text(no_wrap=True, overflow="ellipsis")
        out.append(f"Your hand ({len(me.hand)}): ", style="bold")
        out.append_text(goods_text(me.hand, " ", "empty", short=True))
        if self.mode in ("aside", "load", "preload"):
            out = Text(no_wrap=True, overflow="ellipsis")
            picked = [me.hand[i] for i in sorted(self.selected) if i < len(me.hand)]
            out.append("Set aside: " if self.mode == "aside" else "Bag: ", style="bold")
            empty = "nothing (Enter keeps your hand)" if self.mode == "aside" else "nothing yet"
            out.append_text(goods_text(picked, " · ", empty))
        return out

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
        if sum(gained.values()) == 1 and self._draw_source:
            self.draws.append((self._draw_source, next(iter(gained))))
            self._hand_before = None
            self._draw_source = ""

    # ---- keys ----------------------------------------------------------------------------
    def _highlighted(self) -> object | None:
        return self.query_one("#choices", PickList).highlighted

    @guarded
    def action_toggle(self) -> None:
        index = self._highlighted()
        if not isinstance(index, int):
            return
        most = ASIDE_MAX if self.mode == "aside" else BAG_MAX
        if index in self.selected:
            self.selected.discard(index)
        elif len(self.selected) >= most:
            self.show_message(f"At most {most} cards.", error=True)
            return
        else:
            self.selected.add(index)
        self.query_one("#choices", PickList).action_move(1)
        self.refresh_table()

    def _picked_cards(self) -> tuple[str, ...]:
        me = self.me
        if me is None:
            return ()
        return tuple(sorted((me.hand[i] for i in self.selected if i < len(me.hand)), key=IDX.__getitem__))

    def _send(self, action: object) -> None:
        """Send a built action; an illegal one still goes, so the engine says why in words."""
        view = self.view
        if action not in self.legal:
            log.debug("sending %r although it is not among the legal actions", action)
        elif view is not None and self.mode == "answer" and isinstance(action, (Accept, Pass, Inspect)):
            outcome = {Accept: "deal", Pass: "passed", Inspect: "inspected"}[type(action)]
            self.verdicts[(view.round, view.merchant)] = outcome
        self.submit(action)

    @guarded
    def action_set_aside(self) -> None:
        self._send(SetAside(self._picked_cards()))

    @guarded
    def action_load(self) -> None:
        cards = self._picked_cards()
        if not cards:
            self.show_message("Put at least one card in the bag (space).", error=True)
            return
        # A loaded bag is sealed: nothing takes it back, so the player says yes to it first.
        words = ", ".join(good_name(card) for card in cards)
        question = (f"Load {plural(len(cards), 'card')} into your bag: {words}?\n"
                    "The bag is sealed once it goes in.")
        self.app.push_screen(ConfirmDialog(question), lambda yes: self._load_answer(yes, cards))

    def _load_answer(self, yes: bool | None, cards: tuple[str, ...]) -> None:
        if yes and self.mode == "load" and self._picked_cards() == cards:
            self._send(Load(cards))

    @guarded
    def action_pile(self, pile: int) -> None:
        mode = self.mode
        if mode == "draw":
            self._draw_card(DrawDiscard(pile), f"pile {pile}")
        elif mode == "discard":
            self._send(Discard(pile, tuple(self.order)))
        elif mode == "confiscate":
            self._send(Confiscate(pile, tuple(self.order)))

    @guarded
    def action_draw_deck(self) -> None:
        self._draw_card(DrawDeck(), "draw pile")

    def _draw_card(self, action: DrawDiscard | DrawDeck, source: str) -> None:
        me = self.me
        if me is not None and action in self.legal:
            self._hand_before = me.hand
            self._draw_source = source
        self._send(action)

    @guarded
    def action_to_top(self) -> None:
        index = self._highlighted()
        if isinstance(index, int) and 0 <= index < len(self.order):
            self.order.append(self.order.pop(index))
            self.refresh_table()

    @guarded
    def action_pick(self) -> None:
        row = self.query_one("#choices", PickList).highlighted_row
        if row is None:
            return
        if self.mode == "answer":
            self.action_answer(str(row.key))
        elif self.mode == "draw":
            source = "draw pile" if isinstance(row.key, DrawDeck) else f"pile {getattr(row.key, 'pile', '')}"
            self._draw_card(row.key, source)
        else:
            self._send(row.key)

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
            options = [""] + [k for k in ("inspect", "pass")
                              if ({"inspect": "pass", "pass": "inspect"}[k], x) not in view.conditions]
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

    # ---- the text box --------------------------------------------------------------------
    def open_entry(self, purpose: str, text: str, placeholder: str) -> None:
        entry = self.query_one("#text-entry", TextEntry)
        self._entry_for = purpose
        entry.value = text
        entry.placeholder = placeholder
        entry.display = True
        self.set_focus(entry)  # at once: keys typed right after d or t must land in the box
        if self.view is not None:
            self.query_one("#prompt", Static).update(self._prompt_text(self.view))
        self.refresh_bindings()

    def close_entry(self) -> None:
        entry = self.query_one("#text-entry", TextEntry)
        self._entry_for = ""
        entry.display = False
        choices = self.query_one("#choices", PickList)
        if choices.display:
            self.set_focus(choices)
        if self.view is not None:
            self.query_one("#prompt", Static).update(self._prompt_text(self.view))
        self.refresh_bindings()

    @guarded
    def on_input_submitted(self, event: Input.Submitted) -> None:
        if not isinstance(event.input, TextEntry):
            return  # another box (the chat) handles its own lines
        event.stop()
        text = " ".join(event.value.split())  # one line of printable text
        purpose = self._entry_for
        self.close_entry()
        if purpose == "promise":
            self.promise = text
            self.refresh_table()
        elif purpose == "demand" and self.mode == "answer":
            self._send(Demand(text))
