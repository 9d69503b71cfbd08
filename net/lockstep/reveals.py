"""Hidden cards over the network, the reveals of a running dealt game (a part of `Dealing`,
dealing.py): the **show** after every change of the state, the **open** before a step of the
tokens it reads that nobody proved, and a card that opens to no card (the deal is broken).

Every seat's key for each token the whole table may now see is published; a token one seat
alone may see gets every other seat's key in a box sealed to that seat. The table waits for
every seat's message; a key that fails its commitment convicts its sender (the message is the
proof). What the steps must do next is returned as events (deck_events.py).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from engine.core.hidden import is_token, parse_token, token, tokens_in

from ..codec import Envelope
from ..deck import Cheat, DeckError, UnknownCard
from ..deck.group import box_secret
from .context import restates
from .deck_events import Broken, Release, Reply, Revealed
from .outputs import Keep, Note, Publish


@dataclass
class Reveal:
    """A show (after a change) or an open (before a step) in progress."""

    kind: str  # "deck_show" or "deck_open" (for the step in progress)
    public: tuple[str, ...]  # tokens for everyone
    private: dict[int, tuple[str, ...]]  # seat -> tokens for that seat alone
    senders: frozenset[int]
    got: dict[int, Envelope] = field(default_factory=dict)
    keys: dict[str, dict[int, bytes]] = field(default_factory=dict)  # public token -> seat -> key


class Reveals:
    """Methods of `Dealing` (it inherits them): they read and write its attributes."""

    # ---- what a change of the state shows ------------------------------------------------
    def after_change(self, state: Any) -> list[Reply]:
        """Deal a deck the rules just shuffled, else start the show the new state needs."""
        if self.broken is not None:  # nothing is dealt or shown any more: the audit decides
            return []
        new = sorted({parse_token(t)[0] for t in tokens_in(state)} - set(self.tables) - set(self.pools)
                     ) if self.reshuffles else ()
        if new:
            return self._deal_mid_game(state, new)
        public = tuple(sorted(t for t in self.ctx.game.seen(state, None) if is_token(t)))
        private: dict[int, tuple[str, ...]] = {}
        for seat in range(len(self.ctx.keys)):
            tokens = {t for t in self.ctx.game.seen(state, seat) if is_token(t)}
            tokens -= self.granted[seat] | set(public)
            if tokens:
                private[seat] = tuple(sorted(tokens))
        return self._start("deck_show", public, private)

    def before_apply(self, tokens: Iterable[str]) -> list[Reply]:
        """Open the tokens a step reads that nobody proved (every seat's key, published)."""
        return self._start("deck_open", tuple(sorted(tokens)), {})

    def _start(self, kind: str, public: tuple[str, ...], private: dict[int, tuple[str, ...]]) -> list[Reply]:
        if not public and not private:
            return []
        n = len(self.ctx.keys)
        senders = frozenset(range(n)) if public else frozenset(
            s for s in range(n) if any(r != s for r in private))
        self.reveal = Reveal(kind, public, private, senders)
        # keys of this reveal that came before this peer reached it are routed after ours
        return [*self._send_mine(), Release(self.ctx.step, then_wait=True)]

    def _send_mine(self) -> list[Reply]:
        """Our keys for the show or open in progress, for each seat whose keys we hold."""
        out: list[Reply] = []
        for seat in self.own_seats():
            r = self.reveal
            if r is None or seat not in r.senders or seat in r.got or self.ctx.replaying:
                continue
            out += self._send_for(seat, r)
        return out

    def _send_for(self, seat: int, r: Reveal) -> list[Reply]:
        ctx, keys = self.ctx, self.keys_of(seat)
        opened = []
        for t in r.public:
            label, pos = parse_token(t)
            opened.append([label, pos, keys[label].public_key(pos)["key"]])
        boxes = []
        for to, tokens in sorted(r.private.items()):
            if to == seat:
                continue
            receiver = ctx.signers.get(to, ctx.keys[to])  # a handed seat's keys go to its holder
            for label, positions in _by_deck(tokens).items():
                body = keys[label].send_keys(positions, to, receiver)
                boxes.append([to, label, list(positions), body["box"]])
        body: dict[str, Any] = {"open": opened}
        if r.kind == "deck_show":
            body["boxes"] = boxes
        env = ctx.sign(r.kind, body, seat=seat)
        return [Publish("log", env.raw)] + self.on_message(env)

    def _on_reveal(self, env: Envelope) -> list[Reply]:
        r = self.reveal
        if r is None or env.kind != r.kind or env.seat not in r.senders:
            return self.ctx.drop(env, f"seat {env.seat} sent {env.kind} when none is due from it")
        if env.seat in r.got:
            return [] if restates(r.got[env.seat], env) else self.ctx.drop(
                env, f"seat {env.seat} sent two different {env.kind} (equivocation)", loud=True)
        try:
            keys = self._check_public(env, r)
            received = self._check_boxes(env, r)
        except Cheat as cheat:
            return self._convict(env, cheat)
        for t, key in keys.items():
            r.keys.setdefault(t, {})[env.seat] = key
        out: list[Reply] = []
        for to, label, sender_body in received:
            try:
                self.keys_of(to)[label].receive_keys(self.tables[label], env.seat, sender_body, self._box_key())
            except DeckError as exc:  # only we can open the box: we ask for those keys in clear
                out += self.ctx.drop(env, f"its keys for seat {to}'s cards do not open ({exc}): "
                                          "asking for them in clear", loud=True)
                self.unopened.setdefault(to, []).extend(
                    (env.seat, label, pos) for pos in sender_body["pos"])
        r.got[env.seat] = env
        self.ctx.accept(self.ctx.step, env)
        out.append(Keep(env.raw))
        if set(r.got) < r.senders:
            return out + self.ctx.waiting()
        return out + self._finish(r)

    def _check_public(self, env: Envelope, r: Reveal) -> dict[str, bytes]:
        opened = env.body["open"]
        if sorted(token(label, pos) for label, pos, _ in opened) != list(r.public):
            raise Cheat(env.seat, "wrong_reveal", "its keys are not for the cards the table turns over")
        out = {}
        for label, pos, key in opened:
            out[token(label, pos)] = self.tables[label].check_key(env.seat, pos, key)
        return out

    def _check_boxes(self, env: Envelope, r: Reveal) -> list[tuple[str, dict[str, Any]]]:
        """The boxes a show must carry (one per receiver and deck); ours to open."""
        boxes = env.body.get("boxes", [])
        want = sorted((to, label, list(pos)) for to, tokens in r.private.items() if to != env.seat
                      for label, pos in _by_deck(tokens).items())
        if sorted((to, label, list(pos)) for to, label, pos, _ in boxes) != want:
            raise Cheat(env.seat, "wrong_reveal", "its boxes are not for the cards the table deals")
        own = self.own_seats()
        return [(to, label, {"deck": label, "to": to, "pos": list(pos), "box": box})
                for to, label, pos, box in boxes if to in own and label in self.keys_of(to)]

    def _box_key(self):
        assert self.ctx.me is not None
        return box_secret(bytes(self.ctx.me.signing_key))

    def _finish(self, r: Reveal) -> list[Reply]:
        """Every seat's keys are in: write the faces in, then go on where the table stopped."""
        faces = {}
        try:
            for t in r.public:
                label, pos = parse_token(t)
                table = self.tables[label]
                slot = table.unmask(pos, [r.keys[t][s] for s in range(len(self.ctx.keys))])
                faces[t] = table.card(slot)
            mine = self._open_mine(r)
        except DeckError as exc:  # every key checked out, yet no card: a pass cheated
            return self.break_deal(str(exc))
        for seat, tokens in r.private.items():
            self.granted[seat].update(tokens)
        for seat, seat_faces in mine.items():
            self.add_faces(seat, seat_faces)
        self.shown.update(faces)
        step = self.ctx.step
        self.learnt += [(step, t) for t in sorted(faces)] + [(step, t) for t in sorted(mine.get(self.ctx.my_seat, {}))]
        self.reveal = None
        asks: list[Reply] = []
        for seat in sorted(self.unopened):  # one ask per seat of ours, once the show is done
            asks += self._ask(seat, self.unopened.pop(seat))
        return [*asks, *self._report_unknown(), Revealed(r.kind, faces)]

    def _open_mine(self, r: Reveal) -> dict[int, dict[str, Any]]:
        """Faces shown to the seats whose keys we hold (ours, and any handed to us)."""
        out: dict[int, dict[str, Any]] = {}
        for seat in self.own_seats():
            out[seat] = self._open_for(seat, r.private.get(seat, ()))
        return out

    def _open_for(self, seat: int, tokens: Iterable[str]) -> dict[str, Any]:
        keys, out = self.keys_of(seat), {}
        for t in tokens:
            label, pos = parse_token(t)
            if label not in keys:  # watching with a seated key: it holds no deck keys
                continue
            try:
                slot = keys[label].card_at(self.tables[label], pos)
            except UnknownCard:  # a card only we see is broken: we prove it to all (below)
                self.unknown.setdefault(seat, []).append(t)
                continue
            if slot is not None:
                out[t] = self.tables[label].card(slot)
        return out

    def _report_unknown(self) -> list[Reply]:
        """Cards of ours that open to no card: every key of each, published (a card that is no
        card tells nothing), so every peer sees the deal is broken, at this step."""
        out: list[Reply] = []
        for seat, tokens in sorted(self.unknown.items()):
            cards = []
            for t in tokens:
                label, pos = parse_token(t)
                keys = self.keys_of(seat)[label].keys_for(pos)
                if keys is not None:
                    cards.append([label, pos, list(keys)])
            if cards and not self.ctx.replaying:
                env = self.ctx.sign("deck_broken", {"cards": cards}, seat=seat)
                out += [Publish("log", env.raw)] + self.on_message(env)
        self.unknown.clear()
        return out

    def _on_broken(self, env: Envelope) -> list[Reply]:
        """A seat proves that a card of its own opens to no card: if every key it publishes
        passes its commitment and the card is none of the deck's, the deal is broken for all."""
        if self.broken is not None:
            return []
        why = None
        for label, pos, keys in env.body["cards"]:
            table = self.tables.get(label)
            if table is None:
                continue
            try:
                table.check_proof(env.seat, {"deck": label, "pos": pos, "keys": list(keys)})
            except Cheat as cheat:
                return self._convict(env, cheat)
            except UnknownCard as exc:
                why = f"seat {env.seat}'s card {token(label, pos)}: {exc}"
                break
            except DeckError:
                continue
        if why is None:
            return self.ctx.drop(env, f"seat {env.seat}'s cards open to real cards: the deal is not broken")
        self.ctx.accept(self.ctx.step, env)
        # the steps go back to its step if we went on while its peer stopped, then `break_deal`
        return [Keep(env.raw), Broken(env.step, why)]

    def break_deal(self, why: str) -> list[Reply]:
        """A card that opens to no card of its deck: the game cannot go on. The audit (every
        seat's secrets, published now) names the seat whose pass did not use its keys, and the
        table votes on it (a seat that sends no audit is late, as for any wait)."""
        self.broken = f"the deal is broken: {why}"
        out: list[Reply] = [Note("error", f"{self.broken}; the audit names who cheated, then the table votes")]
        return out + self.begin_audit() + self.ctx.waiting()


def _by_deck(tokens: Iterable[str]) -> dict[str, tuple[int, ...]]:
    out: dict[str, list[int]] = {}
    for t in sorted(tokens, key=parse_token):
        label, pos = parse_token(t)
        out.setdefault(label, []).append(pos)
    return {label: tuple(p) for label, p in out.items()}
