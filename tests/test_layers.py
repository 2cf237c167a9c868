"""No import cycles among the modules of ddaydice.interpreter and ddaydice.dsl.

`lint-imports` (scripts/test) checks the layers of the interpreter, that dsl never imports the
interpreter, and, with its acyclic_siblings contract, that no two siblings import each other. That
contract squashes a package with its submodules, so it cannot see a package whose __init__ imports
a submodule that imports the package back (as interpreter.cli and cli.render once did). This test
looks at every module on its own. Like import-linter it counts imports inside functions and under
``if TYPE_CHECKING:``.
"""

from __future__ import annotations

import importlib.util
import os
import tomllib
from collections.abc import Callable, Iterable
from pathlib import Path

import grimp

REPO = Path(__file__).resolve().parent.parent
SCOPES = ("ddaydice.interpreter", "ddaydice.dsl")


def in_scope(module: str) -> bool:
    return any(module == scope or module.startswith(scope + ".") for scope in SCOPES)


def cycles(modules: Iterable[str], imports_of: Callable[[str], Iterable[str]]) -> list[list[str]]:
    """The groups of two or more modules that import each other, directly or through one another
    (strongly connected components, Tarjan's algorithm without recursion), each sorted."""
    nodes = sorted(set(modules))
    inside = set(nodes)
    edges = {node: sorted(m for m in imports_of(node) if m in inside and m != node) for node in nodes}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for root in nodes:
        if root in index:
            continue
        work: list[tuple[str, int]] = [(root, 0)]
        while work:
            node, child = work.pop()
            if child == 0:
                index[node] = low[node] = len(index)
                stack.append(node)
                on_stack.add(node)
            if child < len(edges[node]):
                work.append((node, child + 1))
                target = edges[node][child]
                if target not in index:
                    work.append((target, 0))
                elif target in on_stack:
                    low[node] = min(low[node], index[target])
                continue
            if low[node] == index[node]:
                group: list[str] = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    group.append(member)
                    if member == node:
                        break
                if len(group) > 1:
                    found.append(sorted(group))
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
    return sorted(found)


def where(module: str) -> str:
    spec = importlib.util.find_spec(module)
    origin = spec.origin if spec and spec.origin else module
    rel = os.path.relpath(origin, REPO / "src" / "ddaydice")
    return origin if rel.startswith("..") else rel


def describe(graph: grimp.ImportGraph, group: list[str]) -> str:
    lines = [" <-> ".join(group)]
    for importer in group:
        for imported in group:
            for detail in graph.get_import_details(importer=importer, imported=imported):
                lines.append(f"  {where(importer)}:{detail['line_number']}: {detail['line_contents']}")
    return "\n".join(lines)


def test_the_interpreter_and_dsl_have_no_import_cycles() -> None:
    graph = grimp.build_graph("ddaydice", include_external_packages=False, cache_dir=None)
    modules = [m for m in graph.modules if in_scope(m)]
    assert "ddaydice.interpreter.core" in modules and "ddaydice.dsl.loader" in modules
    groups = cycles(modules, graph.find_modules_directly_imported_by)
    assert not groups, "import cycles:\n" + "\n".join(describe(graph, g) for g in groups)


def test_cycles_finds_a_package_and_its_submodule_and_longer_loops() -> None:
    imports = {
        "p.cli": ["p.cli.render", "p.core"],
        "p.cli.render": ["p.cli", "p.tools"],
        "p.tools": ["p.core"],
        "p.a": ["p.b"],
        "p.b": ["p.c"],
        "p.c": ["p.a", "p.core"],
        "p.core": [],
    }
    assert cycles(imports, lambda m: imports[m]) == [["p.a", "p.b", "p.c"], ["p.cli", "p.cli.render"]]
    assert cycles(["p.core", "p.tools"], lambda m: imports[m]) == []


def test_type_checking_imports_count_for_lint_imports() -> None:
    config = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["importlinter"]
    assert config["exclude_type_checking_imports"] is False
    assert config["root_package"] == "ddaydice"
