"""Fixed Sheriff strategies, the ones a player who learned a bot would try against it (issue 22):
always declare the truth; always smuggle with a small bribe; as Sheriff always inspect; as
Sheriff never inspect. Each plays its one fixed part and leaves every other decision to the
bot it is built on (`fixed_strategy(name, base)`), so a measurement isolates that part.

`play_table` plays one game with a bot class per seat (the registry knows only kinds).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence

from ..core import Action, ActionSpace, Game, Result, Stream, seed_bytes
from ..sheriff.cards import IDX, IS_LEGAL, LEGAL, VALUE
from ..sheriff.state import (
    ANSWER,
    DECLARE,
    INSPECT,
    LOAD,
    OFFER,
    Accept,
    Declare,
    Inspect,
    Load,
    NoOffer,
    Offer,
    Pass,
    View,
)
from .base import Bot

SMALL_BRIBE = 2
"""The smuggler's bribe, in gold, offered once per bag."""


def _legal(card: str) -> bool:
    return IS_LEGAL[IDX[card]]


def _most_copies(cards: Sequence[str]) -> str | None:
    """The legal good with the most copies in `cards` (then the dearer), None if none."""
    legal = Counter(c for c in cards if _legal(c))
    return max(legal, key=lambda g: (legal[g], VALUE[IDX[g]])) if legal else None


def truthful_step(v: View) -> Action | None:
    """Always the truth: a bag of one legal good, declared; never a bribe."""
    me = v.players[v.seat]
    if v.phase == LOAD:
        good = _most_copies(me.hand)
        if good is None:  # no legal good in hand: the cheapest card, the smallest lie
            return Load((min(me.hand, key=lambda c: VALUE[IDX[c]]),))
        return Load(tuple([good] * min(me.hand.count(good), 5)))
    if v.phase == DECLARE:
        return Declare(_most_copies(me.bag) or LEGAL[0])
    if v.phase == INSPECT and v.step == OFFER:
        return NoOffer()
    return None


def smuggler_step(v: View) -> Action | None:
    """Always the most contraband, topped up with one legal good it declares, and a small
    bribe offered once per bag."""
    me = v.players[v.seat]
    if v.phase == LOAD:
        contraband = sorted((c for c in me.hand if not _legal(c)), key=lambda c: -VALUE[IDX[c]])[:5]
        good = _most_copies(me.hand)
        fill = [good] * min(me.hand.count(good), 5 - len(contraband)) if good else []
        return Load(tuple(sorted(contraband + fill, key=IDX.__getitem__)))
    if v.phase == DECLARE:
        return Declare(_most_copies(me.bag) or _most_copies(me.stand_up) or LEGAL[0])
    if v.phase == INSPECT and v.step == OFFER:
        gold = min(me.gold, SMALL_BRIBE)
        return Offer(gold=gold) if v.exchange == 1 and gold else NoOffer()
    return None


def always_inspect_step(v: View) -> Action | None:
    return Inspect() if v.phase == INSPECT and v.step == ANSWER else None


def never_inspect_step(v: View) -> Action | None:
    return Pass() if v.phase == INSPECT and v.step == ANSWER else None


FALLBACK = {Inspect: (Accept(), Pass()), Pass: (Accept(), Inspect())}
"""When a condition the Sheriff accepted forbids the fixed answer, the nearest one."""

STRATEGIES: dict[str, Callable[[View], Action | None]] = {
    "truthful": truthful_step,
    "smuggler": smuggler_step,
    "always_inspect": always_inspect_step,
    "never_inspect": never_inspect_step,
}


def fixed_pick(name: str, view: View, actions: Sequence[Action] | ActionSpace) -> Action | None:
    """Strategy `name`'s action here, or the nearest legal one; None where it leaves the
    decision to the bot it is built on."""
    pick = STRATEGIES[name](view)
    if pick is None:
        return None
    for action in (pick, *FALLBACK.get(type(pick), ())):
        if action in actions:
            return action
    return None


def fixed_strategy(name: str, base: type[Bot]) -> type[Bot]:
    """`base` with one part fixed to strategy `name` (a key of STRATEGIES)."""

    class Fixed(base):  # type: ignore[misc, valid-type]
        kind = name

        def _choose(self, view: View, actions: Sequence[Action] | ActionSpace) -> Action:
            pick = fixed_pick(name, view, actions)
            return pick if pick is not None else super()._choose(view, actions)

    Fixed.__name__ = Fixed.__qualname__ = f"{name.title().replace('_', '')}{base.__name__}"
    return Fixed


class FixedOver(Bot):
    """Any bot (the hard bot's search too) with one part fixed to a strategy: the strategy's
    pick where it has one, else the bot's own decision. For plain games (`play_table`'s): the
    strategies read goods."""

    def __init__(self, game: Game, seat: int, rng: Stream, name: str, bot: Bot) -> None:
        super().__init__(game, seat, rng)
        self.kind, self.bot = name, bot

    def choose(self, view: View, actions: Sequence[Action] | ActionSpace) -> Action:
        pick = fixed_pick(self.kind, view, actions)
        return pick if pick is not None else self.bot.choose(view, actions)


BotClass = Callable[[Game, int, Stream], Bot]


def fixed_over(name: str, make: BotClass) -> BotClass:
    """A maker of `make`'s bots with one part fixed to strategy `name` (`FixedOver`)."""
    return lambda game, seat, rng: FixedOver(game, seat, rng, name, make(game, seat, rng))


def play_table(game: Game, seed: bytes | int | str, seats: Sequence[BotClass], max_steps: int = 100_000) -> Result | None:
    """One game with a bot of the given class in each seat; its result (None: step cap)."""
    seed = seed_bytes(seed)
    root = Stream(seed)
    bots = [make(game, s, root.fork(f"bot{s}")) for s, make in enumerate(seats)]
    state = game.setup(len(seats), seed, None)
    for _ in range(max_steps):
        active = game.active(state)
        if not active:
            break
        state = game.apply(state, {s: bots[s].choose(game.view(state, s), game.legal_actions(state, s))
                                   for s in sorted(active)})
    return game.result(state) if game.is_over(state) else None
