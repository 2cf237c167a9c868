"""Reading an effect's tree: its actions, and a statement's words and numbers (what every reader of cards in the
heuristic shares: effectworth.py, cardtext.py, facts.py, choices.py)."""

from __future__ import annotations

from collections.abc import Iterator

from ddaydice.dsl import ast as dsl_ast


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


def assigned(st: dsl_ast.Statement) -> bool:
    """Does the statement set a value ('mgf-dice *= 0*') rather than change it?"""
    return any(isinstance(a, dsl_ast.Assign) for a in st.args)
