"""Property tests: whatever a modder types, the front end answers with diagnostics, never a crash.

(a) Any text through the parser and the checker gives a tree or diagnostics; a tree
    that checks clean also renders to English and compiles.
(b) Any YAML-ish text or nested data, written as a card, map, optional rule or pack
    file into a content tree, loads into content or diagnostics, each with a real place.

Runs are derandomized (the same examples every time) and small enough to stay fast.
"""

from __future__ import annotations

import io
import shutil
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from ruamel.yaml import YAML

from ddaydice.dsl import words
from ddaydice.dsl.checker import Context, check_effect
from ddaydice.dsl.compile import Compiler
from ddaydice.dsl.diagnostics import Diagnostic
from ddaydice.dsl.limits import MAX_EFFECT_CHARS, MAX_EFFECT_NESTING
from ddaydice.dsl.loader import load
from ddaydice.dsl.parser import SourceMap, parse_effect
from ddaydice.dsl.places import bundled_root
from ddaydice.dsl.render import Renderer
from ddaydice.dsl.vocab import Vocabulary

FAST = settings(max_examples=200, deadline=None, derandomize=True, database=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])

CARDS = """\
kind: specialist
cards:
  - {id: medic, name: Medic, cost: 4, text: x, provenance: rulebook, effect: "casualties -1 once per phase"}
  - {id: scout, name: Scout, cost: 3, text: x, provenance: rulebook}
"""


