"""The 7 Wonders screen: text (cards and cities as text), board and hand (parts of the
screen), widgets (modal and end screens) and screen (SevenWondersScreen)."""

from .screen import SevenWondersScreen
from .widgets import CitiesScreen, SevenWondersEndScreen

__all__ = ["CitiesScreen", "SevenWondersEndScreen", "SevenWondersScreen"]
