"""Invite codes: the broker address, the game id, the table's pin and, for a TLS broker
trusted by its certificate, that certificate's pin, in one line to paste.

Form: `192.168.1.20/money-1a2b3c4d/k7q2-m9xa-…` (the broker, the game id, then eight groups of
four base32 letters and digits, any case, dashes optional). The broker is written short: no
`mqtt://` and no port when it is 1883 (`mqtt://host:port/…`, the older form, reads the same). The table pin is the host key's fingerprint
and the table secret (net/lockstep/admission.py): the joiner trusts only that host, and
proves the secret without sending it. A code without the broker means "on the broker from
the settings".

On an mqtts:// broker trusted by its certificate's SHA-256 (the host's `--tls` broker with a
self-signed certificate, or a broker whose pin the host has configured), one more part
follows: `mqtts://192.168.1.20/money-1a2b3c4d/k7q2-…/x3fq-…` (8883, the default, unwritten), the 32 bytes of that
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
EXAMPLE = "192.168.1.20/money-1a2b3c4d/abcd-efgh-…"


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


def code_broker(broker_url: str) -> str:
    """The broker as a code writes it: as short as it reads back (no `mqtt://`, no default port),
    so that a plain code fits one 80-column line; `mqtts://` stays, it says "TLS"."""
    broker = parse_broker(broker_url)
    port = "" if broker.port == (8883 if broker.tls else 1883) else f":{broker.port}"
    return f"{'mqtts://' if broker.tls else ''}{broker.host}{port}"


def make_invite(broker_url: str, gid: str, pin: TablePin, cert: str = "") -> str:
    """The code to give a player; `cert` (the broker certificate's pin) is added only for an
    mqtts:// broker: on plain mqtt:// there is no certificate to trust."""
    tail = f"/{cert_text(cert)}" if cert and parse_broker(broker_url).tls else ""
    return f"{code_broker(broker_url)}/{gid}/{pin_text(pin)}{tail}"


def _letters(text: str) -> str:
    return text.replace("-", "").replace(" ", "").upper()


BASE32 = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567")


def _letters_problem(text: str, chars: int) -> str:
    """What is wrong with one base32 part of a code ("" if nothing is), in words a player can act on."""
    letters = _letters(text)
    strange = sorted({c for c in letters if c not in BASE32})
    if strange:
        shown = ", ".join(repr(c.lower()) for c in strange)
        return f"has {shown}, which no code contains (letters and the digits 2 to 7 only)"
    if len(letters) < chars:
        missing = chars - len(letters)
        return f"is {missing} character{'s' if missing > 1 else ''} short ({len(letters)} of {chars})"
    if len(letters) > chars:
        extra = len(letters) - chars
        return f"has {extra} character{'s' if extra > 1 else ''} too many ({len(letters)}, not {chars})"
    return ""


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


class _Parts(NamedTuple):
    broker: str  # "" when the code names none
    gid: str
    pin: str
    cert: str


def _split(text: str, code: str) -> _Parts:
    """The code's parts by position: [scheme://]broker/ game id / table pin [/ certificate pin]."""
    scheme, has_scheme, rest = text.partition("://")
    if not has_scheme:
        scheme, rest = "", text
    parts = rest.split("/")
    named_broker = bool(has_scheme) or any(c in parts[0] for c in ":.") or len(parts) >= 4 or (
        len(parts) == 3 and len(_letters(parts[2])) < (PIN_CHARS + CERT_CHARS) // 2)  # broker/gid/pin, not gid/pin/cert
    broker = f"{scheme}://{parts.pop(0)}" if has_scheme else (parts.pop(0) if named_broker else "")
    if not parts or not parts[0]:
        raise ValueError(f"not an invite code: {code!r} (expected e.g. {EXAMPLE})")
    if len(parts) == 1:
        if _gid(parts[0]) and len(_letters(parts[0])) < PIN_CHARS - 4:
            raise ValueError(f"the invite code {code!r} has no host key and table secret (made by an "
                             f"older gamenight?): ask the host for the new code ({EXAMPLE})")
        raise ValueError(f"not an invite code: {code!r} (expected e.g. {EXAMPLE})")
    if len(parts) > 3:
        raise ValueError(f"the invite code {code!r} has {len(parts)} parts after the broker, not 2 or 3 "
                         f"(expected e.g. {EXAMPLE})")
    return _Parts(broker, parts[0], parts[1], parts[2] if len(parts) == 3 else "")


def parse_invite(code: str, default_broker: str = "mqtt://127.0.0.1:1883") -> Invite:
    """(broker url, game id, pin, certificate pin); ValueError with one clear line naming the part
    that is wrong: the broker, the game id, the table's key and secret, or the certificate pin.

    Whitespace anywhere is ignored: a code copied from a narrow terminal, where it wrapped,
    or read aloud in groups still works (no part of a code contains a space)."""
    parts = _split("".join(code.split()).rstrip("/"), code)
    if not _gid(parts.gid):
        raise ValueError(f"the game id {parts.gid!r} in the invite code is not one (like money-1a2b3c4d): "
                         "ask the host for the whole code")
    problem = _letters_problem(parts.pin, PIN_CHARS)
    pin = parse_pin(parts.pin)
    if problem or pin is None:
        raise ValueError(f"the table's key and secret in the invite code (after {parts.gid}/) "
                         f"{problem or 'do not read'}: copy the whole code again")
    cert = ""
    if parts.cert:
        problem = _letters_problem(parts.cert, CERT_CHARS)
        found = parse_cert(parts.cert)
        if problem or found is None:
            raise ValueError(f"the broker certificate pin at the end of the invite code {code!r} "
                             f"{problem or 'does not read (its last letter is wrong)'}: ask the host for the whole code")
        cert = found
    try:
        url = parse_broker(parts.broker or default_broker).url
    except ValueError as exc:
        raise ValueError(f"the broker address in the invite code is wrong: {exc}") from None
    if cert and not url.startswith("mqtts://"):
        raise ValueError(f"the invite code {code!r} pins a broker certificate but its broker {url} "
                         "speaks no TLS: ask the host for the whole code (mqtts://…)")
    return Invite(url, parts.gid, pin, cert)
