"""The Money! screen: text (cards as text) and screen (MoneyScreen)."""

from .screen import MoneyScreen

__all__ = ["MoneyScreen"]
