"""Hidden cards over the network: the deck protocol (net/deck) inside a running game.

A game with hidden cards (`Game.decks`) is not dealt from the seed. Once the seed is agreed,
every seat in turn shuffles each deck (`deck_shuffle`), then every seat in turn locks it with a
key per position (`deck_lock`); a deck that draws cards of a pool face down (7 Wonders' guilds)
first gets every seat's pool pass (`deck_mask`). The game starts from `Game.setup_dealt`, every
dealt card a token (engine/core/hidden.py). From then on the public state (the one every peer hashes)
learns a face only when the rules show it:

- **show**, after every change of the state (setup, a step): each token the whole table may
  now see (`Game.seen(state, None)`) is opened by every seat's key, published (`deck_show`,
  "open"); each token one seat alone may see (`Game.seen(state, seat)`) gets every other seat's
  key in a box sealed to that seat ("boxes"). The table waits for every seat's `deck_show`.
- **proof**, with an action: a seat that plays cards only it has seen proves their faces with
  every key of their positions (`Shown.proof`); each peer checks the keys against their
  commitments before it validates the action.
- **open**, before a step: tokens the rules read (`Game.needs`) that nobody proved, such as the
  top card a draw turns over, are opened by every seat's key (`deck_open`).
- **audit**, at the end: every seat publishes its secrets (`deck_audit`); every peer replays
  every pass, and the table's result says "verified" or names the seat that cheated.

A deck the rules shuffle during the game (its tokens appear in the state) is dealt the same
way at that step, before the show; a seat's own cards dealt anew (Sheriff's hand before the
bags are loaded, `Game.deck_owner`) get that seat's pass alone (`deck_own`), then the locks.
A signed message that breaks the protocol convicts its seat on every peer that checks it (the
message is the proof), and the table may vote.

This module holds the deal and the actions' proofs; the show and the open are in reveals.py,
the audit, keys asked for in clear, a handover and a resume in deck_care.py. The steps ask
this protocol as a service: what they must do next (the game starts, a reveal is complete, a
seat is convicted ...) comes back as events among the outputs (deck_events.py), never as a
call into the steps.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from engine.core import Game
from engine.core.dealer import private_in_reach
from engine.core.hidden import is_token, mask, masked, parse_token, reveal, token, tokens_in
from engine.core.plain import plain

from ..codec import Envelope
from ..deck import Cheat, DeckError, DeckSeat, DeckSpec, DeckTable
from .buffer import Buffer
from .context import Context
from .deck_care import DEAL_KINDS, MAX_ASKS, DeckCare
from .deck_events import Convict, Dealt, Release, Reply
from .outputs import DECK_KINDS, Keep, Note, Publish, Secret
from .reveals import Reveal, Reveals

SECRET = "deck"  # the entropy this seat's deck secrets are derived from, kept for a resume


@plain("net.Shown")
@dataclass(frozen=True, slots=True)
class Shown:
    """An action as a dealt table sends it: its public form and the proofs of the faces of
    its own cards that the step reads ([deck, position, every seat's key])."""

    action: Any
    proof: tuple[tuple[str, int, tuple[bytes, ...]], ...] = ()


class Dealing(Reveals, DeckCare):
    """What one peer holds of the deck protocol of its game: a service the steps ask, which
    answers with outputs and events (deck_events.py) and never calls into the steps."""

    def __init__(self, ctx: Context, buffer: Buffer) -> None:
        self.ctx = ctx
        self.buffer = buffer  # messages that came before their step or their turn
        self.on = False  # this game is dealt by the protocol
        # False for a seated peer rejoining without its files: keys drawn anew would fail the
        # commitments of the deal the others hold, so it sends none (the table may vote)
        self.may_draw = True
        self.tables: dict[str, DeckTable] = {}
        self.pools: dict[str, str] = {}  # a deck dealt as another's pool -> that deck
        self.held: dict[str, tuple[Any, ...]] = {}  # an owned deck -> the cards its owner held
        self.seats: dict[str, DeckSeat] = {}  # our secrets per deck (a seated peer)
        self.dealing: tuple[str, ...] = ()  # labels whose passes are in progress
        self.deal_step = 0
        # passes that came before their turn (other publishers' messages arrive in any order)
        self.early: dict[tuple[str, int], Envelope] = {}
        self.shown: dict[str, Any] = {}  # token -> face the whole table saw
        self.mine: dict[str, Any] = {}  # token -> face our seat alone was shown
        # seats handed to this peer (section 12): their deck secrets, sealed to us by the
        # leaver, and the faces they were shown
        self.proxied: dict[int, dict[str, DeckSeat]] = {}
        self.proxied_faces: dict[int, dict[str, Any]] = {}
        self.granted: dict[int, set[str]] = {}  # seat -> tokens shown to it alone
        self.reveal: Reveal | None = None
        self.audits: dict[int, Envelope] = {}
        self.handovers: list[Envelope] = []  # `deck_handover` messages (a few at most)
        # keys sent to a seat of ours that did not open: (sender, deck, position), per receiver
        self.unopened: dict[int, list[tuple[int, str, int]]] = {}
        # asks for keys in clear, as every peer holds them: receiver -> open (sender, deck, pos)
        self.asks: dict[int, set[tuple[int, str, int]]] = {}
        self.asked: list[bytes] = []  # raws of asks and gives seen (each is acted on once)
        self.audit_since: float | None = None  # when the audit began here (its deadline)
        self.away: tuple[int, ...] = ()  # seats the table ended the game without (vote.py)
        self.broken: str | None = None  # a card opened to no card: the game waits for the audit
        self.unknown: dict[int, list[str]] = {}  # a seat of ours -> its cards that open to no card
        self.verdict: str | None = None  # "verified" or who cheated, once the audit is done
        self.accused: tuple[int, ...] = ()
        self.learnt: list[tuple[int, str]] = []  # (step, token): when this peer learnt a face
        self._known: tuple[Any, Any, Any] | None = None  # (public state, (seat, faces), its state)
        # only a game whose rules shuffle during the game holds tokens of decks not yet dealt
        self.reshuffles = type(ctx.game).deck_cards is not Game.deck_cards

    # ---- facts -------------------------------------------------------------------------
    def keys_of(self, seat: int | None) -> dict[str, DeckSeat]:
        """Deck secrets this peer holds for `seat` (its own, or one handed to it)."""
        if seat is not None and seat == self.ctx.my_seat and seat not in self.ctx.signers:
            return self.seats
        return self.proxied.get(seat, {}) if seat is not None else {}

    def faces_of(self, seat: int | None) -> dict[str, Any]:
        """Faces `seat` alone was shown, as far as this peer knows them."""
        if seat is not None and seat == self.ctx.my_seat and seat not in self.ctx.signers:
            return self.mine
        return self.proxied_faces.get(seat, {}) if seat is not None else {}

    def add_faces(self, seat: int, faces: Mapping[str, Any]) -> None:
        """Faces shown to `seat` alone, which this peer holds the keys of (its own, or handed)."""
        if self.keys_of(seat) is self.seats:
            self.mine.update(faces)
        else:
            self.proxied_faces.setdefault(seat, {}).update(faces)

    def own_seats(self) -> list[int]:
        """Seats whose deck keys this peer holds and sends."""
        return sorted(s for s in {self.ctx.my_seat, *self.proxied} if s is not None and self.keys_of(s))

    def busy(self) -> bool:
        """True while the table deals or reveals (or a seat waits for keys in clear, or for the
        audit of a broken deal): steps wait."""
        return (bool(self.dealing) or self.reveal is not None or any(self.asks.values())
                or self.broken is not None)

    def showing(self) -> bool:
        """True while cards of the last change are on their way: a deck being dealt during the
        game, a show in progress, keys asked for in clear (not an open before a step: the
        state has not changed yet)."""
        return self.busy() and (self.reveal is None or self.reveal.kind == "deck_show")

    def awaited(self) -> frozenset[int]:
        if self.broken is not None or self.ctx.phase == "over" and self.on and self.verdict is None:
            return frozenset() if self.verdict is not None else self._audits_missing()
        if self.dealing:
            return frozenset(self._passes_due()[1])
        if self.reveal is not None:
            return self.reveal.senders - set(self.reveal.got)
        if any(self.asks.values()):
            return frozenset(s for entries in self.asks.values() for s, _, _ in entries)
        return frozenset()

    def _audits_missing(self) -> frozenset[int]:
        return frozenset(range(len(self.ctx.keys))) - set(self.audits) - set(self.away)

    def known(self, state: Any, seat: int | None) -> Any:
        """`state` as `seat` knows it on this machine (our seat: with the faces shown to us).

        Kept for the last state asked: a view and the legal actions ask for the same one, and
        writing faces in rebuilds the whole state."""
        faces = self.faces_of(seat)
        if not faces:
            return state
        cached = self._known
        if cached is not None and cached[0] is state and cached[1] == (seat, len(faces)):
            return cached[2]
        mine = reveal(state, faces)
        self._known = (state, (seat, len(faces)), mine)
        return mine

    # ---- the deal ----------------------------------------------------------------------
    def begin(self, decks: Iterable[tuple[str, tuple[Any, ...]]]) -> list[Reply]:
        """The seed is agreed: deal every deck of the game (the game starts once all are)."""
        n_players = len(self.ctx.keys)
        self.on = True
        self.granted = {s: set() for s in range(n_players)}
        try:
            specs = self._specs(decks, n_players)
        except ValueError as exc:  # the game names decks the protocol cannot deal
            return self.ctx.freeze(f"setup failed: {exc}")
        return self._deal(specs)

    def _deal(self, specs: Iterable[DeckSpec], points: Mapping[str, tuple[bytes, ...]] | None = None) -> list[Reply]:
        ctx = self.ctx
        out: list[Reply] = []
        labels = []
        keys = ctx.my_seat is not None and (SECRET in ctx.secrets or self.may_draw)
        if ctx.my_seat is not None and not keys:
            out.append(Note("error", "this terminal lost its deck keys with its data folder: it cannot "
                                     "show cards, and the table may vote to end the game"))
        for spec in specs:
            self.tables[spec.label] = DeckTable.new(spec, (points or {}).get(spec.label))
            labels.append(spec.label)
            if keys:
                self.seats[spec.label] = DeckSeat.create(spec, ctx.my_seat, self._entropy(out))
            for seat, its_decks in self.proxied.items():  # a seat handed to us deals new decks too
                its_decks[spec.label] = DeckSeat.create(spec, seat, self._entropy(out))
        self.dealing = tuple(labels)
        self.deal_step = ctx.step
        out += self._my_pass()
        # passes of this deal that came before this peer reached its step (another seat
        # applied the step first): their turn may be now
        return [*out, Release(ctx.step)]

    def _specs(self, decks: Iterable[tuple[str, tuple[Any, ...]]], n: int) -> list[DeckSpec]:
        """One spec per deck dealt. A deck whose cards end with tokens of another deck's first
        positions (7 Wonders' guild slots) draws that many cards of it face down: the other
        deck is its pool, dealt inside it (`DeckSpec.pool`), never on its own."""
        decks = dict(decks)
        specs = {}
        for label, cards in decks.items():
            slots = [parse_token(c) for c in cards if is_token(c)]
            own = tuple(c for c in cards if not is_token(c))
            if not slots:
                specs.setdefault(label, DeckSpec(self.ctx.gid, label, own, n))
                continue
            pool = slots[0][0]
            if cards[len(own):] != masked(pool, len(slots)) or pool not in decks:
                raise ValueError(f"deck {label!r} must end with the first positions of one other deck")
            self.pools[pool] = label
            specs[label] = DeckSpec(self.ctx.gid, label, own, n, tuple(decks[pool]), len(slots))
        return [spec for label, spec in specs.items() if label not in self.pools]

    def _deal_mid_game(self, state: Any, labels: Iterable[str]) -> list[Reply]:
        """Deal the decks the rules shuffled during the game: a deck of known faces
        (`Game.deck_cards`), or a seat's own cards it deals anew (`Game.deck_owner`), whose
        candidates are every face dealt so far, `drawn` of them its own."""
        game, n, specs, points = self.ctx.game, len(self.ctx.keys), [], {}
        faces = self._faces_of_game()  # the same for every owned deck of this deal
        for label in labels:
            cards = game.deck_cards(state, label)
            if cards is None:
                return self.ctx.freeze(f"the state holds cards of deck {label!r}, which was never dealt")
            owner = game.deck_owner(state, label)
            if owner is None:
                specs.append(DeckSpec(self.ctx.gid, label, tuple(cards), n))
                continue
            self.held[label] = tuple(cards)
            specs.append(DeckSpec(self.ctx.gid, label, tuple(faces), n, drawn=len(cards), owner=owner))
            points[label] = tuple(faces.values())
        return self._deal(specs, points)

    def _faces_of_game(self) -> dict[Any, bytes]:
        """Every face dealt so far, once each, in the order the decks were dealt (the same on
        every peer), with its point in the first deck that held it: what a card of a seat's
        own deck may be."""
        faces: dict[Any, bytes] = {}
        for table in self.tables.values():
            if table.spec.owner is None:
                for face, point in zip(table.spec.candidates, table.points, strict=True):
                    faces.setdefault(face, point)
        return faces

    def _held_faces(self, label: str) -> list[Any] | None:
        """The faces of the cards the owner of deck `label` held, as far as this peer knows."""
        owner, known = self.tables[label].spec.owner, {}
        known.update(self.shown)
        known.update(self.faces_of(owner))
        faces = [known.get(card) if is_token(card) else card for card in self.held[label]]
        return None if any(f is None for f in faces) else faces

    def _entropy(self, out: list[Reply]) -> bytes:
        secret = self.ctx.secrets.get(SECRET)
        if secret is None:
            secret = self.ctx.entropy(32)
            self.ctx.secrets[SECRET] = secret
            out.append(Secret(SECRET, secret))
        return secret

    def _passes_due(self) -> tuple[str, dict[int, tuple[str, ...]]]:
        """(kind, {seat: its decks}) of the passes the deal awaits: the owners' passes of their
        own decks (all at once: they do not depend on each other), then one seat at a time the
        pool pass of the decks with a pool, every deck's shuffle (but an owned deck's), every
        deck's lock."""
        owned: dict[int, tuple[str, ...]] = {}
        for label in self.dealing:
            table = self.tables[label]
            if table.phase == "own":
                owned[table.turn] = owned.get(table.turn, ()) + (label,)
        if owned:
            return "deck_own", owned
        labels = tuple(label for label in self.dealing if self.tables[label].phase == "mask")
        labels = labels or tuple(label for label in self.dealing if self.tables[label].phase == "shuffle")
        labels = labels or self.dealing
        first = self.tables[labels[0]]
        return PASS_KINDS[first.phase], {first.turn: labels}

    def _my_pass(self) -> list[Reply]:
        """Our pass of every deck it is due for, when it is our turn (or a handed seat's)."""
        out: list[Reply] = []
        for seat in self.own_seats():
            if not self.dealing or self.ctx.replaying:
                break
            kind, due = self._passes_due()  # again each time: a pass of ours moves the deal on
            labels = due.get(seat)
            if labels and all(label in self.keys_of(seat) for label in labels):
                out += self._send_pass(kind, seat, labels)
        return out

    def _send_pass(self, kind: str, seat: int, labels: tuple[str, ...]) -> list[Reply]:
        keys = self.keys_of(seat)
        cards, commits = [], []
        for label in labels:
            if kind == "deck_own":
                faces = self._held_faces(label)
                if faces is None:  # cannot happen to an honest owner: it was shown its cards
                    return [Note("error", f"this terminal does not know every card of its deck {label}")]
                body = keys[label].own(self.tables[label], faces)
            else:
                body = getattr(keys[label], PASS_METHOD[kind])(self.tables[label])
            cards.append(body["cards"])
            commits.append(body.get("commits", []))
        body = {"decks": list(labels), "cards": cards}
        if kind == "deck_lock":
            body["commits"] = commits
        env = self.ctx.sign(kind, body, seat=seat)
        return [Publish("log", env.raw)] + self.on_message(env)

    def _on_pass(self, env: Envelope) -> list[Reply]:
        kind, due = self._passes_due()
        if env.kind != kind or env.seat not in due:
            if _pass_rank(env.kind, env.seat) > _pass_rank(kind, min(due)):  # a later turn: keep it
                self.early.setdefault((env.kind, env.seat), env)
            return []
        out = self._accept_pass(env, due[env.seat])
        while self.dealing:  # a pass kept for its turn, if it has come
            kind, due = self._passes_due()
            seat = next((s for s in sorted(due) if (kind, s) in self.early), None)
            if seat is None:
                break
            out += self._accept_pass(self.early.pop((kind, seat)), due[seat])
        return out

    def _accept_pass(self, env: Envelope, labels: tuple[str, ...]) -> list[Reply]:
        body = env.body
        if list(body["decks"]) != list(labels) or len(body["cards"]) != len(labels):
            return self.ctx.drop(env, f"seat {env.seat}'s {env.kind} is not for the decks being dealt")
        tables = dict(self.tables)
        try:
            for i, label in enumerate(labels):
                part = {"deck": label, "cards": body["cards"][i]}
                if env.kind == "deck_lock":
                    part["commits"] = body["commits"][i] if i < len(body["commits"]) else None
                tables[label] = getattr(tables[label], PASS_ACCEPT[env.kind])(env.seat, part)
        except Cheat as cheat:
            return self._convict(env, cheat)
        except DeckError as exc:
            return self.ctx.drop(env, f"seat {env.seat}'s {env.kind}: {exc}")
        self.tables = tables
        self.ctx.accept(self.ctx.step, env)
        out: list[Reply] = [Keep(env.raw)]
        if any(self.tables[label].phase != "ready" for label in self.dealing):
            return out + self._my_pass() + self.ctx.waiting()
        self.dealing = ()
        self.early.clear()
        return [*out, Dealt()]

    # ---- actions that carry their proofs ----------------------------------------------
    def shown_action(self, state: Any, seat: int, action: Any) -> Shown:
        """Our seat's choice as the table applies it: private faces back to tokens, and the
        proof of each of those the step reads."""
        faces = self.faces_of(seat)
        public = mask(action, private_in_reach(self.ctx.game, state, seat, faces, self.shown))
        needed = {t for t in self.ctx.game.needs(state, {seat: public}) if t in faces}
        proof = []
        for t in sorted(needed):
            label, pos = parse_token(t)
            keys = self.keys_of(seat)[label].keys_for(pos)
            if keys is not None:
                proof.append((label, pos, tuple(keys)))
        return Shown(public, tuple(proof))

    def open_action(self, state: Any, seat: int, shown: Any) -> tuple[Any, dict[str, Any]] | str:
        """(the action with its proven faces, those faces), or why it is not acceptable."""
        if type(shown) is not Shown:
            return "a dealt table's action must carry its proofs"
        faces: dict[str, Any] = {}
        for label, pos, keys in shown.proof:
            t = token(label, pos)
            table = self.tables.get(label)
            if table is None or t not in self.granted.get(seat, ()) or t in self.shown:
                return f"seat {seat} proves {t}, a card it was not dealt"
            try:
                _, slot = table.check_proof(seat, {"deck": label, "pos": pos, "keys": list(keys)})
            except DeckError as exc:
                return f"seat {seat}'s proof of {t} fails: {exc}"
            faces[t] = table.card(slot)
        tokens = tokens_in(shown.action)
        if not tokens <= self.granted.get(seat, set()) | set(faces):
            return f"seat {seat} plays cards it was not dealt"
        needed = {t for t in self.ctx.game.needs(state, {seat: shown.action}) if t in self.granted[seat]}
        if not needed <= set(faces):
            return f"seat {seat} plays cards the rules read without proving them"
        return reveal(shown.action, faces), faces

    def learn(self, faces: Mapping[str, Any]) -> None:
        """Faces proved with actions are now public."""
        self.learnt += [(self.ctx.step, t) for t in sorted(faces) if t not in self.shown and t not in self.mine]
        self.shown.update(faces)

    # ---- arrivals ----------------------------------------------------------------------
    def on_message(self, env: Envelope) -> list[Reply]:
        ctx = self.ctx
        if env.kind in ("deck_ask", "deck_give"):  # whenever they come: keyed by content
            if not self.on or env.raw in self.asked or len(self.asked) >= MAX_ASKS:
                return [] if self.on else self.buffer.hold(env)
            self.asked.append(env.raw)
            return self._on_ask(env) if env.kind == "deck_ask" else self._on_give(env)
        if env.kind == "deck_broken":
            if not self.on or env.step > ctx.step:
                return self.buffer.hold(env)
            return self._on_broken(env)
        if env.kind == "deck_handover":
            if not self.on or self.dealing and not self.tables:
                return self.buffer.hold(env)
            return self._on_handover(env)
        if env.kind == "deck_audit":
            if ctx.phase not in ("over", "frozen") and self.broken is None:
                return self.buffer.hold(env) if ctx.phase in ("seed", "play") else []
            return self._on_audit(env)
        if env.step < ctx.step:
            return ctx.stale(env)
        if env.step > ctx.step or not self.on:
            return self.buffer.hold(env)
        if env.key in ctx.history:  # ours coming back, a redelivery, or an equivocation
            return ctx.stale(env)
        if env.kind in DEAL_KINDS:
            return self._on_pass(env) if self.dealing else self.buffer.hold(env)
        return self._on_reveal(env) if self.reveal is not None else self.buffer.hold(env)

    def _convict(self, env: Envelope, cheat: Cheat) -> list[Reply]:
        out = self.ctx.drop(env, f"{env.kind}: {cheat}", loud=True)
        return [*out, Convict(env.seat, "deck", env.raw, self.ctx.step)]

PASS_KINDS = {"own": "deck_own", "mask": "deck_mask", "shuffle": "deck_shuffle", "lock": "deck_lock"}
PASS_METHOD = {"deck_mask": "mask", "deck_shuffle": "shuffle", "deck_lock": "lock"}
PASS_ACCEPT = {"deck_own": "accept_own", "deck_mask": "accept_mask", "deck_shuffle": "accept_shuffle",
               "deck_lock": "accept_lock"}
_PASS_ORDER = ("deck_own", "deck_mask", "deck_shuffle", "deck_lock")


def _pass_rank(kind: str, seat: int | None) -> tuple[int, int]:
    return _PASS_ORDER.index(kind), -1 if seat is None else seat


__all__ = ["DEAL_KINDS", "DECK_KINDS", "Dealing", "Shown"]
