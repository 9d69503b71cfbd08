"""The Sheriff of Nottingham screen: text (goods as text), widgets (the text box), board,
detail, choices and offer (parts of the screen) and screen (SheriffScreen)."""

from .screen import SheriffScreen

__all__ = ["SheriffScreen"]
