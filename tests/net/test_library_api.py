"""gamenight reaches aiomqtt, paho-mqtt and amqtt through their public API only.

An AST scan of net/, bench/ and tests/: it follows which names hold those libraries' modules,
classes and objects (imports, what their calls return, attributes and locals assigned from
them, parameters annotated with their types or passed them by a call in the same module,
subclasses of their classes) and reports every `_private` attribute reached on one, by a
dotted name, by getattr/setattr/hasattr/delattr, by a subclass's `self` or `super()`, or by
overriding a private method. A library upgrade may change private names without notice.
"""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
LIBRARIES = ("aiomqtt", "paho", "amqtt")
REFLECTION = ("getattr", "setattr", "hasattr", "delattr")

# The one private name left, and why no public path exists: amqtt 0.12.1 iterates its
# subscription table while awaiting, and a client subscribing meanwhile kills another's session
# (tests/net/test_embedded_broker.py reproduces it). amqtt exposes that table only as a
# read-only property returning the same dict, a dict's class cannot be reassigned, and no
# plugin hook runs around that loop; so net/broker.py swaps the table before the broker starts.
ALLOWED = {("net/broker.py", "_subscriptions")}


def _private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def _target_names(target: ast.AST | None) -> list[str]:
    """The names an assignment target binds: `x`, `self.x`, each of a tuple's."""
    if isinstance(target, ast.Name):
        return [target.id]
    if isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name) and target.value.id == "self":
        return [f"self.{target.attr}"]
    if isinstance(target, (ast.Tuple, ast.List)):
        return [name for element in target.elts for name in _target_names(element)]
    if isinstance(target, ast.Starred):
        return _target_names(target.value)
    return []


def _resolve(path: str) -> object | None:
    """The object a dotted library path names (module, then attributes), or None."""
    parts = path.split(".")
    for i in range(len(parts), 0, -1):
        try:
            obj: object = importlib.import_module(".".join(parts[:i]))
        except ImportError:
            continue
        for part in parts[i:]:
            obj = getattr(obj, part, None)
        return obj
    return None


