"""The language reference cannot drift from the registry, and every word of it works.

``docs/dsl-reference.md`` is generated (scripts/gen_dsl_reference.py); these tests
keep the committed page equal to the generator's output, and check that each
word's example checks, renders to English, and that every action and modifier
compiles to a hook that does something.
"""

from __future__ import annotations

import ast as pyast
from pathlib import Path
from typing import cast

import pytest

from ddaydice.dsl import ast, effect_context, words
from ddaydice.dsl.compile import CompiledEffect, Compiler, EffectContext, ModifierHook
from ddaydice.dsl.loader import Content
from ddaydice.dsl.reference import Example, example_of, generate, reference_content
from ddaydice.dsl.render import Renderer

PAGE = Path(__file__).resolve().parent.parent / "docs" / "dsl-reference.md"

# the EffectContext method an action calls, where it is not the action's own name
CALLS = {"add": "add_result", "remove": "remove_result", "rwb": "gain_rwb"}
# what an EffectContext is asked, not told: calling only these does nothing to the game
QUESTIONS = {"roll_d6", "choose_option", "count", "predicate"}


@pytest.fixture(scope="module")
def content() -> Content:
    return reference_content()


@pytest.fixture(scope="module")
def renderer(content: Content) -> Renderer:
    return Renderer({cid: card.name for cid, card in content.cards.items()})


def test_committed_reference_is_current(content: Content) -> None:
    expected = generate(content)
    current = PAGE.read_text(encoding="utf-8") if PAGE.exists() else "(missing)"
    assert current == expected, (
        "docs/dsl-reference.md is out of date with dsl/words/ or rules/: "
        "run `.venv/bin/python scripts/gen_dsl_reference.py` (or scripts/regenerate) and commit the page")


def test_the_tiers_table_says_which_tiers_ask_no_permission(content: Content) -> None:
    """A modder reads in the reference which tier's finds and re-rolls no 'forbid' stops (ruling 7.5)."""
    page = generate(content)
    for tier in content.precedence.tiers:
        row = next(line for line in page.splitlines() if line.startswith(f"| `{tier.id}` |"))
        assert row.endswith("| asks none |" if tier.asks_no_permission else "| asked |"), row
    assert any(tier.asks_no_permission for tier in content.precedence.tiers)


def test_reference_lists_every_word_and_rules_name(content: Content) -> None:
    page = generate(content)
    for spec in words.WORDS:
        assert f"### `{spec.name}`" in page, spec.name
    for q in content.queries.queries:
        assert f"| `{q.id}` |" in page, q.id
    for name in [*(f.id for f in content.dice.faces), *(r.id for r in content.rwb.rwb),
                 *(t.id for t in content.precedence.tiers), *(p.id for p in content.phases.phases),
                 *(r.id for r in content.resources.resources), *(i.id for i in content.queries.ignorables)]:
        assert f"| `{name}` |" in page, name


@pytest.mark.parametrize("spec", words.WORDS, ids=lambda s: f"{s.role}:{s.name}")
def test_every_example_checks_and_reads(content: Content, renderer: Renderer, spec: words.WordSpec) -> None:
    example = example_of(spec, content.vocab, renderer)
    assert example.english.strip()
    assert "?" not in example.english
    assert "{" not in example.english  # no template left unfilled
    if spec.example:
        assert example.text == spec.example


def _statements(example: Example, name: str) -> list[ast.Option]:
    """The options of the example whose statement is the word ``name`` (an action or a modifier)."""
    found: list[ast.Option] = []
    for clause in example.effect.clauses:
        body = clause.body
        if isinstance(body, ast.Modifier) and body.statement.verb.name == name:
            found.append(ast.Option(body.statement))
        if isinstance(body, ast.Trigger | ast.Use):
            found += [opt for act in body.actions for opt in act.options if opt.statement.verb.name == name]
    return found


