"""The envelope: one signed msgpack map per MQTT message, decoded strictly.

Wire form: a msgpack map with exactly the fields of `FIELDS`. The signature "z" is Ed25519 over
`SIGN_DOMAIN || canonical(map without "z")`, where canonical = msgpack with every map's keys
sorted, strings as str and byte strings as bin. Decoding checks, in this order: size, msgpack,
field set and types, protocol version, kind, body schema, then the signature; any failure
raises a `WireError` subclass and nothing else acts on the message. docs/protocol.md is the
normative description.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import msgpack
from nacl.exceptions import BadSignatureError
from nacl.signing import VerifyKey

from .errors import BadField, BadSignature, Malformed, Oversize, UnknownKind, WrongVersion

PROTOCOL_VERSION = 1
MAX_SIZE = 64 * 1024
SIGN_DOMAIN = b"gamenight/v1/envelope\x00"
ZERO32 = bytes(32)
NO_SEAT = -1
MAX_SEAT = 63
MAX_INT = 2**53  # plenty for steps and nonces, and exact in every language's number type


def _int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= MAX_INT


def _str(limit: int) -> Callable[[Any], bool]:
    return lambda v: isinstance(v, str) and len(v) <= limit


def _bin(size: int | None = None, limit: int = MAX_SIZE) -> Callable[[Any], bool]:
    if size is not None:
        return lambda v: isinstance(v, bytes) and len(v) == size
    return lambda v: isinstance(v, bytes) and len(v) <= limit


def _bool(v: Any) -> bool:
    return isinstance(v, bool)


def _any(v: Any) -> bool:
    return True


def _map(v: Any) -> bool:
    return isinstance(v, dict) and all(isinstance(k, str) for k in v)


def _list_of(check: Callable[[Any], bool], limit: int = 4096) -> Callable[[Any], bool]:
    return lambda v: isinstance(v, list) and len(v) <= limit and all(check(x) for x in v)


def _str_map(v: Any) -> bool:
    return _map(v) and all(isinstance(x, str) and len(x) <= 200 for x in v.values())


def _gid(v: Any) -> bool:
    return (
        isinstance(v, str)
        and 1 <= len(v) <= 64
        and all(c.isascii() and (c.isalnum() or c in "-_") for c in v)
    )


def _seat(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool) and NO_SEAT <= v <= MAX_SEAT


FIELDS: dict[str, Callable[[Any], bool]] = {
    "v": lambda v: isinstance(v, int) and not isinstance(v, bool),
    "g": _gid,
    "k": _str(32),
    "p": _bin(32),
    "s": _seat,
    "n": _int,
    "q": _int,
    "b": _map,
    "h": _bin(32),
    "c": _bin(32),
    "z": _bin(64),
}
FIELD_NAMES = {
    "v": "protocol version", "g": "game id", "k": "kind", "p": "sender key", "s": "seat",
    "n": "step", "q": "nonce", "b": "body", "h": "state hash", "c": "previous entry hash",
    "z": "signature",
}

MAX_NAME = 24  # characters in a player's name
_NAME = _str(MAX_NAME)
_VERSIONS = _str_map


def _proof(v: Any) -> bool:
    """An admission proof (HMAC-SHA-256, 32 bytes), or empty for none."""
    return isinstance(v, bytes) and len(v) in (0, 32)


MAX_DECKS = 16  # decks dealt at once
MAX_GAME_DECKS = 128  # decks of one game, listed by its audit (Sheriff deals hands anew each round)
MAX_CARDS = 1024  # cards in one deck
_POINT = _bin(32)
_LABEL = _str(32)


def _points(v: Any) -> bool:
    return isinstance(v, list) and len(v) <= MAX_CARDS and all(map(_POINT, v))


def _position(v: Any) -> bool:
    return _int(v) and v < MAX_CARDS


def _opened(v: Any) -> bool:
    """[deck, position, key]: one seat's key for one position, published."""
    return isinstance(v, list) and len(v) == 3 and _LABEL(v[0]) and _position(v[1]) and _POINT(v[2])


def _proven(v: Any) -> bool:
    """[deck, position, [every seat's key]]: a card its owner turns over with its proof."""
    return (isinstance(v, list) and len(v) == 3 and _LABEL(v[0]) and _position(v[1])
            and _list_of(_POINT, MAX_SEAT + 1)(v[2]))


