"""Property tests of hostile input: random bytes and random YAML trees fed to the loader (as a pack's files), to the
scenario runner and to the replay reader give the project's own answers only — content, a result, or located
diagnostics — never an exception, and their rendering is one printable line per diagnostic head.

Runs are derandomized (the same examples every time) and small enough to stay fast.
"""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pytest
from hostile_kit import CARDS_YAML, PACK_YAML
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from ruamel.yaml import YAML

from ddaydice.dsl.diagnostics import Diagnostic, SourceCache, render_all
from ddaydice.dsl.loader import Content, load, load_cached
from ddaydice.interpreter.tools import scenario as sc_mod
from ddaydice.interpreter.tools.play import read_replay

PROPERTY = settings(max_examples=60, deadline=None, derandomize=True, database=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])

SCALARS = st.one_of(st.none(), st.booleans(), st.integers(-(10**30), 10**30), st.floats(),
                    st.text(max_size=20), st.sampled_from(["../x", "/etc/passwd", "\x1b[31m", "x\u202e", "",
                                                            "u1", "s1", "medic", "phase", "turns", "query def for u1",
                                                            "exercise-tiger", "rulebook", "specialist"]))
KEYS = st.one_of(st.text(max_size=10), st.sampled_from([
    "id", "name", "cost", "text", "effect", "provenance", "note", "kind", "cards", "requires", "units", "steps",
    "expect", "answers", "tally", "packs", "turns", "phase", "seed", "map", "variant", "sectors", "def"]))
TREES = st.recursive(SCALARS, lambda inner: st.one_of(st.lists(inner, max_size=4),
                                                      st.dictionaries(KEYS, inner, max_size=4)), max_leaves=20)


def _dump(data: Any) -> str:
    out = io.StringIO()
    YAML(typ="safe", pure=True).dump(data, out)
    return out.getvalue()


def _located(diags: list[Diagnostic]) -> None:
    for d in diags:
        assert isinstance(d, Diagnostic)
        assert d.line >= 1 and d.column >= 1, d
    text = render_all(diags, SourceCache())
    assert not any(ord(c) < 32 and c not in "\n" for c in text), repr(text)


@pytest.fixture(scope="module")
def pack_root(tmp_path_factory: pytest.TempPathFactory, small_tree: Path) -> tuple[Path, Path]:
    pack = tmp_path_factory.mktemp("fuzz") / "pack"
    (pack / "cards").mkdir(parents=True)
    (pack / "pack.yaml").write_text(PACK_YAML, encoding="utf-8")
    return small_tree, pack


def _load_with(pack_root: tuple[Path, Path], place: str, data: bytes) -> None:
    tree, pack = pack_root
    target = pack / place
    original = target.read_bytes() if target.exists() else None
    target.write_bytes(data)
    try:
        content, diags = load(tree, extra=[pack])
        assert content is not None or any(d.severity == "error" for d in diags)
        _located(diags)
    finally:
        if original is None:
            target.unlink()
        else:
            target.write_bytes(original)


@PROPERTY
@given(data=st.binary(max_size=300), place=st.sampled_from(["cards/x.yaml", "pack.yaml"]))
def test_random_bytes_in_a_pack_give_diagnostics(pack_root: tuple[Path, Path], data: bytes, place: str) -> None:
    _load_with(pack_root, place, data)


@PROPERTY
@given(tree=TREES, place=st.sampled_from(["cards/x.yaml", "pack.yaml"]))
def test_random_yaml_trees_in_a_pack_give_diagnostics(pack_root: tuple[Path, Path], tree: Any, place: str) -> None:
    _load_with(pack_root, place, _dump(tree).encode("utf-8"))


@PROPERTY
@given(key=st.sampled_from(["id", "cost", "effect", "name", "grade", "only-in", "provenance", "kind", "cards"]),
       value=TREES)
def test_a_card_field_replaced_by_a_random_tree_gives_diagnostics(pack_root: tuple[Path, Path], key: str,
                                                                  value: Any) -> None:
    yaml = YAML(typ="safe", pure=True)
    data = yaml.load(CARDS_YAML)
    if key in {"kind", "cards"}:
        data[key] = value
    else:
        data["cards"][0][key] = value
    _load_with(pack_root, "cards/x.yaml", _dump(data).encode("utf-8"))


BASE_SCENARIO: dict[str, Any] = {
    "scenario": "fuzz", "map": "exercise-tiger", "variant": "advanced-training", "fallback": "none",
    "units": [{"id": "u1", "sector": "s1", "soldiers": 4}],
    "tally": {"u1": ["red tool", "red courage", "white courage", "white star", "blue star", "blue one-soldier"]},
    "steps": [{"phase": "upkeep"}], "expect": [{"u1.item-points": 1}],
}


@pytest.fixture(scope="module")
def bundled() -> Content:
    content, diags = load_cached()
    assert content is not None, diags
    return content


@PROPERTY
@given(key=st.sampled_from(["units", "tally", "steps", "expect", "answers", "seed", "turn", "phase", "rolls",
                            "map", "variant", "options", "bunker-specialists", "decks", "in-play", "sides"]),
       value=TREES)
def test_a_scenario_with_a_random_part_runs_or_is_refused(tmp_path_factory: pytest.TempPathFactory,
                                                          bundled: Content, key: str, value: Any) -> None:
    path = tmp_path_factory.mktemp("sc") / "q.yaml"
    path.write_text(_dump({**BASE_SCENARIO, key: value}), encoding="utf-8")
    loaded, diags = sc_mod.load_scenario(path, bundled)
    _located(diags)
    if loaded is not None and not diags:
        sc, doc = loaded
        result, _game = sc_mod.run(sc, bundled, str(path), doc=doc)
        assert isinstance(result, sc_mod.Result)


@PROPERTY
@given(step=TREES)
def test_a_random_step_runs_or_is_refused(tmp_path_factory: pytest.TempPathFactory, bundled: Content,
                                          step: Any) -> None:
    path = tmp_path_factory.mktemp("st") / "q.yaml"
    path.write_text(_dump({**BASE_SCENARIO, "steps": [step]}), encoding="utf-8")
    loaded, diags = sc_mod.load_scenario(path, bundled)
    _located(diags)
    if loaded is not None and not diags:
        sc, doc = loaded
        result, _game = sc_mod.run(sc, bundled, str(path), doc=doc)
        assert isinstance(result, sc_mod.Result)


@PROPERTY
@given(data=st.one_of(st.binary(max_size=200), TREES.map(lambda t: _json(t).encode("utf-8"))))
def test_a_random_replay_is_read_or_refused(tmp_path_factory: pytest.TempPathFactory, data: bytes) -> None:
    path = tmp_path_factory.mktemp("rp") / "r.json"
    path.write_bytes(data)
    replay, diags = read_replay(path)
    assert (replay is None) == bool(diags)
    _located(diags)


def _json(tree: Any) -> str:
    import json

    return json.dumps(tree, default=str)

