"""The fast YAML reading (dsl/yamlfast.py: libyaml's parser, ruamel's constructor) gives what ruamel alone gives.

- every YAML file of the repository (content, scenarios, test corpora) reads to the same data, of the same
  types, with the same line and column for every key, value and item;
- tricky scalars (YAML 1.1 words that YAML 1.2 reads as text, octals, times, empty values, block scalars) and
  generated documents read the same, and wherever the fast path reads a file ruamel reads it the same way;
- what the fast path is not sure of goes to ruamel (``NotFast``): duplicate keys, tags, directives, several
  documents, undefined aliases, too many aliases, deep nesting; ``read_yaml`` then gives ruamel's diagnostics.
"""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from ruamel.yaml.comments import CommentedMap, CommentedSeq

from ddaydice.dsl import yamlfast
from ddaydice.dsl.limits import MAX_NESTING, MAX_YAML_ALIASES
from ddaydice.dsl.yamlsrc import _ruamel, read_yaml

REPO = Path(__file__).resolve().parent.parent
FILES = sorted(p for p in REPO.rglob("*.yaml") if not {".venv", "src", ".git"} & set(p.relative_to(REPO).parts))


def slow(text: str) -> Any:
    return _ruamel().load(io.StringIO(text))


def fast(text: str) -> Any:
    return yamlfast.load(text, "t.yaml", _ruamel())


def differences(a: Any, b: Any, path: str = "") -> list[str]:
    """Where two read documents differ: a value, a type, a key's order, or a line and column."""
    if type(a) is not type(b):
        return [f"{path}: {type(a).__name__} / {type(b).__name__}"]
    if isinstance(a, CommentedMap):
        if list(a) != list(b):
            return [f"{path}: keys {list(a)} / {list(b)}"]
        out = [] if (a.lc.line, a.lc.col) == (b.lc.line, b.lc.col) else [f"{path}: position"]
        for k in a:
            if (a.lc.key(k), a.lc.value(k)) != (b.lc.key(k), b.lc.value(k)):
                out.append(f"{path}/{k}: position of the key or value")
            out += differences(a[k], b[k], f"{path}/{k}")
        return out
    if isinstance(a, CommentedSeq):
        if len(a) != len(b):
            return [f"{path}: {len(a)} / {len(b)} items"]
        out = [] if (a.lc.line, a.lc.col) == (b.lc.line, b.lc.col) else [f"{path}: position"]
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            if a.lc.item(i) != b.lc.item(i):
                out.append(f"{path}/{i}: position of the item")
            out += differences(x, y, f"{path}/{i}")
        return out
    same = a == b or repr(a) == repr(b)  # NaN is NaN by its repr; a tagged scalar has no ==
    return [] if same else [f"{path}: {a!r} / {b!r}"]


def test_there_are_files_to_compare() -> None:
    assert len(FILES) > 300


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(REPO)))
def test_every_yaml_file_of_the_repository_reads_the_same(path: Path) -> None:
    text = path.read_text(encoding="utf-8", errors="replace")
    try:
        expected = slow(text)
    except Exception:  # a corpus file that ruamel refuses: the fast path must not read it either
        with pytest.raises(Exception):  # noqa: B017 - any refusal; read_yaml then asks ruamel
            fast(text)
        return
    try:
        got = fast(text)
    except yamlfast.NotFast:
        return  # read by ruamel alone, as before
    assert not differences(got, expected)


TRICKY = """\
plain: [yes, no, on, off, y, n, True, FALSE, Null, ~, '', "", 012, 0o12, 0x1F, 1_000, 1:20, .inf, -.INF, .nan]
numbers: [1, -1, +1, 1.5, 1e3, 1.0e-3, 2001-12-14, 2001-12-14t21:59:43.10-05:00]
literal: |
  on first-enter: gain 1 courage
    indented
folded: >-
  a folded
  text
quoted: ['a: b', "tab\\there", 'it''s']
flow: {a: 1, b: [x, {c: d}], "e f": null}
nested:
  - - 1
    - 2
  - key: value
    other: [3]
anchored: &a {x: 1}
again: *a
"""


def test_tricky_scalars_read_the_same() -> None:
    assert not differences(fast(TRICKY), slow(TRICKY))


SCALARS = st.sampled_from(["yes", "no", "1", "-2", "0o7", "07", "1.5", ".inf", "~", "null", "true", "x y",
                           "'q'", '"d"', "a-b", "2020-01-01", "1_0", "0x10", ""])
KEYS = st.sampled_from(["id", "name", "def", "kind", "a-b", "1", "yes"])


def _doc(depth: int) -> st.SearchStrategy[str]:
    """YAML texts in block and flow style, built from scalars and keys that YAML resolves in different ways."""
    if depth == 0:
        return SCALARS
    inner = _doc(depth - 1)
    indent = "  " * (3 - depth)
    block_map = st.lists(st.tuples(KEYS, inner), min_size=1, max_size=3, unique_by=lambda kv: kv[0]).map(
        lambda kvs: "".join(f"\n{indent}{k}: {v}" if not v.startswith("\n") else f"\n{indent}{k}:{v}"
                            for k, v in kvs))
    block_seq = st.lists(inner, min_size=1, max_size=3).map(
        lambda vs: "".join(f"\n{indent}- {v.strip()}" if not v.startswith("\n") else f"\n{indent}-{v}"
                           for v in vs))
    flow_seq = st.lists(SCALARS, max_size=3).map(lambda vs: "[" + ", ".join(v or "''" for v in vs) + "]")
    return st.one_of(SCALARS, flow_seq, block_map, block_seq)


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(KEYS, _doc(2)), min_size=1, max_size=4, unique_by=lambda kv: kv[0]))
def test_generated_documents_read_the_same_or_go_to_ruamel(items: list[tuple[str, str]]) -> None:
    text = "".join(f"{k}: {v}\n" if not v.startswith("\n") else f"{k}:{v}\n" for k, v in items)
    try:
        expected = slow(text)
    except Exception:
        with pytest.raises(Exception):  # noqa: B017
            fast(text)
        return
    try:
        got = fast(text)
    except yamlfast.NotFast:
        return
    assert not differences(got, expected), text


@pytest.mark.parametrize(("text", "code"), [
    ("a: 1\na: 2\n", "YAML002"),                                         # a duplicate key
    ("a: !!str 1\n", None),                                              # an explicit tag: ruamel reads it
    ("a:\nb: 1\n", None),                                                 # an empty value: ruamel places it
    ("%YAML 1.1\n---\na: yes\n", None),                                  # a directive: ruamel's version rules
    ("a: 1\n---\nb: 2\n", "YAML001"),                                    # several documents
    ("a: *nowhere\n", "YAML001"),                                        # an undefined alias
    ("x: &x [1]\ny: [" + ", ".join(["*x"] * (MAX_YAML_ALIASES + 1)) + "]\n", "YAML005"),  # too many aliases
    ("a: " + "[" * (MAX_NESTING + 5) + "]" * (MAX_NESTING + 5) + "\n", "YAML006"),          # nested too deeply
    ("a: [1, 2\n", "YAML001"),                                           # a syntax error
])
def test_what_the_fast_path_is_not_sure_of_goes_to_ruamel(text: str, code: str | None) -> None:
    with pytest.raises(yamlfast.NotFast):
        fast(text)
    doc, diags = read_yaml("t.yaml", text)
    if code is None:
        assert doc is not None and not diags and not differences(doc.data, slow(text))
    else:
        assert doc is None and [d.code for d in diags] == [code], diags
