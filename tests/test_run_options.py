"""The options every command that plays games shares (dday simulate, compare, impact): one range for --games and
--seed, one cap and note for --jobs, one "did you mean" for --policy; and the packs of dday compare's set-ups."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from pack_kit import card, make_pack

from ddaydice.dsl.limits import MAX_GAMES
from ddaydice.interpreter.cli import main

#: Each command that plays games, with what it needs to play two quick games on Exercise Tiger's practice run.
COMMANDS = {
    "simulate": ["simulate", "exercise-tiger", "--variant", "practice-run"],
    "impact": ["impact", "medic", "--map", "exercise-tiger", "--variant", "practice-run"],
    "compare": ["compare", "-s", "map=exercise-tiger variant=practice-run",
                "-s", "map=exercise-tiger variant=practice-run give=medic"],
}


def _cli(*args: str) -> Result:
    return CliRunner().invoke(main, list(args))


@pytest.mark.timeout(60)  # (without the bound, the run of a million games would go on for hours)
@pytest.mark.parametrize("command", list(COMMANDS))
def test_games_beyond_the_limit_are_a_usage_error_for_every_command(command: str) -> None:
    """impact and compare took any --games (a typo'd digit started a run of days) where simulate capped it."""
    result = _cli(*COMMANDS[command], "--games", str(MAX_GAMES + 1), "-q")
    assert result.exit_code == 2, result.output
    assert f"Invalid value for '--games': {MAX_GAMES + 1} is not in the range" in result.output
    assert f"<={MAX_GAMES}" in result.output


@pytest.mark.parametrize("command", list(COMMANDS))
def test_a_seed_is_checked_alike_and_said_readably(command: str) -> None:
    """A seed simulate cannot replay was played by impact and compare; simulate's range was unreadable."""
    result = _cli(*COMMANDS[command], "--games", "2", "--seed", str(2**64), "-q")
    assert result.exit_code == 2, result.output
    assert f"Invalid value for '--seed': {2**64}: a seed is a whole number with |seed| < 2**64" in result.output
    ok = _cli(*COMMANDS[command], "--games", "2", "--seed", str(2**64 - 1), "-q")
    assert ok.exit_code == 0, ok.output


@pytest.mark.parametrize("command", list(COMMANDS))
def test_jobs_beyond_the_machine_are_capped_with_a_note(command: str) -> None:
    result = _cli(*COMMANDS[command], "--games", "2", "--jobs", "1000", "-q")
    assert result.exit_code == 0, result.output
    assert "note: --jobs 1000 capped to " in result.stderr
    assert "the 2 game(s))" in result.stderr


@pytest.mark.parametrize("command", ["simulate", "impact"])
def test_a_misspelt_policy_has_a_did_you_mean_for_every_command(command: str) -> None:
    result = _cli(*COMMANDS[command], "--games", "2", "--policy", "casul")
    assert result.exit_code == 2, result.output
    assert "no policy 'casul'" in result.output
    assert "did you mean 'casual'?" in result.output


def test_compare_pack_is_every_setups(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """docs/simulation.md named a `compare --pack` that did not exist: each --setup had to repeat packs=."""
    make_pack(tmp_path, "designs", {"specialists.yaml": "kind: specialist\ncards:\n"
                                    + card("angel", "casualties -3 once per phase", name="Angel", cost=4)})
    monkeypatch.chdir(tmp_path)
    result = _cli("compare", "-s", "map=exercise-tiger variant=practice-run",
                  "-s", "map=exercise-tiger variant=practice-run give=angel", "--pack", "./designs",
                  "--games", "2", "-q", "--measure", "won")
    assert result.exit_code == 0, result.output
    assert result.output.count("packs ./designs") == 2


def test_a_setups_pack_path_that_does_not_exist_is_said_so(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """packs=./nowhere in a --setup was "no expansion named './nowhere'", with the hint to name a folder by its
    path: it is told as --pack ./nowhere is."""
    monkeypatch.chdir(tmp_path)
    result = _cli("compare", "-s", "map=exercise-tiger packs=./nowhere", "-s", "map=exercise-tiger",
                  "--games", "2", "-q")
    assert result.exit_code == 2, result.output
    assert "--setup 1: packs: './nowhere' does not exist (taken as a pack folder's path)" in result.output
    assert "no expansion named" not in result.output
    flag = _cli("compare", "-s", "map=exercise-tiger", "-s", "map=exercise-tiger", "--pack", "./nowhere")
    assert "'./nowhere' does not exist (taken as a pack folder's path)" in flag.output


def test_simulate_names_the_packs_in_its_header(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                snapshot: object) -> None:
    """Two runs with and without a pack printed the same header: the packs are named, by short names (a pack
    folder by its name, not its path)."""
    make_pack(tmp_path, "designs", {"specialists.yaml": "kind: specialist\ncards:\n"
                                    + card("angel", "casualties -3 once per phase", name="Angel", cost=4)})
    monkeypatch.chdir(tmp_path)
    headers = []
    for packs in ([], ["--pack", str(tmp_path / "designs")], ["--pack", "./designs", "--pack", "atlantikwall"]):
        result = _cli("simulate", "exercise-tiger", "--variant", "practice-run", "--games", "2", "-q", *packs)
        assert result.exit_code == 0, result.output
        headers.append(result.stdout.splitlines()[0])
    assert headers == snapshot


def test_the_notes_under_a_comparison_fit_the_terminal() -> None:
    """compare's and impact's notes were single lines of up to 253 columns (the Holm note under every table): they
    are wrapped to the terminal's width, as dday play's lines are; the table's rows stay whole."""
    for args in (COMMANDS["compare"], COMMANDS["impact"]):
        result = CliRunner().invoke(main, [*args, "--games", "4", "-q"], env={"COLUMNS": "80"})
        assert result.exit_code == 0, result.output
        notes = [line for line in result.stdout.splitlines() if "  " not in line.strip()]
        assert any("Holm's p below 0.05" in line for line in notes)
        assert max(len(line) for line in notes) <= 80, notes
        rows = [line for line in result.stdout.splitlines() if line.strip().startswith(("measure", "won "))]
        assert len(rows) == 2 and all(len(row) > 80 for row in rows)