def _box(v: Any) -> bool:
    """[to seat, deck, [positions], sealed box of their keys]."""
    return (isinstance(v, list) and len(v) == 4 and _seat(v[0]) and _LABEL(v[1])
            and _list_of(_position, MAX_CARDS)(v[2]) and _bin(limit=MAX_CARDS * 32 + 64)(v[3]))


def _deck_secret(v: Any) -> bool:
    """A seat's secrets for one deck, published at the audit (the audit checks the rest)."""
    pool = {"pool_key", "pool_perm"} & set(v) if _map(v) else set()
    return (_map(v) and set(v) - pool == {"deck_key", "perm", "keys"} and _POINT(v["deck_key"])
            and _list_of(_int, MAX_CARDS)(v["perm"]) and _points(v["keys"])
            and (not pool or len(pool) == 2 and _POINT(v["pool_key"])
                 and _list_of(_int, MAX_CARDS)(v["pool_perm"])))


_SEALED_SECRET = _bin(limit=128)  # a table secret (10 bytes) in a sealed box (+48)


def _rematch_box(v: Any) -> bool:
    """[seat, the new table's secret sealed to that seat's key]."""
    return isinstance(v, list) and len(v) == 2 and _seat(v[0]) and _SEALED_SECRET(v[1])


# kind -> body field -> check. Every field is required; no other field is allowed.
BODIES: dict[str, dict[str, Callable[[Any], bool]]] = {
    "announce": {
        "game": _str(32), "players": _int, "options": _map, "versions": _VERSIONS,
        "names": _list_of(_NAME, 64), "open": _bool, "relay_bots": _int, "invite": _bool,
    },
    "hello": {"name": _NAME, "game": _str(32), "versions": _VERSIONS, "options": _map, "proof": _proof},
    "seat": {"seat": _seat, "key": _bin(32), "name": _NAME},
    "kick": {"seat": _seat, "key": _bin(32)},
    "refuse": {"key": _bin(32), "reason": _str(300)},
    "start": {
        "game": _str(32), "players": _int, "options": _map, "versions": _VERSIONS,
        "keys": _list_of(_bin(32), 64), "names": _list_of(_NAME, 64),
        "table": _map,  # the table's settings: deadlines, clock (net/lockstep/deadlines.py)
    },
    "seed_commit": {"commit": _bin(32)},
    "seed_reveal": {"secret": _bin(32)},
    "act": {"action": _any},
    "commit": {"commit": _bin(32)},
    "reveal": {"action": _any, "salt": _bin(32)},
    # the table deciding what happens to a stalled game (net/lockstep/vote.py, proofs.py)
    "vote": {"step": _int, "round": _int, "seats": _list_of(_seat, 64), "cause": _str(16),
             "choice": _str(16), "proof": _bin(limit=32)},
    "proof": {"seat": _seat, "what": _str(16), "step": _int, "evidence": _list_of(_bin(), 2)},
    "handover": {"bot": _str(16), "to": _seat},
    # the deck protocol (net/lockstep/dealing.py): every deck being dealt in one message
    "deck_own": {"decks": _list_of(_LABEL, MAX_DECKS), "cards": _list_of(_points, MAX_DECKS)},
    "deck_mask": {"decks": _list_of(_LABEL, MAX_DECKS), "cards": _list_of(_points, MAX_DECKS)},
    "deck_shuffle": {"decks": _list_of(_LABEL, MAX_DECKS), "cards": _list_of(_points, MAX_DECKS)},
    "deck_lock": {"decks": _list_of(_LABEL, MAX_DECKS), "cards": _list_of(_points, MAX_DECKS),
                  "commits": _list_of(_points, MAX_DECKS)},
    "deck_show": {"open": _list_of(_opened, MAX_CARDS), "boxes": _list_of(_box, MAX_DECKS * 64)},
    "deck_open": {"open": _list_of(_opened, MAX_CARDS)},
    "deck_audit": {"decks": _list_of(_LABEL, MAX_GAME_DECKS), "secrets": _list_of(_deck_secret, MAX_GAME_DECKS)},
    "deck_handover": {"to": _seat, "box": _bin(limit=MAX_SIZE)},
    "deck_ask": {"from": _list_of(lambda v: isinstance(v, list) and len(v) == 3 and _seat(v[0])
                                  and _LABEL(v[1]) and _position(v[2]), MAX_CARDS)},
    "deck_give": {"to": _seat, "open": _list_of(_opened, MAX_CARDS)},
    "deck_score": {"cards": _list_of(_proven, MAX_CARDS)},  # after an end by vote (ending.py)
    "deck_broken": {"cards": _list_of(_proven, MAX_CARDS)},  # a card of one's own that is no card
    "sync_req": {"from": _int, "proof": _proof},
    "sync": {"for": _bin(32), "msgs": _list_of(_bin(limit=MAX_SIZE), 4096)},
    "chat": {"text": _str(500)},
    # the host deals again once the game is over (net/lockstep/rematch.py)
    "rematch": {"gid": _gid, "boxes": _list_of(_rematch_box, 64)},
    "presence": {"status": lambda v: v in ("online", "offline"), "name": _NAME},
}
KINDS = frozenset(BODIES)