class Recorder:
    """An EffectContext that records what it is asked to do and answers 1 to every question (an action returns
    None, as EffectContext declares: a compiled engine checks it)."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, tuple[object, ...]]] = []

    def __getattr__(self, name: str) -> object:
        answer = None if _RETURNS.get(name) == "None" else 1

        def record(*args: object) -> int | None:
            self.calls.append((name, args))
            return answer

        return record


def _returns() -> dict[str, str]:
    """What each method of EffectContext returns, as written in its source (a compiled module keeps no
    annotations at run time)."""
    tree = pyast.parse((Path(effect_context.__file__).parent / "effect_context.py").read_text(encoding="utf-8"))
    [protocol] = [node for node in tree.body if isinstance(node, pyast.ClassDef) and node.name == "EffectContext"]
    return {f.name: pyast.unparse(f.returns) for f in protocol.body
            if isinstance(f, pyast.FunctionDef) and f.returns is not None}


_RETURNS = _returns()


def _run_alone(compiler: Compiler, renderer: Renderer, option: ast.Option) -> Recorder:
    """Compile the option as the one action of a use, run it, and return what it did."""
    use = ast.Use(None, None, None, (ast.Action((option,)),))
    compiled: CompiledEffect = compiler.effect(ast.Effect((ast.Clause(None, use),)), renderer.option,
                                               renderer.clause)
    recorder = Recorder()
    compiled.uses[0].run(cast("EffectContext", recorder))
    return recorder


ACTIONS_AND_MODIFIERS = [s for s in words.WORDS if s.role in {"action", "modifier"}]


@pytest.mark.parametrize("spec", ACTIONS_AND_MODIFIERS, ids=lambda s: f"{s.role}:{s.name}")
def test_every_action_and_modifier_compiles_and_renders(content: Content, renderer: Renderer,
                                                        spec: words.WordSpec) -> None:
    example = example_of(spec, content.vocab, renderer)
    options = _statements(example, spec.name)
    assert options, f"the example of '{spec.name}' does not use it: {example.text!r}"
    compiler = Compiler(content.vocab.numbers())
    compiled = compiler.effect(example.effect, renderer.option, renderer.clause)  # no handler: AssertionError
    assert compiled.modifiers or compiled.triggers or compiled.uses or compiled.waiting
    for option in options:
        english = renderer.statement(option.statement)
        assert english.strip(), spec.name
        assert "?" not in english, english
        assert english != spec.name, f"'{spec.name}' has no English of its own"
        if spec.role == "action":
            done = [name for name, _ in _run_alone(compiler, renderer, option).calls if name not in QUESTIONS]
            assert CALLS.get(spec.name, spec.name.replace("-", "_")) in done, (spec.name, done)
        elif isinstance(spec, words.ModifierWord) and spec.waiting:
            # a card's own price is never granted (DSL118 inside actions): a hook read while the card waits
            assert compiled.waiting and all(h.op in {"set", "add"} for h in compiled.waiting), compiled
        else:
            # a modifier inside actions is granted for its duration; standing, it is a hook of its own
            granted = _run_alone(compiler, renderer, _with_duration(option)).calls
            hooks = [args[0] for name, args in granted if name == "grant"]
            assert len(hooks) == 1 and isinstance(hooks[0], ModifierHook), granted
            assert hooks[0].op in {spec.name, "allow"}, hooks[0]  # 'ignore X' allows ignore-X


def _with_duration(option: ast.Option) -> ast.Option:
    """The option with a duration, as a modifier needs inside actions."""
    return ast.Option(option.statement, option.duration or "this-turn", option.recipient, option.pos)


def test_unhandled_action_is_caught() -> None:
    # the test above relies on the compiler refusing a word it has no handler for
    stmt = ast.Statement(ast.Word("no-such-action"), ())
    use = ast.Use(None, None, None, (ast.Action((ast.Option(stmt),)),))
    with pytest.raises(AssertionError, match="no-such-action"):
        Compiler(set()).effect(ast.Effect((ast.Clause(None, use),)), Renderer().option, Renderer().clause)
