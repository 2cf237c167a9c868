"""The closure of a condition that asks the interpreter (most predicates' compiler, :func:`ask`).

A module of its own so that it compiles with the engine (compiled.txt): a condition is read every time a hook is
weighed, and a closure made here is native code, where one made in :mod:`ddaydice.dsl.words.base` is Python's.
"""

from __future__ import annotations

from collections.abc import Callable

from ddaydice.dsl.effect_context import EffectContext


def ask(name: str, args: tuple[str, ...]) -> Callable[[EffectContext], int]:
    """A condition's compiler: ask the context (the interpreter answers by the predicate's name)."""
    return lambda ctx: ctx.predicate(name, args)
