"""Ten's decision panel: what this seat may do now as a prompt and PickList rows."""

from __future__ import annotations

from rich.text import Text
from textual.widgets import Static

from engine.ten.cards import NUMBER_VALUE, card_name
from engine.ten.state import (
    AUCTION,
    BUY,
    CHOOSE,
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
    Paying,
    Prospects,
    Skip,
    View,
)
from engine.ten.view import paying

from ...widgets import PickList, PickRow
from ...widgets.flow import Fit, Flow, Lines
from ..base import Legal
from .text import (
    BUYING_PHASES,
    card_text,
    payment_parts,
    plural,
    points,
)

NOT_BUYABLE = {"held": "you hold one", "price": "too dear"}
NOTHING = Prospects(0, 0, 0, None, (), ())
"""What a view carries for a seat that does not act: nothing to price."""


class DecisionPanels:
    """TenScreen's decision panel (a mixin: reads the screen's view, bid and marks). What each
    choice would give comes priced from the engine (`View.prospects`): no rule is worked out here."""

    @property
    def prospects(self) -> Prospects:
        view = self.view
        return view.prospects if view is not None and view.prospects is not None else NOTHING

    def _paying(self) -> Paying | None:
        """What is being paid for now, every way to pay priced by the engine: the wild (pay,
        solo wild: in the view) or the market card picked; with the cards marked where they fit."""
        me, priced = self.me, self.prospects.paying
        if self.view is not None and self.view.phase in BUYING_PHASES:
            offer = next((p for p in self.prospects.purchases if p.card == self.buy_card), None)
            if offer is None or me is None:
                return None
            return paying(me, offer.card, offer.price, tuple(self.marked))
        if priced is not None and self.marked and me is not None:
            return paying(me, priced.card, priced.price, tuple(self.marked))
        return priced

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
            rows = self._payment_rows(self._paying(), legal, lambda p: Pay(p))
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
        numbers = [c for c in view.tableau if c in NUMBER_VALUE]
        if view.phase == DRAW:
            text = Text("Your turn: draw the first card.", style="bold")
        else:
            text = Text("Draw again, or stop and claim.", style="bold")
        gain, takes = self.prospects.claim_gain, self.prospects.currency_takes
        others = view.n_players > 1 and view.currency_sum
        draw = Text.assemble(("d ", "bold"), "Draw" + (" again" if view.phase == CHOOSE else ""))
        if view.deck_size:
            draw.append(f"  ({view.bust_cards} of {view.deck_size} cards bust you)", style="dim")
        else:
            draw.append("  (the deck is empty)", style="dim")
        claim = Text.assemble(("n ", "bold"), f"Claim numbers: {points(gain, sign=True)}")
        claim.append(f", others +{view.currency_sum} tokens" if others else "", style="yellow")
        claim.append(", then buy", style="dim")
        currency = Text.assemble(("c ", "bold"), f"Claim currency: +{plural(takes, 'token')}")
        if numbers:
            currency.append(f", {len(numbers)} number{'s' * (len(numbers) != 1)} to market", style="dim")
        rows = [
            PickRow(("act", Draw()), draw, Draw() in legal),
            PickRow(("act", ClaimNumbers()), claim, ClaimNumbers() in legal),
            PickRow(("act", ClaimCurrency()), currency, ClaimCurrency() in legal),
        ]
        return text, [row for row in rows if row.enabled]  # only what is legal now

    def _lowest_bid(self, view: View) -> int:
        return max(1, view.auction.high_bid + 1) if view.auction is not None else 1

    def _auction_panel(self, view: View, legal: Legal, mine: bool) -> tuple[Lines, list[PickRow]]:
        auction = view.auction
        # Lines wrapped between parts, never inside one (the prompt has four at most)
        head = Text.assemble(("Auction ", "bold"), card_text(auction.wild))
        high = (Text(f"high bid {auction.high_bid} ({self.player_name(auction.high_bidder)})", style="bold")
                if auction.high_bidder >= 0 else Text("no bid yet", style="dim"))
        line = Flow((Text(f"drawn by {self.player_name(view.turn)}"), high), " · ", head.append(" "))
        said = [Text(f"{self.player_name(s)} {amount or 'pass'}", style="dim") for s, amount in auction.bids]
        later = [self.player_name(s) for s in auction.bidders] if not mine else []
        if later:
            said.append(Text(f"to bid: {', '.join(later)}", style="italic"))
        lines: list[Text | Flow] = [line]
        if said:
            lines.append(Flow(tuple(said), ", ", Text("Bids: ", style="dim")))
        if not mine:
            return Lines(tuple(lines)), []
        me = self.me
        low = self._lowest_bid(view)
        self.bid_amount = max(low, min(self.bid_amount, me.power))
        gain = self.prospects.wild_gain
        lines.append(Text(f"The wild gives you {points(gain, sign=True)} · your power {me.power}", style="italic"))
        text = Lines(tuple(lines))
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
        gain = self.prospects.wild_gain
        text = Text("You drew ", style="bold")
        text.append_text(card_text(wild))
        text.append(f" ({points(gain, sign=True)} if kept): keep it for {view.price}, or discard it (x).", style="bold")
        rows = self._payment_rows(self._paying(), legal, lambda p: BuyWild(p))
        discard = Text.assemble(("x ", "bold"), "Discard the wild")
        index = next((i for i, row in enumerate(rows) if row.key[0] == "none"), len(rows))
        rows.insert(index, PickRow(("act", DiscardWild()), discard, DiscardWild() in legal))
        return text, rows

    def _buy_panel(self, view: View, legal: Legal) -> tuple[Text | Lines, list[PickRow]]:
        me = self.me
        priced = self._paying() if self.buy_card is not None else None
        if priced is not None:
            card = priced.card
            text = Text("Buy ", style="bold")
            text.append_text(card_text(card))
            text.append(f" for {priced.price}: choose how to pay (b: back).", style="bold")
            return text, self._payment_rows(priced, legal, lambda p: Buy(card, p))
        self.buy_card = None
        text = Text("Final buy: " if view.phase == FINAL_BUY else "Buy phase: ", style="bold")
        if view.market:
            text.append(f"one market card, price = its number · power {me.power}")
        else:
            text.append("the market is empty: s to go on.")
        rows = [PickRow(("act", Skip()), Text.assemble(("s ", "bold"), "Skip: buy nothing"), Skip() in legal)]
        # Only what can be bought is offered, best score after paying first (the engine's
        # order); the rest is named once, with the reason.
        for offer in self.prospects.purchases:
            line = Text.assemble(card_text(offer.card), f"  price {offer.price}  ")
            line.append(points(offer.gain, sign=True), style="bold green" if offer.gain > 0 else "dim")
            best = offer.best.score_after if offer.best is not None else me.score
            line.append(f"  → {points(best)} after paying", style="bold" if best > me.score else "dim")
            rows.append(PickRow(("market", offer.card), line))
        blocked = self._not_buyable()
        if blocked:
            return Lines((text, Fit(Text("Not for you: ", style="dim"), blocked))), rows
        return text, rows

    def _not_buyable(self) -> tuple[Text, ...]:
        """"orange 8, green 6 (too dear), red 4 (you hold one)": a reason once per group."""
        items = []
        for why in NOT_BUYABLE:
            cards = [card for card, reason in self.prospects.not_buyable if reason == why]
            items += [Text(card_name(card), style="dim") for card in cards]
            if cards:
                items[-1].append(f" ({NOT_BUYABLE[why]})")
        return tuple(items)

    def _payment_rows(self, priced: Paying | None, legal: Legal, make) -> list[PickRow]:
        me = self.me
        rows = []
        for option in priced.payments if priced is not None else ():
            action = make(option.payment)
            head = Text(f"→{points(option.score_after):>7}  ", style="bold")
            if option.overpaid:
                head.append(f"({option.overpaid} lost) ", style="dim")
            # at 80 columns a long payment ends in "+ 2 more" (mark cards to see the ones you give)
            parts = tuple(Text(part) for part in payment_parts(option.payment)) or (Text("nothing"),)
            if action in legal:
                rows.append(PickRow(("pay", action), Fit(head, parts, " + ")))
        if me.collection:
            rows.append(PickRow(("none",), Text("cards you could give (space marks):", style="dim italic"), False))
            for card, loss in priced.card_losses if priced is not None else ():
                mark = "[x]" if card in self.marked else "[ ]"
                line = Text.assemble((f"{mark} ", "bold green" if card in self.marked else "dim"), card_text(card))
                line.append(f"  -{loss} pt" if loss else "  scores nothing now", style="dim")
                rows.append(PickRow(("mark", card), line))
        return rows
