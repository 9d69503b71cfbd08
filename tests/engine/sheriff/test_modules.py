"""Sheriff's code stays readable: modules of ~500 lines at most, functions of 60, and imports
that point one way (no circle) in the engine package and in its screen's package.

Imports inside functions count too: a circle hidden in a function is still a circle.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
PACKAGES = ("engine/sheriff", "tui/games/sheriff")
MAX_MODULE_LINES = 500
MAX_FUNCTION_LINES = 60
MODULES = sorted(p for package in PACKAGES for p in (ROOT / package).glob("*.py"))


def local_imports(source: str) -> set[str]:
    """The modules of the same package that `source` imports (`from .x import`, `from . import x`)."""
    out: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom) and node.level == 1:
            if node.module:
                out.add(node.module.split(".")[0])
            else:
                out.update(alias.name for alias in node.names)
    return out


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Every circle a depth-first walk meets, each as the path that closes it."""
    found: list[list[str]] = []
    state: dict[str, str] = {}

    def visit(name: str, path: list[str]) -> None:
        state[name] = "open"
        for other in sorted(graph[name] & set(graph)):
            if state.get(other) == "open":
                found.append(path[path.index(other):] + [name, other])
            elif other not in state:
                visit(other, path + [name])
        state[name] = "done"

    for name in sorted(graph):
        if name not in state:
            visit(name, [])
    return found


def graph_of(package: str) -> dict[str, set[str]]:
    return {p.stem: local_imports(p.read_text(encoding="utf-8")) for p in (ROOT / package).glob("*.py")}


@pytest.mark.parametrize("package", PACKAGES)
def test_no_import_circle(package: str) -> None:
    assert circles(graph_of(package)) == []


def test_the_circle_check_finds_a_circle_and_passes_a_line() -> None:
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}})
    assert circles({"screen": {"widgets"}, "widgets": {"screen"}})
    assert not circles({"game": {"rules", "dealt"}, "rules": {"common"}, "dealt": {"common"}, "common": set()})
    assert local_imports("def f():\n    from .screen import X\n") == {"screen"}


@pytest.mark.parametrize("path", MODULES, ids=[str(p.relative_to(ROOT)) for p in MODULES])
def test_module_and_function_sizes(path: Path) -> None:
    source = path.read_text(encoding="utf-8")
    assert len(source.splitlines()) <= MAX_MODULE_LINES, f"{path.name}: split it"
    long = [f"{node.name} ({node.end_lineno - node.lineno + 1} lines)"
            for node in ast.walk(ast.parse(source))
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
            and node.end_lineno - node.lineno + 1 > MAX_FUNCTION_LINES]
    assert not long, f"{path.name}: {', '.join(long)}"
