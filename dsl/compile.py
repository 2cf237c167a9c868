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
from typing import Protocol

import attrs

from ddaydice.dsl import ast


class EffectContext(Protocol):
    """What effects can do and ask. Implemented by the interpreter.

    ``self`` in a card's effect is the Unit that owns the card (or, for a
    Sector attribute, the Unit the attribute is applied to).
    """

    def roll_d6(self) -> int: ...
    def roll_chance(self, count: int) -> int: ...
    def gain(self, resource: str, amount: int, recipient: str | None) -> None: ...
    def lose(self, resource: str, amount: int, recipient: str | None) -> None: ...
    def add_result(self, face: str, amount: int, colour: str | None, recipient: str | None) -> None: ...
    def remove_result(self, face: str, amount: int) -> None: ...
    def reroll(self, count: int | None, filters: tuple[str, ...]) -> None: ...
    def reface(self, count: int | None, filters: tuple[str, ...], same: bool, face: str | None = None) -> None: ...
    def recolour(self, count: int, filters: tuple[str, ...]) -> None: ...
    def copy_tally(self) -> None: ...
    def keep_tally(self) -> None: ...
    def sacrifice(self, what: str | int, recipient: str | None = None) -> None: ...
    def recruit(self, what: str | int, free: bool) -> None: ...
    def find(self, what: str | int, free: bool, kind: str = "item") -> None: ...
    def offer(self, card: str) -> None: ...
    def draw_award(self, how: str) -> None: ...
    def gain_rwb(self, rwb: str) -> None: ...
    def absorb(self, resources: tuple[str, ...]) -> None: ...
    def die_instead(self) -> None: ...
    def swap_sectors(self) -> None: ...
    def become(self, attribute: str) -> None: ...
    def roll_attribute(self, table: str) -> None: ...
    def retreat(self, sector: str) -> None: ...
    def win(self) -> None: ...
    def reset_marker(self) -> None: ...
    def roll_split(self, keep: str, rest: str) -> None: ...
    def draw(self, deck: str, count: int) -> None: ...
    def discard(self, what: str | int, recipient: str | None = None, kind: str = "item") -> None: ...
    def steal(self, count: int, filters: tuple[str, ...]) -> None: ...
    def pool_trade(self, count: int) -> None: ...
    def second_tally(self) -> None: ...
    def cancel(self, deck: str) -> None: ...
    def arrange_top(self, deck: str, count: int) -> None: ...
    def pick(self, deck: str, count: int) -> None: ...
    def grant(self, modifier: ModifierHook, duration: str, recipient: str | None) -> None: ...
    def choose_option(self, labels: list[str]) -> int: ...
    def count(self, what: tuple[str, ...]) -> int: ...
    def predicate(self, name: str, args: tuple[str, ...]) -> int | bool: ...


Action = Callable[[EffectContext], None]
Cond = Callable[[EffectContext], bool]
Value = Callable[[EffectContext], int]

UNLIMITED = 10**9


@attrs.frozen
class ModifierHook:
    """A change to a query or permission: ``op`` is add, set, forbid, allow, ignore, require or protect."""

    query: str
    op: str
    value: Value | None
    args: tuple[str | int, ...]
    condition: Cond | None
    limit: str | None
    text: str
    pos: ast.Pos = attrs.field(eq=False)
    scope: str | None = None
    dice: bool = False


@attrs.frozen
class TriggerHook:
    event: str
    condition: Cond | None
    run: Action
    limit: str | None
    text: str
    pos: ast.Pos = attrs.field(eq=False)
    scope: str | None = None


@attrs.frozen
class UseHook:
    window: tuple[str, str] | None
    condition: Cond | None
    run: Action
    limit: str | None
    text: str
    pos: ast.Pos = attrs.field(eq=False)
    scope: str | None = None
    sacrifices_self: bool = False


