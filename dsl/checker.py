"""Name and type checking of effects.

The checker walks a parsed :class:`~ddaydice.dsl.ast.Effect`, resolves every
word against the registry (:mod:`ddaydice.dsl.words`) and the content's
:class:`~ddaydice.dsl.vocab.Vocabulary`, checks arities and argument kinds,
and returns the effect with every name in its canonical spelling
(``soldier`` -> ``soldiers``) together with all the diagnostics it found.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable

import attrs

from ddaydice.dsl import ast, words
from ddaydice.dsl.diagnostics import Diagnostic, did_you_mean, suggest
from ddaydice.dsl.parser import keywords
from ddaydice.dsl.schema import USED_ONLY_KINDS
from ddaydice.dsl.vocab import Vocabulary

DURATION_ENGLISH = {
    "this-turn": "this turn",
    "this-phase": "this phase",
    "next-turn": "next turn",
    "permanently": "permanently",
    "until": "until an event",
}

MAX_CHANCE_DICE = 6  # 'roll 6d6 (...)' at most: a chance is a few dice

FILTER_WORDS = frozenset({"locked", "unlocked", "real", "any-roll"})
MAP_KINDS = frozenset({"attribute", "table", "sector"})
# parameter kinds whose arguments are names (of content or of the rules), not numbers
NAME_KINDS = frozenset(words.PARAM_KINDS) - {"amount", "count", "change", "counter"}


def _unknown_message(param: words.Param, name: str) -> str:
    if param.kinds:
        return f"unknown {' or '.join(param.kinds)} '{name}'"
    return f"expected {' or '.join(repr(lit) for lit in param.literals)}, found '{name}'"


@attrs.frozen
class Context:
    """Where an effect appears: a card of some kind, a sector of a map, a rule."""

    kind: str  # specialist, item, vehicle, award, sector, rule, ...
    # A kind of an expansion held like an Item (held-as item, or held by a Unit among its cards): used, never
    # standing; its name for messages ("Badge").
    used_only_as: str | None = None
    # A card that is bought (recruited or found for its cost): a clause may speak of its own price while it waits.
    bought: bool = False
    # A card of a kind drawn into play for every Unit (held by the game, never by a Unit).
    held_by_game: bool = False

    def where(self) -> str | None:
        """What holds no card, in words ('a Sector', 'a rule'), or None for a card a Unit (or player) holds."""
        if self.held_by_game:
            return f"a card of kind '{self.kind}', in play for every Unit,"
        return _NOT_CARDS.get(self.kind)


_NOT_CARDS = {"sector": "a Sector", "rule": "a rule", "option": "an optional rule", "rwb": "an RWB bonus"}


class _Checker:
    def __init__(self, vocab: Vocabulary, context: Context) -> None:
        self.v = vocab
        self.ctx = context
        self.diags: list[Diagnostic] = []
        self.heard: ast.Word | None = None  # the event the clause being checked answers ('on EVENT')

    # -------------------------------------------------------------- helpers
    def err(self, code: str, message: str, pos: ast.Pos, hint: str | None = None) -> None:
        self.diags.append(Diagnostic(code, message, pos.file, pos.line, pos.column, hint=hint, width=pos.width))

    def optional_rules(self) -> frozenset[str]:
        return self.v.options

    def faces(self) -> set[str]:
        return set(self.v.faces) | set(self.v.face_aliases)

    def tags(self) -> frozenset[str]:
        return self.v.tags

    def event_heard(self) -> tuple[ast.Word, words.EventWord | None] | None:
        return (self.heard, words.event(self.heard.name)) if self.heard is not None else None

    def pending_events(self) -> tuple[str, ...]:
        return tuple(e.name for e in words.words("event").values() if isinstance(e, words.EventWord) and e.pending)

    def unknown(self, what: str, word: ast.Word, pool: Iterable[str], code: str = "DSL102") -> None:
        pool = list(pool)
        hint = did_you_mean(word.name, pool)
        if hint is None and pool and len(pool) <= 12:
            hint = "one of: " + ", ".join(sorted(pool))
        self.err(code, f"unknown {what} '{word.name}'", word.pos, hint)

    # ---------------------------------------------------------------- kinds
    def names_of(self, kind: str) -> set[str]:
        v = self.v
        match kind:
            case "resource":
                return set(v.resources)
            case "face":
                return set(v.faces) | set(v.face_aliases) | {"any"}
            case "colour":
                return set(v.colours) | {"any-colour"}
            case "filter":
                return set(v.colours) | set(v.faces) | set(v.face_aliases) | FILTER_WORDS
            case "specialist" | "item" | "vehicle" | "award":
                return v.cards_of(kind)
            case "card":
                return set(v.cards)
            case "rwb":
                return set(v.rwbs)
            case "query":
                return v.numbers()
            case "flag":
                return v.flags()
            case "ignorable":
                return set(v.ignorables)
            case "tier":
                return set(v.tiers)
            case "attribute":
                return set(v.attributes)
            case "table":
                return set(v.tables)
            case "sector":
                return set(v.sectors)
            case "kind":
                return {"specialist", "item", "vehicle", "award"} | set(v.kinds)
            case "deck":
                return set(v.decks)
            case "tag":
                return set(v.tags)
        return set()

    def canonical(self, kind: str, name: str) -> str:
        if kind == "resource":
            return self.v.resources.get(name, name)
        if kind in {"face", "filter"}:
            return self.v.face_aliases.get(name, name)
        return name

    def arg_fits(self, arg: ast.Arg, kind: str) -> bool:
        match kind:
            case "amount":
                return (isinstance(arg, ast.Number) or (isinstance(arg, ast.Dice) and arg.sign == 0)
                        or (isinstance(arg, ast.Word) and arg.name == "all"))
            case "count":
                return isinstance(arg, ast.Number)
            case "change":
                return isinstance(arg, ast.Signed | ast.Assign) or (isinstance(arg, ast.Dice) and arg.sign != 0)
            case "word":
                return isinstance(arg, ast.Word)
        return isinstance(arg, ast.Word) and arg.name in self.names_of(kind)

    def describe(self, arg: ast.Arg) -> str:
        match arg:
            case ast.Number(value=n):
                return f"the number {n}"
            case ast.Signed(value=n):
                return f"the change {n:+d}"
            case ast.Dice(count=c, sign=s):
                return f"the die roll {'-' if s < 0 else '+' if s > 0 else ''}{c}d6"
            case ast.Assign():
                return "an assignment ('= ...')"
            case ast.Word(name=n):
                return f"'{n}'"

    def match_signature(
        self, sig: words.Signature, args: tuple[ast.Arg, ...]
    ) -> tuple[list[tuple[str, ast.Pos, str, str | None]], tuple[ast.Arg, ...]]:
        """Errors (code, pos, message, hint) matching args to a signature, and canonical args."""
        errors: list[tuple[str, ast.Pos, str, str | None]] = []
        out: list[ast.Arg] = []
        i = 0
        for param in sig.params:
            taken = 0
            while i < len(args):
                arg = args[i]
                lit_ok = isinstance(arg, ast.Word) and arg.name in param.literals
                kind = next((k for k in param.kinds if self.arg_fits(arg, k)), None)
                if not lit_ok and kind is None:
                    break
                if kind is not None and isinstance(arg, ast.Word) and not lit_ok:
                    arg = attrs.evolve(arg, name=self.canonical(kind, arg.name))
                out.append(arg)
                i += 1
                taken += 1
                if not param.repeat:
                    break
            if taken == 0 and not param.optional:
                want = " or ".join([*(f"'{lit}'" for lit in param.literals), *param.kinds])
                if i < len(args):
                    arg = args[i]
                    pool: set[str] = set(param.literals)
                    for k in param.kinds:
                        pool |= self.names_of(k)
                    hint = did_you_mean(arg.name, pool) if isinstance(arg, ast.Word) else None
                    expected = "expected " + "; ".join(
                        [*(f"'{lit}'" for lit in param.literals),
                         *(words.PARAM_KINDS.get(k, k) for k in param.kinds)])
                    # a name the content does not define at all is unknown; a name of another kind is misplaced
                    if isinstance(arg, ast.Word) and (hint is not None or (
                            any(k in NAME_KINDS for k in param.kinds) and not self.known_name(arg.name))):
                        if hint is None:
                            hint = "one of: " + ", ".join(sorted(pool)) if 0 < len(pool) <= 12 else expected
                        errors.append(("DSL102", arg.pos, _unknown_message(param, arg.name), hint))
                    else:
                        errors.append(("DSL104", arg.pos, f"expected {want}, found {self.describe(arg)}",
                                       hint or expected))
                    return errors, tuple(out)
                errors.append(("DSL103", ast.NOWHERE, f"missing {want}", None))
                return errors, tuple(out)
        if i < len(args):
            extra = args[i]
            if isinstance(extra, ast.Word):
                # a misspelt optional word ('any-rol', 'redd') reads better as unknown than as extra
                for param in sig.params:
                    pool = set(param.literals)
                    for k in param.kinds:
                        pool |= self.names_of(k)
                    hint = did_you_mean(extra.name, pool)
                    if hint:
                        errors.append(("DSL102", extra.pos, _unknown_message(param, extra.name), hint))
                        return errors, tuple(out)
            errors.append(("DSL103", extra.pos, f"{self.describe(extra)} is one argument too many", None))
        return errors, tuple(out)

    def known_name(self, name: str) -> bool:
        """Whether content or the registry defines ``name`` as anything at all."""
        return any(name in self.names_of(k) for k in NAME_KINDS) or any(
            words.lookup(role, name) is not None for role in ("action", "modifier", "event", "moment", "predicate"))

    def check_args(self, verb: ast.Word, spec: words.WordSpec, args: tuple[ast.Arg, ...],
                   stmt_pos: ast.Pos) -> tuple[ast.Arg, ...]:
        best: tuple[list[tuple[str, ast.Pos, str, str | None]], tuple[ast.Arg, ...]] | None = None
        for sig in words.signatures(spec):
            errors, canon = self.match_signature(sig, args)
            if not errors:
                return canon
            if best is None or len(canon) > len(best[1]):
                best = (errors, canon)
        assert best is not None
        reordered = self.reordered(spec, args)
        for code, pos, message, found_hint in best[0]:
            where = pos if pos is not ast.NOWHERE else stmt_pos
            hint = found_hint
            if code == "DSL104" and reordered is not None:
                hint = f"the words are in the wrong order: '{verb.name} {reordered}'"
            if code == "DSL103":
                forms = " | ".join(f"{verb.name} {s}".strip() for s in spec.signatures)
                hint = hint or f"the form is: {forms}"
            self.err(code, f"{verb.name}: {message}", where, hint)
        return args

    def reordered(self, spec: words.WordSpec, args: tuple[ast.Arg, ...]) -> str | None:
        """The arguments in an order some form of the word takes, when they are only out of order ('gain soldiers
        3' -> '3 soldiers')."""
        if not 1 < len(args) <= 4:
            return None
        for order in itertools.permutations(args):
            if order != args and any(not self.match_signature(sig, order)[0] for sig in words.signatures(spec)):
                return " ".join(ast.arg_dsl(a) for a in order)
        return None

    # ------------------------------------------------------------ statements
    def check_query_change(self, stmt: ast.Statement, *, in_actions: bool) -> ast.Statement:
        q = self.v.queries[stmt.verb.name]
        if words.guarded_set(stmt.args) is not None:
            self.check_guarded_set(stmt)
            return stmt
        if self.change_then_more(stmt):
            # The change is right; what follows it is not understood (often a duration the language lacks).
            extra = stmt.args[1]
            self.err("DSL103", f"{q.id}: {self.describe(extra)} after {self.describe(stmt.args[0])} is "
                     "not understood", extra.pos, _after_change_hint(stmt, extra, in_actions=in_actions))
            return stmt
        if len(stmt.args) != 1 or not self.arg_fits(stmt.args[0], "change"):
            found = self.describe(stmt.args[0]) if stmt.args else "nothing"
            hint = f"for example '{q.id} -1' or '{q.id} = 0'"
            if stmt.args and isinstance(stmt.args[0], ast.Number):
                n = stmt.args[0].value
                hint = f"a change has a sign: '{q.id} +{n}' raises it by {n}, '{q.id} = {n}' sets it to {n}"
            self.err("DSL104", f"{q.id}: expected a change (-2, +1, -1d6) or '= value', found {found}",
                     stmt.args[0].pos if stmt.args else stmt.pos, hint)
            return stmt
        arg = stmt.args[0]
        if isinstance(arg, ast.Assign) and isinstance(arg.value, ast.Word) and arg.value.name != "unlimited":
            self.err("DSL104", f"{q.id}: cannot be set to '{arg.value.name}'", arg.value.pos,
                     "a number, a die roll, or 'unlimited'")
        if stmt.per is not None:
            self.check_per(stmt.per)
        return stmt

    def check_guarded_set(self, stmt: ast.Statement) -> None:
        """A set that says what it guards against ('mgf-dice = 0 against raising'): a number, then 'raising' or
        tiers, as 'protect' reads them."""
        q, arg = stmt.verb.name, stmt.args[0]
        if not (isinstance(arg, ast.Assign) and isinstance(arg.value, ast.Number)):
            self.err("DSL104", f"{q}: a set that names what it overrides sets a number", arg.pos,
                     f"for example '{q} = 0 against raising'")
        named = stmt.args[2:]
        tiers = self.names_of("tier")
        raising = [a for a in named if isinstance(a, ast.Word) and a.name == words.RAISING]
        for a in named:
            ok = isinstance(a, ast.Word) and (a.name in tiers or a.name == words.RAISING)
            if not ok or (raising and len(named) > 1):
                self.err("DSL104", f"{q}: after 'against', expected 'raising' or tiers, found {self.describe(a)}",
                         a.pos, did_you_mean(a.name, [words.RAISING, *sorted(tiers)])
                         if isinstance(a, ast.Word) and not ok else "'raising' stands alone: nothing raises it")
                return
        if stmt.per is not None:
            self.check_per(stmt.per)

    def change_then_more(self, stmt: ast.Statement) -> bool:
        """A value's change followed by more words than the language reads after it ('def -2 until-move')."""
        return (stmt.verb.name in self.v.numbers() and len(stmt.args) > 1
                and self.arg_fits(stmt.args[0], "change") and words.guarded_set(stmt.args) is None)

    def check_per(self, per: ast.Per) -> None:
        first = per.words[0]
        faces = set(self.v.faces) | set(self.v.face_aliases)
        counter = words.counter(first.name)
        if counter is not None and counter.check is not None:  # a counter of a named thing: 'per locked skull'
            counter.check(self, per)
            return
        counters = {w.name for w in words.words("counter").values()} | {
            w.singular for w in words.words("counter").values() if isinstance(w, words.CounterWord) and w.singular}
        if len(per.words) == 1 and (first.name in faces or first.name in counters):
            return
        pool = [*faces, *sorted(counters)]
        self.err("DSL112", f"cannot count '{' '.join(w.name for w in per.words)}'", per.pos,
                 did_you_mean(first.name, pool) or "count a face of the tally, 'locked FACE', 'rwbs' or "
                 "'specialists'")

    def check_statement(self, stmt: ast.Statement, *, in_actions: bool, duration: str | None) -> ast.Statement:
        name = stmt.verb.name
        modifier_verbs = words.words("modifier")
        action_verbs = words.words("action")
        numbers = self.v.numbers()
        is_modifier = name in numbers or name in modifier_verbs
        modifier = words.modifier(name)
        if in_actions and modifier is not None and modifier.waiting:
            self.err("DSL118", f"'{name}' is a card's own price while it waits to be bought: a standing clause, "
                     "never an action", stmt.verb.pos,
                     f"write '{words_of(stmt)}' on a line of its own; to make cards cheaper for a while, "
                     "'item-cost -1 this turn'")
            return stmt
        if in_actions and is_modifier and (modifier is None or modifier.needs_duration) and duration is None \
                and not self.change_then_more(stmt):
            # (a change followed by a word it does not read: that word, likely a duration misspelt, is the mistake)
            self.err("DSL105", f"'{name}' changes a value or a permission; inside actions it needs a duration",
                     stmt.verb.pos, "add 'this turn', 'this phase', 'next turn', 'permanently' or 'until EVENT'")
        if in_actions and not is_modifier and duration is not None and name in action_verbs:
            self.err("DSL106", f"'{name}' happens at once; '{DURATION_ENGLISH[duration]}' makes no sense here",
                     stmt.verb.pos, "durations belong to modifiers such as 'def -2 this turn'")
        if name in numbers:
            return self.check_query_change(stmt, in_actions=in_actions)
        if name in modifier_verbs:
            spec = modifier_verbs[name]
        elif in_actions and name in action_verbs:
            spec = action_verbs[name]
        else:
            pool = set(numbers) | set(modifier_verbs)
            if in_actions:
                pool |= set(action_verbs)
                what = "action"
            else:
                what = "modifier"
            if not in_actions and name in action_verbs:
                self.err("DSL101", f"'{name}' is an action; it needs a trigger or a use",
                         stmt.verb.pos, f"write 'on EVENT: {name} ...' or 'use: {name} ...'")
                return stmt
            if name in self.v.flags():
                self.err("DSL101", f"'{name}' is a permission, not a value", stmt.verb.pos,
                         f"write 'allow {name}' or 'forbid {name}'")
                return stmt
            if name in keywords():  # 'or or', 'and' with nothing before it: the keyword is out of place
                self.err("DSL101", f"'{name}' is a keyword of the language, out of place here", stmt.verb.pos,
                         f"an {what} was expected (gain 1 star, def -2 this turn); is '{name}' written twice?")
                return stmt
            self.unknown(what, stmt.verb, pool, code="DSL101")
            return stmt
        if name in MAP_KINDS or any(k in MAP_KINDS for sig in words.signatures(spec)
                                    for p in sig.params for k in p.kinds):
            needs_map = all(any(k in MAP_KINDS for p in sig.params for k in p.kinds)
                            for sig in words.signatures(spec))
            if needs_map and not self.v.in_map:
                self.err("DSL111", f"'{name}' only makes sense in a map's Sector attributes", stmt.verb.pos,
                         "it names the attributes, tables or Sectors of one map: write it in that map's "
                         "'sectors:' or 'attributes:'")
                return stmt
        args = self.check_args(stmt.verb, spec, stmt.args, stmt.pos)
        checked = attrs.evolve(stmt, args=args)
        own_check = spec.check if isinstance(spec, words.ActionWord | words.ModifierWord) else None
        if own_check is not None:  # the word's own check, beyond its signatures
            own_check(self, checked)
        if stmt.per is not None:
            if not (isinstance(spec, words.ActionWord) and spec.per):
                self.err("DSL112", f"'{name}' cannot be multiplied with 'per'", stmt.per.pos,
                         "'per' multiplies what gain, lose, add and remove give, and a value's change")
            else:
                self.check_per(stmt.per)
        return checked

    # ------------------------------------------------------------ conditions
    def predicates_taking(self, name: str) -> list[str]:
        """The conditions whose first argument ``name`` can be ('soldiers' -> 'have soldiers')."""
        forms = []
        for pred in sorted(words.words("predicate")):
            spec = words.lookup("predicate", pred)
            if spec is None:
                continue
            for sig in spec.signatures:
                kind = sig.split(" ", 1)[0] if sig else ""
                if kind and not kind.startswith("'") and name in self.names_of(kind):
                    forms.append(f"{pred} {name}")
                    break
        return forms

    def condition_hint(self, name: str) -> str | None:
        """The condition an unknown one likely meant: a resource, a kind, a face or a Sector written without its
        predicate ('soldiers' -> 'have soldiers'), misspelt or not ('courag' -> 'have courage'), or a misspelt
        predicate ('in-bunker' -> 'bunker')."""
        predicates = set(words.words("predicate"))
        forms = self.predicates_taking(name)
        if not forms:
            taken = {n for pred in predicates for sig in words.signatures(words.words("predicate")[pred])
                     for k in (sig.params[0].kinds if sig.params else ()) for n in self.names_of(k)}
            best = suggest(name, predicates | taken)
            if best is None:
                return None
            forms = [best] if best in predicates else self.predicates_taking(best)
        return "did you mean " + " or ".join(f"'{f}'" for f in forms) + "?"

    def check_cond_expr(self, expr: ast.CondExpr) -> ast.CondExpr:
        match expr:
            case ast.Not(operand=op):
                return attrs.evolve(expr, operand=self.check_cond_expr(op))
            case ast.AllOf(operands=ops) | ast.AnyOf(operands=ops):
                return attrs.evolve(expr, operands=tuple(self.check_cond_expr(o) for o in ops))
            case ast.Predicate():
                spec = words.lookup("predicate", expr.word.name)
                if spec is None:
                    self.err("DSL109", f"unknown condition '{expr.word.name}'", expr.word.pos,
                             self.condition_hint(expr.word.name))
                    return expr
                args = self.check_args(expr.word, spec, expr.args, expr.pos)
                written = " ".join([expr.word.name, *(a.name if isinstance(a, ast.Word)
                                                      else str(getattr(a, "value", "")) for a in expr.args)])
                number = isinstance(spec, words.PredicateWord) and spec.number
                if number and expr.comparison is None:
                    self.err("DSL110", f"'{expr.word.name}' is a number: compare it",
                             expr.word.pos, f"for example '{written} >= 2'")
                if not number and expr.comparison is not None:
                    self.err("DSL110", f"'{expr.word.name}' is true or false and cannot be compared",
                             expr.word.pos, f"write 'if {written}' or 'unless {written}'")
                if isinstance(spec, words.PredicateWord) and spec.check is not None:
                    spec.check(self, args)  # the condition's own check, beyond its signatures
                return attrs.evolve(expr, args=args)

    def check_condition(self, cond: ast.Condition | None) -> ast.Condition | None:
        if cond is None:
            return None
        return attrs.evolve(cond, expr=self.check_cond_expr(cond.expr))

    # --------------------------------------------------------------- clauses
    def check_chance(self, action: ast.Action) -> None:
        """A chance's outcomes: results the dice can total, lowest first, 'else' last and once."""
        assert action.roll is not None
        count = action.roll.count
        low, high = count, 6 * count
        if not 1 <= count <= MAX_CHANCE_DICE:
            self.err("DSL117", f"roll: {count}d6 is not a chance's dice (1d6 to {MAX_CHANCE_DICE}d6)", action.roll.pos)
            return
        named: list[tuple[int, int]] = []
        for k, results in enumerate(action.ranges):
            where = action.range_pos[k] if k < len(action.range_pos) else action.options[k].pos
            if results is None:
                if k != len(action.ranges) - 1:
                    self.err("DSL117", "roll: 'else' is the last outcome (any total not named before it)", where)
                continue
            a, b = results
            shown = f"{a}" if a == b else f"{a}-{b}"
            if not low <= a <= b <= high:
                self.err("DSL117", f"roll: the results {shown} are not totals of {count}d6 ({low} to {high})",
                         where, f"name a total or a range of totals from {low} to {high}, such as "
                         f"'{low}-{(low + high) // 2}'")
            elif any(a <= d and c <= b for c, d in named):
                self.err("DSL117", f"roll: the results {shown} are named by an earlier outcome too", where,
                         "each total belongs to one outcome")
            named.append((a, b))

    def check_actions(self, actions: tuple[ast.Action, ...]) -> tuple[ast.Action, ...]:
        out: list[ast.Action] = []
        for action in actions:
            if action.roll is not None:
                self.check_chance(action)
            opts = []
            for opt in action.options:
                opts.append(attrs.evolve(self.check_option(opt),
                                         also=tuple(self.check_option(o) for o in opt.also)))
            out.append(attrs.evolve(action, options=tuple(opts)))
        return tuple(out)

    def check_option(self, opt: ast.Option) -> ast.Option:
        if opt.until is not None and words.lookup("event", opt.until.name) is None:
            self.unknown("event", opt.until, words.words("event"), code="DSL107")
        stmt = self.check_statement(opt.statement, in_actions=True, duration=opt.duration)
        recipient = opt.recipient
        if recipient is not None:
            recipient = self.check_recipient(recipient, stmt)
        return attrs.evolve(opt, statement=stmt, recipient=recipient)

    def sector_valued(self, stmt: ast.Statement) -> bool:
        """Whether a statement changes a value or permission that belongs to a Sector (a requirement to move
        into it does)."""
        name = stmt.verb.name
        modifier = words.modifier(name)
        change = modifier.compile(stmt) if modifier is not None else None
        query = name if name in self.v.numbers() else change.query if change is not None else ""
        info = self.v.queries.get(query)
        return (info is not None and info.subject == "sector") or (change is not None and change.op == "require")

    def check_recipient(self, target: ast.Target, stmt: ast.Statement) -> ast.Target:
        name = stmt.verb.name
        is_modifier = name in self.v.numbers() or name in words.words("modifier")
        if target.kind == "adjacent-sector" and not self.sector_valued(stmt):
            self.err("DSL114", f"'adjacent sector' names a Sector: '{name}' does not change a Sector's value",
                     target.pos, "give it a Sector's value or permission, such as 'def -2 this turn' or "
                     "'mgf-dice = 0 this turn'")
        if target.condition is not None:
            if not is_modifier:
                self.err("DSL113", f"a condition on the recipient cannot filter '{name}' yet",
                         target.condition.pos, "recipient filters work on values and permissions given "
                         "for a while ('def -2 this turn to all units unless bunker')")
            return attrs.evolve(target, condition=self.check_condition(target.condition))
        return target

    def check_clause(self, clause: ast.Clause) -> ast.Clause:
        if clause.scope is not None and clause.scope.kind == "adjacent-sector":
            self.err("DSL114", "'adjacent sector' can only receive an action, not scope a clause",
                     clause.scope.pos, "write 'use ...: ... to adjacent sector'")
        body = clause.body
        match body:
            case ast.Trigger():
                spec = words.event(body.event.name)
                if spec is None:
                    self.unknown("event", body.event, words.words("event"), code="DSL107")
                elif (what := self.used_only()) is not None and not spec.own:
                    # a trigger on a card held until used would act at each event while merely held
                    self.err("DSL116", f"{what} acts only when it is used; a trigger here would act each time "
                             f"'{body.event.name}' happens while the card is merely held", body.event.pos,
                             "write 'use: ...' (played once, when the player chooses); the only triggers such a "
                             "card may have hear its own coming: " + ", ".join(
                                 f"'on {e}'" for e, w in words.words("event").items()
                                 if isinstance(w, words.EventWord) and w.own))
                self.heard = body.event
                try:
                    new: ast.Body = attrs.evolve(body, condition=self.check_condition(body.condition),
                                                 actions=self.check_actions(body.actions))
                finally:
                    self.heard = None
            case ast.Use():
                if body.window is not None:
                    moment = body.window.moment.name
                    pool = set(words.words("event")) | set(words.words("moment")) | set(self.v.phases)
                    if moment not in pool:
                        self.unknown("moment", body.window.moment, pool, code="DSL108")
                    else:
                        self.check_window(body.window)
                    if body.window.kind == "when" and words.event(moment) is not None:
                        self.heard = body.window.moment  # 'use when EVENT' answers the event
                try:
                    new = attrs.evolve(body, condition=self.check_condition(body.condition),
                                       actions=self.check_actions(body.actions))
                finally:
                    self.heard = None
            case ast.Modifier():
                if self.waiting(body.statement):
                    self.check_waiting(clause, body)
                elif (what := self.used_only()) is not None:
                    self.err("DSL116", f"{what} acts only when it is used; a standing change here would never "
                             "apply", body.pos, f"write 'use: {words_of(body.statement)} this turn'")
                stmt = self.check_statement(body.statement, in_actions=False, duration=None)
                new = attrs.evolve(body, statement=stmt, condition=self.check_condition(body.condition))
        return attrs.evolve(clause, body=new)

    def check_window(self, window: ast.Window) -> None:
        """A use's window must be one the engine offers uses at (``words.windows``): a known word in another window
        ('before advance') would make a card that validates and is never offered."""
        offered = words.windows()
        if (window.kind, window.moment.name) in offered:
            return
        said = f"{window.kind} {window.moment.name}"
        phrases = [f"{kind} {moment}" for kind, moment in offered]
        same = [f"'{kind} {moment}'" for kind, moment in offered if moment == window.moment.name]
        hint = f"did you mean {' or '.join(same)}?" if same else did_you_mean(said, phrases)
        spec = words.event(window.moment.name)
        if hint is None and spec is not None and spec.own:  # what the card does as it arrives is a trigger
            hint = f"what the card does when it is {window.moment.name}, it does by itself: write 'on " \
                   f"{window.moment.name}: ...'"
        listed = "uses are offered only " + ", ".join(phrases)
        self.err("DSL121", f"no use is ever offered '{said}': the turn has no such moment for a card's uses",
                 window.pos, f"{hint} ({listed})" if hint else listed)

    def used_only(self) -> str | None:
        """The card's kind, for a message, when it acts only when used (an Item, an Award, an expansion's kind held
        like an Item: rules/kinds.yaml), so that no standing change (DSL116) nor trigger on what happens while it
        is held applies; None for any other source."""
        base = USED_ONLY_KINDS.get(self.ctx.kind)
        if base is not None:
            return f"{'an' if base[0] in 'AEIOU' else 'a'} {base}"
        return f"a {self.ctx.used_only_as} (used like an Item)" if self.ctx.used_only_as is not None else None

    @staticmethod
    def waiting(stmt: ast.Statement) -> bool:
        """Whether the statement speaks of its own card while it waits to be bought (its word's record says)."""
        spec = words.modifier(stmt.verb.name)
        return spec is not None and spec.waiting

    def check_waiting(self, clause: ast.Clause, body: ast.Modifier) -> None:
        """A card's clause about its own price: on a card that is bought, for itself, without a limit (it is not
        a change in play, so DSL116 does not apply to it)."""
        name = body.statement.verb.name
        if not self.ctx.bought:
            where = {"sector": "a Sector", "rule": "a rule", "option": "an optional rule", "rwb": "an RWB bonus",
                     "award": "an Award"}.get(self.ctx.kind, f"a card of kind '{self.ctx.kind}'")
            self.err("DSL118", f"'{name}' speaks of a card's own price while it waits to be bought; {where} is "
                     "never bought", body.statement.verb.pos,
                     "write it on the Specialist, Item or Vehicle whose price it changes; to change the price of "
                     "other cards, change 'specialist-cost' or 'item-cost' ('item-cost -1 if card-is X')")
        elif clause.scope is not None:
            self.err("DSL118", f"'{name}' speaks of this card alone: it takes no scope", clause.scope.pos,
                     f"write '{words_of(body.statement)}' without 'for ...:'")
        elif body.limit is not None:
            self.err("DSL118", f"'{name}' is the card's price, asked whenever it is priced: it takes no limit",
                     body.limit.pos, f"write '{words_of(body.statement)}' without 'once per ...'")

    def check_limit(self, limit: ast.Limit | None) -> None:
        """A limit counted on the card ('once per turn per card') is the card's: on an effect that is no card a Unit
        holds (a rule, a Sector, a card in play for every Unit) there is nothing to count it on."""
        where = self.ctx.where()
        if limit is not None and limit.on_card and where is not None:
            self.err("DSL120", f"'once per {limit.period} per card' counts the limit on the card, whoever holds it; "
                     f"{where} is held by no Unit", limit.pos,
                     f"write 'once per {limit.period}' (counted on each Unit the clause serves)")

    def check(self, effect: ast.Effect) -> ast.Effect:
        for clause in effect.clauses:
            self.check_limit(clause.body.limit)
        return attrs.evolve(effect, clauses=tuple(self.check_clause(c) for c in effect.clauses))


def _after_change_hint(stmt: ast.Statement, extra: ast.Arg, *, in_actions: bool) -> str:
    """What a change may be followed by, and the duration a word after it was likely meant to be."""
    durations = [d.replace("-", " ") for d in DURATION_ENGLISH]
    if isinstance(extra, ast.Word) and extra.name == "against":
        return (f"'against' follows a set and names what it overrides: '{stmt.verb.name} = 0 against raising' "
                "(nothing raises it), or tiers")
    if isinstance(extra, ast.Word) and extra.name == "for":
        return f"a scope comes first: 'for TARGET: {words_of(attrs.evolve(stmt, args=stmt.args[:1]))}'"
    if isinstance(extra, ast.Word):
        spaced = extra.name.replace("-", " ")
        head, _, event = spaced.partition(" ")
        if head in DURATION_ENGLISH and DURATION_ENGLISH[head].endswith(" an event") and event:
            durations.append(spaced)  # 'until-move': 'until move', an event after the keyword
        close = suggest(spaced, durations)
        if close is not None and not in_actions:
            return (f"a standing change lasts as long as its card; for '{close}', give it in a use or a trigger: "
                    f"'use: {words_of(attrs.evolve(stmt, args=stmt.args[:1]))} {close}'")
        if spaced in durations:
            return f"a duration is written in words, without a hyphen: '{spaced}'"
        if close is not None:
            return f"did you mean '{close}'?"
    return ("a change may be followed only by a duration: 'this turn', 'this phase', 'next turn', 'permanently' "
            "or 'until EVENT' (inside actions), or by 'per' and a count")


def words_of(stmt: ast.Statement) -> str:
    parts = [stmt.verb.name]
    for a in stmt.args:
        if isinstance(a, ast.Word):
            parts.append(a.name)
        elif isinstance(a, ast.Number | ast.Signed):
            parts.append(f"{a.value:+d}" if isinstance(a, ast.Signed) else str(a.value))
        elif isinstance(a, ast.Assign) and isinstance(a.value, ast.Number):
            parts.append(f"= {a.value.value}")
    return " ".join(parts)


def check_effect(effect: ast.Effect, vocab: Vocabulary, context: Context) -> tuple[ast.Effect, list[Diagnostic]]:
    """Resolve names and check types; returns the canonical effect and every diagnostic."""
    checker = _Checker(vocab, context)
    checked = checker.check(effect)
    return checked, checker.diags
