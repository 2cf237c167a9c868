"""``--pack``, the same for every command that takes it: a bundled pack by its id, a pack folder by its path (with or
without './'), or 'all'; a name that is none is a usage error (exit 2) before any work, saying what it was taken
for, never a diagnostic placed at the bundled expansions folder."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from ddaydice.interpreter.cli import main

PACK = """\
id: my-rations
name: My Rations
version: "1.0"
text: A pack made for tests.
provenance: reconstructed
note: everything in it is ours
"""

#: Each command that takes --pack, with the rest of a command line that would run.
COMMANDS = {
    "validate": ["validate"],
    "list": ["list", "expansions"],
    "card": ["card", "medic"],
    "conflicts": ["conflicts", "--map", "exercise-tiger"],
    "simulate": ["simulate", "exercise-tiger", "--games", "1", "-q"],
    "play": ["play", "exercise-tiger", "--auto", "reference", "--seed", "1"],
    "render": ["render", "exercise-tiger", "-o", "map.svg"],
    "impact": ["impact", "medic", "--map", "exercise-tiger", "--games", "2", "--batch", "2", "-q"],
    "grammar": ["grammar"],
}

#: A --pack that names nothing, and what the error must say of it.
NOT_A_PACK = {
    "unknown-id": ("nothere", "'nothere' is no bundled pack (taken as a bundled pack's id: the bundled ones: "),
    "misspelt-id": ("atlantikwal", "(taken as a bundled pack's id: did you mean 'atlantikwall'?)"),
    "missing-path": ("/nonexistent/pack", "'/nonexistent/pack' does not exist (taken as a pack folder's path)"),
    "folder-no-manifest": ("empty", "'empty' has no pack.yaml (`dday new pack FOLDER` makes a pack)"),
    "a-file": ("./my-rations/pack.yaml", "is not a folder (taken as a pack folder's path)"),
}


@pytest.fixture
def here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A folder holding a pack folder my-rations and a folder that is no pack."""
    (tmp_path / "my-rations").mkdir()
    (tmp_path / "my-rations" / "pack.yaml").write_text(PACK, encoding="utf-8")
    (tmp_path / "empty").mkdir()
    monkeypatch.chdir(tmp_path)
    return tmp_path


def dday(*args: str) -> Result:
    return CliRunner().invoke(main, list(args), prog_name="dday")


@pytest.mark.parametrize("command", sorted(COMMANDS))
@pytest.mark.parametrize("case", sorted(NOT_A_PACK))
def test_a_pack_that_is_none_is_a_usage_error(here: Path, command: str, case: str) -> None:
    given, said = NOT_A_PACK[case]
    result = dday(*COMMANDS[command], "--pack", given)
    assert result.exit_code == 2, result.output
    assert "Invalid value for '--pack'" in result.output and said in result.output, result.output
    assert "PACK003" not in result.output and "expansions:1:1" not in result.output
    assert not (here / "map.svg").exists()  # before any work


@pytest.mark.parametrize("given", ["my-rations", "./my-rations", "my-rations/"])
def test_a_pack_folder_is_named_with_or_without_its_dot(here: Path, given: str) -> None:
    listed = dday("list", "expansions", "--pack", given)
    assert listed.exit_code == 0, listed.output
    assert "My Rations  [RECONSTRUCTED]  loaded" in listed.output
    for command in ("card", "conflicts", "validate"):
        result = dday(*COMMANDS[command], "--pack", given)
        assert result.exit_code == 0, (command, result.output)
    conflicts = dday(*COMMANDS["conflicts"], "--pack", given)
    assert "packs: my-rations" in conflicts.output


def test_card_takes_a_bundled_pack_by_its_id(here: Path) -> None:
    result = dday("card", "medic", "--pack", "atlantikwall")
    assert result.exit_code == 0, result.output


def test_a_pack_named_twice_is_loaded_once(here: Path) -> None:
    result = dday(*COMMANDS["simulate"], "--pack", "atlantikwall", "--pack", "atlantikwall")
    assert result.exit_code == 0, result.output
    assert "DUP001" not in result.output


def test_all_and_a_folder_are_both_loaded(here: Path) -> None:
    result = dday("list", "expansions", "--format", "json", "--pack", "all", "--pack", "my-rations")
    assert result.exit_code == 0, result.output
    assert '"loaded": false' not in result.output and '"id": "my-rations"' in result.output


def test_a_capture_names_a_pack_folder_beside_it_by_its_path(here: Path) -> None:
    captured = dday(*COMMANDS["simulate"], "--pack", "./my-rations", "--game", "0", "--until", "1.roll",
                    "--to-scenario", "cap.yaml")
    assert captured.exit_code == 0, captured.output
    assert "packs: [./my-rations]" in (here / "cap.yaml").read_text(encoding="utf-8")
    run = dday("scenario", "run", "cap.yaml")
    assert "PACK003" not in run.output and "unusable" not in run.output, run.output
