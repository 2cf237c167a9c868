"""What the compiled modules (compiled.txt) keep to, read from their sources (docs/architecture.md, "The compiled
engine").

No annotation unions ``bool`` with ``int``. mypy takes a bool for an int (bool is a subclass of int), so a value
typed ``int | bool`` (or ``int | bool | None``, ``Optional[Union[bool, int]]``) narrowed by a test (``is not None``,
``isinstance``) is an ``int`` to mypy, and mypyc then stores it as a C integer: a bool that passes through comes
out as 0 or 1 on the compiled engine only (the project met it in a permission's derivation). A value that is a
number or a permission is an ``int`` (a permission read by its truth, made a bool where it is shown) or an
``object``; a value that must stay a bool is a ``bool``.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).parents[1]
PACKAGE = ROOT / "src" / "ddaydice"


def compiled_modules() -> list[Path]:
    lines = (ROOT / "compiled.txt").read_text(encoding="utf-8").splitlines()
    return [PACKAGE / line.strip() for line in lines if line.strip() and not line.startswith("#")]


def _name(node: ast.expr) -> str | None:
    """The name a type is written with (``int``, ``typing.Optional``: ``Optional``)."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return None


def _members(node: ast.expr) -> list[ast.expr]:
    """The members of a union, flattened through nested unions and ``Optional``."""
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
        return _members(node.left) + _members(node.right)
    if isinstance(node, ast.Subscript) and _name(node.value) in {"Union", "Optional"}:
        items = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
        return [m for item in items for m in _members(item)]
    if isinstance(node, ast.Constant) and isinstance(node.value, str):  # a quoted part: "int | bool"
        try:
            return _members(ast.parse(node.value, mode="eval").body)
        except SyntaxError:
            return [node]
    return [node]


def _unions_bool_with_int(annotation: ast.expr) -> bool:
    """Does the annotation, or any type within it (``dict[str, int | bool]``), union ``bool`` with ``int``?"""
    if isinstance(annotation, ast.Constant) and isinstance(annotation.value, str):
        try:
            annotation = ast.parse(annotation.value, mode="eval").body
        except SyntaxError:
            return False
    for node in ast.walk(annotation):
        if isinstance(node, ast.BinOp | ast.Subscript | ast.Constant):
            names = {_name(m) for m in _members(node)}
            if {"int", "bool"} <= names:
                return True
    return False


def _annotations(tree: ast.Module) -> list[ast.expr]:
    """Every annotation of a module: its functions' parameters and returns, its variables and attributes, and its
    type aliases (``X: TypeAlias = ...`` and a module-level ``X = int | bool``)."""
    found: list[ast.expr] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
            a = node.args
            params = [*a.posonlyargs, *a.args, *a.kwonlyargs, *(p for p in (a.vararg, a.kwarg) if p is not None)]
            found += [p.annotation for p in params if p.annotation is not None]
            if not isinstance(node, ast.Lambda) and node.returns is not None:
                found.append(node.returns)
        elif isinstance(node, ast.AnnAssign):
            found.append(node.annotation)
            if node.value is not None and _name(node.annotation) == "TypeAlias":
                found.append(node.value)
    for stmt in tree.body:  # a module-level alias written as a plain assignment
        if isinstance(stmt, ast.Assign) and isinstance(stmt.value, ast.BinOp | ast.Subscript):
            found.append(stmt.value)
    return found


def bool_int_unions(source: str, filename: str) -> list[str]:
    """Each annotation of the source that unions ``bool`` with ``int``, as 'file:line: annotation'."""
    tree = ast.parse(source, filename)
    hits = sorted((a for a in _annotations(tree) if _unions_bool_with_int(a)), key=lambda a: (a.lineno, a.col_offset))
    return [f"{filename}:{a.lineno}: {ast.unparse(a)}" for a in hits]


def test_the_compiled_modules_are_listed_files() -> None:
    modules = compiled_modules()
    assert len(modules) > 40
    assert all(m.is_file() for m in modules), [str(m) for m in modules if not m.is_file()]


def test_no_compiled_annotation_unions_bool_with_int() -> None:
    found = [hit for module in compiled_modules()
             for hit in bool_int_unions(module.read_text(encoding="utf-8"), str(module.relative_to(PACKAGE)))]
    assert not found, ("annotations in compiled modules that union bool with int (mypyc turns a bool that passes "
                       "through into 0 or 1; tests/test_compiled_rules.py says what to write):\n" + "\n".join(found))


SAMPLE = '''
from typing import Optional, TypeAlias, Union
import typing

Flag = int | bool
Alias: TypeAlias = "Optional[bool | int]"

def f(a: int | bool, b: bool | None | int = None, *c: Optional[Union[bool, int]], **d: "int | bool") -> int:
    x: dict[str, list[int | bool]] = {}
    return 0

def g() -> tuple[typing.Union[int, bool], str]: ...

class C:
    y: int | (bool | None)
    def m(self, v: Union[int, Optional[bool]]) -> Optional[Union[int, bool]]: ...
'''

CLEAN = '''
from typing import Optional, Union

Number = int | None
def f(a: int, b: bool | None, c: Union[int, str], d: "Optional[int]", e: dict[int, bool]) -> bool | str:
    x: tuple[int, bool] = (1, True)
    y = int | None
    return isinstance(a, int | bool)
'''


def test_the_scan_finds_every_way_of_writing_the_union() -> None:
    lines = [int(hit.split(":")[1]) for hit in bool_int_unions(SAMPLE, "sample.py")]
    # Flag; Alias; f's a, b, c and d; x; g's return; y; m's v and return
    assert lines == [5, 6, 8, 8, 8, 8, 9, 12, 15, 16, 16]


def test_the_scan_lets_other_unions_pass() -> None:
    assert bool_int_unions(CLEAN, "clean.py") == []
