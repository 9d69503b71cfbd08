"""An end by vote in a dealt game: the seats still at the table turn their scoring cards over.

When the table votes to end a game whose cards the deck protocol dealt (vote.py), cards the
scoring reads may still be face down: a Money! hand, the contraband on a Sheriff stand. As at a
physical table, every seat still playing turns over those of its cards (`Game.scored_cards`)
with a proof every peer checks: every seat's key of each position (`deck_score`; the owner was
given the others' keys when the card was dealt to it, section 11 step 5 of docs/protocol.md).
A seat that does not show them - the seat the table voted about, or one that sends nothing
before its deadline and is voted about in turn - scores nothing for them and is ranked after
the others. Everything here follows from signed messages in the log, so every peer, and every
resume that replays the log, reaches the same result.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from engine.core.hidden import is_token, parse_token, token

from ..codec import Envelope
from ..deck import DeckError
from .context import Context
from .outputs import Keep, Note, Output, Publish

if TYPE_CHECKING:
    from .steps import Steps

Finish = Callable[[dict[str, Any]], list[Output]]


class Ending:
    """The show that scores a dealt game the table ended: who owes it, what came."""

    def __init__(self, ctx: Context, steps: Steps, finish: Finish) -> None:
        self.ctx = ctx
        self.steps = steps
        self.finish = finish  # called once with the faces shown: the table's result follows
        self.due: dict[int, tuple[str, ...]] = {}  # seat -> its scoring cards still face down
        self.got: dict[int, Envelope] = {}
        self.faces: dict[str, Any] = {}
        self.shown: dict[int, int] = {}  # seat -> how many of its cards it showed
        self.unshown: set[int] = set()  # seats whose scoring cards stay face down
        self.refused: list[str] = []  # why a card shown was not taken (a proof that fails)
        self.on = False

    # ---- facts -------------------------------------------------------------------------
    def owed(self, state: Any) -> dict[int, tuple[str, ...]]:
        """Per seat, its scoring cards that are still tokens in `state`."""
        game, out = self.ctx.game, {}
        for seat in range(len(self.ctx.keys)):
            tokens = tuple(sorted({c for c in game.scored_cards(state, seat) if is_token(c)}))
            if tokens:
                out[seat] = tokens
        return out

    def awaited(self) -> frozenset[int]:
        if not self.on:
            return frozenset()
        return frozenset(s for s in self.due if s not in self.got and s not in self.unshown)

    def summary(self) -> str:
        """What was shown, for the result's "ended early" line and the log."""
        names = self.ctx.display_names()
        parts = []
        shown = [names[s] for s in sorted(self.shown) if self.shown[s]]
        if shown:
            parts.append(f"cards shown by {', '.join(shown)}")
        if self.unshown:
            who = ", ".join(names[s] for s in sorted(self.unshown))
            parts.append(f"{who} showed none (they score nothing)")
        return "; ".join(parts)

    # ---- the show ----------------------------------------------------------------------
    def begin(self, away: tuple[int, ...]) -> list[Output]:
        """The table ended the game at the current state: ask every present seat to show."""
        owed = self.owed(self.steps.state)
        self.unshown = {s for s in owed if s in away}
        self.due = {s: t for s, t in owed.items() if s not in away}
        if not self.due:
            return self.finish({})
        self.on = True
        self.ctx.phase = "ending"
        out: list[Output] = [Note("ending", "the table ended the game: each player turns over "
                                            "the cards that score", {"seats": sorted(self.due)})]
        out += self.own_current()
        for env in self.steps.buffer.release(self.ctx.step):  # shows that came before our vote
            if env.kind == "deck_score" and self.on:
                out += self.on_score(env)
        return out + self.ctx.waiting()

    def give_up(self, seats: tuple[int, ...]) -> list[Output]:
        """The table voted to score without these seats' show: their cards stay face down."""
        self.unshown.update(s for s in seats if s in self.due and s not in self.got)
        return self._complete()

    def own_current(self) -> list[Output]:
        """Our show, for each seat whose keys this peer holds (sent again after a resume)."""
        ctx, dealing = self.ctx, self.steps.dealing
        if not self.on or ctx.replaying or ctx.me is None:
            return []
        out: list[Output] = []
        for seat in dealing.own_seats():
            if seat not in self.due:
                continue
            if seat in self.got:
                out.append(Publish("log", self.got[seat].raw))
                continue
            cards = []
            for t in self.due[seat]:
                label, pos = parse_token(t)
                held = dealing.keys_of(seat).get(label)
                keys = held.keys_for(pos) if held is not None else None
                if keys is not None:  # a card whose keys never all reached us cannot be shown
                    cards.append([label, pos, list(keys)])
            env = ctx.sign("deck_score", {"cards": cards}, seat=seat)
            out += [Publish("log", env.raw)] + self.on_score(env)
        return out

    def shown_again(self) -> list[Output]:
        """Our shows, sent again once the game is over here: a peer that resumed after the
        others' shows had come in is over at once, while a peer that missed ours waits for it."""
        ctx = self.ctx
        if ctx.me is None or ctx.replaying:
            return []
        return [Publish("log", self.got[s].raw) for s in self.steps.dealing.own_seats() if s in self.got]

    def on_score(self, env: Envelope) -> list[Output]:
        """A seat's scoring cards, each with every key of its position."""
        ctx = self.ctx
        if ctx.phase in ("lobby", "seed", "play"):  # the vote has not ended the game here yet
            return self.steps.buffer.hold(env)
        if not self.on or env.step != ctx.step:
            return [] if env.key in ctx.history else ctx.drop(env, "a show of scoring cards when none is due")
        if env.seat not in self.due or env.seat in self.unshown:
            return ctx.drop(env, f"seat {env.seat} has no scoring cards to show now")
        old = self.got.get(env.seat)
        if old is not None:
            return [] if old.raw == env.raw else ctx.drop(env, f"seat {env.seat} showed its cards twice", loud=True)
        faces = self._checked(env)
        self.got[env.seat] = env
        self.faces.update(faces)
        self.shown[env.seat] = len(faces)
        ctx.accept(ctx.step, env)
        return [Keep(env.raw)] + self._complete()

    def _checked(self, env: Envelope) -> dict[str, Any]:
        """The faces the show proves; a card not its own, or whose proof fails, is not taken."""
        tables, due, faces = self.steps.dealing.tables, set(self.due[env.seat]), {}
        for label, pos, keys in env.body["cards"]:
            t = token(label, pos)
            if t not in due or t in faces or label not in tables:
                self.refused.append(f"seat {env.seat} showed {t}, which is not one of its scoring cards")
                continue
            try:
                _, slot = tables[label].check_proof(env.seat, {"deck": label, "pos": pos, "keys": list(keys)})
                faces[t] = tables[label].card(slot)
            except DeckError as exc:
                self.refused.append(f"seat {env.seat}'s proof of {t} fails: {exc}")
        return faces

    def _complete(self) -> list[Output]:
        if not self.on or self.awaited():
            return self.ctx.waiting()
        self.on = False
        return self.finish(self.faces)
