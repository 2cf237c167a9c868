"""The effect language's syntax tree: frozen attrs nodes, each with its place in a file.

The Lark tree stops in :mod:`ddaydice.dsl.parser`; everything after it (checker,
renderer, compiler, the conflict finder) works on these nodes only.
"""

from __future__ import annotations

from typing import Literal

import attrs


@attrs.frozen
class Pos:
    """A place in a content file: 1-based line and column, and the width of the text."""

    file: str
    line: int
    column: int
    width: int = 1


NOWHERE = Pos("<builtin>", 0, 0)


@attrs.frozen
class Word:
    name: str
    pos: Pos = attrs.field(default=NOWHERE, eq=False)


@attrs.frozen
class Number:
    value: int
    pos: Pos = attrs.field(default=NOWHERE, eq=False)


@attrs.frozen
class Signed:
    """A signed change: ``-2``, ``+1``."""

    value: int
    pos: Pos = attrs.field(default=NOWHERE, eq=False)


@attrs.frozen
class Dice:
    """``1d6``, ``2d6``, or signed ``-1d6`` (sign is -1, 0 for unsigned, or +1)."""

    count: int
    sign: int
    pos: Pos = attrs.field(default=NOWHERE, eq=False)


@attrs.frozen
class Assign:
    """``= value``: set a query to a value."""

    value: Number | Dice | Word
    pos: Pos = attrs.field(default=NOWHERE, eq=False)


Arg = Number | Signed | Dice | Assign | Word


@attrs.frozen
class Per:
    """``per locked skull``: multiply an amount by a count; ``above N``: only what the count exceeds N by."""

    words: tuple[Word, ...]
    above: int | None = None
    pos: Pos = attrs.field(default=NOWHERE, eq=False)


@attrs.frozen
class Statement:
    verb: Word
    args: tuple[Arg, ...]
    per: Per | None = None
    pos: Pos = attrs.field(default=NOWHERE, eq=False)


TargetKind = Literal["all-units", "units-here", "another-unit", "the-german", "all-players", "adjacent-sector"]
DurationKind = Literal["this-turn", "this-phase", "next-turn", "permanently", "until"]
PeriodKind = Literal["turn", "phase", "game"]
WindowKind = Literal["before", "after", "during", "when"]


@attrs.frozen
class Target:
    """Who a clause applies to (a scope) or who receives an action (a recipient).

    ``condition`` filters recipients: ``to adjacent sector unless bunker``; scopes never have one.
    """

    kind: TargetKind
    pos: Pos = attrs.field(default=NOWHERE, eq=False)
    condition: Condition | None = None


@attrs.frozen
class Until:
    """A duration bounded by an event: ``until EVENT`` (the modifier lasts until the event next happens to the Unit
    that granted it)."""

    event: Word


@attrs.frozen
class Option:
    statement: Statement
    duration: DurationKind | None = None
    recipient: Target | None = None
    pos: Pos = attrs.field(default=NOWHERE, eq=False)
    # more actions of the same option, joined with "and" (each an Option without 'also' of its own)
    also: tuple[Option, ...] = ()
    until: Word | None = None  # the event of an 'until EVENT' duration

    def lasts(self) -> str | None:
        """The duration as the engine reads it: ``this-turn``, ..., or ``until:EVENT``."""
        if self.duration == "until" and self.until is not None:
            return f"until:{self.until.name}"
        return self.duration

    def parts(self) -> tuple[Option, ...]:
        """This option's actions in order: itself, then those joined with "and"."""
        return (self, *self.also)


@attrs.frozen
class Action:
    """One action, or a choice between several (the rulebook's "OR"); or, with ``roll``, a chance: the dice are
    rolled and the first option whose results (``ranges``, None: any other total) hold the total happens."""

    options: tuple[Option, ...]
    pos: Pos = attrs.field(default=NOWHERE, eq=False)
    roll: Dice | None = None
    ranges: tuple[tuple[int, int] | None, ...] = ()
    range_pos: tuple[Pos, ...] = attrs.field(default=(), eq=False)  # where each outcome's results are written


@attrs.frozen
class Comparison:
    op: str
    value: int


@attrs.frozen
class Predicate:
    word: Word
    args: tuple[Arg, ...]
    comparison: Comparison | None = None
    pos: Pos = attrs.field(default=NOWHERE, eq=False)


@attrs.frozen
class Not:
    operand: CondExpr
    pos: Pos = attrs.field(default=NOWHERE, eq=False)


@attrs.frozen
class AllOf:
    operands: tuple[CondExpr, ...]
    pos: Pos = attrs.field(default=NOWHERE, eq=False)


@attrs.frozen
class AnyOf:
    operands: tuple[CondExpr, ...]
    pos: Pos = attrs.field(default=NOWHERE, eq=False)


CondExpr = Predicate | Not | AllOf | AnyOf


@attrs.frozen
class Condition:
    """``if ...`` (``negated`` False) or ``unless ...`` (``negated`` True)."""

    expr: CondExpr
    negated: bool = False
    pos: Pos = attrs.field(default=NOWHERE, eq=False)


@attrs.frozen
class Limit:
    """``once per PERIOD``, counted on the Unit the clause serves; ``on_card`` (``... per card``): counted on the
    card itself, whoever holds it."""

    period: PeriodKind
    pos: Pos = attrs.field(default=NOWHERE, eq=False)
    on_card: bool = False


@attrs.frozen
class Window:
    kind: WindowKind
    moment: Word
    pos: Pos = attrs.field(default=NOWHERE, eq=False)


@attrs.frozen
class Trigger:
    """``on EVENT [if ...]: actions [once per ...]``."""

    event: Word
    condition: Condition | None
    actions: tuple[Action, ...]
    limit: Limit | None = None
    pos: Pos = attrs.field(default=NOWHERE, eq=False)


@attrs.frozen
class Use:
    """``use [once per ...] [before/after ...] [if ...]: actions``: a deliberate, optional play."""

    limit: Limit | None
    window: Window | None
    condition: Condition | None
    actions: tuple[Action, ...]
    pos: Pos = attrs.field(default=NOWHERE, eq=False)


@attrs.frozen
class Modifier:
    """A standing change to a query or permission, while its source is in play."""

    statement: Statement
    condition: Condition | None = None
    limit: Limit | None = None
    pos: Pos = attrs.field(default=NOWHERE, eq=False)


Body = Trigger | Use | Modifier


@attrs.frozen
class Clause:
    scope: Target | None
    body: Body
    pos: Pos = attrs.field(default=NOWHERE, eq=False)


@attrs.frozen
class Effect:
    clauses: tuple[Clause, ...]
    pos: Pos = attrs.field(default=NOWHERE, eq=False)


def arg_dsl(arg: Arg | Number | Dice | Word) -> str:
    """An argument written back in the effect language ('-2', '1d6', '= 0', a word)."""
    match arg:
        case Word(name=n):
            return n
        case Number(value=n):
            return str(n)
        case Signed(value=n):
            return f"{n:+d}"
        case Dice(count=c, sign=s):
            return f"{'-' if s < 0 else '+' if s > 0 else ''}{c}d6"
        case Assign(value=v):
            return "= " + arg_dsl(v)


def statement_dsl(stmt: Statement) -> str:
    """A statement written back in the effect language ('def -2', 'locked-dice = 1', 'gain 1 star per rwb')."""
    parts = [stmt.verb.name, *(arg_dsl(a) for a in stmt.args)]
    if stmt.per is not None:
        parts.append("per " + " ".join(w.name for w in stmt.per.words))
        if stmt.per.above is not None:
            parts.append(f"above {stmt.per.above}")
    return " ".join(parts)
