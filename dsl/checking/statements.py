"""The checks of a statement: a value's change, an action or a modifier in its place, with its duration and its
'per'."""

from __future__ import annotations

import attrs

from ddaydice.dsl import ast, words
from ddaydice.dsl.checking.arguments import ArgumentChecks
from ddaydice.dsl.diagnostics import Diagnostic, did_you_mean, suggest
from ddaydice.dsl.parser import keywords

DURATION_ENGLISH = {
    "this-turn": "this turn",
    "this-phase": "this phase",
    "next-turn": "next turn",
    "permanently": "permanently",
    "until": "until an event",
}

MAP_KINDS = frozenset({"attribute", "table", "sector"})


class StatementChecks(ArgumentChecks):
    """A statement: a value's change (a set that guards, a change followed by what it does not read), an action or
    a modifier where it may stand, a duration where one is needed, and what 'per' counts."""

    def check_query_change(self, stmt: ast.Statement, *, in_actions: bool) -> ast.Statement:
        q = self.v.queries[stmt.verb.name]
        if words.guarded_set(stmt.args) is not None:
            self.check_guarded_set(stmt)
            return stmt
        if words.ceiling(stmt.args) is not None:
            self.check_ceiling(stmt)
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

    def check_ceiling(self, stmt: ast.Statement) -> None:
        """A ceiling ('locked-dice at most 1'): 'at most', then a number, and nothing after it."""
        q, bound = stmt.verb.name, words.ceiling(stmt.args)
        if len(stmt.args) != 3 or not isinstance(bound, ast.Number):
            where = stmt.args[3] if len(stmt.args) > 3 else bound if bound is not None else stmt.args[0]
            found = self.describe(where) if len(stmt.args) != 2 else "nothing"
            self.err("DSL104", f"{q}: 'at most' takes one number, found {found}", where.pos,
                     f"for example '{q} at most 1' (the value is lowered to 1 if it is above)")
            return
        if stmt.per is not None:
            self.err("DSL112", f"{q}: a ceiling is a number, it cannot be multiplied with 'per'", stmt.per.pos,
                     f"write '{q} at most {bound.value}'")

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
        if in_actions and isinstance(spec, words.ActionWord):
            self.check_no_op_amount(checked)
        if stmt.per is not None:
            if not (isinstance(spec, words.ActionWord) and spec.per):
                self.err("DSL112", f"'{name}' cannot be multiplied with 'per'", stmt.per.pos,
                         "'per' multiplies what gain, lose, add and remove give, and a value's change")
            else:
                self.check_per(stmt.per)
        return checked

    def check_no_op_amount(self, stmt: ast.Statement) -> None:
        """An action's amount of 0 ('gain 0 soldiers', 'recruit 0 specialist free') does nothing: a warning at the
        number, likely a number mistyped or left from an edit."""
        for arg in stmt.args:
            if isinstance(arg, ast.Number) and arg.value == 0:
                self.diags.append(Diagnostic(
                    "DSL132", f"'{words_of(stmt)}' does nothing: its amount is 0", arg.pos.file, arg.pos.line,
                    arg.pos.column, hint="give an amount of 1 or more, or remove the action", width=arg.pos.width,
                    severity="warning"))


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