class _Module:
    """What one module binds to the libraries, computed to a fixpoint, then its violations."""

    def __init__(self, tree: ast.Module) -> None:
        self.tree = tree
        self.imported: dict[str, str] = {}  # local name -> dotted library path
        self.functions = {f.name: f for f in ast.walk(tree) if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef))}
        self.bound: dict[ast.AST, set[str]] = {}  # scope (function or class) -> names holding library objects
        self.subclasses: dict[str, object] = {}  # our class -> its library base class
        self.found: set[str] = set()
        self.parent = {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}
        self._imports()
        self._scopes()

    def _imports(self) -> None:
        for node in ast.walk(self.tree):
            if isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.name.split(".")[0] in LIBRARIES:
                        local = alias.asname or alias.name.split(".")[0]
                        self.imported[local] = alias.name if alias.asname else local
            elif isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] in LIBRARIES:
                for alias in node.names:
                    self.imported[alias.asname or alias.name] = f"{node.module}.{alias.name}"

    def _scopes(self) -> None:
        for node in ast.walk(self.tree):
            if isinstance(node, ast.ClassDef):
                for base in node.bases:
                    path = self._path(base)
                    if path is not None and isinstance(_resolve(path), type):
                        self.subclasses[node.name] = _resolve(path)
        for _ in range(4):  # bindings flow through assignments and calls: a few rounds settle them
            for node in ast.walk(self.tree):
                self._learn(node)

    def _path(self, node: ast.AST) -> str | None:
        """The dotted library path of `mqtt.Client`-like expressions."""
        if isinstance(node, ast.Name) and node.id in self.imported:
            return self.imported[node.id]
        if isinstance(node, ast.Attribute):
            head = self._path(node.value)
            return f"{head}.{node.attr}" if head else None
        return None

    def _scope_of(self, node: ast.AST) -> list[ast.AST]:
        """The functions and classes around `node`, outermost first."""
        scopes = []
        while node in self.parent:
            node = self.parent[node]
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                scopes.append(node)
        return scopes[::-1]

    def is_library(self, node: ast.AST, scopes: list[ast.AST]) -> bool:
        if isinstance(node, ast.Name):
            return node.id in self.imported or any(node.id in self.bound.get(s, ()) for s in scopes)
        if isinstance(node, ast.Attribute):
            if isinstance(node.value, ast.Name) and node.value.id == "self":
                if self._is_subclass_self(node.value, scopes) and node.attr not in self._ours(scopes):
                    return True  # the library's own attribute of the object we extend
                return any(f"self.{node.attr}" in self.bound.get(s, ()) for s in scopes)
            return self.is_library(node.value, scopes)
        if isinstance(node, ast.Call):
            func = node.func
            if isinstance(func, ast.Name) and func.id == "super":
                return self._in_subclass(scopes)
            target = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)
            local = self.functions.get(target) if target else None
            if local is not None and local.returns is not None and self._path(local.returns):
                return True
            return self.is_library(func, scopes)
        if isinstance(node, ast.Await):
            return self.is_library(node.value, scopes)
        return False

    def _in_subclass(self, scopes: list[ast.AST]) -> bool:
        return any(isinstance(s, ast.ClassDef) and s.name in self.subclasses for s in scopes)

    def _bind(self, scopes: list[ast.AST], name: str) -> None:
        if scopes:
            scope = scopes[-1] if not name.startswith("self.") else next(
                (s for s in reversed(scopes) if isinstance(s, ast.ClassDef)), scopes[-1])
            self.bound.setdefault(scope, set()).add(name)

    def _learn(self, node: ast.AST) -> None:
        if isinstance(node, (ast.Assign, ast.AnnAssign, ast.For, ast.AsyncFor, ast.withitem)):
            value = {ast.For: "iter", ast.AsyncFor: "iter", ast.withitem: "context_expr"}.get(type(node), "value")
            source = getattr(node, value)
            targets = node.targets if isinstance(node, ast.Assign) else [
                getattr(node, "optional_vars", None) if isinstance(node, ast.withitem) else node.target]
            scopes = self._scope_of(node)
            if source is not None and self.is_library(source, scopes):
                for target in targets:
                    for name in _target_names(target):
                        self._bind(scopes, name)
            if isinstance(node, ast.Assign):
                for target in node.targets:
                    self._callbacks(target, node.value, scopes)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            for arg in node.args.args + node.args.kwonlyargs:
                if arg.annotation is not None and self._path(arg.annotation):
                    self.bound.setdefault(node, set()).add(arg.arg)
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in self.functions:
            callee, scopes = self.functions[node.func.id], self._scope_of(node)
            params = callee.args.args
            for i, arg in enumerate(node.args):
                if i < len(params) and self.is_library(arg, scopes):
                    self.bound.setdefault(callee, set()).add(params[i].arg)

    def _callbacks(self, target: ast.AST, value: ast.AST, scopes: list[ast.AST]) -> None:
        """`paho.on_message = self._on_message`: the library calls it with its own objects (the
        client, the socket, the message), so every parameter but `self` holds one."""
        if isinstance(target, ast.Tuple) and isinstance(value, ast.Tuple):
            for one_target, one_value in zip(target.elts, value.elts, strict=False):
                self._callbacks(one_target, one_value, scopes)
            return
        if not (isinstance(target, ast.Attribute) and target.attr.startswith("on_")
                and self.is_library(target.value, scopes)):
            return
        name = value.attr if isinstance(value, ast.Attribute) else getattr(value, "id", None)
        callback = self.functions.get(name) if name else None
        if callback is not None:
            params = callback.args.posonlyargs + callback.args.args + callback.args.kwonlyargs
            self.bound.setdefault(callback, set()).update(a.arg for a in params if a.arg != "self")

    def violations(self) -> set[str]:
        for node in ast.walk(self.tree):
            scopes = None
            if isinstance(node, ast.Attribute) and _private(node.attr):
                scopes = self._scope_of(node)
                if self.is_library(node.value, scopes) or self._subclass_reach(node, scopes):
                    self.found.add(node.attr)
            elif isinstance(node, ast.Call) and getattr(node.func, "id", None) in REFLECTION and len(node.args) >= 2:
                name = node.args[1]
                if isinstance(name, ast.Constant) and isinstance(name.value, str) and _private(name.value):
                    scopes = self._scope_of(node)
                    if self.is_library(node.args[0], scopes) or self._is_subclass_self(node.args[0], scopes):
                        self.found.add(name.value)
            elif isinstance(node, ast.ClassDef) and node.name in self.subclasses:
                base = self.subclasses[node.name]
                for item in node.body:
                    if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)) and _private(item.name) \
                            and hasattr(base, item.name):
                        self.found.add(item.name)  # overrides a private method
        return self.found

    def _is_subclass_self(self, node: ast.AST, scopes: list[ast.AST]) -> bool:
        return isinstance(node, ast.Name) and node.id == "self" and self._in_subclass(scopes)

    def _subclass_reach(self, node: ast.Attribute, scopes: list[ast.AST]) -> bool:
        """`self._x` in our subclass of a library class, `_x` being the library's, not ours."""
        if not self._is_subclass_self(node.value, scopes):
            return False
        cls = next(s for s in reversed(scopes) if isinstance(s, ast.ClassDef) and s.name in self.subclasses)
        return hasattr(self.subclasses[cls.name], node.attr) or node.attr not in self._ours(scopes)

    def _ours(self, scopes: list[ast.AST]) -> set[str]:
        """The attributes our library subclass assigns itself (`self.x = ...`)."""
        cls = next(s for s in reversed(scopes) if isinstance(s, ast.ClassDef) and s.name in self.subclasses)
        return {t.attr for t in ast.walk(cls) if isinstance(t, ast.Attribute) and isinstance(t.ctx, ast.Store)
                and isinstance(t.value, ast.Name) and t.value.id == "self"}


