"""The code stays readable: no module of engine/, net/ or tui/ over ~500 lines, no function
over 60.

A module that grows past these limits gets another module beside it in its package (text,
widgets, board, panels; setup, checks, view ...), not a longer one. `KNOWN_LONG` names what is
still over, with why: an entry that is no longer over fails the test, so the list only shrinks.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
GAMES = ROOT / "tui" / "games"
MAX_MODULE_LINES = 500
MAX_FUNCTION_LINES = 60
MODULES = sorted(p for layer in ("engine", "net", "tui") for p in (ROOT / layer).rglob("*.py"))

KNOWN_LONG: dict[str, str] = {}
"""Modules (path) and functions (path:name) known to be over the limits -> why."""


def names(paths: list[Path]) -> list[str]:
    return [str(p.relative_to(ROOT)) for p in paths]


def long_functions(source: str, known: frozenset[str] = frozenset()) -> list[str]:
    """Every function (methods and nested ones too) longer than the limit, with its length,
    but those named in `known`."""
    return [
        f"{node.name} ({node.end_lineno - node.lineno + 1} lines, line {node.lineno})"
        for node in ast.walk(ast.parse(source))
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
        and node.end_lineno - node.lineno + 1 > MAX_FUNCTION_LINES and node.name not in known
    ]


def test_every_game_has_a_package():
    packages = {p.parent.name for p in GAMES.glob("*/__init__.py")}
    assert {"money", "ten", "sheriff", "seven_wonders"} <= packages
    assert not [p.name for p in GAMES.glob("*.py") if p.stem in packages], "a game is both a module and a package"


@pytest.mark.parametrize("path", MODULES, ids=names(MODULES))
def test_module_and_function_sizes(path: Path):
    name = str(path.relative_to(ROOT))
    source = path.read_text(encoding="utf-8")
    lines = len(source.splitlines())
    if name not in KNOWN_LONG:
        assert lines <= MAX_MODULE_LINES, f"{name} has {lines} lines: split it"
    known = frozenset(key.split(":")[1] for key in KNOWN_LONG if key.startswith(name + ":"))
    long = long_functions(source, known)
    assert not long, f"{name}: functions over {MAX_FUNCTION_LINES} lines: {', '.join(long)}"


@pytest.mark.parametrize("key", sorted(KNOWN_LONG))
def test_what_is_known_to_be_long_still_is(key: str):
    path, _, function = key.partition(":")
    source = (ROOT / path).read_text(encoding="utf-8")
    if function:
        assert any(
            entry.startswith(function + " ") for entry in long_functions(source)), \
            f"{key} is no longer over {MAX_FUNCTION_LINES} lines: drop it from KNOWN_LONG"
    else:
        assert len(source.splitlines()) > MAX_MODULE_LINES, \
            f"{path} is no longer over {MAX_MODULE_LINES} lines: drop it from KNOWN_LONG"


def test_the_check_finds_a_long_method_and_passes_a_short_one():
    body = "\n".join(f"        x{i} = {i}" for i in range(MAX_FUNCTION_LINES))
    assert long_functions(f"class C:\n    def f(self):\n{body}\n") == [
        f"f ({MAX_FUNCTION_LINES + 1} lines, line 2)"]
    assert long_functions("def g():\n    return 1\n") == []
