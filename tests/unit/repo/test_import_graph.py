"""The import graph: no loops, and no module reaching up a layer (kernels below the physics,
the physics and the services below the World and the stages)."""

from __future__ import annotations

import ast
import functools
import pathlib

import networkx as nx

ROOT = pathlib.Path(__file__).resolve().parents[3] / "ecsgoo"
#: What sits below the World and the stages: they import neither (at run time).
SERVICES = ("ecsgoo.physics", "ecsgoo.sleeping", "ecsgoo.contact_events", "ecsgoo.sensors",
            "ecsgoo.queries", "ecsgoo.derived")


@functools.cache
def _graph() -> nx.DiGraph:
    """Module → module imports at run time (``if TYPE_CHECKING:`` blocks left out; imports
    inside functions counted: a lazy import is still a loop). Made once (~1 s): the tests
    only read it."""
    mods = {}
    for path in ROOT.rglob("*.py"):
        parts = list(path.relative_to(ROOT.parent).with_suffix("").parts)
        mods[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    graph = nx.DiGraph()
    graph.add_nodes_from(mods)
    for name, path in mods.items():
        package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
        for node in _runtime_nodes(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom):
                base = package.split(".")[: len(package.split(".")) - node.level + 1] \
                    if node.level else []
                target = ".".join(base + [node.module] if node.module else base)
                for alias in node.names:
                    full = f"{target}.{alias.name}"
                    graph.add_edge(name, full if full in mods else target)
            elif isinstance(node, ast.Import):
                graph.add_edges_from((name, a.name) for a in node.names)
    graph.remove_nodes_from([n for n in list(graph) if not n.startswith("ecsgoo")])
    graph.remove_edges_from(nx.selfloop_edges(graph))
    return graph


def _runtime_nodes(tree: ast.AST):
    """Every import node not under ``if TYPE_CHECKING:``."""
    stack = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, ast.If) and getattr(node.test, "id", None) == "TYPE_CHECKING":
            stack.extend(node.orelse)
            continue
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            yield node
        stack.extend(ast.iter_child_nodes(node))


def test_the_framework_has_no_import_loop():
    graph = _graph()
    core = graph.subgraph([n for n in graph if not n.startswith("ecsgoo.app")])
    assert list(nx.simple_cycles(core)) == []


def test_services_and_the_physics_import_neither_the_world_nor_the_stages():
    graph = _graph()
    for module in graph:
        if module.startswith(SERVICES):
            up = [t for t in graph.successors(module)
                  if t == "ecsgoo.world" or t.startswith("ecsgoo.systems")]
            assert up == [], f"{module} imports {up}"


def test_kernels_import_only_kernels():
    graph = _graph()
    allowed = ("ecsgoo.kernels", "ecsgoo.columns", "ecsgoo.numba_cache", "ecsgoo.lazy_load",
               "ecsgoo.link_only", "ecsgoo.heap")
    for module in graph:
        if module.startswith("ecsgoo.kernels"):
            up = [t for t in graph.successors(module) if not t.startswith(allowed)]
            assert up == [], f"{module} imports {up}"
