"""The registry of words: one record per word, with every part it needs, and a new word is one entry.

Each word of the effect language is a record in ``dsl/words/`` naming its parts: its signatures, its compiler,
its English, its conflict signature, its reference text and example. These tests check that every word of every
role has the parts its role needs and that they work on the word's own example, that the checker, the compiler,
the renderer and the conflict finder name no word themselves, and that a word registered at run time is checked,
compiled, rendered and documented without another module knowing it.
"""

from __future__ import annotations

import ast as pyast
from collections.abc import Iterator
from pathlib import Path
from typing import cast

import attrs
import pytest

from ddaydice.dsl import ast, words
from ddaydice.dsl.checker import Context, check_effect
from ddaydice.dsl.compile import Compiler, EffectContext
from ddaydice.dsl.effect_context import Action
from ddaydice.dsl.loader import Content
from ddaydice.dsl.parser import SourceMap, parse_effect
from ddaydice.dsl.reference import Example, entry, example_of, generate, reference_content
from ddaydice.dsl.render import Renderer
from ddaydice.dsl.touches import reach
from ddaydice.dsl.vocab import QueryInfo, Vocabulary, minimal
from ddaydice.dsl.words.base import Change, Parts, Reads, Said, Speaker, Touches, Wording, touches_nothing
from ddaydice.dsl.words.events import TALLY_READ

DSL = Path(__file__).resolve().parent.parent / "dsl"

ROLE_CLASSES: dict[str, type[words.WordSpec]] = {
    "action": words.ActionWord, "modifier": words.ModifierWord, "event": words.EventWord,
    "moment": words.MomentWord, "predicate": words.PredicateWord, "counter": words.CounterWord,
    "target": words.TargetWord,
}


@pytest.fixture(scope="module")
def content() -> Content:
    return reference_content()


@pytest.fixture(scope="module")
def renderer(content: Content) -> Renderer:
    return Renderer({cid: card.name for cid, card in content.cards.items()})