@attrs.frozen
class CompiledEffect:
    modifiers: tuple[ModifierHook, ...]
    triggers: tuple[TriggerHook, ...]
    uses: tuple[UseHook, ...]


def _words(args: tuple[ast.Arg, ...]) -> tuple[str, ...]:
    return tuple(a.name for a in args if isinstance(a, ast.Word))


def _value(arg: ast.Arg) -> tuple[Value, bool]:
    """A closure giving the amount (and whether it involves a die roll)."""
    match arg:
        case ast.Number(value=n) | ast.Signed(value=n):
            return (lambda _ctx, n=n: n), False
        case ast.Dice(count=c, sign=s):
            sign = -1 if s < 0 else 1

            def roll(ctx: EffectContext, c: int = c, sign: int = sign) -> int:
                return sign * sum(ctx.roll_d6() for _ in range(c))

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


def _text(stmt: ast.Statement) -> str:
    parts = [stmt.verb.name]
    for a in stmt.args:
        match a:
            case ast.Word(name=n):
                parts.append(n)
            case ast.Number(value=n):
                parts.append(str(n))
            case ast.Signed(value=n):
                parts.append(f"{n:+d}")
            case ast.Dice(count=c, sign=s):
                parts.append(f"{'-' if s < 0 else '+' if s > 0 else ''}{c}d6")
            case ast.Assign(value=v):
                parts.append("= " + (v.name if isinstance(v, ast.Word) else str(getattr(v, "value", ""))
                                     if not isinstance(v, ast.Dice) else f"{v.count}d6"))
    if stmt.per:
        parts.append("per " + " ".join(w.name for w in stmt.per.words))
        if stmt.per.above is not None:
            parts.append(f"above {stmt.per.above}")
    return " ".join(parts)


def _holds(kind: str) -> Cond:
    return lambda ctx: int(ctx.predicate("holds", (kind,))) >= 1


def _has(card: str) -> Cond:
    return lambda ctx: bool(ctx.predicate("has", (card,)))


# The verbs that compile to a modifier even inside an action (granted for a while), besides the queries.
MODIFIER_VERBS = frozenset({"forbid", "allow", "ignore", "protect", "require"})


@attrs.frozen
class _Parts:
    """What an action's closure is made of: its verb, its arguments and their words, its amount (the first
    argument, times its 'per'; 0 without arguments) and who receives it."""

    verb: str
    args: tuple[ast.Arg, ...]
    words: tuple[str, ...]
    amount: Value
    recipient: str | None


# Each family below returns a new closure per statement, even when it captures nothing: the hooks holding
# them compare their closures by identity.

def _resource_action(p: _Parts) -> Action:
    """gain / lose: the last word names the resource."""
    res, amount, recipient = p.words[-1], p.amount, p.recipient
    if p.verb == "gain":
        return lambda ctx: ctx.gain(res, amount(ctx), recipient)
    return lambda ctx: ctx.lose(res, amount(ctx), recipient)


def _tally_action(p: _Parts) -> Action:
    """add / remove: results put into the Final Tally (with a colour, or colourless) or taken out of it."""
    a, amount, recipient = p.args, p.amount, p.recipient
    if p.verb == "remove":
        removed = p.words[-1]
        return lambda ctx: ctx.remove_result(removed, amount(ctx))
    face = _words(a[1:2])[0]
    colour = _words(a[2:3])[0] if len(a) > 2 else None
    return lambda ctx: ctx.add_result(face, amount(ctx), colour, recipient)


