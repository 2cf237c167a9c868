"""More broken content: a pack requiring an unknown pack; a broken card's effect still checked."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from ddaydice.interpreter.cli import main


def _pack(tmp: Path, requires: str) -> Path:
    pack = tmp / "mypack"
    (pack / "cards").mkdir(parents=True)
    (pack / "pack.yaml").write_text(
        "id: mypack\nname: My pack\nversion: '1'\ntext: A test pack.\nprovenance: reconstructed\n"
        f"note: invented for a test\nrequires: [{requires}]\n", encoding="utf-8")
    return pack


def test_a_pack_requiring_an_unknown_pack(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    _pack(tmp_path, "atlantikwal")
    result = CliRunner().invoke(main, ["validate", "mypack"])
    assert result.exit_code == 1
    assert "mypack/pack.yaml:7:12: PACK004 pack 'mypack' requires 'atlantikwal', which does not exist" in result.output
    assert "did you mean 'atlantikwall'?" in result.output


def test_a_pack_requiring_a_pack_not_loaded(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    _pack(tmp_path, "atlantikwall")
    result = CliRunner().invoke(main, ["validate", "mypack"])
    assert result.exit_code == 1
    assert "PACK005 pack 'mypack' requires 'atlantikwall', which is not loaded" in result.output


def test_a_broken_card_still_has_its_effect_checked(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    pack = _pack(tmp_path, "house-awards")
    (pack / "pack.yaml").write_text((pack / "pack.yaml").read_text().replace("[house-awards]", "[]"))
    (pack / "cards" / "x.yaml").write_text(
        "kind: item\ncards:\n  - id: lucky-sock\n    name: Lucky Sock\n    cost: three\n    text: x\n"
        "    effect: |\n      use: gian 2 soldiers\n    provenance: reconstructed\n    note: test\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["validate", "mypack"])
    assert result.exit_code == 1
    assert "SCHEMA004 'cost': expected a whole number" in result.output
    assert "x.yaml:8:12: DSL101 unknown action 'gian'" in result.output
