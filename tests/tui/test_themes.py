"""The accessible themes: a high-contrast one and a colour-blind-safe one, chosen in the config
file or from the menu (kept for next time), and every game screen drawn in them."""

from __future__ import annotations

import pytest
from textual.color import Color

from tui.app import GamenightApp
from tui.config import ConfigError, load_config, user_config_path
from tui.screens.new_game import GameSetup
from tui.themes import COLOUR_BLIND, HIGH_CONTRAST

from .helpers import screen_text, settle

# Viénot, Brettel & Mollon (1999): what protanopes and deuteranopes see, on linear RGB.
DICHROMATS = {
    "protanopia": ((0.11238, 0.88762, 0.0), (0.11238, 0.88762, 0.0), (0.00401, -0.00401, 1.0)),
    "deuteranopia": ((0.29275, 0.70725, 0.0), (0.29275, 0.70725, 0.0), (-0.02234, 0.02234, 1.0)),
}


def _linear(colour: str) -> tuple[float, ...]:
    def channel(value: int) -> float:
        c = value / 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    parsed = Color.parse(colour)
    return tuple(channel(v) for v in (parsed.r, parsed.g, parsed.b))


def _lab(linear: tuple[float, ...]) -> tuple[float, float, float]:
    r, g, b = linear
    x, y, z = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047, 0.2126 * r + 0.7152 * g + 0.0722 * b, \
        (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116

    return 116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))


def _seen_apart(a: str, b: str, matrix) -> float:
    """CIELAB distance between two colours as a dichromat sees them."""
    seen = [tuple(sum(row[k] * c[k] for k in range(3)) for row in matrix) for c in (_linear(a), _linear(b))]
    return sum((p - q) ** 2 for p, q in zip(_lab(seen[0]), _lab(seen[1]), strict=True)) ** 0.5


def _contrast(a: str, b: str) -> float:
    """WCAG 2 contrast ratio."""
    def luminance(colour: str) -> float:
        r, g, b = _linear(colour)
        return 0.2126 * r + 0.7152 * g + 0.0722 * b

    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


@pytest.mark.parametrize("kind", DICHROMATS)
def test_the_colour_blind_palette_keeps_success_warning_and_error_apart(kind):
    matrix = DICHROMATS[kind]
    for a, b in ((COLOUR_BLIND.success, COLOUR_BLIND.error), (COLOUR_BLIND.warning, COLOUR_BLIND.error),
                 (COLOUR_BLIND.primary, COLOUR_BLIND.error)):
        assert _seen_apart(a, b, matrix) >= 30, (a, b)
    # the test can tell: Textual's default green and red come close for a deuteranope
    assert kind == "protanopia" or _seen_apart("#4EBF71", "#ba3c5b", matrix) < 30


def test_high_contrast_text_and_accents_reach_wcag_aaa_on_its_background():
    for colour in (HIGH_CONTRAST.foreground, HIGH_CONTRAST.primary, HIGH_CONTRAST.accent,
                   HIGH_CONTRAST.success, HIGH_CONTRAST.warning, HIGH_CONTRAST.error):
        assert _contrast(colour, HIGH_CONTRAST.background) >= 7, colour


async def test_v_in_the_menu_cycles_the_themes_keeps_the_choice_and_the_next_start_uses_it(config):
    app = GamenightApp(config=config)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert app.theme == "textual-dark" and "Theme: textual dark" in screen_text(app)
        await pilot.press("v", "v")
        await settle(pilot)
        assert app.theme == HIGH_CONTRAST.name and "Theme: high contrast" in screen_text(app)
        assert app.screen.styles.background == Color.parse(HIGH_CONTRAST.background)
    assert 'theme = "gamenight-high-contrast"' in user_config_path().read_text()
    loaded = load_config()
    assert loaded.ui.theme == HIGH_CONTRAST.name
    again = GamenightApp(config=loaded)
    async with again.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert again.theme == HIGH_CONTRAST.name


@pytest.mark.parametrize("theme", [HIGH_CONTRAST.name, COLOUR_BLIND.name])
@pytest.mark.parametrize("game", ["money", "ten", "sheriff", "seven_wonders"])
async def test_every_game_screen_draws_in_the_accessible_themes(config, game, theme):
    from dataclasses import replace

    config = replace(config, ui=replace(config.ui, theme=theme))
    app = GamenightApp(start=GameSetup(game, 3 if game != "sheriff" else 4, 2 if game != "sheriff" else 3,
                                       seed=5, names=["Ann"], bot_delay=0), config=config)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert app.theme == theme
        text = screen_text(app)
        assert "Ann" in text and "could not be drawn" not in text


def test_an_unknown_theme_in_the_config_names_the_accessible_ones(tmp_path):
    path = user_config_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text('[ui]\ntheme = "rainbow"\n')
    with pytest.raises(ConfigError) as caught:
        load_config()
    assert "gamenight-high-contrast" in str(caught.value) and "gamenight-colour-blind" in str(caught.value)
