"""The deck protocol's care of a table: the end audit, keys asked for in clear, a seat handed
over, and what a restarted peer sends again (a part of `Dealing`, dealing.py).

Kept apart from the deal and the reveals that every step goes through; these run when a game
ends, when something went wrong, or when a peer comes back.
"""

from __future__ import annotations

from typing import Any

import msgpack

from engine.core.hidden import is_token, parse_token, token

from ..codec import Envelope
from ..deck import Cheat, DeckSeat, audit
from ..deck.group import open_keys, seal_keys
from .deck_events import Convict, KeysIn, Reply, Verified
from .outputs import Keep, Note, Publish

MAX_ASKS = 256  # asks and answers acted on in one game (a seat asks once per show at most)
DEAL_KINDS = frozenset({"deck_own", "deck_mask", "deck_shuffle", "deck_lock"})


class DeckCare:
    """Methods of `Dealing` (it inherits them): they read and write its attributes."""

    # ---- the audit ---------------------------------------------------------------------
    def begin_audit(self, away: tuple[int, ...] = ()) -> list[Reply]:
        """Publish our secrets of every deck; the verdict comes once every seat's are in (or
        the deadline passed). `away`: seats the table ended the game without, which may never
        send theirs."""
        ctx = self.ctx
        self.away = tuple(sorted(set(self.away) | set(away)))
        if self.audit_since is None:
            self.audit_since = ctx.clock()
        if not self.on or ctx.replaying:
            return self._verdict()
        out: list[Reply] = []
        for seat in self.own_seats():
            if seat in self.audits:
                continue
            keys = self.keys_of(seat)
            labels = sorted(keys)
            body = {"decks": labels, "secrets": [keys[label].audit() for label in labels]}
            for secret in body["secrets"]:
                secret.pop("deck", None)
            env = ctx.sign("deck_audit", body, seat=seat)
            out += [Publish("log", env.raw)] + self.on_message(env)
        return out or self._verdict()

    def _on_audit(self, env: Envelope) -> list[Reply]:
        if env.seat in self.audits:
            return []
        self.audits[env.seat] = env
        self.ctx.accept(self.ctx.step, env)
        return [Keep(env.raw)] + self._verdict()

    def audit_overdue(self, seconds: float) -> list[Reply]:
        """The audit has waited `seconds` for some seat: judge with what came (a seat that
        published no audit is named for it; the game's result stands)."""
        if (not self.on or self.verdict is not None or self.audit_since is None
                or self.ctx.clock() - self.audit_since < seconds):
            return []
        return self._verdict(final=True)

    def _verdict(self, final: bool = False) -> list[Reply]:
        # the seats the table ended the game without are not waited for, and what they may
        # still send is not used: every peer judges the same secrets, whenever theirs come
        if self.verdict is not None or self._audits_missing() and not final:
            return []
        accused: dict[int, str] = {}
        orders: dict[str, tuple[Any, ...]] = {}
        for label, table in self.tables.items():  # as dealt: an owned deck after its cards' decks
            if table.phase != "ready":  # the game ended while this deck was being dealt
                continue
            bodies = {}
            for seat, env in self.audits.items():
                if seat in self.away:
                    continue
                labels = list(env.body["decks"])
                if label in labels:
                    bodies[seat] = {"deck": label, **env.body["secrets"][labels.index(label)]}
            held = None
            if table.spec.owner is not None:
                held = self._held_by_orders(label, orders)
                if held is None:  # a deck it came from did not verify: its seat is named
                    continue
            result = audit(table, bodies, held)
            if result.order is not None:
                orders[label] = tuple(table.card(slot) for slot in result.order)
            if result.pool_order is not None:  # the pool deck, as the pool pass left it
                pool = next(p for p, deck in self.pools.items() if deck == label)
                orders[pool] = tuple(table.spec.pool[i] for i in result.pool_order)
            for accusation in result.accused:
                if accusation.code != "no_audit":
                    accused[accusation.seat] = f"cheated (deck {label}: {accusation.reason})"
                elif accusation.seat not in accused:
                    accused[accusation.seat] = "published no audit: the deal is not verified"
        left = sorted(s for s in accused if s in self.away and accused[s].startswith("published no audit"))
        self.accused = tuple(sorted(s for s in accused if s not in left))
        # verified: the log gets the decks as dealt before anyone reads the verdict
        out: list[Reply] = [] if accused else [Verified(orders)]
        names = self.ctx.display_names()
        name = lambda s: names[s] if s < len(names) else f"seat {s}"  # noqa: E731
        if not accused:
            self.verdict = "verified"
        else:  # a seat the table ended the game without is not accused of anything: it left
            said = [f"{name(s)} {why}" for s, why in sorted(accused.items()) if s not in left]
            if left:
                said.append(f"not verified: {', '.join(map(name, left))} left before revealing")
            self.verdict = "; ".join(said)
        out.append(Note("audit", f"the deal is {self.verdict}" if not accused else self.verdict,
                        {"verified": not accused, "accused": list(self.accused)}))
        for seat, why in sorted(accused.items()):  # a cheat the audit proved: the table may vote
            if not why.startswith("published no audit") and seat in self.audits:
                out.append(Convict(seat, "audit", self.audits[seat].raw, self.ctx.step))
        return out

    def _held_by_orders(self, label: str, orders: dict[str, tuple[Any, ...]]) -> list[Any] | None:
        """The faces of the cards the owner of deck `label` held, from the audited orders."""
        faces = []
        for card in self.held[label]:
            if not is_token(card):
                faces.append(card)
                continue
            deck, pos = parse_token(card)
            if deck not in orders:
                return None
            faces.append(orders[deck][pos])
        return faces

    # ---- keys that did not open: asked for in clear ------------------------------------
    # Only the receiver can open its box, so its word that a box is bad convicts nobody.
    # It asks the sender to publish those keys in clear instead (one seat's key for a position
    # tells nothing by itself); every peer checks them against their commitments. The table
    # waits for the answer like any other message, with the same deadline and vote.
    def _ask(self, seat: int, entries: list[tuple[int, str, int]]) -> list[Reply]:
        body = {"from": [[s, label, pos] for s, label, pos in sorted(set(entries))]}
        env = self.ctx.sign("deck_ask", body, seat=seat)
        return [Publish("log", env.raw)] + self.on_message(env)

    def _on_ask(self, env: Envelope) -> list[Reply]:
        ctx, asker = self.ctx, env.seat
        entries = {(s, label, pos) for s, label, pos in env.body["from"]}
        mine = self.granted.get(asker, set()) | set(self.reveal.private.get(asker, ()) if self.reveal else ())
        if not entries or any(s == asker or not 0 <= s < len(ctx.keys) or label not in self.tables
                              or token(label, pos) not in mine for s, label, pos in entries):
            return ctx.drop(env, f"seat {asker} asks for keys of cards it was not dealt")
        self.asks.setdefault(asker, set()).update(entries)
        ctx.accept(ctx.step, env)
        out: list[Reply] = [Keep(env.raw)] + ctx.waiting()
        for sender in sorted({s for s, _, _ in entries} & set(self.own_seats())):
            keys = self.keys_of(sender)
            opened = [[label, pos, keys[label].public_key(pos)["key"]]
                      for s, label, pos in sorted(entries) if s == sender and label in keys]
            give = ctx.sign("deck_give", {"to": asker, "open": opened}, seat=sender)
            out += [Publish("log", give.raw)] + self.on_message(give)
        return out

    def _on_give(self, env: Envelope) -> list[Reply]:
        ctx, to, sender = self.ctx, env.body["to"], env.seat
        wanted = {(s, label, pos) for s, label, pos in self.asks.get(to, set()) if s == sender}
        given = {(sender, label, pos) for label, pos, _ in env.body["open"]}
        if not wanted or given != wanted:
            return ctx.drop(env, f"seat {sender} gives keys nobody asked it for")
        try:
            keys = {(label, pos): self.tables[label].check_key(sender, pos, key) for label, pos, key in env.body["open"]}
        except Cheat as cheat:
            return self._convict(env, cheat)
        self.asks[to] -= wanted
        ctx.accept(ctx.step, env)
        out: list[Reply] = [Keep(env.raw)]
        if to in self.own_seats():
            held = self.keys_of(to)
            for (label, pos), key in keys.items():
                held[label].received.setdefault(pos, {})[sender] = key
            self.add_faces(to, self._open_for(to, [token(label, pos) for label, pos in keys]))
            out += self._report_unknown()
        if any(self.asks.values()):
            return out + ctx.waiting()
        return [*out, KeysIn()]

    # ---- a seat handed to another terminal (section 12) ---------------------------------
    def hand_over(self, seat: int, to: int) -> list[Reply]:
        """We leave `seat` to seat `to`'s terminal: our deck secrets and the keys we were sent,
        sealed to its key, so it can show cards for the seat and see the seat's hand."""
        keys = self.seats if seat == self.ctx.my_seat else self.keys_of(seat)  # ours: handed already
        if not self.on or not keys:
            return []
        secrets = {label: keys[label].to_plain() for label in sorted(keys)}
        box = seal_keys(msgpack.packb(secrets, use_bin_type=True), self.ctx.keys[to])
        env = self.ctx.sign("deck_handover", {"to": to, "box": box}, seat=seat)
        return [Publish("log", env.raw)] + self.on_message(env)

    def _on_handover(self, env: Envelope) -> list[Reply]:
        ctx = self.ctx
        if any(e.raw == env.raw for e in self.handovers):
            return []
        self.handovers.append(env)
        ctx.accept(ctx.step, env)
        out: list[Reply] = [Keep(env.raw)]
        to, seat = env.body["to"], env.seat
        if to != ctx.my_seat or seat in self.proxied or not 0 <= seat < len(ctx.keys):
            return out
        try:
            secrets = msgpack.unpackb(open_keys(env.body["box"], self._box_key()) or b"", raw=False)
            held = {label: DeckSeat.from_plain(self.tables[label].spec, data) for label, data in secrets.items()}
        except (ValueError, TypeError, KeyError, msgpack.UnpackException) as exc:
            return out + ctx.drop(env, f"the deck keys seat {seat} handed over do not open: {exc}", loud=True)
        self.proxied[seat] = held
        self.add_faces(seat, self._open_for(seat, sorted(self.granted.get(seat, ()))))
        out += self._report_unknown()
        names = ctx.display_names()
        out.append(Note("handover", f"this table holds {names[seat]}'s cards now", {"seat": seat, "to": to}))
        return out + self._my_pass() + self._send_mine() + (
            self.begin_audit() if ctx.phase in ("over", "frozen") else [])

    # ---- resume ------------------------------------------------------------------------
    def own_current(self) -> list[Reply]:
        """After a restart or a reconnect: our pass, keys or audit for what the table waits
        for now, sent again as they were (or made now, if they never left this machine)."""
        ctx, seat = self.ctx, self.ctx.my_seat
        if seat is None or not self.on:
            return []
        if self.dealing:
            raws = [raw for (kind, s, step), raw in ctx.history.items()
                    if s == seat and kind in DEAL_KINDS and step == self.deal_step]
            return [Publish("log", raw) for raw in raws] + self._my_pass()
        if self.reveal is not None:
            got = self.reveal.got
            return [Publish("log", got[s].raw) for s in self.own_seats() if s in got] + self._send_mine()
        out: list[Reply] = [Publish("log", e.raw) for e in self.handovers if e.seat == seat]
        if ctx.phase in ("over", "frozen"):
            mine = self.audits.get(seat)
            return out + ([Publish("log", mine.raw)] if mine is not None else self.begin_audit())
        return out
