"""The checks of a condition: its predicates known and their arguments, a number compared and a test not, and
the condition an unknown one likely meant."""

from __future__ import annotations

import attrs

from ddaydice.dsl import ast, words
from ddaydice.dsl.checking.arguments import ArgumentChecks
from ddaydice.dsl.diagnostics import suggest


class ConditionChecks(ArgumentChecks):
    """A condition ('if have soldiers >= 2 and not bunker'): each predicate against the registry's."""

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
                             self.condition_hint(expr.word.name), name=True)
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
