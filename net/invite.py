"""Invite codes: the broker address, the game id and the table's pin in one line to paste.

Form: `mqtt://192.168.1.20:1883/money-1a2b3c4d/k7q2-m9xa-…` (mqtts:// for TLS; eight groups
of four base32 letters and digits, any case, dashes optional). The pin is the host key's
fingerprint and the table secret (net/lockstep/admission.py): the joiner trusts only that
host, and proves the secret without sending it. A code without the broker means "on the
broker from the settings".
"""

from __future__ import annotations

import base64
from typing import NamedTuple

from .codec import _gid
from .lockstep.admission import FINGERPRINT_BYTES, SECRET_BYTES, TablePin
from .mqtt import parse_broker

PIN_CHARS = (FINGERPRINT_BYTES + SECRET_BYTES) * 8 // 5  # 32 base32 characters
EXAMPLE = "mqtt://host:1883/money-1a2b3c4d/abcd-efgh-…"


class Invite(NamedTuple):
    broker: str
    gid: str
    pin: TablePin


def pin_text(pin: TablePin) -> str:
    letters = base64.b32encode(pin.fingerprint + pin.secret).decode().lower()
    return "-".join(letters[i:i + 4] for i in range(0, len(letters), 4))


def make_invite(broker_url: str, gid: str, pin: TablePin) -> str:
    return f"{parse_broker(broker_url).url}/{gid}/{pin_text(pin)}"


def parse_pin(text: str) -> TablePin | None:
    letters = text.replace("-", "").replace(" ", "").upper()
    if len(letters) != PIN_CHARS:
        return None
    try:
        raw = base64.b32decode(letters)
    except ValueError:
        return None
    return TablePin(raw[:FINGERPRINT_BYTES], raw[FINGERPRINT_BYTES:])


def parse_invite(code: str, default_broker: str = "mqtt://127.0.0.1:1883") -> Invite:
    """(broker url, game id, pin); ValueError with one clear line for anything else.

    Whitespace anywhere is ignored: a code copied from a narrow terminal, where it wrapped,
    or read aloud in groups still works (no part of a code contains a space)."""
    text = "".join(code.split()).rstrip("/")
    head, _, last = text.rpartition("/")
    pin = parse_pin(last) if head else None
    if pin is None:
        if _gid(last) and "://" not in last:
            raise ValueError(f"the invite code {code!r} has no host key and table secret (made by an "
                             f"older gamenight?): ask the host for the new code ({EXAMPLE})")
        raise ValueError(f"not an invite code: {code!r} (expected e.g. {EXAMPLE})")
    if "/" in head.replace("://", ""):
        broker, _, gid = head.rpartition("/")
    else:
        broker, gid = default_broker, head
    if not _gid(gid):
        raise ValueError(f"not an invite code: {code!r} (expected e.g. {EXAMPLE})")
    return Invite(parse_broker(broker).url, gid, pin)
