"""The engine's small error hierarchy; each error carries a stable code for the wire."""

from __future__ import annotations


class GameError(Exception):
    """Base of every error the engine raises on purpose."""

    code = "game_error"

    def __init__(self, reason: str, code: str | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        if code is not None:
            self.code = code

    def __str__(self) -> str:
        return self.reason


class IllegalAction(GameError):
    """An action the rules do not allow now; `reason` is written for a player to read."""

    code = "illegal_action"


class NotYourTurn(IllegalAction):
    code = "not_active"


class GameOver(IllegalAction):
    code = "game_over"


class InvalidOption(GameError):
    """A setup option that is unknown, of the wrong type or out of range."""

    code = "invalid_option"


class DecodeError(GameError):
    """Plain data that does not describe a known engine value."""

    code = "decode_error"


class ReplayError(GameError):
    """An action log that does not replay (wrong game, illegal step, hash mismatch)."""

    code = "replay_error"