@pytest.fixture(scope="module")
def tree(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A small content tree: the bundled rules and two cards."""
    root = tmp_path_factory.mktemp("content")
    (root / "rules").mkdir()
    for src in sorted((bundled_root() / "rules").glob("*.yaml")):
        shutil.copyfile(src, root / "rules" / src.name)
    (root / "cards").mkdir()
    (root / "cards" / "base.yaml").write_text(CARDS, encoding="utf-8")
    return root


@pytest.fixture(scope="module")
def vocab(tree: Path) -> Vocabulary:
    content, diags = load(tree)
    assert content is not None, diags
    return content.vocab


# ------------------------------------------------------------------ (a) effects
GRAMMAR_WORDS = sorted(
    {w for spec in words.WORDS for w in spec.name.split()}
    | {"on", "use", "for", "if", "unless", "and", "or", "not", "this", "turn", "phase", "next", "permanently",
       "once", "per", "game", "to", "all", "units", "here", "another", "unit", "the", "german", "players",
       "before", "after", "during", "when", "die", "same", "self", "free", "any", "any-colour", "locked",
       "unlocked", "real", "any-roll", "against", "sacrifice", "random", "choice", "unlimited",
       "skull", "star", "one-soldier", "two-soldiers", "courage", "tool", "soldiers", "soldier", "stars",
       "item-points", "red", "white", "blue", "def", "mgf-dice", "advance-cost", "locked-dice", "stay", "enter",
       "landmines", "barriers", "rules", "sectors", "specialists", "items-vehicles", "awards", "medic", "scout",
       "leadership", "battle-cry", "s1", "shelter", "weather", "roll", "upkeep", "combat"})
PUNCTUATION = [":", ":", ",", ";", "\n", "\n  ", "(", ")", "=", "+1", "-2", "3", "0", "1d6", "-1d6", "2d6",
               ">=", "<=", "==", "!=", "<", ">", "#", "# a comment\n", "_", "A", "\t", "\r\n"]
TOKENS = st.lists(st.sampled_from(GRAMMAR_WORDS + PUNCTUATION), max_size=30).map(" ".join)
NESTED = st.tuples(st.integers(0, 3000), st.sampled_from(["(", "not ", "(not "])).map(
    lambda nd: f"use if {nd[1] * nd[0]}bunker{')' * (nd[0] * nd[1].count('('))}: gain 1 star")
EFFECT_TEXT = st.one_of(st.text(max_size=80), st.text(st.characters(codec="ascii"), max_size=80), TOKENS, NESTED)


def _positions(diags: list[Diagnostic]) -> None:
    for diag in diags:
        assert isinstance(diag, Diagnostic)
        assert diag.line >= 1, diag
        assert diag.column >= 1, diag


@FAST
@given(text=EFFECT_TEXT, kind=st.sampled_from(["specialist", "item", "award", "sector", "rule"]), in_map=st.booleans(),
       smap=st.sampled_from([SourceMap("card.yaml", 9, 1, 6), SourceMap("card.yaml", 4, 13)]))
@example(text="use if " + "(" * 400 + "bunker" + ")" * 400 + ": win", kind="specialist", in_map=False,
         smap=SourceMap("card.yaml", 9, 1, 6))
@example(text="use if " + "not " * 3000 + "bunker: win", kind="specialist", in_map=False,
         smap=SourceMap("card.yaml", 9, 1, 6))
def test_any_text_gives_a_tree_or_diagnostics(vocab: Vocabulary, text: str, kind: str, in_map: bool,
                                              smap: SourceMap) -> None:
    if in_map:
        vocab = vocab.for_map(frozenset({"s1", "s2"}), frozenset({"shelter"}), frozenset({"weather"}))
    tree, diags = parse_effect(text, smap)
    _positions(diags)
    if tree is None:
        assert diags, "no tree and no diagnostic"
        return
    assert not diags
    checked, diags = check_effect(tree, vocab, Context(kind))
    _positions(diags)
    if diags:
        return
    renderer = Renderer({"medic": "Medic", "scout": "Scout"})
    english = renderer.lines(checked)
    assert len(english) == len(checked.clauses)
    assert all(line.strip() and "?" not in line for line in english), english
    Compiler(vocab.numbers()).effect(checked, renderer.option, renderer.clause)


def test_deep_nesting_is_a_diagnostic() -> None:
    # Regression: the tree transformer recursed once per level and overflowed the Python stack. (The levels stay
    # beyond the recursion limit and the text within MAX_EFFECT_CHARS, beyond which the length is refused first.)
    for text, nested in (("use if " + "(" * 1500 + "bunker" + ")" * 1500 + ": win", 1500),
                         ("forbid stay if " + "not " * 990 + "bunker", 990)):
        assert len(text) <= MAX_EFFECT_CHARS
        tree, diags = parse_effect(text, SourceMap("card.yaml", 3, 13))
        assert tree is None
        assert [(d.code, d.message) for d in diags] == [
            ("DSL004", f"effect nested too deeply ({nested} brackets and 'not's inside each other; at most "
                       f"{MAX_EFFECT_NESTING} brackets and 'not's)")]


@pytest.mark.parametrize(("n", "nest", "nested"), [
    (31, lambda k: "(" * k + "bunker" + ")" * k, 31),  # the report's 47 brackets were 'more than 100 levels'
    (16, lambda k: "not (" * k + "bunker" + ")" * k, 32),  # and 34 of these
    (31, lambda k: "not " * k + "bunker", 31),
])
def test_the_nesting_limit_is_what_the_writer_nests(n: int, nest: Callable[[int], str], nested: int) -> None:
    """DSL004 counts the brackets and 'not's the writer put inside each other, and says so; one level less is
    read."""
    tree, diags = parse_effect(f"use if {nest(n)}: win", SourceMap("card.yaml"))
    assert tree is None and [(d.code, d.message) for d in diags] == [
        ("DSL004", f"effect nested too deeply ({nested} brackets and 'not's inside each other; at most "
                   f"{MAX_EFFECT_NESTING} brackets and 'not's)")]
    tree, diags = parse_effect(f"use if {nest(n - 1)}: win", SourceMap("card.yaml"))
    assert tree is not None and not diags, diags


def test_nesting_within_the_limit_checks(vocab: Vocabulary) -> None:
    # twenty levels of parentheses are far more than any card needs, and still fine
    tree, diags = parse_effect("use if " + "(" * 20 + "bunker" + ")" * 20 + ": win", SourceMap("card.yaml"))
    assert tree is not None and not diags
    assert check_effect(tree, vocab, Context("specialist"))[1] == []


# ------------------------------------------------------------------ (b) content files
SCALARS = st.one_of(
    st.none(), st.booleans(), st.integers(-(10**20), 10**20), st.floats(allow_nan=True), st.text(max_size=15),
    st.sampled_from(["rulebook", "reconstructed", "printed-board", "specialist", "item", "advance", "lateral",
                     "medic", "s1", "s2", "on advance: gain 3 soldiers", "use: win", "casualties -1", "def -1",
                     "gain 3 soldiers", "on enter: roll-attribute weather", "shelter"]),
    EFFECT_TEXT)
KEYS = st.one_of(
    st.sampled_from(["id", "name", "cost", "text", "effect", "provenance", "note", "kind", "cards", "sectors", "lines",
                     "row", "def", "from", "to", "bunker", "start", "soldiers", "specialists", "items", "tables",
                     "results", "attributes", "overrides", "grade", "settings", "requires", "variants", "placed",
                     "card", "sector", "version", "mgf", "rules", "players"]),
    st.text(max_size=6), st.integers(-5, 5))
ANYTHING = st.recursive(SCALARS, lambda inner: st.one_of(st.lists(inner, max_size=4),
                                                         st.dictionaries(KEYS, inner, max_size=5)), max_leaves=20)


def maybe(value: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    """Mostly a well-formed value, sometimes anything at all."""
    return st.one_of(value, value, value, ANYTHING)


SLUG = st.sampled_from(["medic", "scout", "tester", "s1", "s2", "s3", "shelter", "weather"])
EFFECT = st.one_of(EFFECT_TEXT, st.sampled_from(["on advance: gain 3 soldiers", "use before mgf: def -2 this turn",
                                                 "on first-enter: roll-attribute weather", "use: retreat s1",
                                                 "forbid advance unless count skull >= 4", "require medic"]))
CARD = st.fixed_dictionaries(
    {"id": maybe(SLUG), "name": maybe(st.text(max_size=10)), "text": maybe(st.text(max_size=10)),
     "provenance": maybe(st.sampled_from(["rulebook", "reconstructed", "printed-board"]))},
    optional={"cost": maybe(st.integers(0, 9)), "effect": maybe(EFFECT), "note": maybe(st.text(max_size=10)),
              "overrides": maybe(st.booleans()), "grade": maybe(st.sampled_from(["regular", "unique"])),
              "costt": ANYTHING})
CARD_FILE = st.fixed_dictionaries({"kind": maybe(st.sampled_from(["specialist", "item", "vehicle", "award"])),
                                   "cards": maybe(st.lists(CARD, max_size=3))})
SECTOR = st.fixed_dictionaries(
    {"id": maybe(SLUG), "name": maybe(st.text(max_size=8)), "row": maybe(st.integers(1, 3)),
     "def": maybe(st.lists(st.integers(0, 6), max_size=2)), "provenance": maybe(st.just("reconstructed"))},
    optional={"bunker": maybe(st.booleans()), "effect": maybe(EFFECT), "note": maybe(st.text(max_size=5)),
              "start": maybe(st.fixed_dictionaries({}, optional={"soldiers": maybe(st.integers(0, 20)),
                                                                  "specialists": maybe(st.lists(SLUG, max_size=2))}))})
LINE = st.fixed_dictionaries({"from": maybe(st.lists(SLUG, max_size=2)), "to": maybe(st.lists(SLUG, max_size=2)),
                              "kind": maybe(st.sampled_from(["advance", "lateral"]))},
                             optional={"cost": maybe(st.integers(0, 4)), "landmines": maybe(st.booleans())})
MAP_FILE = st.fixed_dictionaries(
    {"id": maybe(st.just("tiny")), "name": maybe(st.text(max_size=8)), "provenance": maybe(st.just("reconstructed")),
     "sectors": maybe(st.lists(SECTOR, max_size=3)), "lines": maybe(st.lists(LINE, max_size=3))},
    optional={"note": maybe(st.text(max_size=5)), "specialists": maybe(st.lists(SLUG, max_size=3)),
              "attributes": maybe(st.lists(st.fixed_dictionaries({"id": maybe(SLUG), "name": maybe(st.text()),
                                                                  "text": maybe(st.text()), "effect": maybe(EFFECT)}),
                                           max_size=2)),
              "tables": maybe(st.lists(st.fixed_dictionaries({"id": maybe(SLUG), "name": maybe(st.text()),
                                                              "results": maybe(st.lists(SLUG, max_size=7))}),
                                       max_size=2)),
              "rules": maybe(EFFECT)})
OPTION_FILE = st.fixed_dictionaries(
    {"id": maybe(SLUG), "name": maybe(st.text(max_size=8)), "text": maybe(st.text(max_size=8)),
     "provenance": maybe(st.just("rulebook"))},
    optional={"effect": maybe(EFFECT), "settings": ANYTHING, "requires": maybe(st.lists(SLUG, max_size=2))})
PACK_FILE = st.fixed_dictionaries(
    {"id": maybe(st.just("fuzz")), "name": maybe(st.text(max_size=8)), "version": maybe(st.just("1")),
     "text": maybe(st.text(max_size=8)), "provenance": maybe(st.just("reconstructed"))},
    optional={"note": maybe(st.text(max_size=5)), "requires": ANYTHING})

FILES = {
    "cards/fuzz.yaml": CARD_FILE,
    "maps/fuzz.yaml": MAP_FILE,
    "rules/options/fuzz.yaml": OPTION_FILE,
    "expansions/fuzz/pack.yaml": PACK_FILE,
}


def dump(data: Any, style: str | None) -> str:
    """YAML as a modder might write it: ruamel's block style, its flow style, or quoted scalars."""
    yaml = YAML(typ="safe", pure=True)
    yaml.default_flow_style = style == "flow"
    if style in {"'", '"', "|"}:
        yaml.default_style = style  # type: ignore[assignment]  # ruamel types this attribute as None
    buffer = io.StringIO()
    yaml.dump(data, buffer)
    return buffer.getvalue()


YAMLISH = st.lists(st.sampled_from(
    ["id", "name", "kind", "cards", "sectors", "effect", "provenance", ": ", "- ", "\n", "  ", "    ", "|", ">", "{",
     "}", "[", "]", "'", '"', "&a ", "*a", "!!int", "!!str ", "!!python/object ", "\t", "#", "---\n", "...\n",
     "? ", "<<: *a", "%YAML 1.2\n", "on advance: gain 3 soldiers", "use: win", "\\n", "\\x", "\u00e9", "\ufeff",
     "\x00", "\x85", "rulebook", "12", "-1", "1e9", "~", "null", "true"]), max_size=40).map("".join)


@contextmanager
def written(root: Path, rel: str, body: str | bytes) -> Iterator[Path]:
    """``body`` written at ``rel`` under ``root`` for the length of the block, then removed."""
    path = root / rel
    top = root / Path(rel).parts[0] / Path(rel).parts[1] if rel.startswith("expansions/") else path
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(body, bytes):
        path.write_bytes(body)
    else:
        path.write_text(body, encoding="utf-8")
    try:
        yield path
    finally:
        if top.is_dir():
            shutil.rmtree(top)
        else:
            top.unlink()


def load_only_diagnostics(root: Path, rel: str, body: str | bytes) -> list[Diagnostic]:
    with written(root, rel, body):
        content, diags = load(root, packs="all")
    _positions(diags)
    if content is None:
        assert any(d.severity == "error" for d in diags)
    text = body.decode("utf-8", errors="replace") if isinstance(body, bytes) else body
    for diag in diags:  # every place is inside the file it names
        if diag.file == rel:
            assert diag.line <= max(1, len(text.splitlines())), (diag, text)
    return diags


@FAST
@given(data=st.data(), rel=st.sampled_from(sorted(FILES)), style=st.sampled_from([None, "flow", "'", '"', "|"]))
def test_shaped_data_loads_or_gives_diagnostics(tree: Path, data: st.DataObject, rel: str, style: str | None) -> None:
    body = dump(data.draw(FILES[rel]), style)
    load_only_diagnostics(tree, rel, body)


@FAST
@given(value=ANYTHING, rel=st.sampled_from(sorted(FILES)), style=st.sampled_from([None, "flow"]))
@example(value={"kind": None, 0: None, "lines": {0: None, "id": None, "name": None}}, rel="maps/fuzz.yaml",
         style=None)
def test_arbitrary_data_gives_diagnostics(tree: Path, value: Any, rel: str, style: str | None) -> None:
    load_only_diagnostics(tree, rel, dump(value, style))


@FAST
@given(text=st.one_of(YAMLISH, st.text(max_size=120)), rel=st.sampled_from(sorted(FILES)))
@example(text="!!int", rel="cards/fuzz.yaml")
@example(text="{'': x, 172959: true}\n", rel="expansions/fuzz/pack.yaml")
def test_arbitrary_text_gives_diagnostics(tree: Path, text: str, rel: str) -> None:
    load_only_diagnostics(tree, rel, text)


@settings(FAST, max_examples=100)
@given(raw=st.binary(max_size=60))
def test_arbitrary_bytes_give_diagnostics(tree: Path, raw: bytes) -> None:
    load_only_diagnostics(tree, "cards/fuzz.yaml", raw)


# ------------------------------------------------------------------ regressions found by the properties
def test_numeric_keys_are_unknown_keys(tree: Path) -> None:
    # Regression: sorting the unknown keys of a mapping that mixed numbers and text raised TypeError.
    diags = load_only_diagnostics(tree, "maps/fuzz.yaml", "id: tiny\n0: null\nlines: {0: null, id: null}\n")
    assert ("SCHEMA002", "unknown key '0'", 2, 1) in [(d.code, d.message, d.line, d.column) for d in diags]


def test_empty_tagged_scalar_is_a_yaml_error(tree: Path) -> None:
    # Regression: ruamel raised IndexError on an empty '!!int'.
    diags = load_only_diagnostics(tree, "cards/fuzz.yaml", "!!int")
    assert [(d.code, d.line, d.column) for d in diags] == [("YAML001", 1, 1)]


def _lexed_brackets(text: str) -> tuple[list[int], list[int]]:
    from ddaydice.dsl.parser import _parser

    opens: list[int] = []
    depths: list[int] = []
    depth = 0
    for tok in _parser().lex(text):
        if tok.type in {"LPAR", "RPAR"}:
            depth += 1 if tok.type == "LPAR" else -1
            opens.append(tok.start_pos or 0)
            depths.append(depth)
    return opens, depths


def test_the_nesting_reads_the_brackets_the_lexer_reads() -> None:
    """DSL004's count of brackets (dsl/parser.py _brackets) reads them off the text, a comment left out, where
    Lark's lexer (too slow to run for each effect) would find them: the same on every bundled effect and on
    comments holding brackets."""
    from ddaydice.dsl.loader import load_cached
    from ddaydice.dsl.parser import _brackets

    content, _ = load_cached(packs="all")
    assert content is not None
    texts = [src.text for src in content.effects.values() if src.text]
    texts += ["if not (not (in-bunker)): def -1 # (a comment (with brackets", "# ( only a comment\nuse: gain 1 star",
              "((((gain 1 soldier))))"]
    assert len(texts) > 300
    for text in texts:
        assert _brackets(text) == _lexed_brackets(text), text
