"""Ten: everything but the deck's order is public; the deck holds the cards shown nowhere."""

from __future__ import annotations

from collections import Counter

from ...core import Game, Stream
from ...ten.cards import deck_for
from ...ten.state import State, View
from . import fresh_rng


def sample(game: Game, view: View, rng: Stream) -> State:
    wild = (view.auction.wild,) if view.auction is not None else ()
    shown = view.tableau + view.market + view.discard + wild + tuple(
        c for p in view.players for c in p.collection)
    deck = sorted((Counter(deck_for(view.n_players)) - Counter(shown)).elements())
    return State(
        n_players=view.n_players, rng=fresh_rng(rng), deck=tuple(rng.shuffle(deck)),
        turn=view.turn, phase=view.phase, tableau=view.tableau, total=view.total,
        currency_sum=view.currency_sum,
        collections=tuple(p.collection for p in view.players),
        currency=tuple(p.currency for p in view.players),
        busts=tuple(p.busts for p in view.players),
        market=view.market, discard=view.discard, auction=view.auction, buyers=view.buyers,
        last_turn=view.last_turn,
    )