def _dice_action(p: _Parts) -> Action:
    """reroll / reface / recolour / steal / pool-trade: dice of the Final Tally, chosen through filters
    ('all': every die the filters allow, no count)."""
    words, amount = p.words, p.amount
    every = bool(words) and words[0] == "all"
    match p.verb:
        case "reroll":
            filters = tuple(w for w in words if w not in {"die", "all"})
            return lambda ctx: ctx.reroll(None if every else amount(ctx), filters)
        case "reface":
            named = words[words.index("as") + 1] if "as" in words else None  # 'as FACE': the face, no choice
            chosen = words[:words.index("as")] if "as" in words else words
            filters = tuple(w for w in chosen if w not in {"die", "all", "same"})
            same = "same" in words
            return lambda ctx: ctx.reface(None if every else amount(ctx), filters, same, named)
        case "recolour":
            filters = tuple(w for w in words if w != "die")
            return lambda ctx: ctx.recolour(amount(ctx), filters)
        case "steal":
            filters = tuple(w for w in words if w != "die")
            return lambda ctx: ctx.steal(amount(ctx), filters)
        case _:  # pool-trade
            return lambda ctx: ctx.pool_trade(amount(ctx))


def _card_action(p: _Parts) -> Action:
    """sacrifice / discard / recruit / find: a named card, or so many of the player's choice."""
    a, words, recipient = p.args, p.words, p.recipient
    card: str | int = a[0].value if isinstance(a[0], ast.Number) else words[0]
    match p.verb:
        case "sacrifice":
            return lambda ctx: ctx.sacrifice(card, recipient)
        case "discard":
            held = words[0] if isinstance(a[0], ast.Number) and words else "item"
            return lambda ctx: ctx.discard(card, recipient, held)
        case "recruit":
            free = "free" in words
            return lambda ctx: ctx.recruit(card, free)
        case _:  # find
            free = "free" in words
            kind = "item"
            if isinstance(a[0], ast.Number):
                kind = "vehicle" if "vehicle" in words else "used-item" if "used-item" in words else "item"
            return lambda ctx: ctx.find(card, free, kind)


def _deck_action(p: _Parts) -> Action:
    """draw / pick / arrange-top: so many cards of a deck (1 unless a number says)."""
    deck = p.words[0]
    count = p.args[0].value if isinstance(p.args[0], ast.Number) else 1
    if p.verb == "draw":
        return lambda ctx: ctx.draw(deck, count)
    if p.verb == "pick":
        return lambda ctx: ctx.pick(deck, count)
    return lambda ctx: ctx.arrange_top(deck, count)


def _named_action(p: _Parts) -> Action:
    """offer / draw-award / rwb / cancel / become / roll-attribute / retreat / absorb / roll-split: actions on
    what their words name (a card, a way to draw, an RWB, a deck, an attribute, a table, a sector,
    resources)."""
    words = p.words
    match p.verb:
        case "offer":
            card = words[0]
            return lambda ctx: ctx.offer(card)
        case "draw-award":
            how = words[0]
            return lambda ctx: ctx.draw_award(how)
        case "rwb":
            rwb = words[0]
            return lambda ctx: ctx.gain_rwb(rwb)
        case "cancel":
            cancelled = words[0]
            return lambda ctx: ctx.cancel(cancelled)
        case "become":
            attr = words[0]
            return lambda ctx: ctx.become(attr)
        case "roll-attribute":
            table = words[0]
            return lambda ctx: ctx.roll_attribute(table)
        case "retreat":
            sector = words[0]
            return lambda ctx: ctx.retreat(sector)
        case "absorb":
            return lambda ctx: ctx.absorb(words)
        case _:  # roll-split
            keep, rest = words[0], words[1]
            return lambda ctx: ctx.roll_split(keep, rest)


def _bare_action(p: _Parts) -> Action:
    """The actions without arguments."""
    match p.verb:
        case "copy-tally":
            return lambda ctx: ctx.copy_tally()
        case "keep-tally":
            return lambda ctx: ctx.keep_tally()
        case "die-instead":
            return lambda ctx: ctx.die_instead()
        case "swap-sectors":
            return lambda ctx: ctx.swap_sectors()
        case "win":
            return lambda ctx: ctx.win()
        case "reset-marker":
            return lambda ctx: ctx.reset_marker()
        case _:  # second-tally
            return lambda ctx: ctx.second_tally()


