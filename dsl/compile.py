"""From checked syntax trees to effect hooks the interpreter calls.

The compiler runs once per effect at load time. Each action becomes a Python
closure over an :class:`EffectContext` (a protocol the interpreter implements),
each condition a closure returning a bool, each standing modifier a
:class:`ModifierHook` record. Nothing re-reads the tree during a game.

``dsl/`` never imports the interpreter: the interpreter depends on this
module's protocol, not the other way round.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

import attr

from ddaydice.dsl import ast, words
from ddaydice.dsl.asking import Ask, ask
from ddaydice.dsl.effect_context import (
    ON_CARD,
    UNLIMITED,
    Action,
    Cond,
    Condition,
    EffectContext,
    ModifierHook,
    Value,
    Why,
    compiled_limit,
    limit_words,
)
from ddaydice.dsl.words.base import Parts, words_of

# The protocol and the hooks are defined in effect_context.py (the words' compilers use them too); the
# interpreter reads them here, with the compiler.
__all__ = ["ON_CARD", "UNLIMITED", "Action", "CompiledEffect", "Compiler", "Cond", "Condition", "EffectContext",
           "EffectSource", "ModifierHook", "TriggerHook", "UseHook", "Value", "limit_words"]


@attr.s(auto_attribs=True, hash=True)
class TriggerHook:
    """A trigger. ``replaces``: its actions may replace its pending event ('instead'); the engine runs it only
    while the event is still to happen. ``at``: the moment the engine runs it, by which it is filed: its event, or
    a later one (:func:`ddaydice.dsl.words.heard_at`: a trigger that reads the complete Final Tally)."""

    event: str
    condition: Condition | None
    run: Action
    limit: str | None
    text: str
    pos: ast.Pos = attr.ib(eq=False)
    scope: str | None = None
    replaces: bool = False
    at: str = attr.ib(default=attr.Factory(lambda hook: hook.event, takes_self=True))


@attr.s(auto_attribs=True, hash=True)
class UseHook:
    """A use. ``feasible``: whether it can act now (None: always); a use none of whose actions can act (each
    an action its word's ``feasible`` rules out, as an OR's option: ruling 10.9) is not offered."""

    window: tuple[str, str] | None
    condition: Condition | None
    run: Action
    limit: str | None
    text: str
    pos: ast.Pos = attr.ib(eq=False)
    scope: str | None = None
    sacrifices_self: bool = False
    feasible: Cond | None = None
    # the parts of its actions that can be ruled out (their DSL, whether it is a price, the test, what the part
    # needs to act in English): what a refusal names when the use can do nothing (ruling 10.9)
    checked: tuple[tuple[str, bool, Cond, Why | None], ...] = ()


@attr.s(auto_attribs=True, hash=True)
class CompiledEffect:
    """An effect's hooks: standing modifiers, triggers, uses, and ``waiting``: what the card says of itself while
    it waits to be bought (its own price), read for that card alone and never filed among the effects in play."""

    modifiers: tuple[ModifierHook, ...]
    triggers: tuple[TriggerHook, ...]
    uses: tuple[UseHook, ...]
    waiting: tuple[ModifierHook, ...] = ()


@attr.s(auto_attribs=True, hash=True)
class EffectSource:
    """One effect of the content: its owner, its tier, its text, tree, hooks and English."""

    owner: str
    kind: str
    tier: str
    name: str
    file: str
    line: int
    column: int
    text: str
    tree: ast.Effect
    compiled: CompiledEffect
    english: tuple[str, ...]
    pack: str | None = None


def _value(arg: ast.Arg) -> tuple[Value, bool]:
    """A closure giving the amount (and whether it involves a die roll)."""
    match arg:
        case ast.Number(value=n) | ast.Signed(value=n):
            return (lambda _ctx, n=n: n), False
        case ast.Dice(count=c, sign=s):
            sign = -1 if s < 0 else 1

            def roll(ctx: EffectContext, c: int = c, sign: int = sign) -> int:
                return sign * ctx.roll_dice(c)

            return roll, True
        case ast.Assign(value=v):
            if isinstance(v, ast.Word):
                return (lambda _ctx: UNLIMITED), False
            return _value(v)
        case ast.Word(name="all"):
            return (lambda _ctx: UNLIMITED), False
    return (lambda _ctx: 0), False


def _per(per: ast.Per | None, base: Value) -> Value:
    if per is None:
        return base
    what = tuple(w.name for w in per.words)
    above = per.above
    if above is not None:  # only what the count exceeds the limit by: 'per tagged explosion above 2'
        return lambda ctx: base(ctx) * max(ctx.count(what) - above, 0)
    return lambda ctx: base(ctx) * ctx.count(what)


def _spends_source(stmt: ast.Statement) -> bool:
    """Whether the statement loses the card that holds it ('sacrifice self')."""
    spec = words.action(stmt.verb.name)
    return spec is not None and spec.spends_source(stmt)


#: The comparisons a condition makes ('count skull >= 2'), numbered for the native nodes below; -1: its truth.
_COMPARE: Final[dict[str, int]] = {">=": 0, "<=": 1, "==": 2, "!=": 3, ">": 4, "<": 5}
_TRUTH: Final = -1


def _compared(v: int, op: int, rhs: int) -> bool:
    if op == _TRUTH:
        return v != 0
    if op == 0:
        return v >= rhs
    if op == 1:
        return v <= rhs
    if op == 2:
        return v == rhs
    if op == 3:
        return v != rhs
    if op == 4:
        return v > rhs
    return v < rhs


# A condition is a tree of these nodes: native classes when compiled, so that each part is read by a direct call.
class _Not(Condition):
    def __init__(self, inner: Condition) -> None:
        self.inner: Final = inner

    def holds(self, ctx: EffectContext) -> bool:
        return not self.inner.holds(ctx)


class _AllOf(Condition):
    """'a and b ...', read left to right until one fails."""

    def __init__(self, parts: tuple[Condition, ...]) -> None:
        self.parts: Final = parts

    def holds(self, ctx: EffectContext) -> bool:
        return all(part.holds(ctx) for part in self.parts)


class _AnyOf(Condition):
    """'a or b ...', read left to right until one holds."""

    def __init__(self, parts: tuple[Condition, ...]) -> None:
        self.parts: Final = parts

    def holds(self, ctx: EffectContext) -> bool:
        return any(part.holds(ctx) for part in self.parts)


class _Asked(Condition):
    """A predicate the context answers ('bunker', 'have stars >= 2'): its truth, or its number compared."""

    def __init__(self, asked: Ask, op: int, rhs: int) -> None:
        self.asked: Final = asked
        self.op: Final = op
        self.rhs: Final = rhs

    def holds(self, ctx: EffectContext) -> bool:
        return _compared(self.asked.value(ctx), self.op, self.rhs)


class _Read(Condition):
    """A predicate read by its word's own reader (a word whose compiler is not :func:`ask`)."""

    def __init__(self, read: Value, op: int, rhs: int) -> None:
        self.read: Final = read
        self.op: Final = op
        self.rhs: Final = rhs

    def holds(self, ctx: EffectContext) -> bool:
        return _compared(int(self.read(ctx)), self.op, self.rhs)