class Recorder:
    """An EffectContext that records what it is told and answers 1 to every question."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, tuple[object, ...]]] = []

    def __getattr__(self, name: str) -> object:
        def record(*args: object) -> int:
            self.calls.append((name, args))
            return 1

        return record


def _statements(effect: ast.Effect, name: str) -> list[ast.Statement]:
    found: list[ast.Statement] = []
    for clause in effect.clauses:
        body = clause.body
        if isinstance(body, ast.Modifier) and body.statement.verb.name == name:
            found.append(body.statement)
        if isinstance(body, ast.Trigger | ast.Use):
            found += [p.statement for act in body.actions for o in act.options for p in o.parts()
                      if p.statement.verb.name == name]
    return found


def _predicates(expr: ast.CondExpr) -> Iterator[ast.Predicate]:
    match expr:
        case ast.Predicate():
            yield expr
        case ast.Not(operand=op):
            yield from _predicates(op)
        case ast.AllOf(operands=ops) | ast.AnyOf(operands=ops):
            for o in ops:
                yield from _predicates(o)


# ================================================================ every word has every part
@pytest.mark.parametrize("spec", words.all_words(), ids=lambda s: f"{s.role}:{s.name}")
def test_every_word_has_every_part_of_its_role(spec: words.WordSpec) -> None:
    assert isinstance(spec, ROLE_CLASSES[spec.role]), f"{spec.name}: a {spec.role} is a {ROLE_CLASSES[spec.role]}"
    assert spec.summary.strip() and spec.signatures, spec.name
    for sig in words.signatures(spec):  # every parameter kind is one the checker knows
        for param in sig.params:
            assert set(param.kinds) <= {*words.PARAM_KINDS, "word"}, (spec.name, sig.text)
    match spec:
        case words.ActionWord():
            assert callable(spec.compile) and callable(spec.render) and callable(spec.touches)
            assert callable(spec.feasible) and callable(spec.spends_source)
        case words.ModifierWord():
            assert callable(spec.compile) and callable(spec.render) and callable(spec.touches)
        case words.EventWord():
            assert spec.phrase.strip() and spec.until.startswith("until "), spec.name
        case words.MomentWord():
            assert spec.phrase.strip(), spec.name
        case words.PredicateWord():
            assert callable(spec.compile) and callable(spec.render) and isinstance(spec.reads, Reads)
        case words.CounterWord():
            assert callable(spec.render)
        case words.TargetWord():
            assert spec.phrase.strip(), spec.name


@pytest.mark.parametrize("spec", words.all_words(), ids=lambda s: f"{s.role}:{s.name}")
def test_every_example_parses_checks_compiles_and_reads(content: Content, renderer: Renderer,
                                                        spec: words.WordSpec) -> None:
    example = example_of(spec, content.vocab, renderer)  # parsed and checked, or ExampleError
    assert example.english.strip() and "{" not in example.english
    compiled = Compiler(content.vocab.numbers()).effect(example.effect, renderer.option, renderer.clause)
    assert compiled.modifiers or compiled.triggers or compiled.uses or compiled.waiting
    if isinstance(spec, words.ActionWord | words.ModifierWord):
        stmts = _statements(example.effect, spec.name)
        assert stmts, f"the example of '{spec.name}' does not use it: {example.text!r}"
        for stmt in stmts:
            english = spec.render(renderer, Wording(stmt.verb.name, stmt.args, ""))
            assert english.strip() and english != spec.name
            touched = spec.touches(stmt)
            assert isinstance(touched, Touches)
            if isinstance(spec, words.ModifierWord):
                assert touched.change is not None and touched.change.op, spec.name
    if isinstance(spec, words.PredicateWord):
        _the_condition_reads(example, spec, renderer)


def _the_condition_reads(example: Example, spec: words.PredicateWord, renderer: Renderer) -> None:
    """The condition compiles to a closure that asks the context, and renders without its bare name."""
    found = []
    for clause in example.effect.clauses:
        body = clause.body
        cond = body.condition
        if cond is not None:
            found += [p for p in _predicates(cond.expr) if p.word.name == spec.name]
    assert found, f"the example of '{spec.name}' does not test it: {example.text!r}"
    pred = found[0]
    args = tuple(a.name for a in pred.args if isinstance(a, ast.Word))
    recorder = Recorder()
    spec.compile(spec.name, args)(cast("EffectContext", recorder))
    assert recorder.calls, f"'{spec.name}' compiles to a closure that asks nothing"
    said = spec.render(renderer, Said(spec.name, args[0] if args else "", " >= 2" if spec.number else ""))
    assert said.strip()


def test_events_and_moments_say_themselves_in_english(renderer: Renderer) -> None:
    for name, spec in words.words("event").items():
        assert isinstance(spec, words.EventWord)
        effect = _checked(f"on {name}: gain 1 star\nuse: def -1 until {name}", owners=frozenset(words.OWNERS))
        lines = renderer.lines(effect)
        assert lines[0].startswith(spec.phrase[:1].upper() + spec.phrase[1:]), lines[0]
        assert spec.until in lines[1], lines[1]
    offered = words.windows()
    for name, moment in words.words("moment").items():
        assert isinstance(moment, words.MomentWord)
        kind = next(k for k, m in offered if m == name)  # each moment in a window the turn offers uses at
        assert moment.phrase in renderer.lines(_checked(f"use {kind} {name}: gain 1 star"))[0]


def _checked(text: str, vocab_content: Content | None = None, owners: frozenset[str] | None = None) -> ast.Effect:
    """The effect checked on a Specialist (or on an owner every word in ``owners`` reaches: 'on enter' too)."""
    vocab = vocab_content.vocab if vocab_content is not None else _vocab_with_def()
    tree, diags = parse_effect(text, SourceMap("<test>"))
    assert tree is not None, diags
    context = Context("specialist") if owners is None else Context("specialist", owners=owners)
    checked, diags = check_effect(tree, vocab, context)
    assert not diags, [f"{d.code} {d.message}" for d in diags]
    return checked


def _vocab_with_def() -> Vocabulary:
    """The minimal vocabulary, with a value and two permissions."""
    queries = {"def": QueryInfo("def", "number", None, 0, "sector", "the DEF"),
               "stay": QueryInfo("stay", "flag", True, None, "unit", "staying"),
               "trade": QueryInfo("trade", "flag", True, None, "unit", "trading")}
    return attrs.evolve(minimal(), queries=queries)


# ================================================================ no word named outside its record
MODULES = ("compile.py", "render.py", "checker.py", "conflicts.py")


@pytest.mark.parametrize("module", MODULES)
def test_the_language_modules_dispatch_on_no_word(module: str) -> None:
    """compile, render, check and conflicts look a word's parts up in its record: no `case "WORD"` left (a
    match on a change's op, 'add', 'forbid', ..., is on the engine's operations, not on words)."""
    names = {n for role in ("action", "modifier", "event", "moment", "predicate", "counter")
             for n in words.words(role)} - set(words.PARAM_KINDS)
    tree = pyast.parse((DSL / module).read_text(encoding="utf-8"))
    cased: set[str] = set()
    for node in pyast.walk(tree):
        if not isinstance(node, pyast.Match) or (isinstance(node.subject, pyast.Attribute)
                                                 and node.subject.attr == "op"):
            continue
        for case in node.cases:
            for sub in pyast.walk(case.pattern):
                if isinstance(sub, pyast.MatchValue) and isinstance(sub.value, pyast.Constant) \
                        and isinstance(sub.value.value, str):
                    cased.add(sub.value.value)
    assert not cased & names, f"{module} dispatches on words by hand: {sorted(cased & names)}"


# ================================================================ a new word is one entry
def _compile_muster(p: Parts) -> Action:
    amount, recipient = p.amount, p.recipient
    return lambda ctx: ctx.gain("soldiers", amount(ctx), recipient)


def _say_muster(r: Speaker, w: Wording) -> str:
    return f"muster {r.amount(w.args[0])} Soldiers{w.per}"


MUSTER = words.ActionWord(
    name="muster", signatures=("amount",), summary="Call up Soldiers from the reserve (a throwaway word).",
    example="use: muster 2", compile=_compile_muster, render=_say_muster, touches=touches_nothing, per=True,
)
BAR = words.ModifierWord(
    name="bar", signatures=("flag",), summary="Take a permission away (a throwaway word).", example="bar stay",
    compile=lambda stmt: Change(stmt.args[0].name if isinstance(stmt.args[0], ast.Word) else "", "forbid"),
    render=lambda r, w: f"{r.query(w.word(0))} is barred",
    touches=lambda stmt: Touches(change=Change(stmt.args[0].name if isinstance(stmt.args[0], ast.Word) else "",
                                               "forbid")),
)
DUSK = words.EventWord(name="dusk", summary="Night falls (a throwaway word).", phrase="when night falls",
                       until="until night next falls")
VOLLEYS = words.CounterWord(name="volleys", summary="Volleys fired (a throwaway word).",
                            render=lambda _r, _names: " for every volley")
DAWN = words.PredicateWord(name="dawn", summary="The sun is up (a throwaway word).", example="if dawn",
                           render=lambda _r, _s: "at dawn")


@pytest.fixture
def new_words() -> Iterator[None]:
    added = [words.register(w) for w in (MUSTER, BAR, DUSK, DAWN, VOLLEYS)]
    try:
        yield
    finally:
        for w in added:
            words.unregister(w)


@pytest.mark.usefixtures("new_words")
def test_a_registered_word_is_checked_compiled_rendered_and_documented(content: Content,
                                                                      renderer: Renderer) -> None:
    effect = _checked("on dusk if dawn: muster 2 per rwb to another unit\nbar stay\nuse: bar trade until dusk\n"
                      "use: muster 1 per volleys", content)
    assert renderer.lines(effect) == [
        "When night falls if at dawn: another Unit: muster 2 Soldiers for every RWB scored this turn.",
        "Stay is barred.",
        "May be used: Trade is barred until night next falls.",
        "May be used: muster 1 Soldiers for every volley.",
    ]
    compiled = Compiler(content.vocab.numbers()).effect(effect, renderer.option, renderer.clause)
    (trigger,) = compiled.triggers
    assert trigger.event == "dusk"
    recorder = Recorder()
    assert trigger.condition is not None and trigger.condition(cast("EffectContext", recorder))
    trigger.run(cast("EffectContext", recorder))
    assert ("predicate", ("dawn", ())) in recorder.calls
    assert ("gain", ("soldiers", 2, "another-unit")) in recorder.calls  # 2 x the 1 RWB the recorder counts
    (standing,) = compiled.modifiers
    assert (standing.query, standing.op) == ("stay", "forbid")
    use_stmt = effect.clauses[2].body
    assert isinstance(use_stmt, ast.Use)
    assert reach(use_stmt.actions[0].options[0].statement).change == Change("trade", "forbid")
    counted = Recorder()
    compiled.uses[1].run(cast("EffectContext", counted))
    assert ("count", (("volleys",),)) in counted.calls
    page = generate(content)
    assert all(f"### `{w.name}`" in page for w in (MUSTER, BAR, DUSK, DAWN, VOLLEYS))
    muster = entry("muster", content, renderer)
    assert muster is not None and "May be used: muster 2 Soldiers." in muster


@pytest.mark.usefixtures("new_words")
def test_a_registered_word_is_refused_where_its_role_does_not_fit() -> None:
    tree, _ = parse_effect("muster 2\nuse: bar stay", SourceMap("<test>"))
    assert tree is not None
    _, diags = check_effect(tree, _vocab_with_def(), Context("specialist"))
    assert [d.code for d in diags] == ["DSL101", "DSL105"]  # an action standing; a modifier with no duration
    tree, _ = parse_effect("use: mustr 2", SourceMap("<test>"))
    assert tree is not None
    _, diags = check_effect(tree, _vocab_with_def(), Context("specialist"))
    assert [(d.code, d.hint) for d in diags] == [("DSL101", "did you mean 'muster'?")]


def test_an_unregistered_word_is_unknown_again() -> None:
    added = words.register(MUSTER)
    words.unregister(added)
    tree, _ = parse_effect("use: muster 2", SourceMap("<test>"))
    assert tree is not None
    _, diags = check_effect(tree, _vocab_with_def(), Context("specialist"))
    assert [d.code for d in diags] == ["DSL101"]
    assert words.action("muster") is None


def test_a_word_is_registered_once() -> None:
    with pytest.raises(ValueError, match="already a word"):
        words.register(words.ActionWord(name="gain", summary="again", compile=_compile_muster, render=_say_muster,
                                        touches=touches_nothing))


@pytest.mark.parametrize(("text", "heard"), [
    ("on final-tally if same-face >= 4: gain 5 soldiers", TALLY_READ),
    ("on final-tally: lose 1 soldiers per star", TALLY_READ),
    ("on final-tally if count star >= 2 and not bunker: gain 1 courage", TALLY_READ),
    ("on final-tally unless colours skull == 3: lose 1 soldiers", TALLY_READ),
    ("on final-tally: add 1 tool", "final-tally"),
    ("on final-tally: remove 3 star", "final-tally"),
    ("on final-tally if same-face >= 4: add 1 star", "final-tally"),
    ("on final-tally: gain 3 soldiers per locked skull", TALLY_READ),  # ruling 1.12
    ("on final-tally: gain 1 star", "final-tally"),
    ("on upkeep if same-face >= 4: gain 5 soldiers", TALLY_READ),  # ruling 1.11
    ("on upkeep: gain 2 soldiers", "upkeep"),
    ("on upkeep: add 1 tool", "upkeep"),
])
def test_a_trigger_that_reads_the_final_tally_is_heard_once_it_is_complete(text: str, heard: str) -> None:
    """Rulings 1.9, 1.11, 1.12: a 'final-tally' or 'upkeep' trigger that reads the Final Tally's results (or its
    Locked dice) and changes none is heard at the complete Final Tally (Phase 2, after Skulls cancel), whoever wrote
    it; one that adds or removes results helps make the Final Tally and is heard at its event, as is one that reads
    none of its results."""
    tree, diags = parse_effect(text, SourceMap("<test>"))
    assert tree is not None, diags
    (clause,) = tree.clauses
    body = clause.body
    assert isinstance(body, ast.Trigger)
    assert words.heard_at(body.event.name, body.condition, body.actions) == heard
