"""The 7 Wonders screen: your city, your neighbours, your hand with what each card costs you.

Top: both neighbours on one line each (wonder, stages, shields, coins, what they sell; on a
big terminal also their cards). Then your city: coins, shields, conflict tokens, production,
science, wonder stages and the cards grouped by colour. Below, your hand: per card its cost,
and whether you can build it (free / chain / pay N / not possible). Enter on a card lists
every legal way to play it — build with each offered payment, Olympia's free build, the next
wonder stage with each payment, discard for 3 coins — and Enter again plays the one shown;
b / s / d / f do it straight away when there is only one way. Halikarnassos picks from the
discard pile (Enter) or declines (n); Babylon plays its kept card like any pick.

Everything is read from the view (and the card data); actions are taken only from the legal
ones. Each Age's conflict results come with the view; they are shown at the first turn of
the next Age and at the end, and logged once.
"""

from __future__ import annotations

from typing import Any

from textual.app import ComposeResult
from textual.binding import Binding
from textual.widgets import Static

from engine.seven_wonders.cards import BOARDS, CARDS
from engine.seven_wonders.state import (
    BABYLON,
    BUILD,
    BUILD_FREE,
    DISCARD,
    HALIKARNASSOS,
    OVER,
    PICK,
    STAGE,
    BuildFromDiscard,
    Decline,
    Pick,
    View,
)

from ...widgets import PickList
from ...widgets.panel import Panel
from ..base import STYLES, GameScreen, Legal
from .board import CityPanels
from .hand import HandPanel
from .text import AGE_NAMES, cost_words, shields
from .widgets import CitiesScreen, SevenWondersEndScreen


