"""The Ten screen: text (cards as text), board and panels (parts of the screen), widgets
(modal and end screens) and screen (TenScreen)."""

from .screen import TenScreen
from .widgets import CollectionsScreen, TenEndScreen

__all__ = ["CollectionsScreen", "TenEndScreen", "TenScreen"]
