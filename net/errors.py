"""Typed wire errors: every inbound problem becomes one of these, is logged and dropped.

Each error carries a stable `code` (for logs, tests and other implementations) and a reason a
person can read.
"""

from __future__ import annotations


class WireError(Exception):
    """Base of every error about a message received from the network."""

    code = "wire_error"

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason

    def __str__(self) -> str:
        return self.reason


class Oversize(WireError):
    code = "oversize"


class Malformed(WireError):
    """Not msgpack, or not a map at the top level."""

    code = "malformed"


class BadField(WireError):
    """A required field is missing, has the wrong type, or an unknown field is present."""

    code = "bad_field"


class UnknownKind(WireError):
    code = "unknown_kind"


class WrongVersion(WireError):
    code = "wrong_version"


class BadSignature(WireError):
    code = "bad_signature"


class Refused(Exception):
    """A join that cannot go ahead (version or option mismatch, game full); one clear line."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason

    def __str__(self) -> str:
        return self.reason
