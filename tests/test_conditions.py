"""A hook's condition, compiled (dsl/compile.py): native nodes read as the DSL says, and the order of reading.

The nodes replace closures (docs/architecture.md, "The compiled engine"); these tests pin what each one answers,
on both engines, against Python's own operators."""

from __future__ import annotations

import operator
from collections.abc import Callable
from typing import cast

import pytest

from ddaydice.dsl.asking import Ask
from ddaydice.dsl.compile import _COMPARE, _TRUTH, _AllOf, _AnyOf, _Asked, _Not, _Read
from ddaydice.dsl.effect_context import Condition, EffectContext

OPERATORS: dict[str, Callable[[int, int], bool]] = {
    ">=": operator.ge, "<=": operator.le, "==": operator.eq, "!=": operator.ne, ">": operator.gt, "<": operator.lt,
}


class Answers:
    """A context that answers predicates from a table and notes what it was asked, in order."""

    def __init__(self, **values: int) -> None:
        self.values = values
        self.asked: list[str] = []

    def predicate(self, name: str, args: tuple[str, ...]) -> int:
        self.asked.append(name)
        return self.values[name]


def ctx(answers: Answers) -> EffectContext:
    return cast("EffectContext", answers)


def test_every_comparison_of_the_dsl_is_numbered() -> None:
    assert set(_COMPARE) == set(OPERATORS)


@pytest.mark.parametrize("symbol", sorted(OPERATORS))
@pytest.mark.parametrize(("value", "rhs"), [(0, 0), (1, 2), (2, 1), (3, 3), (-1, 0), (7, 6)])
def test_a_comparison_answers_as_python_does(symbol: str, value: int, rhs: int) -> None:
    expected = OPERATORS[symbol](value, rhs)
    asked = _Asked(Ask("n", ()), _COMPARE[symbol], rhs)
    read = _Read(lambda _ctx: value, _COMPARE[symbol], rhs)
    assert asked.holds(ctx(Answers(n=value))) is expected
    assert read.holds(ctx(Answers())) is expected
    assert asked(ctx(Answers(n=value))) is expected, "a Condition is also called as a Cond"


@pytest.mark.parametrize(("value", "expected"), [(0, False), (1, True), (2, True), (True, True), (False, False)])
def test_a_predicate_alone_is_read_by_its_truth(value: int, expected: bool) -> None:
    assert _Asked(Ask("bunker", ()), _TRUTH, 0).holds(ctx(Answers(bunker=value))) is expected


def _truth(name: str) -> Condition:
    return _Asked(Ask(name, ()), _TRUTH, 0)


def test_and_or_not_read_left_to_right_and_stop_when_the_answer_is_known() -> None:
    answers = Answers(a=0, b=1, c=1)
    assert not _AllOf((_truth("a"), _truth("b"))).holds(ctx(answers))
    assert answers.asked == ["a"], "'a and b' stops at the first that fails"
    answers.asked.clear()
    assert _AnyOf((_truth("a"), _truth("b"), _truth("c"))).holds(ctx(answers))
    assert answers.asked == ["a", "b"], "'a or b or c' stops at the first that holds"
    answers.asked.clear()
    assert _Not(_AllOf((_truth("b"), _truth("c"), _truth("a")))).holds(ctx(answers))
    assert answers.asked == ["b", "c", "a"]
    assert _AllOf(()).holds(ctx(answers)) and not _AnyOf(()).holds(ctx(answers))


def test_an_ask_reads_the_context_by_the_predicate_name_and_words() -> None:
    seen: list[tuple[str, tuple[str, ...]]] = []

    class Recorder:
        def predicate(self, name: str, args: tuple[str, ...]) -> int:
            seen.append((name, args))
            return 3

    asked = Ask("have", ("stars",))
    assert asked.value(cast("EffectContext", Recorder())) == 3
    assert asked(cast("EffectContext", Recorder())) == 3
    assert seen == [("have", ("stars",))] * 2
