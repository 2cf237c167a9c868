"""Outcomes unchanged: the games of the equivalence corpus give the digests and choices recorded in
tests/golden/digests.json (tests/golden/record.py), and `dday simulate` gives the recorded results for a seed.

The corpus was recorded before the turn became one procedure (the fast turn's equivalence corpus, widened with
the random and heuristic policies and Atlantikwall); the same seeds, content and choices must give the same games.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

GOLDEN = Path(__file__).parent / "golden"
sys.path.insert(0, str(GOLDEN))

from corpus import CASES, SIMULATIONS, play_case  # noqa: E402

from ddaydice.interpreter.cli import main  # noqa: E402

RECORDED: dict[str, Any] = json.loads((GOLDEN / "digests.json").read_text())


@pytest.mark.parametrize("case", CASES, ids=lambda c: "|".join(map(str, c[:5])))
def test_the_corpus_plays_the_recorded_games(case: tuple[Any, ...]) -> None:
    rows = play_case(*case)
    recorded = RECORDED["games"]["|".join(map(str, case))]
    first = next((i for i, (a, b) in enumerate(zip(rows, recorded, strict=True)) if a != b), None)
    assert first is None, f"seed {first}: {rows[first]} != recorded {recorded[first]}"


@pytest.mark.parametrize("args", SIMULATIONS, ids=lambda a: " ".join(a[:3]))
def test_simulate_gives_the_recorded_results(args: list[str]) -> None:
    result = CliRunner().invoke(main, ["simulate", *args, "--format", "json", "-q"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    for k in ("games_per_s", "seconds", "elapsed"):
        data.pop(k, None)
    assert data == RECORDED["simulate"][" ".join(args)]
