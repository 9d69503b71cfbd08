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

A network game is dealt (engine/sheriff/dealt.py): its view names goods as the plain game's
does, but its legal actions name the seat's cards (`dealt_view.names_cards`). The screen picks
among them in goods (`legal_in_goods`) and plays each choice with the seat's own cards
(`to_cards`). The dealt game's unpack step (the merchant turns its passed bag's legal goods
face up) is played for the player when it is the only way, and said so in the log; otherwise
u plays the picked way.
"""

from __future__ import annotations

import logging
from collections import Counter
from typing import Any

from textual.app import ComposeResult
from textual.binding import Binding
from textual.widgets import Input, Static

from engine.core import HIDDEN
from engine.sheriff.cards import ASIDE_MAX, BAG_MAX, IDX
from engine.sheriff.dealt_view import legal_in_goods, names_cards, to_cards
from engine.sheriff.state import (
    Accept,
    Confiscate,
    Demand,
    Discard,
    DrawDeck,
    DrawDiscard,
    Inspect,
    Load,
    Offer,
    Pass,
    SeatView,
    SetAside,
    Unpack,
    View,
)
from engine.sheriff.view import market_turn_over

from ...screens.dialogs import ConfirmDialog
from ...widgets import GameLogPanel, PickList
from ...widgets.panel import Panel
from ..base import STYLES, GameScreen, Legal
from .board import BoardText
from .choices import ChoicePanel
from .detail import DetailPanel
from .offer import OfferKeys
from .text import REVEAL_SECONDS, good_name, plural, unpack_words
from .widgets import TextEntry, guarded

log = logging.getLogger(__name__)


class SheriffScreen(BoardText, DetailPanel, ChoicePanel, OfferKeys, GameScreen):
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
        Binding("u", "unpack", "Unpack", show=True),
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
        # the seat's legal actions as the game gave them: in a dealt game (network) they name
        # its cards, and a choice made in goods is played with them
        self.card_legal: Legal = ()
        self._unpacked: tuple[Any, ...] = ()  # the unpack step played for the player
        self._unpack_key: tuple[Any, ...] = ()  # the unpack step shown now

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
            return view.step  # choose, offer, answer, unpack, confiscate, pay
        return ""

    @staticmethod
    def _market_done(view: View) -> bool:
        """This merchant's market turn is over and another merchant's is on: the hand is final."""
        if view.phase != "market" or view.seat is None or not view.active:
            return False
        return market_turn_over(view.sheriff, view.n_players, view.active[0], view.seat)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        mode = self.mode
        wanted = {
            "toggle": mode in ("aside", "load", "preload"),
            "set_aside": mode == "aside",
            "load": mode == "load",
            "make_offer": mode == "offer",
            "pick": mode in ("draw", "declare", "choose", "answer", "pay", "unpack"),
            "pile": mode in ("draw", "discard", "confiscate"),
            "draw_deck": mode == "draw",
            "to_top": mode in ("discard", "confiscate"),
            "adjust": mode == "offer",
            "digit": mode == "offer",
            "promise": mode == "offer",
            "no_offer": mode == "offer",
            "answer": mode == "answer",
            "unpack": mode == "unpack" and not self.unpacked_for_you,
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
        self.card_legal = legal
        if names_cards(legal):
            legal = legal_in_goods(legal)
        self.view, self.legal = view, legal
        mode = self._mode(view)
        step_key = (view.seat, view.round, view.phase, view.step, view.merchant, view.exchange, mode)
        fresh = step_key != self._step_key
        carried = fresh and self._carries_bag(mode)
        if fresh:
            self._reset_builders(view, mode)
        self.mode = mode
        auto = self._only_unpack(legal, step_key) if mode == "unpack" else None
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
        if auto is not None:
            self._unpack_alone(auto)

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


    # ---- keys ----------------------------------------------------------------------------
    def _highlighted(self) -> object | None:
        return self.query_one("#choices", PickList).highlighted

    @guarded
    def action_toggle(self) -> None:
        index = self._highlighted()
        if not isinstance(index, int):
            return
        most = ASIDE_MAX if self.mode == "aside" else BAG_MAX
        me = self.me
        if index not in self.selected and me is not None and index < len(me.hand) and me.hand[index] == HIDDEN:
            self.show_message("That card is still on its way to you.", error=True)
            return
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
        picked = (me.hand[i] for i in self.selected if i < len(me.hand))
        return tuple(sorted((c for c in picked if c in IDX), key=IDX.__getitem__))

    def _send(self, action: object) -> None:
        """Send a built action; an illegal one still goes, so the engine says why in words."""
        view = self.view
        if action not in self.legal:
            log.debug("sending %r although it is not among the legal actions", action)
        elif view is not None and self.mode == "answer" and isinstance(action, (Accept, Pass, Inspect)):
            outcome = {Accept: "deal", Pass: "passed", Inspect: "inspected"}[type(action)]
            self.verdicts[(view.round, view.merchant)] = outcome
        self.submit(action)

    def submit(self, action: object) -> None:
        """Send an action; in a dealt game, a choice made in goods goes with the seat's cards."""
        super().submit(self._with_cards(action) if names_cards(self.card_legal) else action)

    def _with_cards(self, choice: object) -> object:
        try:
            action = to_cards(self.card_legal, choice)
        except (StopIteration, KeyError, AttributeError, TypeError, ValueError):
            action = None  # goods the seat does not hold: the engine says why in words
        # a choice naming no card (a declaration, an answer, a demand) is the same in both forms
        return choice if action is None else action

    # ---- the dealt game's unpack step ------------------------------------------------------
    @property
    def unpacked_for_you(self) -> bool:
        """This step's unpack was played for the player (the prompt says so)."""
        return bool(self._unpacked) and self._unpacked == self._unpack_key

    def _only_unpack(self, legal: Legal, step_key: tuple[Any, ...]) -> Unpack | None:
        """The unpack to play for the player now: the only legal way, not played yet."""
        self._unpack_key = step_key
        ways = [a for a in legal if isinstance(a, Unpack)] if isinstance(legal, tuple) else []
        if len(ways) != 1 or len(legal) != 1 or self._unpacked == step_key or not self.my_turn:
            return None
        self._unpacked = step_key
        return ways[0]

    def _unpack_alone(self, unpack: Unpack) -> None:
        """Played at once, and said so in the log (the table's own line names no face down card)."""
        me = self.me
        size = len(me.bag) if me is not None else 0
        self.query_one("#game-log", GameLogPanel).add(
            f"You empty your bag (the only way): {unpack_words(unpack, size)}")
        self._send(unpack)

    @guarded
    def action_unpack(self) -> None:
        row = self.query_one("#choices", PickList).highlighted_row
        if self.mode == "unpack" and row is not None and isinstance(row.key, Unpack):
            self._send(row.key)

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

    def on_text_entry_cancelled(self, event: TextEntry.Cancelled) -> None:
        event.stop()
        self.close_entry()

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