class Compiler:
    def __init__(self, numbers: set[str]) -> None:
        self.numbers = numbers

    # ---------------------------------------------------------- conditions
    def cond_expr(self, expr: ast.CondExpr) -> Condition:
        match expr:
            case ast.Not(operand=op):
                return _Not(self.cond_expr(op))
            case ast.AllOf(operands=ops):
                return _AllOf(tuple([self.cond_expr(o) for o in ops]))
            case ast.AnyOf(operands=ops):
                return _AnyOf(tuple([self.cond_expr(o) for o in ops]))
            case ast.Predicate(word=w, args=a, comparison=cmp):
                name = w.name
                args = words_of(a)
                spec = words.predicate(name)
                read = spec.compile(name, args) if spec is not None else ask(name, args)
                how, rhs = (_TRUTH, 0) if cmp is None else (_COMPARE[cmp.op], cmp.value)
                if isinstance(read, Ask):
                    return _Asked(read, how, rhs)
                return _Read(read, how, rhs)
        raise AssertionError(expr)

    def condition(self, cond: ast.Condition | None) -> Condition | None:
        if cond is None:
            return None
        inner = self.cond_expr(cond.expr)
        return _Not(inner) if cond.negated else inner

    # ----------------------------------------------------------- modifiers
    def modifier(self, stmt: ast.Statement, condition: Condition | None, limit: str | None,
                 scope: str | None) -> ModifierHook:
        """A change to a query ('def -2', 'locked-dice = 1'), or the change a modifier word's record compiles."""
        v = stmt.verb.name
        text = ast.statement_dsl(stmt)
        if v in self.numbers:
            bound = words.ceiling(stmt.args)  # 'locked-dice at most 1': lowered to 1 if it is above
            if bound is not None:
                ceiling, dice = _value(bound)
                return ModifierHook(v, words.AT_MOST, ceiling, (), condition, limit, text, stmt.pos, scope, dice)
            arg = stmt.args[0]
            value, dice = _value(arg)
            value = _per(stmt.per, value)
            op = "set" if isinstance(arg, ast.Assign) else "add"
            against = words.guarded_set(stmt.args)  # 'mgf-dice = 0 against raising': a set that is a protection too
            if against is not None:
                return ModifierHook(v, "protect", value, against, condition, limit, text, stmt.pos, scope, dice)
            return ModifierHook(v, op, value, (), condition, limit, text, stmt.pos, scope, dice)
        spec = words.modifier(v)
        if spec is None:
            raise AssertionError(f"not a modifier: {v}")
        change = spec.compile(stmt)
        if change.op in {"set", "add"} and stmt.args:  # a word's own value change ('cost = 0'): its amount
            value, dice = _value(stmt.args[0])
            return ModifierHook(change.query, change.op, value, change.args, condition, limit, text, stmt.pos,
                                scope, dice)
        return ModifierHook(change.query, change.op, None, change.args, condition, limit, text, stmt.pos, scope)

    # -------------------------------------------------------------- actions
    def statement(self, stmt: ast.Statement, duration: str | None, recipient: str | None,
                  recipient_condition: Condition | None = None) -> Action:
        """An action's closure: a query change or a permission is a modifier granted for a while
        (:meth:`_grant`); any other verb is compiled by its record's compiler (:mod:`ddaydice.dsl.words`)."""
        v = stmt.verb.name
        a = stmt.args
        if v in self.numbers or words.modifier(v) is not None:
            return self._grant(stmt, duration, recipient, recipient_condition)
        amount, _ = _value(a[0]) if a else ((lambda _ctx: 0), False)
        spec = words.action(v)
        if spec is None:
            raise AssertionError(f"no compiler for action '{v}'")
        return spec.compile(Parts(v, a, words_of(a), _per(stmt.per, amount), recipient))

    def _grant(self, stmt: ast.Statement, duration: str | None, recipient: str | None,
               recipient_condition: Condition | None) -> Action:
        """A modifier given to the recipient for the duration (this turn unless said)."""
        # A recipient filter ('to adjacent sector unless bunker') becomes the granted modifier's
        # condition, evaluated for whoever holds the grant; the recipients offered are those that pass it.
        hook = self.modifier(stmt, recipient_condition, None, None)
        dur = duration or "this-turn"
        return lambda ctx: ctx.grant(hook, dur, recipient)

    def option(self, opt: ast.Option) -> Action:
        parts = [self.statement(o.statement, o.lasts(), o.recipient.kind if o.recipient else None,
                                self.condition(o.recipient.condition) if o.recipient else None)
                 for o in opt.parts()]
        if len(parts) == 1:
            return parts[0]

        def run_parts(ctx: EffectContext) -> None:
            for run in parts:
                run(ctx)

        return run_parts

    @staticmethod
    def checked_parts(opt: ast.Option) -> list[tuple[ast.Option, bool, Cond]]:
        """The parts of an option (its actions joined with 'and') whose word can rule them out (its ``feasible``),
        with whether that is a price (``pays``), and the test."""
        out: list[tuple[ast.Option, bool, Cond]] = []
        for o in opt.parts():
            spec = words.action(o.statement.verb.name)
            check = spec.feasible(o.statement) if o.recipient is None and spec is not None else None
            if spec is not None and check is not None:
                out.append((o, spec.pays, check))
        return out

    @classmethod
    def can_lose(cls, opt: ast.Option) -> Cond | None:
        """Whether an option of an OR may be chosen: "you cannot choose to lose what you do not have" (a card of
        one's own to sacrifice or discard, named or of one's choice: a price, each word's ``feasible``), and one
        of its parts at least can act (ruling 10.9: 'rwb battle-cry and gain 1 courage' in Crossfire still gains
        the Courage). None: always."""
        checked = cls.checked_parts(opt)
        prices = [c for _, pays, c in checked if pays]
        acts = [c for _, pays, c in checked if not pays]
        if prices or len(checked) == len(opt.parts()):
            if not prices:
                return lambda ctx: any(c(ctx) for c in acts)
            return lambda ctx: all(c(ctx) for c in prices)  # a price paid is an action that acts
        return None  # a part that can always act

    @classmethod
    def can_act(cls, actions: tuple[ast.Action, ...]) -> Cond | None:
        """Whether a use can act now: one of its actions at least (an OR: one of its options, as ``can_lose``
        offers them; a chance always can). None: always."""
        checks: list[list[Cond]] = []
        for action in actions:
            options = [cls.can_lose(o) for o in action.options]
            if action.roll is not None or any(f is None for f in options):
                return None
            checks.append([f for f in options if f is not None])
        if not checks:
            return None
        return lambda ctx: any(f(ctx) for opts in checks for f in opts)

    def action(self, action: ast.Action, renderer: Callable[[ast.Option], str]) -> Action:
        runs = [self.option(o) for o in action.options]
        if action.roll is not None:
            return self._chance(action.roll.count, action.ranges, runs)
        if len(runs) == 1:
            return runs[0]
        options = action.options
        labels = [renderer(o) for o in options]
        feasible = [self.can_lose(o) for o in options]
        if not any(feasible):
            def choose(ctx: EffectContext) -> None:
                runs[ctx.choose_option(labels, options)](ctx)

            return choose

        def choose_possible(ctx: EffectContext) -> None:
            # Only the options whose losses the player can pay; none: nothing happens.
            ok = [i for i, f in enumerate(feasible) if f is None or f(ctx)]
            if not ok:
                return
            runs[ok[ctx.choose_option([labels[i] for i in ok], [options[i] for i in ok])]](ctx)

        return choose_possible

    @staticmethod
    def _chance(count: int, ranges: tuple[tuple[int, int] | None, ...], runs: list[Action]) -> Action:
        """A chance: the dice are rolled; the first outcome whose results hold the total happens (None: any
        total); none: nothing."""
        outcomes = list(zip(ranges, runs, strict=True))

        def chance(ctx: EffectContext) -> None:
            total = ctx.roll_chance(count)
            for results, run in outcomes:
                if results is None or results[0] <= total <= results[1]:
                    run(ctx)
                    return

        return chance

    def actions(self, actions: tuple[ast.Action, ...], renderer: Callable[[ast.Option], str]) -> Action:
        runs = [self.action(a, renderer) for a in actions]
        if len(runs) == 1:
            return runs[0]

        def run_all(ctx: EffectContext) -> None:
            for run in runs:
                run(ctx)

        return run_all

    # -------------------------------------------------------------- effects
    def effect(self, effect: ast.Effect, renderer: Callable[[ast.Option], str],
               clause_text: Callable[[ast.Clause], str]) -> CompiledEffect:
        mods: list[ModifierHook] = []
        waiting: list[ModifierHook] = []
        triggers: list[TriggerHook] = []
        uses: list[UseHook] = []
        for clause in effect.clauses:
            scope = clause.scope.kind if clause.scope else None
            body = clause.body
            text = clause_text(clause)
            match body:
                case ast.Modifier():
                    spec = words.modifier(body.statement.verb.name)
                    (waiting if spec is not None and spec.waiting else mods).append(
                        self.modifier(body.statement, self.condition(body.condition),
                                      compiled_limit(body.limit), scope))
                case ast.Trigger():
                    triggers.append(TriggerHook(body.event.name, self.condition(body.condition),
                                                self.actions(body.actions, renderer),
                                                compiled_limit(body.limit), text, body.pos, scope,
                                                words.replaces_event(body.actions),
                                                words.heard_at(body.event.name, body.condition, body.actions)))
                case ast.Use():
                    window = (body.window.kind, body.window.moment.name) if body.window else None
                    sacrifices = any(_spends_source(p.statement)
                                     for act in body.actions for o in act.options for p in o.parts())
                    uses.append(UseHook(window, self.condition(body.condition), self.actions(body.actions, renderer),
                                        compiled_limit(body.limit), text, body.pos, scope,
                                        sacrifices, self.can_act(body.actions), tuple(
                                            (ast.statement_dsl(o.statement), pays, check, _needs(o.statement))
                                            for act in body.actions for opt in act.options
                                            for o, pays, check in self.checked_parts(opt))))
        return CompiledEffect(tuple(mods), tuple(triggers), tuple(uses), tuple(waiting))


def _needs(stmt: ast.Statement) -> Why | None:
    """What the action needs to act, in English (its word's ``needs``), for a refusal that names it."""
    spec = words.action(stmt.verb.name)
    return spec.needs(stmt) if spec is not None else None
