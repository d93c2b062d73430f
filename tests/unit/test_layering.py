"""The import graph keeps the layers of docs/architecture.md (issue 10).

Every ``import`` in the package is read with ``ast``, function-level (lazy)
ones included; a name read through a package's lazy exports (``_EXPORTS``) is
followed to the module that holds it. Imports under ``if TYPE_CHECKING:`` are
types only: they count for the layer rules but not for cycles, since they never
run.

* components import nothing of the plugin but ``soundscape.errors`` and
  ``soundscape.names`` (leaves: the standard library only);
* laws import nothing stateful: other laws, ``errors``, the standard library and
  numpy only (no esper, pyglet, pymunk, no service);
* a system only delegates: it imports the core (phase, system, context) and at
  most one feature package (its own), no components or laws, no esper, and its
  ``_tick`` holds no loop;
* no import cycles, lazy ones included, and the plugin's import of each feature
  by name (``importlib``) counted as an import.
"""

from __future__ import annotations

import ast
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
FOLDERS = {"soundscape": "plugin", "soundscape.components": "components",
           "soundscape.systems": "systems", "soundscape.demo_world": "demo_world"}
FEATURES = ("audio", "ac", "oni", "occlusion", "redguard", "overlay", "rooms")
CORE_FOR_SYSTEMS = {"soundscape.phase", "soundscape.system", "soundscape.context"}


@dataclass(frozen=True)
class Edge:
    source: str
    target: str
    line: int
    lazy: bool
    """Inside a function (runs on first call, not at import)."""
    typing_only: bool
    """Under ``if TYPE_CHECKING:`` (never runs)."""


def module_files() -> dict[str, Path]:
    """Every module of the package by its import name."""
    modules: dict[str, Path] = {}
    for package, folder in FOLDERS.items():
        base = ROOT / folder
        for path in base.rglob("*.py"):
            if "__pycache__" in path.parts:
                continue
            parts = list(path.relative_to(base).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            modules[".".join([package, *parts])] = path
    return modules


MODULES = module_files()


def lazy_exports(package: str) -> dict[str, str]:
    """A package ``__init__``'s ``_EXPORTS`` table (name -> module), empty if it has none."""
    path = MODULES.get(package)
    if path is None or path.name != "__init__.py":
        return {}
    for node in ast.parse(path.read_text()).body:
        if (isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Name)
                and node.targets[0].id == "_EXPORTS"):
            table = ast.literal_eval(node.value)
            return {str(k): str(v) for k, v in table.items()}
    return {}


def _targets(node: ast.Import | ast.ImportFrom) -> list[str]:
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    base = node.module or ""
    out = []
    for alias in node.names:
        sub = f"{base}.{alias.name}"
        if sub in MODULES:
            out.append(sub)  # ``from pkg import module``
        elif alias.name in lazy_exports(base):
            out.append(lazy_exports(base)[alias.name])  # a lazy export: its real module
        else:
            out.append(base)
    return out


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def edges_of(module: str) -> list[Edge]:
    """Every import ``module`` makes, with where and how it runs."""
    tree = ast.parse(MODULES[module].read_text())
    found: list[Edge] = []

    def visit(node: ast.AST, lazy: bool, typing_only: bool) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.Import, ast.ImportFrom)):
                for target in _targets(child):
                    found.append(Edge(module, target, child.lineno, lazy, typing_only))
            elif isinstance(child, ast.If) and _is_type_checking(child.test):
                for stmt in child.body:
                    visit_stmt(stmt, lazy, True)
                for stmt in child.orelse:
                    visit_stmt(stmt, lazy, typing_only)
            else:
                inner = lazy or isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef,
                                                   ast.Lambda))
                visit(child, inner, typing_only)

    def visit_stmt(stmt: ast.stmt, lazy: bool, typing_only: bool) -> None:
        wrapper = ast.Module(body=[stmt], type_ignores=[])
        visit(wrapper, lazy, typing_only)

    visit(tree, False, False)
    return found


GRAPH = {module: edges_of(module) for module in MODULES}


def _ours(target: str) -> bool:
    return target == "soundscape" or target.startswith("soundscape.")


def _top(target: str) -> str:
    return target.split(".")[0]


