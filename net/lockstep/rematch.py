"""A rematch at a network table: once a game is over, the host deals again for its players.

The host hosts a new table on the same broker (same game, players, options and settings; a new
game id and so a new table secret) and offers it here in one signed `rematch` message: the new
game id, and the new table's secret sealed to each seated key but its own. Only a seated
player opens its box, so only the players (and whoever the host gives the new invite code)
can sit at the new table; a watcher or a key without a seat learns a game id it cannot use.
A player's terminal shows the offer; the player takes it with a key (tui/net_table.py).
"""

from __future__ import annotations

from ..codec import Envelope
from ..deck.group import box_secret, open_keys, seal_keys
from .admission import SECRET_BYTES
from .context import Context
from .outputs import Note, Output, Publish


class Rematch:
    """The offer this peer made (the host) or was made (a player), one at a time."""

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx
        self.offer: tuple[str, bytes] | None = None  # (new game id, its table secret) for us

    def make_offer(self, gid: str, secret: bytes) -> list[Output]:
        """As the host of a game that is over, offer the table `gid` (secret `secret`) to every
        seated player; ValueError says why not."""
        ctx = self.ctx
        if not ctx.is_host or ctx.me is None:
            raise ValueError("only the host offers a rematch")
        if ctx.phase != "over":
            raise ValueError("a rematch is offered once the game is over")
        if not same_game(gid, ctx.gid):
            raise ValueError(f"{gid} is not a new table of this game")
        boxes = [[seat, seal_keys(secret, key)] for seat, key in enumerate(ctx.keys) if key != ctx.me.public]
        env = ctx.sign("rematch", {"gid": gid, "boxes": boxes})
        return [Publish("log", env.raw)]

    def on_offer(self, env: Envelope) -> list[Output]:
        """The host's offer: ours to take if it holds a box for our seat that opens."""
        ctx = self.ctx
        if ctx.host_key is None or env.sender != ctx.host_key:
            return ctx.drop(env, "a rematch offered by a key that is not the host's")
        if ctx.phase != "over":
            return ctx.drop(env, "a rematch offered before the game is over")
        gid = env.body["gid"]
        if not same_game(gid, ctx.gid):
            return ctx.drop(env, f"a rematch at {gid}, which is not a table of this game")
        seat, me = ctx.my_seat, ctx.me
        box = next((b for s, b in env.body["boxes"] if s == seat), None)
        if seat is None or me is None or box is None:
            return []  # a watcher, or a seat the host did not invite: nothing for us
        secret = open_keys(box, box_secret(bytes(me.signing_key)))
        if secret is None or len(secret) != SECRET_BYTES:
            return ctx.drop(env, "the rematch's box for our seat does not open", loud=True)
        if self.offer == (gid, secret):
            return []  # a redelivery
        self.offer = (gid, secret)
        return [Note("rematch", "the host deals again: a new table for the same players",
                     {"gid": gid, "secret": secret, "host": env.sender})]


def same_game(new: str, old: str) -> bool:
    """A new table of the same game: `<game id>-<hex>` (net.session.new_gid), not this one."""
    game, _, tag = new.rpartition("-")
    return new != old and game == old.rpartition("-")[0] and bool(tag)
