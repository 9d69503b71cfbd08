"""A mental-poker deck among the seated peers: no dealer, no peer alone knows the order.

Pure and I/O-free: values in, bodies to publish out (see docs/protocol.md, "Deck protocol").
The lockstep deals a game's decks with it in net/lockstep/dealing.py.
"""

from .audit import Accusation, AuditResult, audit
from .errors import Cheat, DeckError, NotNow, UnknownCard
from .group import box_secret
from .local import deal
from .seat import DeckSeat, DeckSecrets
from .table import DeckSpec, DeckTable

__all__ = [
    "Accusation", "AuditResult", "Cheat", "DeckError", "DeckSeat", "DeckSecrets", "DeckSpec",
    "DeckTable", "NotNow", "UnknownCard", "audit", "box_secret", "deal",
]