class SevenWondersScreen(CityPanels, HandPanel, GameScreen):
    GAME_ID = "seven_wonders"
    CSS_PATH = STYLES / "seven_wonders.tcss"

    BINDINGS = [
        Binding("enter", "choose", "Play", show=True),
        Binding("b", "quick('build')", "Build", show=True),
        Binding("s", "quick('stage')", "Stage", show=True),
        Binding("d", "quick('discard')", "Discard", show=True),
        Binding("f", "quick('build_free')", "Free", show=True),
        Binding("backspace", "back", "Back", show=True),
        Binding("n", "decline", "Decline", show=True),
        Binding("c", "cities", "Cities", show=True),
    ]

    def __init__(self, table) -> None:
        super().__init__(table)
        self.view: View | None = None
        self.legal: Legal = ()
        self.legal_set: frozenset[Any] = frozenset()
        self.card: str | None = None  # the card whose ways to play are listed
        self.sent: str = ""  # what this seat sent for the current step
        self._step_seen: tuple[Any, ...] = ()
        self._choices_for: str | None = None

    # ---- layout --------------------------------------------------------------------------------
    def compose_board(self) -> ComposeResult:
        yield Panel("", id="sw-neighbours")
        yield Panel("", id="sw-city")
        yield Panel("", id="sw-hand-title")
        yield PickList(id="sw-hand", empty="(no cards)")
        yield PickList(id="sw-choices")
        yield Panel("", id="sw-card")

    def on_resize(self) -> None:
        """Neighbours grow a line of cards on a big terminal; the card line shrinks on a small one."""
        self.set_class(self.size.height < 28, "sw-short")
        if self.view is not None:
            self.refresh_table()

    # ---- state helpers -------------------------------------------------------------------------
    @property
    def picking(self) -> bool:
        return self.view is not None and self.view.phase in (PICK, BABYLON) and self.my_turn

    @property
    def rebuilding(self) -> bool:
        """Halikarnassos: this seat builds from the discard pile now."""
        return self.view is not None and self.view.phase == HALIKARNASSOS and self.my_turn

    @property
    def wide(self) -> bool:
        return self.size.width >= 100 and self.size.height >= 28

    @property
    def shown_seat(self) -> int:
        """The city drawn at the centre: yours, or seat 0's when watching."""
        return self.view.seat if self.view is not None and self.view.seat is not None else 0

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "choose":
            return self.picking or self.rebuilding
        if action == "quick":  # in the list of ways to play a card, Enter and Backspace do it
            if parameters and parameters[0] == BUILD_FREE:
                return self.picking and self.card is None and bool(self.view and self.view.free_build)
            return self.picking and self.card is None
        if action == "back":
            return self.picking and self.card is not None
        if action == "decline":
            return self.rebuilding
        if action == "cities":
            return self.view is not None
        return super().check_action(action, parameters)

    # ---- drawing -------------------------------------------------------------------------------
    def render_view(self, view: View, legal: Legal) -> None:
        step = (view.seat, view.age, view.turn, view.phase, self.my_turn)
        new_step = step != self._step_seen
        if new_step:
            self._step_seen = step
            self.card = None
            if self.my_turn:
                self.sent = ""
        self.view, self.legal = view, legal
        self.legal_set = frozenset(legal)
        self.query_one("#sw-neighbours", Static).update(self._neighbours_text(view))
        self.query_one("#sw-city", Static).update(self._city_text(view))
        self._draw_hand(view, new_step)
        self._draw_card_info()

    def status_text(self, view: View) -> str:
        parts = [self.table.game.name]
        if view.phase == OVER:
            parts.append("game over")
        else:
            parts.append(f"Age {AGE_NAMES[view.age]} · turn {view.turn}/6")
            if view.phase == BABYLON:
                parts.append("Babylon's last card")
            elif view.phase == HALIKARNASSOS:
                parts.append("Halikarnassos")
            else:
                parts.append("hands pass left" if view.pass_left else "hands pass right")
        parts.append(f"discards {view.discard_count}")
        who = f"you: {self.player_name(view.seat)}" if view.seat is not None else "watching"
        return " · ".join(parts) + f" · {who}"

    def scoreboard(self, view: View):
        rows = []
        me = view.seat
        n = view.n_players
        for seat, name in enumerate(self.table.names):
            if seat == me:
                mark = "•"
            elif me is not None and seat == (me + 1) % n:
                mark = "◀"
            elif me is not None and seat == (me - 1) % n:
                mark = "▶"
            else:
                mark = " "
            rows.append([f"{mark}{name}", str(view.coins[seat]), str(shields(view, seat)),
                         str(view.stages[seat]), f"{sum(view.tokens[seat]):+d}"])
        return ["Player", "¢", "⚔", "W", "±"], rows, [me] if me is not None else []

    def waiting_text(self, awaiting: frozenset[int]) -> str:
        """Who has picked during a pick; whose power is played otherwise."""
        view = self.view
        if view is None or self.table.is_over() or view.phase != PICK:
            text = super().waiting_text(awaiting)
            if view is not None and text and view.phase in (BABYLON, HALIKARNASSOS) and not self.my_turn:
                text += " (Babylon's last card)" if view.phase == BABYLON else " (Halikarnassos)"
            return text
        picked = [self.player_name(s) for s in sorted(self.table.active() - awaiting) if s != self.seat]
        others = [self.player_name(s) for s in sorted(awaiting) if s != self.seat]
        done = f"picked: {', '.join(picked)}" if picked else "nobody has picked yet"
        if self.my_turn:
            return f"Your pick · {done}"
        if not others:
            return ""
        offline = self.table.offline()
        waiting = [self.player_name(s) + (" (offline)" if s in offline else "") for s in sorted(awaiting) if s != self.seat]
        if self.seat is not None and self.seat not in awaiting:
            picked = ["you", *picked]
        line = f"waiting for: {', '.join(waiting)}"
        if picked:
            line += f" · picked: {', '.join(picked[:-1]) + ' and ' if len(picked) > 1 else ''}{picked[-1]}"
        if self.table.supports.timed_waits:  # network tables have a clock
            seconds = int(self.table.waiting_for()[1])
            line += f" · {seconds} s" if seconds >= 3 else ""
        return line

    # ---- the neighbours and the city -----------------------------------------------------------

    def on_pick_list_moved(self, message: PickList.Moved) -> None:
        if message.pick_list.id == "sw-hand":
            self._draw_card_info()

    # ---- actions -------------------------------------------------------------------------------
    def _highlighted_card(self) -> str | None:
        if self.card is not None:
            return self.card
        key = self.query_one("#sw-hand", PickList).highlighted
        return key if isinstance(key, str) else None

    def action_choose(self) -> None:
        if self.rebuilding:
            card = self.query_one("#sw-hand", PickList).highlighted
            if isinstance(card, str):
                self._send(BuildFromDiscard(card), f"build {CARDS[card].name} from the discard pile")
            return
        if not self.picking:
            return
        if self.card is None:
            card = self._highlighted_card()
            if card is not None:
                self.card = card
                self.refresh_table()
            return
        row = self.query_one("#sw-choices", PickList).highlighted_row
        if row is None:
            return
        if not row.enabled or not isinstance(row.key, Pick):
            self.show_message("That way of playing the card is not possible now.", error=True)
            return
        self._send(row.key, self._pick_words(row.key))

    def action_quick(self, kind: str) -> None:
        """b / s / d / f: play the highlighted card that way; with several payments, list them."""
        if not self.picking:
            return
        card = self._highlighted_card()
        if card is None:
            return
        ways = [a for a in self.legal if isinstance(a, Pick) and a.card == card and a.kind == kind]
        if len(ways) == 1:
            self._send(ways[0], self._pick_words(ways[0]))
            return
        if ways:
            self.card = card
            self.refresh_table()
            choices = self.query_one("#sw-choices", PickList)
            keys = [r.key for r in choices.rows]
            choices.action_jump(keys.index(ways[0]))
            self.show_message(f"{len(ways)} ways to pay: choose one and press Enter.")
            return
        name = CARDS[card].name
        what = {BUILD: f"build {name}", STAGE: f"build a stage with {name}", DISCARD: f"discard {name}",
                BUILD_FREE: f"build {name} free"}[kind]
        self.show_message(f"You cannot {what}: {self._why_not(card, kind)}.", error=True)

    def _why_not(self, card_id: str, kind: str) -> str:
        view = self.view
        if kind == STAGE:
            board = BOARDS[(view.wonders[view.seat], view.sides[view.seat])]
            if view.stages[view.seat] >= len(board.stages):
                return "every stage of your wonder is built"
            stage = board.stages[view.stages[view.seat]]
            return f"stage {view.stages[view.seat] + 1} needs {cost_words(stage.coin_cost, stage.cost)}"
        option = self._options().get(card_id)
        if kind == BUILD_FREE and not (option is not None and option.build == "owned"):
            return "Olympia's free build is not available"
        return {"owned": "it is already in your city",
                "too_expensive": f"you may spend only {view.budget} coins",
                "impossible": "its resources cannot be made or bought"}.get(option.build if option else "", "not now")

    def _pick_words(self, action: Pick) -> str:
        name = CARDS[action.card].name
        pay = ""
        if action.pay_left or action.pay_right:
            pay = f", paying {action.pay_left} left and {action.pay_right} right"
        return {BUILD: f"build {name}{pay}", BUILD_FREE: f"build {name} free",
                STAGE: f"wonder stage with {name}{pay}", DISCARD: f"discard {name}"}[action.kind]

    def _send(self, action: Any, words: str) -> None:
        self.sent = words
        self.card = None
        self.submit(action)
        if self.is_attached:
            self.refresh_table()

    def action_back(self) -> None:
        if self.card is not None:
            card = self.card
            self.card = None
            self.show_message("")
            self.refresh_table()
            hand = self.query_one("#sw-hand", PickList)
            keys = [r.key for r in hand.rows]
            if card in keys:
                hand.action_jump(keys.index(card))

    def action_decline(self) -> None:
        if self.rebuilding:
            self._send(Decline(), "build nothing from the discard pile")

    def action_cities(self) -> None:
        if self.view is not None:
            self.app.push_screen(CitiesScreen(self.table.names, self.view))

    # ---- the end -------------------------------------------------------------------------------
    def show_end(self) -> None:
        """The seven-category table, plus the wildcards the scoring chose and Olympia's copy."""
        self.app.push_screen(SevenWondersEndScreen(self.table.game.name, self.table.names, self.table.result(),
                                                   self.table.view(None), self.table))
