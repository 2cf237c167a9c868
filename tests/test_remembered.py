"""What a load parses, remembered between loads: the content files' YAML (dsl/yamlsrc.py
``read_yaml(..., remember=True)``) and the effects (dsl/parser.py ``parse_effect``). A language server,
``dday validate --watch`` or a notebook loads the same files again and again, and parses only what changed.

- a whole load (every bundled pack, the example packs, the test packs) leaves every remembered document exactly as
  parsed: the loader only reads them, so one load's documents can serve the next;
- a file is read every time: its new text is parsed afresh, the same text is not parsed again;
- what is remembered is bounded (MAX_REMEMBERED_YAML_BYTES of text), the least recently used going first;
- an effect's tree (immutable) is remembered under its text and its place: an error in the same text elsewhere is
  told at its own place.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from test_yamlfast import differences

from ddaydice.dsl import yamlsrc
from ddaydice.dsl.loader import load
from ddaydice.dsl.parser import SourceMap, parse_effect
from ddaydice.dsl.validate import validate
from ddaydice.dsl.yamlsrc import read_yaml

REPO = Path(__file__).resolve().parent.parent
PACKS = sorted(p.parent for p in [*(REPO / "docs" / "example-pack").glob("*/pack.yaml"),
                                  *(REPO / "tests" / "packs").glob("*/pack.yaml")])


def test_loads_leave_the_remembered_documents_as_parsed() -> None:
    assert PACKS
    content, diags = load(packs=["all"])
    assert content is not None, diags
    for pack in PACKS:
        validate([pack])
    remembered = dict(yamlsrc._REMEMBERED)
    assert len(remembered) >= 40  # (rules, cards, maps, options and packs)
    for (file, text), (doc, _) in remembered.items():
        if doc is not None:
            fresh, _ = read_yaml(file, text)
            assert fresh is not None
            assert differences(doc.data, fresh.data) == [], file


def test_a_file_is_parsed_again_when_its_text_changes_and_only_then(tmp_path: Path) -> None:
    f = tmp_path / "x.yaml"
    f.write_text("a: 1\n")
    first, _ = read_yaml(str(f), remember=True)
    again, _ = read_yaml(str(f), remember=True)
    assert first is not None and again is first
    f.write_text("a: 2\n")
    changed, _ = read_yaml(str(f), remember=True)
    assert changed is not None and changed.data == {"a": 2}
    f.write_text("a: [\n")
    broken, diags = read_yaml(str(f), remember=True)
    assert broken is None and [d.code for d in diags] == ["YAML001"]
    assert read_yaml(str(f), remember=True)[1] == diags  # (its diagnostics remembered too, a fresh list)
    f.write_bytes(b"a: \xff\n")
    assert [d.code for d in read_yaml(str(f), remember=True)[1]] == ["YAML003"]
    f.unlink()
    assert read_yaml(str(f), remember=True)[0] is None


def test_what_is_remembered_is_bounded(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(yamlsrc, "_REMEMBERED", {})
    monkeypatch.setattr(yamlsrc, "_REMEMBERED_BYTES", [0])
    monkeypatch.setattr(yamlsrc, "MAX_REMEMBERED_YAML_BYTES", 100)
    files = []
    for i in range(4):
        f = tmp_path / f"f{i}.yaml"
        f.write_text(f"key: {'x' * 30}{i}\n")  # 38 characters each: two fit
        files.append(str(f))
    read_yaml(files[0], remember=True)
    read_yaml(files[1], remember=True)
    read_yaml(files[0], remember=True)  # used again: now files[1] is the least recently used
    read_yaml(files[2], remember=True)
    assert [file for file, _ in yamlsrc._REMEMBERED] == [files[0], files[2]]
    assert yamlsrc._REMEMBERED_BYTES[0] == sum(len(text) for _, text in yamlsrc._REMEMBERED) <= 100


def test_an_effect_is_parsed_once_for_its_text_and_place() -> None:
    text = "when rolling: gain 1 soldier"
    first, _ = parse_effect("gain 1 soldier", SourceMap("a.yaml", 3, 11))
    assert first is not None
    assert parse_effect("gain 1 soldier", SourceMap("a.yaml", 3, 11))[0] is first
    for place in (SourceMap("a.yaml", 3, 11), SourceMap("b.yaml", 7, 5)):
        tree, diags = parse_effect(text, place)
        assert tree is None and [(d.file, d.line) for d in diags] == [(place.file, place.line)]
        diags.clear()  # (the caller's own list: what is remembered is not changed)
        assert len(parse_effect(text, place)[1]) == 1
