"""The TextMate grammars of the effect language (dsl/textmate.py, ``dday grammar``, ``editors/vscode/``).

- the published ``editors/vscode/*`` are what ``dday grammar -o editors/vscode`` writes today (never by hand);
- tokenised by the engine VS Code uses (vscode-textmate on vscode-oniguruma, driven by tests/textmate/tokenize.mjs;
  ``scripts/editor-deps`` installs it, ``.ci/run`` calls that), every effect of every bundled card, rule, map and
  pack, and of the example pack, has every non-space character under a scope of the language, none invalid;
- hand-picked words, numbers, card ids, operators and comments get the scopes they should;
- injected into a real YAML grammar, the grammar colours the ``effect: |`` blocks of every bundled content file,
  line for line, and nothing else.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner

from ddaydice.dsl import textmate
from ddaydice.dsl.loader import Content, load
from ddaydice.interpreter.cli import main

REPO = Path(__file__).resolve().parent.parent
PUBLISHED = REPO / "editors" / "vscode"
ENGINE = REPO / "tests" / "textmate"
LANG = textmate.LANGUAGE

Token = tuple[int, int, list[str]]
Tokenise = Callable[[list[str]], list[list[list[Token]]]]

# A real YAML grammar (textmate/yaml.tmbundle's, which VS Code shipped for years; from the npm package tm-grammars):
# its own rule reads a block scalar as a string, so the injection must win over it to colour an effect's block.
YAML_GRAMMAR = ENGINE / "node_modules" / "tm-grammars" / "grammars" / "yaml.json"


def test_the_published_grammar_is_the_generated_one(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["grammar", "-o", str(tmp_path)])
    assert result.exit_code == 0, result.output
    written = sorted(p.name for p in tmp_path.iterdir())
    assert written == sorted(textmate.files(bundled().vocab))
    for name in written:
        published = PUBLISHED / name
        assert published.is_file(), f"editors/vscode/{name} is missing: run `dday grammar -o editors/vscode`"
        assert published.read_text(encoding="utf-8") == (tmp_path / name).read_text(encoding="utf-8"), \
            f"editors/vscode/{name} is stale: run `dday grammar -o editors/vscode` (or scripts/regenerate)"


def test_dday_grammar_prints_the_language_grammar() -> None:
    result = CliRunner().invoke(main, ["grammar"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["scopeName"] == textmate.SCOPE


_CONTENT: list[Content] = []


def bundled() -> Content:
    """The bundled base game, every bundled pack and the example packs of docs/ (docs/example-pack/*)."""
    if not _CONTENT:
        examples = sorted(p.parent for p in (REPO / "docs" / "example-pack").glob("*/pack.yaml"))
        assert len(examples) >= 2, examples
        content, diags = load(packs="all", extra=examples)
        assert content is not None, diags
        _CONTENT.append(content)
    return _CONTENT[0]


def _engine(root: str, grammars: dict[str, Path], injections: dict[str, list[str]] | None = None) -> Tokenise:
    node = shutil.which("node")
    if node is None or not (ENGINE / "node_modules" / "vscode-textmate").is_dir() or not YAML_GRAMMAR.is_file():
        pytest.fail("the TextMate engine is not installed: run scripts/editor-deps (needs node and npm)")

    def tokenise(documents: list[str]) -> list[list[list[Token]]]:
        request = {"grammars": {k: str(v) for k, v in grammars.items()}, "injections": injections or {},
                   "root": root, "documents": documents}
        done = subprocess.run([node, str(ENGINE / "tokenize.mjs")], input=json.dumps(request), text=True,
                              capture_output=True, check=False, cwd=ENGINE, timeout=120)
        assert done.returncode == 0, done.stderr
        out: list[list[list[Token]]] = json.loads(done.stdout)
        return out

    return tokenise


@pytest.fixture(scope="module")
def effect_tokens() -> Tokenise:
    """Tokenise effects; the hand-picked examples below are tokenised together, once (a run of node each would
    take a third of a second)."""
    engine = _engine(textmate.SCOPE, {textmate.SCOPE: PUBLISHED / textmate.GRAMMAR_FILE})
    known: dict[str, list[list[Token]]] = {}

    def tokenise(documents: list[str]) -> list[list[list[Token]]]:
        missing = sorted({d for d in documents if d not in known})
        if missing:
            known.update(zip(missing, engine(missing), strict=True))
        return [known[d] for d in documents]

    tokenise([e for e, _p, _s in EXAMPLES] + [e for e, _p in INVALID])
    return tokenise


def words_of(text: str, lines: list[list[Token]]) -> list[tuple[str, list[str]]]:
    """Each token's text (spaces only: left out) with its scopes below the root's. The tokens of a line cover it,
    end to end."""
    out = []
    for line, tokens in zip(text.split("\n"), lines, strict=True):
        assert [t[0] for t in tokens[1:]] == [t[1] for t in tokens[:-1]], tokens
        assert not line or (tokens[0][0], tokens[-1][1]) == (0, len(line)), (line, tokens)
        for start, end, scopes in tokens:
            if line[start:end].strip():
                out.append((line[start:end], scopes[1:]))
    return out


def unscoped(text: str, lines: list[list[Token]]) -> list[str]:
    """Every token of ``text`` that has a non-space character and no scope of the language, or an invalid one."""
    return [f"{piece!r} {scopes}" for piece, scopes in words_of(text, lines)
            if not scopes or any(s.startswith("invalid") for s in scopes)]


def test_every_bundled_effect_gets_a_scope_for_every_character(effect_tokens: Tokenise) -> None:
    effects = bundled().effects
    assert len(effects) > 300  # the whole bundled content, not a part of it
    sources = list(effects.values())
    texts = [e.text.rstrip("\n") for e in sources]
    found = effect_tokens(texts)
    bad = {}
    for source, text, lines in zip(sources, texts, found, strict=True):
        wrong = unscoped(text, lines)
        if wrong:
            bad[f"{source.file}:{source.line} {source.owner}"] = wrong
    assert not bad, json.dumps(bad, indent=1)
    kinds = {e.kind for e in sources}
    assert {"specialist", "item", "vehicle", "award", "sector", "rule", "option", "rwb", "badge"} <= kinds, kinds


EXAMPLES = [
    # words of the registry, by role
    ("on advance: gain 3 soldiers", "on", "keyword.control"),
    ("on advance: gain 3 soldiers", "advance", "support.function.event"),
    ("on advance: gain 3 soldiers", "gain", "entity.name.function.action"),
    ("on advance: gain 3 soldiers", "soldiers", "support.constant.resource"),
    ("use after final-tally: reroll 1 die unlocked", "final-tally", "support.function.moment"),
    ("use after final-tally: reroll 1 die unlocked", "die", "constant.language"),
    ("use after final-tally: reroll 1 die unlocked", "unlocked", "constant.language"),
    ("forbid stay unless count skull >= 4", "forbid", "keyword.other.modifier"),
    ("forbid stay unless count skull >= 4", "stay", "variable.other.permission"),
    ("forbid stay unless count skull >= 4", "count", "support.function.condition"),
    ("forbid stay unless count skull >= 4", "skull", "support.constant.face"),
    ("on final-tally: add 1 skull red", "red", "support.constant.colour"),
    ("use if players >= 2: gain 1 star", "players", "support.function.condition"),
    ("gain 3 soldiers per locked skull", "locked", "support.variable.counter"),
    ("on movement: lose 1 soldiers per tagged explosion above 2", "explosion", "support.constant.tag"),
    ("on movement: lose 1 soldiers per tagged explosion above 2", "above", "keyword.control"),
    ("use if not bunker and have courage >= 6: lose 6 courage", "and", "keyword.operator.logical"),
    ("use if not bunker and have courage >= 6: lose 6 courage", "not", "keyword.operator.logical"),
    # phrases of the grammar
    ("use once per turn after final-tally: reroll 1 die", "once per turn", "keyword.other.limit"),
    ("use before mgf: def -2 this turn", "this turn", "keyword.other.duration"),
    ("use: gain 4 soldiers to another unit", "another unit", "variable.language.target"),
    ("for all units: locked-dice = 1", "all units", "variable.language.target"),
    # values, numbers and operators
    ("use before mgf: def -2 this turn", "def", "variable.other.query"),
    ("use before mgf: def -2 this turn", "-2", "constant.numeric.integer.signed"),
    ("on combat: lose 1d6 soldiers", "1d6", "constant.numeric.dice"),
    ("def -1d6", "-1d6", "constant.numeric.dice.signed"),
    ("on advance: gain 3 soldiers", "3", "constant.numeric.integer"),
    ("for all units: locked-dice = 1", "=", "keyword.operator.assignment"),
    ("forbid stay unless count skull >= 4", ">=", "keyword.operator.comparison"),
    ("on advance: gain 3 soldiers", ":", "punctuation.separator.colon"),
    ("use: gain 1 star or gain 1 courage, def -1 this turn", ",", "punctuation.separator.comma"),
    ("use: gain 1 star or gain 1 courage", "or", "keyword.operator.logical"),
    ("casualties -1; def -1", ";", "punctuation.terminator.clause"),
    ("use if (bunker or occupied): gain 1 star", "(", "punctuation.section.parens.begin"),
    # names content defines: card ids, sectors, anything else
    ("on combat unless has minesweeper: lose 1d6 soldiers", "minesweeper", "entity.name.card"),
    ("on enter: recruit scout free", "scout", "entity.name.card"),
    ("unless in-play general", "general", "entity.name.card"),
    ("specialist-cost = 1 if card-is medic", "medic", "entity.name.card"),
    ("use: sacrifice self, allow stay this turn", "self", "constant.language"),
    ("use if turns-here >= 3: retreat s7", "s7", "entity.name.sector"),
    ("on first-enter: become shelter", "shelter", "variable.other.name"),
    # a chance, a lasting change, a face named
    ("use: roll 1d6 (5-6: gain 3 item-points, else: gain 1 item-points)", "roll", "keyword.control"),
    ("use: roll 1d6 (5-6: gain 3 item-points, else: gain 1 item-points)", "5-6", "constant.numeric.range"),
    ("use: roll 1d6 (5-6: gain 3 item-points, else: gain 1 item-points)", "else", "keyword.control"),
    ("use: roll 1d6 (5-6: gain 3 item-points, else: gain 1 item-points)", ")", "punctuation.section.parens.end"),
    ("use: ignore landmines until combat", "until", "keyword.control"),
    ("use: ignore landmines until combat", "combat", "support.function.event"),
    ("use after final-tally: reface 1 die skull as two-soldiers", "as", "constant.language"),
    ("use after final-tally: reface 1 die skull as two-soldiers", "two-soldiers", "support.constant.face"),
    # comments
    ("casualties -1  # the Medic", "# the Medic", "comment.line.number-sign"),
]
INVALID = [
    ("on advance: Gain 3 soldiers", "G"),
    ("advance_cost -1", "_"),
    ("use: gain 3 soldiers!", "!"),
]


@pytest.mark.parametrize(("effect", "piece", "scope"), EXAMPLES)
def test_hand_picked_pieces_get_their_scope(effect_tokens: Tokenise, effect: str, piece: str, scope: str) -> None:
    pieces = dict(words_of(effect, effect_tokens([effect])[0]))
    assert piece in pieces, (piece, pieces)
    assert pieces[piece] == [f"{scope}.{LANG}"]


@pytest.mark.parametrize(("effect", "piece"), INVALID)
def test_a_character_the_language_has_no_place_for_is_invalid(effect_tokens: Tokenise, effect: str,
                                                              piece: str) -> None:
    """The check on the bundled effects can fail: a character outside the language is scoped invalid."""
    pieces = dict(words_of(effect, effect_tokens([effect])[0]))
    assert pieces[piece] == [f"{textmate.INVALID_SCOPE}.{LANG}"]
    assert unscoped(effect, effect_tokens([effect])[0])


@pytest.fixture(scope="module")
def yaml_tokens() -> Tokenise:
    engine = _engine("source.yaml", {"source.yaml": YAML_GRAMMAR, textmate.SCOPE: PUBLISHED / textmate.GRAMMAR_FILE,
                                     textmate.INJECTION_SCOPE: PUBLISHED / textmate.INJECTION_FILE},
                     {"source.yaml": [textmate.INJECTION_SCOPE]})
    known = dict(zip(YAML_EXAMPLES, engine(YAML_EXAMPLES), strict=True))
    return lambda documents: [known[d] for d in documents] if set(documents) <= set(known) else engine(documents)


def embedded_lines(lines: list[list[Token]], text: str) -> set[int]:
    """The 1-based lines of a YAML file whose every non-space character is inside an embedded effect."""
    out = set()
    for number, (line, tokens) in enumerate(zip(text.split("\n"), lines, strict=True), start=1):
        scoped = [scopes for start, end, scopes in tokens if line[start:end].strip()]
        if scoped and all(textmate.EMBEDDED in scopes and len(scopes) > 2 for scopes in scoped):
            out.add(number)
    return out


def test_the_effect_blocks_of_every_bundled_card_file_are_coloured_in_yaml(yaml_tokens: Tokenise) -> None:
    """Every effect written as a literal block in a bundled card file is coloured as an effect, line for line (the
    loader says where each one starts), and nothing else in the file is."""
    content = bundled()
    by_file: dict[Path, set[int]] = {}
    for e in content.effects.values():
        path = Path(e.file).resolve()
        key_line = path.read_text(encoding="utf-8").split("\n")[e.line - 2]
        if key_line.strip().endswith("effect: |"):
            lines = by_file.setdefault(path, set())
            lines |= {e.line + i for i, one in enumerate(e.text.rstrip("\n").split("\n")) if one.strip()}
    assert len(by_file) >= 10, by_file.keys()
    files = sorted(by_file)
    texts = [f.read_text(encoding="utf-8") for f in files]
    for file, text, tokens in zip(files, texts, yaml_tokens(texts), strict=True):
        assert embedded_lines(tokens, text) == by_file[file], file


YAML_EXAMPLES = [
    # a key of a mapping
    "kind: item\ncards:\n  - id: x\n    effect: |\n      use: gain 1 star\n      casualties -1\n    provenance: y\n",
    # the key of a list item, a chomping indicator, a blank line inside the block
    "cards:\n  - effect: |-\n      use: gain 1 star\n\n      casualties -1\n    provenance: y\n",
    # at the top of an option's file, a comment after the indicator
    "id: hot-meals\neffect: |  # the rule\n  use: gain 1 star\n  casualties -1\nprovenance: y\n",
]


@pytest.mark.parametrize("yaml", YAML_EXAMPLES)
def test_an_effect_block_ends_where_yaml_ends_it(yaml_tokens: Tokenise, yaml: str) -> None:
    lines = yaml_tokens([yaml])[0]
    effect_lines = {i for i, line in enumerate(yaml.split("\n"), start=1)
                    if line.strip().startswith(("use:", "casualties"))}
    assert embedded_lines(lines, yaml) == effect_lines
    last = yaml.split("\n").index(next(line for line in yaml.split("\n") if line.strip().startswith("provenance")))
    assert all(textmate.EMBEDDED not in scopes for _s, _e, scopes in lines[last]), lines[last]
    use_line = min(effect_lines) - 1
    assert any(scopes[-1] == f"entity.name.function.action.{LANG}" for _s, _e, scopes in lines[use_line])


def test_no_card_id_of_the_bundled_content_is_written_in_the_generator() -> None:
    """The grammar's names come from the registry and the rules: dsl/textmate.py names no card."""
    source = (REPO / "dsl" / "textmate.py").read_text(encoding="utf-8")
    named = [cid for cid in bundled().cards if f"'{cid}'" in source or f'"{cid}"' in source]
    assert not named, named
