"""gamenight's own themes, besides Textual's: one of high contrast and one safe for colour
blindness. Every screen takes its colours from the theme's variables ($primary, $error, …),
so a theme is a palette and nothing else; what a colour means is also said in words or
symbols on screen (a card's kind, the current player's ▶, an error's text).

High contrast: pure black and white, the accents at full brightness (WCAG AAA contrast for
text). Colour blind: the Okabe–Ito palette (Okabe & Ito 2008), told apart with every common
colour vision deficiency; success and error are sky blue and vermilion, never green and red.
"""

from __future__ import annotations

from textual.theme import BUILTIN_THEMES, Theme

HIGH_CONTRAST = Theme(
    name="gamenight-high-contrast",
    primary="#FFFF00",
    secondary="#00FFFF",
    accent="#FFFF00",
    warning="#FFB000",
    error="#FF6E6E",
    success="#00FFFF",
    foreground="#FFFFFF",
    background="#000000",
    surface="#000000",
    panel="#1A1A1A",
    boost="#333333",
    dark=True,
    luminosity_spread=0.25,
    text_alpha=1.0,
    variables={"footer-key-foreground": "#FFFF00", "block-cursor-foreground": "#000000",
               "block-cursor-background": "#FFFF00", "input-selection-background": "#FFFF00 40%"},
)

COLOUR_BLIND = Theme(
    name="gamenight-colour-blind",
    primary="#0072B2",  # blue
    secondary="#56B4E9",  # sky blue
    accent="#E69F00",  # orange
    warning="#F0E442",  # yellow
    error="#D55E00",  # vermilion
    success="#56B4E9",  # sky blue
    foreground="#F0F0F0",
    background="#101418",
    surface="#181E24",
    panel="#22303C",
    dark=True,
)

THEMES = (HIGH_CONTRAST, COLOUR_BLIND)
CHOICES = ("textual-dark", "textual-light", HIGH_CONTRAST.name, COLOUR_BLIND.name)
"""The themes the menu cycles through (any of Textual's can be set in the config file)."""


def theme_names() -> frozenset[str]:
    """Every theme a config may name: Textual's and ours."""
    return frozenset(BUILTIN_THEMES) | {theme.name for theme in THEMES}


def theme_label(name: str) -> str:
    """The theme for the menu's row: "high contrast", "colour blind", "textual-dark"."""
    return name.removeprefix("gamenight-").replace("-", " ")