# Each action verb, to the function that compiles its family's statements.
_ACTIONS: dict[str, Callable[[_Parts], Action]] = {
    "gain": _resource_action, "lose": _resource_action,
    "add": _tally_action, "remove": _tally_action,
    "reroll": _dice_action, "reface": _dice_action, "recolour": _dice_action, "steal": _dice_action,
    "pool-trade": _dice_action,
    "sacrifice": _card_action, "discard": _card_action, "recruit": _card_action, "find": _card_action,
    "draw": _deck_action, "pick": _deck_action, "arrange-top": _deck_action,
    "offer": _named_action, "draw-award": _named_action, "rwb": _named_action, "cancel": _named_action,
    "become": _named_action, "roll-attribute": _named_action, "retreat": _named_action,
    "absorb": _named_action, "roll-split": _named_action,
    **dict.fromkeys(("copy-tally", "keep-tally", "die-instead", "swap-sectors", "win", "reset-marker",
                     "second-tally"), _bare_action),
}


class Compiler:
    def __init__(self, numbers: set[str]) -> None:
        self.numbers = numbers

    # ---------------------------------------------------------- conditions
    def cond_expr(self, expr: ast.CondExpr) -> Cond:
        match expr:
            case ast.Not(operand=op):
                inner = self.cond_expr(op)
                return lambda ctx: not inner(ctx)
            case ast.AllOf(operands=ops):
                parts = [self.cond_expr(o) for o in ops]
                return lambda ctx: all(p(ctx) for p in parts)
            case ast.AnyOf(operands=ops):
                parts = [self.cond_expr(o) for o in ops]
                return lambda ctx: any(p(ctx) for p in parts)
            case ast.Predicate(word=w, args=a, comparison=cmp):
                name = w.name
                args = _words(a)
                if cmp is None:
                    return lambda ctx: bool(ctx.predicate(name, args))
                rhs = cmp.value
                compare: dict[str, Callable[[int, int], bool]] = {
                    ">=": lambda x, y: x >= y, "<=": lambda x, y: x <= y, "==": lambda x, y: x == y,
                    "!=": lambda x, y: x != y, ">": lambda x, y: x > y, "<": lambda x, y: x < y,
                }
                fn = compare[cmp.op]
                return lambda ctx: fn(int(ctx.predicate(name, args)), rhs)
        raise AssertionError(expr)

    def condition(self, cond: ast.Condition | None) -> Cond | None:
        if cond is None:
            return None
        inner = self.cond_expr(cond.expr)
        if cond.negated:
            return lambda ctx: not inner(ctx)
        return inner

    # ----------------------------------------------------------- modifiers
    def modifier(self, stmt: ast.Statement, condition: Cond | None, limit: str | None,
                 scope: str | None) -> ModifierHook:
        v = stmt.verb.name
        words = _words(stmt.args)
        text = _text(stmt)
        if v in self.numbers:
            arg = stmt.args[0]
            value, dice = _value(arg)
            value = _per(stmt.per, value)
            op = "set" if isinstance(arg, ast.Assign) else "add"
            return ModifierHook(v, op, value, (), condition, limit, text, stmt.pos, scope, dice)
        match v:
            case "forbid" | "allow":
                return ModifierHook(words[0], v, None, (), condition, limit, text, stmt.pos, scope)
            case "ignore":
                return ModifierHook(f"ignore-{words[0]}", "allow", None, (), condition, limit, text, stmt.pos,
                                    scope)
            case "require":
                args: tuple[str | int, ...] = tuple(
                    a.value if isinstance(a, ast.Number) else a.name for a in stmt.args
                    if isinstance(a, ast.Number | ast.Word))
                return ModifierHook("enter", "require", None, args, condition, limit, text, stmt.pos, scope)
            case "protect":
                return ModifierHook(words[0], "protect", None, words[2:], condition, limit, text, stmt.pos, scope)
        raise AssertionError(f"not a modifier: {v}")

    # -------------------------------------------------------------- actions
    def statement(self, stmt: ast.Statement, duration: str | None, recipient: str | None,
                  recipient_condition: Cond | None = None) -> Action:
        """An action's closure: a query change or a permission is a modifier granted for a while
        (:meth:`_grant`); any other verb is compiled by its family (:data:`_ACTIONS`)."""
        v = stmt.verb.name
        a = stmt.args
        if v in self.numbers or v in MODIFIER_VERBS:
            return self._grant(stmt, duration, recipient, recipient_condition)
        amount, _ = _value(a[0]) if a else ((lambda _ctx: 0), False)
        family = _ACTIONS.get(v)
        if family is None:
            raise AssertionError(f"no compiler for action '{v}'")
        return family(_Parts(v, a, _words(a), _per(stmt.per, amount), recipient))

    def _grant(self, stmt: ast.Statement, duration: str | None, recipient: str | None,
               recipient_condition: Cond | None) -> Action:
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
    def can_lose(opt: ast.Option) -> Cond | None:
        """Whether an option of an OR may be chosen: "you cannot choose to lose what you do not have"
        (a card of one's own to sacrifice or discard, named or of one's choice)."""
        checks: list[Cond] = []
        for o in opt.parts():
            st = o.statement
            if o.recipient is not None or st.verb.name not in {"sacrifice", "discard"} or not st.args:
                continue
            first = st.args[0]
            if isinstance(first, ast.Number):
                held = _words(st.args)
                kind = "specialist" if st.verb.name == "sacrifice" else (held[0] if held else "item")
                checks.append(_holds(kind))
            elif isinstance(first, ast.Word) and first.name != "self":
                checks.append(_has(first.name))
        if not checks:
            return None
        return lambda ctx: all(c(ctx) for c in checks)

    def action(self, action: ast.Action, renderer: Callable[[ast.Option], str]) -> Action:
        runs = [self.option(o) for o in action.options]
        if action.roll is not None:
            return self._chance(action.roll.count, action.ranges, runs)
        if len(runs) == 1:
            return runs[0]
        labels = [renderer(o) for o in action.options]
        feasible = [self.can_lose(o) for o in action.options]
        if not any(feasible):
            def choose(ctx: EffectContext) -> None:
                runs[ctx.choose_option(labels)](ctx)

            return choose

        def choose_possible(ctx: EffectContext) -> None:
            # Only the options whose losses the player can pay; none: nothing happens.
            ok = [i for i, f in enumerate(feasible) if f is None or f(ctx)]
            if not ok:
                return
            runs[ok[ctx.choose_option([labels[i] for i in ok])]](ctx)

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
        triggers: list[TriggerHook] = []
        uses: list[UseHook] = []
        for clause in effect.clauses:
            scope = clause.scope.kind if clause.scope else None
            body = clause.body
            text = clause_text(clause)
            match body:
                case ast.Modifier():
                    mods.append(self.modifier(body.statement, self.condition(body.condition),
                                              body.limit.period if body.limit else None, scope))
                case ast.Trigger():
                    triggers.append(TriggerHook(body.event.name, self.condition(body.condition),
                                                self.actions(body.actions, renderer),
                                                body.limit.period if body.limit else None, text, body.pos, scope))
                case ast.Use():
                    window = (body.window.kind, body.window.moment.name) if body.window else None
                    sacrifices = any(p.statement.verb.name == "sacrifice" and _words(p.statement.args)[:1] == ("self",)
                                     for act in body.actions for o in act.options for p in o.parts())
                    uses.append(UseHook(window, self.condition(body.condition), self.actions(body.actions, renderer),
                                        body.limit.period if body.limit else None, text, body.pos, scope,
                                        sacrifices))
        return CompiledEffect(tuple(mods), tuple(triggers), tuple(uses))
