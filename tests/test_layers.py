"""No import cycles among the modules of ddaydice.interpreter and ddaydice.dsl.

`lint-imports` (scripts/test) checks the layers of the interpreter, that dsl never imports the
interpreter, and, with its acyclic_siblings contract, that no two siblings import each other. That
contract squashes a package with its submodules, so it cannot see a package whose __init__ imports
a submodule that imports the package back (as interpreter.cli and cli.render once did). This test
looks at every module on its own. Like import-linter it counts imports inside functions and under
``if TYPE_CHECKING:``.

The same packages keep their shape: no module over 800 lines, no class over 400, no function over 80 (a part of
one concern each; the interpreter's Game is assembled from parts, as are dsl's checker and conflict finder).
"""

from __future__ import annotations

import ast
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


MAX_LINES = {"module": 800, "class": 400, "function": 80}


def oversized(folder: Path) -> list[str]:
    """The modules, classes and functions (methods and nested ones too) under ``folder`` longer than the project
    allows, as 'path: kind name, N lines (at most M)'."""
    found: list[str] = []
    for path in sorted(folder.rglob("*.py")):
        source = path.read_text(encoding="utf-8")
        where = path.relative_to(folder.parent).as_posix()
        lines = len(source.splitlines())
        if lines > MAX_LINES["module"]:
            found.append(f"{where}: module, {lines} lines (at most {MAX_LINES['module']})")
        for node in ast.walk(ast.parse(source, filename=str(path))):
            if isinstance(node, ast.ClassDef):
                kind = "class"
            elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                kind = "function"
            else:
                continue
            size = (node.end_lineno or node.lineno) - node.lineno + 1
            if size > MAX_LINES[kind]:
                found.append(f"{where}:{node.lineno}: {kind} {node.name}, {size} lines (at most {MAX_LINES[kind]})")
    return found


def test_dsl_and_the_interpreter_keep_their_shape() -> None:
    """No module of dsl/ or interpreter/ over 800 lines, no class over 400, no function over 80: a part too long
    is split by concern (mixins such as the Game's parts, or a module of its own)."""
    for package in ("dsl", "interpreter"):
        assert (REPO / package / "__init__.py").exists()
        assert oversized(REPO / package) == []


def test_oversized_finds_long_modules_classes_methods_and_nested_functions(tmp_path: Path) -> None:
    package = tmp_path / "pkg"
    package.mkdir()
    method = "    def long(self) -> None:\n" + "        pass\n" * 80
    nested = "def outer() -> None:\n    def inner() -> None:\n" + "        pass\n" * 80
    (package / "big.py").write_text("class Big:\n" + method + "    x = 0\n" * 319, encoding="utf-8")
    (package / "nested.py").write_text(nested, encoding="utf-8")
    (package / "long.py").write_text("x = 0\n" * 801, encoding="utf-8")
    (package / "fits.py").write_text("class Fits:\n" + "    x = 0\n" * 399 + "def f() -> None:\n" +
                                     "    pass\n" * 79, encoding="utf-8")
    assert oversized(package) == [
        "pkg/big.py:1: class Big, 401 lines (at most 400)",
        "pkg/big.py:2: function long, 81 lines (at most 80)",
        "pkg/long.py: module, 801 lines (at most 800)",
        "pkg/nested.py:1: function outer, 82 lines (at most 80)",
        "pkg/nested.py:2: function inner, 81 lines (at most 80)",
    ]
