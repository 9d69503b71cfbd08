"""Invite codes: the broker address, the game id, the table's pin and, for a TLS broker
trusted by its certificate, that certificate's pin, in one line to paste.

Form: `mqtt://192.168.1.20:1883/money-1a2b3c4d/k7q2-m9xa-…` (eight groups of four base32
letters and digits, any case, dashes optional). The table pin is the host key's fingerprint
and the table secret (net/lockstep/admission.py): the joiner trusts only that host, and
proves the secret without sending it. A code without the broker means "on the broker from
the settings".

On an mqtts:// broker trusted by its certificate's SHA-256 (the host's `--tls` broker with a
self-signed certificate, or a broker whose pin the host has configured), one more part
follows: `mqtts://192.168.1.20:8883/money-1a2b3c4d/k7q2-…/x3fq-…`, the 32 bytes of that
SHA-256 as 52 base32 characters in thirteen groups of four (same alphabet, any case, dashes
optional). The joiner then trusts exactly that certificate for this table, whatever its own
`[broker] fingerprint` says: the code is what the host gave it. Codes for plain mqtt:// and
for brokers trusted through a CA carry no certificate pin and read as before.
"""

from __future__ import annotations

import base64
from typing import NamedTuple

from .codec import _gid
from .lockstep.admission import FINGERPRINT_BYTES, SECRET_BYTES, TablePin
from .mqtt import normal_pin, parse_broker

PIN_CHARS = (FINGERPRINT_BYTES + SECRET_BYTES) * 8 // 5  # 32 base32 characters
CERT_BYTES = 32  # SHA-256 of the broker's certificate (DER)
CERT_CHARS = -(-CERT_BYTES * 8 // 5)  # 52 base32 characters (the last carries one bit)
EXAMPLE = "mqtt://host:1883/money-1a2b3c4d/abcd-efgh-…"


class Invite(NamedTuple):
    broker: str
    gid: str
    pin: TablePin
    cert: str = ""  # the broker certificate's pin, 64 hex digits ("": the code carries none)


def _groups(letters: str) -> str:
    return "-".join(letters[i:i + 4] for i in range(0, len(letters), 4))


def pin_text(pin: TablePin) -> str:
    return _groups(base64.b32encode(pin.fingerprint + pin.secret).decode().lower())


def cert_text(cert: str) -> str:
    """A certificate pin (hex, as net.broker.cert_fingerprint gives it) as the code writes it."""
    raw = bytes.fromhex(normal_pin(cert))
    return _groups(base64.b32encode(raw).decode().rstrip("=").lower())


def make_invite(broker_url: str, gid: str, pin: TablePin, cert: str = "") -> str:
    """The code to give a player; `cert` (the broker certificate's pin) is added only for an
    mqtts:// broker: on plain mqtt:// there is no certificate to trust."""
    broker = parse_broker(broker_url)
    tail = f"/{cert_text(cert)}" if cert and broker.tls else ""
    return f"{broker.url}/{gid}/{pin_text(pin)}{tail}"


def _letters(text: str) -> str:
    return text.replace("-", "").replace(" ", "").upper()


def parse_pin(text: str) -> TablePin | None:
    letters = _letters(text)
    if len(letters) != PIN_CHARS:
        return None
    try:
        raw = base64.b32decode(letters)
    except ValueError:
        return None
    return TablePin(raw[:FINGERPRINT_BYTES], raw[FINGERPRINT_BYTES:])


def parse_cert(text: str) -> str | None:
    """The certificate pin a code's last part writes (64 hex digits); None if it is not one."""
    letters = _letters(text)
    if len(letters) != CERT_CHARS:
        return None
    try:
        raw = base64.b32decode(letters + "=" * (-len(letters) % 8))
    except ValueError:
        return None
    if base64.b32encode(raw).decode().rstrip("=") != letters:  # the last letter's unused bits
        return None
    return raw.hex()


def parse_invite(code: str, default_broker: str = "mqtt://127.0.0.1:1883") -> Invite:
    """(broker url, game id, pin, certificate pin); ValueError with one clear line for anything else.

    Whitespace anywhere is ignored: a code copied from a narrow terminal, where it wrapped,
    or read aloud in groups still works (no part of a code contains a space)."""
    text = "".join(code.split()).rstrip("/")
    head, _, last = text.rpartition("/")
    pin = parse_pin(last) if head else None
    cert = ""
    if pin is None and head:  # perhaps a certificate pin after the table's
        before, _, middle = head.rpartition("/")
        table_pin = parse_pin(middle) if before else None
        if table_pin is not None:
            found = parse_cert(last)
            if found is None:
                raise ValueError(f"the broker certificate pin at the end of the invite code {code!r} is "
                                 f"not {CERT_CHARS} base32 letters and digits: ask the host for the whole code")
            head, pin, cert = before, table_pin, found
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
    url = parse_broker(broker).url
    if cert and not url.startswith("mqtts://"):
        raise ValueError(f"the invite code {code!r} pins a broker certificate but its broker {url} "
                         "speaks no TLS: ask the host for the whole code (mqtts://…)")
    return Invite(url, gid, pin, cert)