@dataclass(frozen=True, slots=True)
class Envelope:
    """A decoded, signature-checked message. `raw` is the exact bytes received (for logs/sync)."""

    version: int
    gid: str
    kind: str
    sender: bytes
    seat: int
    step: int
    nonce: int
    body: dict[str, Any]
    state_hash: bytes
    prev_hash: bytes
    signature: bytes
    raw: bytes

    @property
    def key(self) -> tuple[str, int, int]:
        """Identity of a step message for duplicate detection: (kind, seat, step)."""
        return (self.kind, self.seat, self.step)


def sort_maps(data: Any) -> Any:
    if isinstance(data, dict):
        return {k: sort_maps(data[k]) for k in sorted(data)}
    if isinstance(data, (list, tuple)):
        return [sort_maps(v) for v in data]
    return data


def canonical_bytes(data: Any) -> bytes:
    """Canonical msgpack: maps sorted by key, str as str, bytes as bin, no floats."""
    return msgpack.packb(sort_maps(data), use_bin_type=True)


def signing_bytes(fields: Mapping[str, Any]) -> bytes:
    return SIGN_DOMAIN + canonical_bytes({k: v for k, v in fields.items() if k != "z"})


# "z" sorts after every other key, so a canonical envelope is its canonical 10-field map with
# the header bumped to 11 entries and ("z", bin 64) appended: signing and checking need no
# second encoding.
_UNSIGNED_HEADER = b"\x8a"
_SIGNED_HEADER = b"\x8b"
_Z_ENTRY = b"\xa1z\xc4\x40"
_TAIL = len(_Z_ENTRY) + 64


def seal(signer: Any, fields: Mapping[str, Any]) -> bytes:
    """Sign the fields (everything but "z") with a nacl SigningKey; return the wire bytes."""
    unsigned = {k: v for k, v in fields.items() if k != "z"}
    body = unsigned.get("b")
    if isinstance(body, dict):
        check_body(unsigned["k"], body)
    encoded = canonical_bytes(unsigned)
    signature = signer.sign(SIGN_DOMAIN + encoded).signature
    if encoded[:1] != _UNSIGNED_HEADER:  # not the ten envelope fields: encode the general way
        return canonical_bytes({**unsigned, "z": signature})
    return _SIGNED_HEADER + encoded[1:] + _Z_ENTRY + signature


def _signature_ok(raw: bytes, data: dict[str, Any]) -> bool:
    key = _verify_key(data["p"])
    if raw[:1] == _SIGNED_HEADER and raw[-_TAIL:-64] == _Z_ENTRY:
        # Canonical on the wire (every gamenight peer sends it so): the signed bytes are the
        # received ones minus the trailing signature entry; a parse of them is the one we hold.
        try:
            key.verify(SIGN_DOMAIN + _UNSIGNED_HEADER + raw[1:-_TAIL], data["z"])
            return True
        except BadSignatureError:
            pass  # maybe an encoder that is not canonical: check the re-encoding below
    try:
        key.verify(signing_bytes(data), data["z"])
        return True
    except BadSignatureError:
        return False


def check_body(kind: str, body: dict[str, Any]) -> None:
    schema = BODIES.get(kind)
    if schema is None:
        raise UnknownKind(f"unknown kind {kind!r}")
    missing = sorted(set(schema) - set(body))
    if missing:
        raise BadField(f"{kind} body lacks {', '.join(missing)}")
    extra = sorted(set(body) - set(schema))
    if extra:
        raise BadField(f"{kind} body has unknown field {', '.join(extra)}")
    for name, check in schema.items():
        if not check(body[name]):
            raise BadField(f"{kind} body field {name!r} has the wrong type or size")


def _has_float(data: Any, depth: int = 0) -> bool:
    if depth > 64:
        return True  # absurdly deep nesting is refused like a float: not engine data
    if isinstance(data, float):
        return True
    if isinstance(data, dict):
        return any(_has_float(v, depth + 1) for v in data.values())
    if isinstance(data, list):
        return any(_has_float(v, depth + 1) for v in data)
    return False


