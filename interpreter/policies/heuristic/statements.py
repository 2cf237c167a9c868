"""Reading an effect's tree: its actions, and a statement's words and numbers (what every reader of cards in the
heuristic shares: effectworth.py, cardtext.py, facts.py, choices.py)."""

from __future__ import annotations

from collections.abc import Collection, Iterator
from typing import Any

from ddaydice.dsl import ast as dsl_ast
from ddaydice.dsl import words
from ddaydice.interpreter.policies.heuristic.model import D6_MEAN


def actions_of(effect: dsl_ast.Effect) -> Iterator[tuple[dsl_ast.Trigger | dsl_ast.Use, dsl_ast.Option]]:
    """Each action of the effect's triggers and uses (each part of each option of each action), with the clause's
    body it belongs to (its event or window, its condition, its limit)."""
    for clause in effect.clauses:
        body = clause.body
        if isinstance(body, dsl_ast.Modifier):
            continue
        for action in body.actions:
            for option in action.options:
                for part in option.parts():
                    yield body, part


def name_of(arg: dsl_ast.Arg | None) -> str:
    """An argument that names something (a card, a Sector, a resource, a permission), '' for any other."""
    return arg.name if isinstance(arg, dsl_ast.Word) else ""


def named(st: dsl_ast.Statement, i: int) -> str:
    """The name the statement's argument ``i`` gives ('lose 2 *stars*': 1 is 'stars'), '' when it gives none."""
    return name_of(st.args[i]) if i < len(st.args) else ""


def words_of(st: dsl_ast.Statement) -> set[str]:
    """Every name among the statement's arguments."""
    return {a.name for a in st.args if isinstance(a, dsl_ast.Word)}


def count_of(st: dsl_ast.Statement) -> int:
    """The statement's count ('gain *3* soldiers'), 1 when it gives none."""
    first = st.args[0] if st.args else None
    return first.value if isinstance(first, dsl_ast.Number) else 1


def amount_of(st: dsl_ast.Statement) -> float | None:
    """The statement's number: an assigned value, a signed change, a count, dice at their mean (an unsigned roll
    counts as a gain); None when it has none."""
    for a in st.args:
        if isinstance(a, dsl_ast.Assign):
            v = a.value
            if isinstance(v, dsl_ast.Number):
                return float(v.value)
            if isinstance(v, dsl_ast.Dice):
                return D6_MEAN * v.count * (v.sign or 1)
        elif isinstance(a, dsl_ast.Signed):
            return float(a.value)
        elif isinstance(a, dsl_ast.Dice):
            return D6_MEAN * a.count * (a.sign or 1)
        elif isinstance(a, dsl_ast.Number):
            return float(a.value)
    return None


def assigned(st: dsl_ast.Statement) -> bool:
    """Does the statement set a value ('mgf-dice *= 0*') rather than change it? A ceiling ('locked-dice at most 1')
    is read as the set of its bound: what it gives where the rules' value stands above it."""
    return any(isinstance(a, dsl_ast.Assign) for a in st.args) or words.ceiling(st.args) is not None


def options_allow(cond: dsl_ast.Condition | None, options: Collection[str]) -> bool:
    """Can the condition hold with the game's options: every optional rule it asks for on ('if option X'), every
    one it asks to be off ('unless option X') off? (Its other predicates are not read: they may hold.)"""
    if cond is None:
        return True
    return _options_hold(cond.expr, options, not cond.negated)


def _options_hold(e: Any, options: Collection[str], on: bool) -> bool:
    """options_allow within the expression ``e``, ``on`` whether it is asked to hold (False under a negation). (A
    function of its own: a nested one calling itself would make a cycle that only the cyclic collector frees.)"""
    if isinstance(e, dsl_ast.Predicate):
        if e.word.name != "option" or not e.args or not isinstance(e.args[0], dsl_ast.Word):
            return True
        return (e.args[0].name in options) == on
    if isinstance(e, dsl_ast.Not):
        return _options_hold(e.operand, options, not on)
    return all(_options_hold(o, options, on) for o in getattr(e, "operands", ()))


def only_options(cond: dsl_ast.Condition | None) -> bool:
    """Does the condition ask only which optional rules are on (or nothing at all)? Then options_allow tells
    whether it holds for the whole game."""
    return cond is None or _only_options(cond.expr)


def _only_options(e: Any) -> bool:
    if isinstance(e, dsl_ast.Predicate):
        return e.word.name == "option"
    if isinstance(e, dsl_ast.Not):
        return _only_options(e.operand)
    return all(_only_options(o) for o in getattr(e, "operands", ()))
