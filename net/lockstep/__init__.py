"""The lockstep protocol as state machines: signed envelopes in, decisions out. No I/O.

`Lockstep` (router.py) follows one game for one peer (a seated player, a bot, or a
spectator). It is fed decoded envelopes (`receive`) and local choices (`decide`, `chat`), and
returns `Output`s for the shell (net/peer.py) to carry out in order: persist a secret, append
to the disk log, publish, tell the screen. Every rule of the protocol lives in this package, so
it is tested without a network; the phases are lobby.py, seed.py, steps.py (with
simultaneous.py), sync.py and social.py.
"""

from .outputs import (
    MAX_AHEAD,
    MAX_BUFFERED,
    SETUP_KINDS,
    STEP_KINDS,
    SYNC_CHUNK,
    SYNCABLE,
    Keep,
    Note,
    Output,
    Publish,
    Secret,
    TableInfo,
)
from .router import Lockstep
from .social import presence_payload

__all__ = [
    "MAX_AHEAD", "MAX_BUFFERED", "SETUP_KINDS", "STEP_KINDS", "SYNC_CHUNK", "SYNCABLE",
    "Keep", "Lockstep", "Note", "Output", "Publish", "Secret", "TableInfo",
    "presence_payload",
]
