"""The TUI registers each engine game once, by the same id: screen, help page and styles."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from textual.screen import Screen

import engine.registry
from engine.registry import game_ids, get_descriptor
from tui.cli import main
from tui.games import GAMES, help_text, screen_class
from tui.games.base import GameScreen
from tui.screens.new_game import playable_games


def test_the_engine_and_the_tui_list_the_same_games():
    assert sorted(GAMES) == game_ids()
    assert [gid for gid, _ in playable_games()] == game_ids()


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_the_screen_is_registered_under_its_games_id(game_id):
    screen = screen_class(game_id)
    assert issubclass(screen, GameScreen) and screen.GAME_ID == game_id


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_the_help_page_has_the_rules_the_keys_and_every_option(game_id):
    page = GAMES[game_id].help_path
    assert page.is_file() and page.read_text(encoding="utf-8").strip()
    text = help_text(game_id)
    assert text.startswith("# ") and "## Keys" in text and "## Options" in text
    for doc in get_descriptor(game_id).options:
        assert f"`{doc.name}`" in text or f"**{doc.label}**" in text, doc.name


def _paths(css_path) -> set[Path]:
    items = css_path if isinstance(css_path, list | tuple) else [css_path]
    return {Path(p).resolve() for p in items if p}


def _screens_styled_by(path: Path) -> set[str]:
    """Names of every loaded Screen class whose CSS_PATH is this file."""
    seen, todo = set(), [Screen]
    while todo:
        cls = todo.pop()
        todo += cls.__subclasses__()
        if path.resolve() in _paths(getattr(cls, "CSS_PATH", None)):
            seen.add(cls.__name__)
    return seen


def _type_name(selector: str) -> str | None:
    match = re.match(r"[A-Za-z_]\w*", selector)
    return match[0] if match else None


def top_level_selectors(css: str) -> list[str]:
    """The selectors of the rules at the top of a .tcss file (nested ones are left out)."""
    css = re.sub(r"/\*.*?\*/", "", css, flags=re.S)
    depth, text, out = 0, "", []
    for char in css:
        if char == "{":
            if depth == 0:
                out += [s.strip() for s in text.split(",")]
            depth, text = depth + 1, ""
        elif char == "}":
            depth, text = depth - 1, ""
        elif char == ";":
            text = ""
        else:
            text += char
    return out


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_the_styles_are_the_screens_and_scoped_to_it(game_id):
    path = GAMES[game_id].styles_path
    screen = screen_class(game_id)
    assert path.is_file()
    assert path.resolve() in _paths(screen.CSS_PATH)
    owners = _screens_styled_by(path)
    selectors = top_level_selectors(path.read_text(encoding="utf-8"))
    assert any(s.split()[0] == screen.__name__ for s in selectors)
    # A bare `#id` at the top would restyle every screen with that id (docs/tui.md, Styles).
    unscoped = [s for s in selectors if _type_name(s) not in owners]
    assert not unscoped, f"{path.name}: rules outside its screens {sorted(owners)}: {unscoped}"


def test_the_selector_reader_sees_only_top_level_rules():
    css = "/* c { } */ MoneyScreen { #a { x: 1; } } #bare, TenScreen .b { y: 2; }"
    assert top_level_selectors(css) == ["MoneyScreen", "#bare", "TenScreen .b"]


def test_a_fifth_game_without_a_screen_still_has_rules_selfplay_and_a_score_pad(monkeypatch, capsys):
    monkeypatch.setitem(engine.registry._GAMES, "nettest", "tests.engine.fifth_game")
    assert "nettest" not in [gid for gid, _ in playable_games()]  # no screen: not in the form
    assert main(["rules", "nettest"]) == 0
    out = capsys.readouterr().out
    assert "no rules summary" in out and "**Rounds** (1 / 2 / 3 / 4 / 5 / 6 / 20)" in out
    assert main(["selfplay", "nettest", "--games", "2", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["games"] == 2
    assert main(["score", "nettest", "--template", "--players", "3"]) == 0
    assert len(json.loads(capsys.readouterr().out)["players"]) == 3
