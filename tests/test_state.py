"""A saved game loads back to the same state, whether the state's classes are compiled or not.

Loading reads the types of nested values from ``SAVED_AS``, not from the classes' annotations (which mypyc erases
when it compiles them): here ``SAVED_AS`` is checked against the annotations as written in the source, so a new
field that holds a state class, a tuple or the generator cannot be forgotten.
"""

from __future__ import annotations

import ast
import random
import types
import typing
from pathlib import Path
from typing import Any

import attrs
import pytest

from ddaydice.dsl.loader import load
from ddaydice.interpreter.core import state as state_module
from ddaydice.interpreter.core.state import SAVED_AS, Die, GameState, Grant, from_json, new_rng, to_json
from ddaydice.interpreter.game import Game
from ddaydice.interpreter.policies.deciders import RandomDecider

SOURCE = Path(state_module.__file__).with_suffix(".py") if state_module.__file__.endswith(".py") else \
    Path(state_module.__file__).parent / "state.py"
JSON_TYPES = (str, int, bool, float, type(None), list, dict, typing.Any)


def written_annotations() -> dict[str, dict[str, Any]]:
    """Each state class's annotations as the source writes them, evaluated in the module (so real generics)."""
    tree = ast.parse(SOURCE.read_text(encoding="utf-8"))
    out: dict[str, dict[str, Any]] = {}
    for node in tree.body:
        if isinstance(node, ast.ClassDef):
            out[node.name] = {
                stmt.target.id: eval(ast.unparse(stmt.annotation), vars(state_module))
                for stmt in node.body if isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name)}
    return out


def plain(typ: Any) -> bool:
    """True when a value of this type is JSON's own: it loads as it is."""
    if typing.get_origin(typ) is None:
        return typ in JSON_TYPES
    if typing.get_origin(typ) is tuple:
        return False
    return all(plain(arg) for arg in typing.get_args(typ))


def test_saved_as_names_every_field_that_is_more_than_json() -> None:
    annotations = written_annotations()
    classes = {cls.__name__: cls for cls in (getattr(state_module, n) for n in annotations) if attrs.has(cls)}
    assert {"Die", "Grant", "Unit", "SectorState", "Event", "GameState"} <= set(classes)
    for name, cls in classes.items():
        declared = SAVED_AS.get(cls, {})
        for field, typ in annotations[name].items():
            if plain(typ):
                assert field not in declared, f"{name}.{field} is JSON's own: SAVED_AS need not name it"
            else:
                assert declared.get(field) == typ, f"{name}.{field}: {typ} must be in SAVED_AS as it is written"


def test_the_check_sees_a_missing_field() -> None:
    assert not plain(list[Die]) and not plain(list[Die] | None) and not plain(tuple[str, ...])
    assert not plain(random.Random) and plain(dict[str, list[int]]) and plain(str | None)


@pytest.fixture(scope="module")
def played() -> GameState:
    loaded, diags = load()
    assert loaded is not None, diags
    g = Game(loaded, "exercise-tiger", players=3, seed=5, variant="advanced-training",
             deciders=[RandomDecider(k) for k in range(3)], trace=True)
    for _ in range(5):
        g.run_turn()
    g.state.grants.append(Grant("card", 0, "items", "def", "add", -1, ("x", "y"), "def -1", "never", unit="u1"))
    return g.state


def same(a: GameState, b: GameState) -> bool:
    """Equal states: every field equal, the generators (which compare by identity) in the same state."""
    return attrs.evolve(a, rng=b.rng) == b and a.rng.getstate() == b.rng.getstate()


def test_a_saved_state_loads_back_equal(played: GameState) -> None:
    back = from_json(to_json(played))
    assert same(back, played)
    assert isinstance(back.grants[-1].args, tuple)
    assert all(isinstance(d, Die) for u in back.units for d in u.tally)
    assert back.rng.getstate() == played.rng.getstate()


def test_a_copy_shares_nothing_with_its_original(played: GameState) -> None:
    copy = played.copy()
    assert same(copy, played)
    copy.units[0].specialists.append("medic")
    copy.units[0].counters["x"] = 1
    copy.sectors[next(iter(copy.sectors))].attributes.append("mined")
    copy.hands.setdefault(copy.units[0].id, []).append("medic")
    copy.rng.random()
    assert not same(copy, played)
    assert "x" not in played.units[0].counters and played.rng.getstate() != copy.rng.getstate()
    assert same(from_json(to_json(played)), played)


STATE_CLASSES = [cls for cls in vars(state_module).values()
                 if isinstance(cls, type) and attrs.has(cls) and cls.__module__ == state_module.__name__]


def a_value(typ: Any, n: int) -> Any:
    """A value of the type written (a new object for a list or dict, so that its identity shows where it went)."""
    if isinstance(typ, types.UnionType):
        return a_value(next(t for t in typing.get_args(typ) if t is not type(None)), n)
    origin = typing.get_origin(typ) or typ
    made: dict[Any, Any] = {str: f"value {n}", int: 1000 + n, bool: n % 2 == 0, list: [], dict: {},
                            tuple: ("a",), random.Random: random.Random(n), typing.Any: object()}
    return made[origin]


@pytest.mark.parametrize("cls", STATE_CLASSES, ids=lambda cls: cls.__name__)
def test_a_state_class_takes_its_fields_with_their_defaults(cls: type) -> None:
    """Some state classes write their ``__init__`` out (a compiled one is native, attrs's is Python): each takes
    every field, by position and by name, and gives the field's default to any left out (a new list or dict)."""
    fields = attrs.fields(cls)
    written = written_annotations()[cls.__name__]
    given = {f.name: a_value(written[f.name], n) for n, f in enumerate(fields)}
    by_name, by_position = cls(**given), cls(*given.values())
    for f in fields:
        for made in (by_name, by_position):
            value = getattr(made, f.name)
            assert value is given[f.name] if isinstance(value, list | dict) else value == given[f.name], f.name
    required = {f.name: given[f.name] for f in fields if f.default is attrs.NOTHING}
    least, other = cls(**required), cls(**required)
    for f in fields:
        if f.default is attrs.NOTHING:
            continue
        default = f.default.factory() if isinstance(f.default, attrs.Factory) else f.default  # type: ignore[arg-type]
        assert getattr(least, f.name) == default, f.name
        if isinstance(default, list | dict):
            assert getattr(least, f.name) is not getattr(other, f.name), f"{f.name} is shared between instances"


@pytest.mark.parametrize("seed", [0, 1, 7, -7, 2**31 - 1, 2**32, 2**62 - 1, 2**100 + 3])
def test_a_new_generator_is_in_the_state_random_random_gives(seed: int) -> None:
    """new_rng seeds once where random.Random(seed) seeds twice: the same state, the same numbers after."""
    ours, theirs = new_rng(seed), random.Random(seed)
    assert type(ours) is random.Random
    assert ours.getstate() == theirs.getstate()
    assert [ours.random() for _ in range(5)] == [theirs.random() for _ in range(5)]
    assert ours.gauss(0.0, 1.0) == theirs.gauss(0.0, 1.0)
    assert ours.gauss(0.0, 1.0) == theirs.gauss(0.0, 1.0)  # (the second of a pair: gauss_next)
