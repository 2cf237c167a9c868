"""The reading of a predicate that asks the interpreter (most predicates' compiler, :func:`ask`).

A module of its own so that it compiles with the engine (compiled.txt): a condition is read every time a hook is
weighed, and a reader made here is native code, where one made in :mod:`ddaydice.dsl.words.base` is Python's.
"""

from __future__ import annotations

from typing import Final

from ddaydice.dsl.effect_context import Answers, EffectContext


class Ask:
    """A predicate's reading: ask the context by the predicate's name (``value``, a native call from compiled code;
    calling it does the same)."""

    __slots__ = ("args", "name")

    def __init__(self, name: str, args: tuple[str, ...]) -> None:
        self.name: Final = name
        self.args: Final = args

    def value(self, ctx: EffectContext) -> int:
        if isinstance(ctx, Answers):  # (the interpreter's context: a native call)
            answers: Answers = ctx
            return answers.predicate(self.name, self.args)
        return ctx.predicate(self.name, self.args)

    def __call__(self, ctx: EffectContext) -> int:
        return self.value(ctx)

    def __repr__(self) -> str:
        return f"Ask({self.name!r}, {self.args!r})"


def ask(name: str, args: tuple[str, ...]) -> Ask:
    """A condition's compiler: ask the context (the interpreter answers by the predicate's name)."""
    return Ask(name, args)
