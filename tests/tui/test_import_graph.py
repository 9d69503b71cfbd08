"""No import circle in engine/, net/ and tui/: every `import` and `from ... import` counts, also
one inside a function (imported on use) or under `if TYPE_CHECKING:` — a circle is a design
knot wherever the import sits, not only when it fails at import time. And the layers only
point downwards (tui -> net -> engine, DESIGN.md).

FOR THE LEAD: `KNOWN_CIRCLES` lists the circles found outside this change's reach (other
engineers own them, issue 21). A circle is tolerated only while all its modules are inside one
listed package; delete the entry once its owner has broken the circle.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
LAYERS = ("engine", "net", "tui")

KNOWN_CIRCLES: dict[tuple[str, ...], str] = {}
"""The modules (and packages) each known circle may span -> what it is and whose it is."""


def module_files(root: Path) -> dict[str, tuple[Path, bool]]:
    """Dotted module name -> (file, is a package's __init__) for every module of the layers."""
    modules = {}
    for layer in LAYERS:
        for path in (root / layer).rglob("*.py"):
            parts = list(path.relative_to(root).with_suffix("").parts)
            package = parts[-1] == "__init__"
            modules[".".join(parts[:-1] if package else parts)] = (path, package)
    return modules


def imported(source: str, module: str, package: bool, known: set[str]) -> set[str]:
    """The modules of `known` that `source` (the text of `module`) imports, anywhere in it."""
    found = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found.update(_known(alias.name, known) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = _absolute(node.module or "", module, package, node.level)
            for alias in node.names:  # `from pkg import sub` imports the module pkg.sub
                name = f"{base}.{alias.name}"
                found.add(name if name in known else _known(base, known))
    found.discard(module)
    found.discard("")
    return found


def _absolute(name: str, module: str, package: bool, level: int) -> str:
    if not level:
        return name
    parts = module.split(".")
    if not package:
        parts = parts[:-1]
    parts = parts[: len(parts) - (level - 1)]
    return ".".join(parts + ([name] if name else []))


def _known(name: str, known: set[str]) -> str:
    """The deepest module of `known` that `name` is or lies in ("" outside the layers)."""
    while name and name not in known:
        name = name.rpartition(".")[0]
    return name


def import_graph(root: Path) -> dict[str, set[str]]:
    modules = module_files(root)
    known = set(modules)
    return {name: imported(path.read_text(encoding="utf-8"), name, package, known)
            for name, (path, package) in modules.items()}


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Every import circle: the strongly connected groups of two or more modules (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for other in sorted(graph.get(node, ())):
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    sys.setrecursionlimit(max(sys.getrecursionlimit(), 4 * len(graph) + 100))
    for node in sorted(graph):
        if node not in index:
            visit(node)
    return sorted(found)


def tolerated(group: list[str], known_circles: dict[tuple[str, ...], str] = KNOWN_CIRCLES) -> bool:
    """True when every module of the circle lies in the modules of one known circle."""
    return any(all(any(m == p or m.startswith(p + ".") for p in known) for m in group) for known in known_circles)


def test_the_graph_reads_relative_lazy_and_package_imports():
    known = {"tui", "tui.app", "tui.cli", "tui.screens", "tui.screens.menu", "net", "net.peer"}
    source = ("from . import cli\nimport net.peer\nfrom tui import Thing\n"
              "def later():\n    from .screens.menu import Menu\n    from textual.app import App\n")
    assert imported(source, "tui.app", False, known) == {"tui.cli", "tui.screens.menu", "net.peer", "tui"}
    assert imported("from .. import app\n", "tui.screens.menu", False, known) == {"tui.app"}
    assert imported("from .menu import Menu\n", "tui.screens", True, known) == {"tui.screens.menu"}


def test_the_check_finds_a_circle_and_passes_a_tree():
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert circles({"a": {"b", "c"}, "b": {"c"}, "c": set()}) == []
    known = {("net.lockstep",): "an example: a circle inside one package"}
    assert tolerated(["net.lockstep.dealing", "net.lockstep.steps"], known)
    assert not tolerated(["tui.games.sheriff.screen", "tui.games.sheriff.widgets"], known)
    assert not tolerated(["net.lockstep.steps", "net.peer"], known)
    assert not tolerated(["net.relay", "net.relay_lending"], known)
    assert not tolerated(["net.lockstep.dealing", "net.lockstep.steps"])  # none is known today


def test_no_import_circle_in_engine_net_and_tui():
    graph = import_graph(ROOT)
    assert {"tui.app", "net.peer", "engine.core"} <= set(graph)
    assert not [group for group in circles(graph) if not tolerated(group)]


def test_tui_has_no_import_circle_outside_the_sheriff_screen():
    graph = import_graph(ROOT)
    tui = {name: {m for m in deps if m.startswith("tui")} for name, deps in graph.items() if name.startswith("tui")}
    assert [group for group in circles(tui) if not group[0].startswith("tui.games.sheriff.")] == []


def upward_imports(graph: dict[str, set[str]]) -> list[str]:
    """Imports against the layering (DESIGN.md): engine imports neither net nor tui, net not tui."""
    below = {"engine": ("engine",), "net": ("engine", "net"), "tui": LAYERS}
    return sorted(f"{module} -> {other}" for module, deps in graph.items() for other in deps
                  if other.split(".")[0] not in below[module.split(".")[0]])


def test_the_layers_only_point_downwards():
    assert upward_imports({"engine.core": {"net.codec"}, "net.peer": {"engine.core"}, "tui.app": {"net.peer"}}) == [
        "engine.core -> net.codec"]
    assert upward_imports(import_graph(ROOT)) == []