def private_reaches(source: str) -> set[str]:
    """The private library names one module's source reaches."""
    return _Module(ast.parse(source)).violations()


def test_no_module_reaches_a_private_name_of_aiomqtt_paho_or_amqtt() -> None:
    found = set()
    for folder in ("net", "bench", "tests"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            if path.name == Path(__file__).name:
                continue  # its examples below are meant to be found
            found |= {(path.relative_to(ROOT).as_posix(), name) for name in private_reaches(path.read_text())}
    assert found == ALLOWED


def test_the_scan_finds_each_way_of_reaching_inside() -> None:
    """The shapes the transport and broker used before (net/mqtt.py's fast-path adapter)."""
    subclass = '''
import threading
import aiomqtt
class Direct(aiomqtt.Client):
    def __init__(self, *a):
        super().__init__(*a)
        self._mine = 1
        self._lock = getattr(self._client, "_in_callback_mutex", None)
    def _on_message(self, client, userdata, message):
        return self._mine
    def _on_socket_register_write(self, client, userdata, sock):
        if not self._disconnected.done():
            super()._on_socket_register_write(client, userdata, sock)
'''
    assert private_reaches(subclass) == {"_client", "_in_callback_mutex", "_on_message",
                                         "_on_socket_register_write", "_disconnected"}
    broker = '''
def guard(broker: object) -> None:
    broker._subscriptions = dict(broker._subscriptions)
class Host:
    async def start(self):
        from amqtt.broker import Broker
        self._broker = Broker({})
        guard(self._broker)
'''
    assert private_reaches(broker) == {"_subscriptions"}
    paho = '''
import paho.mqtt.client as mqtt
def make() -> mqtt.Client:
    return mqtt.Client()
class Mine:
    def __init__(self):
        self._paho = make()
        self._own = 2
        self._paho.on_socket_open, self._paho.on_log = self._opened, print
    def go(self, client: mqtt.Client):
        sock = self._paho.socket()
        return client._sock, self._own, hasattr(self._paho, "_out_packet"), sock._x
    def _opened(self, client, userdata, sock):
        return client._thread, sock.fileno(), self._own
'''
    assert private_reaches(paho) == {"_sock", "_out_packet", "_x", "_thread"}


def test_public_names_and_our_own_private_ones_pass() -> None:
    source = '''
import aiomqtt
class Plain(aiomqtt.Client):
    def __init__(self, *a):
        super().__init__(*a)
        self.pending_calls_threshold = 5
class Transport:
    def __init__(self):
        self._client = None
        self._tasks = []
    async def run(self):
        async with aiomqtt.Client("h") as client:
            self._client = client
            async for message in client.messages:
                print(message.topic, self._tasks)
'''
    assert private_reaches(source) == set()
