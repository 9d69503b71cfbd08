"""The embedded broker's login check, an amqtt authentication plugin (its public extension point).

One username and password for the table, given to the broker through its plugin config. Only
a SHA-256 of the password is kept, and it is compared in constant time.
"""

from __future__ import annotations

import hmac
from dataclasses import dataclass
from hashlib import sha256

from amqtt.plugins.base import BaseAuthPlugin
from amqtt.session import Session


def password_digest(password: str) -> str:
    return sha256(b"gamenight broker login\0" + password.encode()).hexdigest()


class LoginPlugin(BaseAuthPlugin):
    """Admits a client whose CONNECT carries the configured username and password."""

    async def authenticate(self, *, session: Session) -> bool | None:
        if not await super().authenticate(session=session):
            return False
        config = self.context.config
        user_ok = hmac.compare_digest((session.username or "").encode(), config.username.encode())
        given = password_digest(session.password or "")
        return user_ok and hmac.compare_digest(given, config.password_digest)

    @dataclass
    class Config:
        username: str = ""
        password_digest: str = ""
