"""The game screens stay readable: no module of tui/games over ~500 lines, no function over 60.

A screen that grows past these limits gets another module in its package (text, widgets,
board, panels ...), not a longer one.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

GAMES = Path(__file__).resolve().parents[2] / "tui" / "games"
MAX_MODULE_LINES = 500
MAX_FUNCTION_LINES = 60
MODULES = sorted(GAMES.rglob("*.py"))


def names(paths: list[Path]) -> list[str]:
    return [str(p.relative_to(GAMES)) for p in paths]


def long_functions(source: str) -> list[str]:
    """Every function (methods and nested ones too) longer than the limit, with its length."""
    return [
        f"{node.name} ({node.end_lineno - node.lineno + 1} lines, line {node.lineno})"
        for node in ast.walk(ast.parse(source))
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
        and node.end_lineno - node.lineno + 1 > MAX_FUNCTION_LINES
    ]


def test_every_game_has_a_package():
    packages = {p.parent.name for p in GAMES.glob("*/__init__.py")}
    assert {"money", "ten", "sheriff", "seven_wonders"} <= packages
    assert not [p.name for p in GAMES.glob("*.py") if p.stem in packages], "a game is both a module and a package"


@pytest.mark.parametrize("path", MODULES, ids=names(MODULES))
def test_module_and_function_sizes(path: Path):
    source = path.read_text(encoding="utf-8")
    lines = len(source.splitlines())
    assert lines <= MAX_MODULE_LINES, f"{path.name} has {lines} lines: split it"
    long = long_functions(source)
    assert not long, f"{path.name}: functions over {MAX_FUNCTION_LINES} lines: {', '.join(long)}"


def test_the_check_finds_a_long_method_and_passes_a_short_one():
    body = "\n".join(f"        x{i} = {i}" for i in range(MAX_FUNCTION_LINES))
    assert long_functions(f"class C:\n    def f(self):\n{body}\n") == [
        f"f ({MAX_FUNCTION_LINES + 1} lines, line 2)"]
    assert long_functions("def g():\n    return 1\n") == []
