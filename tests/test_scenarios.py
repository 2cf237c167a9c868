"""The project's rulings: every scenario file under tests/scenarios runs through `dday scenario run`.

One test per file, so a failure names the ruling it breaks; the file's own
`ruling:` text says why the expected result is right. The files are those `dday scenario run` collects from
the folder: a scenario-local pack kept there (tests/scenarios/local-pack) gives only its own scenarios.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from ddaydice.interpreter.cli import main
from ddaydice.interpreter.tools.scenario_folder import collect

HERE = Path(__file__).parent / "scenarios"
FILES, _ = collect([HERE])


def test_there_are_scenarios() -> None:
    assert len(FILES) >= 1


@pytest.mark.parametrize("path", FILES, ids=[str(p.relative_to(HERE)) for p in FILES])
def test_scenario(path: Path) -> None:
    result = CliRunner().invoke(main, ["scenario", "run", "--verbose", str(path)])
    assert result.exit_code == 0, result.output
