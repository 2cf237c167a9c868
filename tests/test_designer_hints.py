"""What a designer meets first with a card of his own: dday card without its pack, dday new scenario's stub."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner, Result

from ddaydice.interpreter.cli import main


def _cli(*args: str) -> Result:
    return CliRunner().invoke(main, list(args))


def test_a_card_not_in_the_content_may_be_in_a_pack_folder() -> None:
    """'dday card ranger' answered only "did you mean 'ranger-tab'?": the designer's Ranger is in his pack."""
    result = _cli("card", "ranger")
    assert result.exit_code == 2
    assert "no card 'ranger'; did you mean 'ranger-tab'?; a card of a pack folder of yours is shown with " \
           "--pack PATH" in result.output
    loaded = _cli("card", "ranger", "--pack", "atlantikwall")
    assert "it is in none of the packs loaded (atlantikwall)" in loaded.output


def test_a_new_specialists_scenario_runs_and_fails_only_its_check(tmp_path: Path) -> None:
    """The stub for a new Specialist was unusable (SCEN001: no map offers him) and used a card that has no use:
    it now switches on an optional rule that brings him, plays no use he has not, and fails only "fill in"."""
    folder = tmp_path / "lab"
    assert _cli("new", "pack", str(folder), "--name", "Lab").exit_code == 0
    assert _cli("new", "card", "specialist", "ranger", "--pack", str(folder)).exit_code == 0
    made = _cli("new", "scenario", "ranger", "--pack", str(folder))
    assert made.exit_code == 0, made.output
    stub = folder / "scenarios" / "ranger.yaml"
    assert "use: ranger" not in stub.read_text()
    result = _cli("scenario", "run", str(stub))
    assert result.exit_code == 1, result.output
    assert "FAIL u1.courage: expected 'fill in', got 1" in result.output
    assert "0 passed, 1 failed" in result.output and "unusable" not in result.output
    stub.write_text(stub.read_text().replace('u1.courage: "fill in"', "u1.courage: 1"))
    assert _cli("scenario", "run", str(stub)).output.startswith("PASS")