def test_the_parser_sees_lazy_and_type_only_imports():
    """The graph is only as good as the parser: check it on a module with all three kinds."""
    edges = {(e.target, e.lazy, e.typing_only) for e in GRAPH["soundscape.plugin"]}
    assert ("soundscape.context", False, False) in edges
    assert ("soundscape.oni.sound", False, True) in edges
    tour = {(e.target, e.lazy) for e in GRAPH["soundscape.demo_world.tour"]}
    assert ("soundscape.demo_world.capture", True) in tour
    # ``from soundscape import Settings`` is followed through the lazy exports
    game = {e.target for e in GRAPH["soundscape.demo_world.game"]}
    assert "soundscape.settings" in game and "soundscape.plugin" in game


@pytest.mark.parametrize("module", sorted(m for m in MODULES
                                          if m.startswith("soundscape.components")))
def test_components_import_nothing_of_the_plugin_but_errors(module):
    allowed = {"soundscape.errors", "soundscape.names"}
    bad = [e for e in GRAPH[module] if _ours(e.target) and e.target not in allowed
           and not e.target.startswith("soundscape.components")]
    assert not bad, f"{module} imports {[(e.target, e.line) for e in bad]}"


@pytest.mark.parametrize("module", sorted(m for m in MODULES if m.startswith("soundscape.laws")))
def test_laws_import_nothing_stateful(module):
    stdlib = sys.stdlib_module_names
    bad = []
    for e in GRAPH[module]:
        if _ours(e.target):
            ok = e.target.startswith("soundscape.laws") or e.target == "soundscape.errors"
        else:
            ok = _top(e.target) in stdlib or _top(e.target) == "numpy"
        if not ok:
            bad.append((e.target, e.line))
    assert not bad, f"{module} imports {bad}"


SYSTEMS = sorted(m for m in MODULES if m.startswith("soundscape.systems."))


@pytest.mark.parametrize("module", SYSTEMS)
def test_a_system_only_delegates_to_its_features_service(module):
    features = set()
    bad = []
    for e in GRAPH[module]:
        if not _ours(e.target):
            if _top(e.target) not in ("__future__", "typing"):
                bad.append((e.target, e.line))
            continue
        if e.target in CORE_FOR_SYSTEMS:
            continue
        parts = e.target.split(".")
        if len(parts) >= 3 and parts[1] in FEATURES:
            features.add(parts[1])
        else:
            bad.append((e.target, e.line))
    assert not bad, f"{module} imports more than the core and its feature: {bad}"
    assert len(features) <= 1, f"{module} reaches into several features: {sorted(features)}"
    tree = ast.parse(MODULES[module].read_text())
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef) and node.name == "_tick":
            loops = [n for n in ast.walk(node) if isinstance(n, (ast.For, ast.While))]
            assert not loops, f"{module}._tick loops (line {loops[0].lineno}): work, not delegation"


def _cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """Every strongly connected group of more than one module (Tarjan), plus self-loops."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []
    counter = [0]

    def connect(node: str) -> None:
        index[node] = low[node] = counter[0]
        counter[0] += 1
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(edges.get(node, ())):
            if nxt not in index:
                connect(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            group = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                group.append(top)
                if top == node:
                    break
            if len(group) > 1 or node in edges.get(node, ()):
                groups.append(sorted(group))

    for node in sorted(edges):
        if node not in index:
            connect(node)
    return groups


def dynamic_edges() -> dict[str, set[str]]:
    """Imports by name at run time: the plugin installs each feature with
    ``importlib.import_module(f"soundscape.{name}.feature")`` (``_feature_installer``)."""
    from soundscape.settings import FEATURES as INSTALLABLE

    source = MODULES["soundscape.plugin"].read_text()
    assert 'import_module(f"soundscape.{name}.feature")' in source
    return {"soundscape.plugin": {f"soundscape.{name}.feature" for name in INSTALLABLE}}


def runtime_edges() -> dict[str, set[str]]:
    edges = {m: {e.target for e in GRAPH[m] if e.target in MODULES and not e.typing_only
                 and e.target != m}
             for m in MODULES}
    for module, targets in dynamic_edges().items():
        assert targets <= set(MODULES), sorted(targets - set(MODULES))
        edges[module] |= targets
    return edges


def test_the_cycle_finder_finds_a_lazy_cycle():
    assert _cycles({"a": {"b"}, "b": {"a"}, "c": {"a"}}) == [["a", "b"]]
    assert _cycles({"a": {"b"}, "b": set()}) == []


def test_no_import_cycles_lazy_ones_included():
    cycles = _cycles(runtime_edges())
    assert not cycles, f"import cycles: {cycles}"