_VERIFY_KEYS: OrderedDict[bytes, VerifyKey] = OrderedDict()  # most recently used last
VERIFY_KEYS_MAX = 1024
"""Keys whose VerifyKey is kept: those of the tables playing now. Every game brings new ones (a
relay's bots' keys are derived per game, new players come), so at 50,000 kept before a clear a
relay grew by about 130 B per key, a key or more a game, for 50,000 games (bench/net_relay.py)."""
_VERIFIED: OrderedDict[bytes, Envelope] = OrderedDict()
_VERIFIED_MAX = 20_000
# Bytes, not only entries: the cache holds messages before anyone knows whether their sender
# has a seat, so a flood of 64 KiB messages must not grow it past this (docs/protocol.md).
VERIFIED_BYTES_MAX = 4 * 1024 * 1024
_verified_bytes = 0


def _verify_key(public: bytes) -> VerifyKey:
    key = _VERIFY_KEYS.get(public)
    if key is not None:
        _VERIFY_KEYS.move_to_end(public)
        return key
    key = _VERIFY_KEYS[public] = VerifyKey(public)
    while len(_VERIFY_KEYS) > VERIFY_KEYS_MAX:
        _VERIFY_KEYS.popitem(last=False)
    return key


def decode_envelope(raw: bytes) -> Envelope:
    """Strictly decode and verify one message; raise a WireError subclass on any problem.

    Verified envelopes are remembered by their exact bytes, so the many peers of a bot game in
    one process check each message's signature once.
    """
    if not isinstance(raw, (bytes, bytearray)):
        raise Malformed("a message must be bytes")
    raw = bytes(raw)
    if len(raw) > MAX_SIZE:
        raise Oversize(f"message of {len(raw)} bytes exceeds the {MAX_SIZE}-byte limit")
    cached = _VERIFIED.get(raw)
    if cached is not None:
        return cached
    try:
        data = msgpack.unpackb(
            raw, raw=False, strict_map_key=True, use_list=True,
            max_bin_len=MAX_SIZE, max_str_len=MAX_SIZE, max_array_len=8192, max_map_len=1024,
            max_ext_len=0,
        )
    except Exception as exc:  # msgpack raises many unrelated types for bad input
        raise Malformed(f"not msgpack: {type(exc).__name__}") from None
    if not isinstance(data, dict):
        raise Malformed("the message is not a msgpack map")
    missing = sorted(set(FIELDS) - set(data))
    if missing:
        raise BadField(f"missing field {', '.join(missing)}")
    extra = sorted(str(k) for k in set(data) - set(FIELDS))
    if extra:
        raise BadField(f"unknown field {', '.join(extra)}")
    for name, check in FIELDS.items():
        if not check(data[name]):
            raise BadField(f"field {name!r} ({FIELD_NAMES[name]}) has the wrong type or size")
    if data["v"] != PROTOCOL_VERSION:
        raise WrongVersion(f"protocol version {data['v']}, this client speaks {PROTOCOL_VERSION}")
    check_body(data["k"], data["b"])
    if _has_float(data["b"]):
        raise BadField("floats are not allowed on the wire")
    try:
        valid = _signature_ok(raw, data)
    except (ValueError, TypeError):
        valid = False
    if not valid:
        raise BadSignature("the signature does not match the sender's key")
    env = Envelope(
        version=data["v"], gid=data["g"], kind=data["k"], sender=data["p"], seat=data["s"],
        step=data["n"], nonce=data["q"], body=data["b"], state_hash=data["h"],
        prev_hash=data["c"], signature=data["z"], raw=raw,
    )
    _cache(env)
    return env


def remember(env: Envelope) -> None:
    """Record an envelope this process just signed, so local peers need not verify it again."""
    _cache(env)


def _cache(env: Envelope) -> None:
    global _verified_bytes
    if env.raw in _VERIFIED:
        return
    _VERIFIED[env.raw] = env
    _verified_bytes += 2 * len(env.raw)  # the bytes and, about as large, the decoded body
    while len(_VERIFIED) > _VERIFIED_MAX or _verified_bytes > VERIFIED_BYTES_MAX:
        raw, _ = _VERIFIED.popitem(last=False)
        _verified_bytes -= 2 * len(raw)


def verified_cache_bytes() -> int:
    """Bytes of messages held by the verification cache (bounded by VERIFIED_BYTES_MAX)."""
    return _verified_bytes
