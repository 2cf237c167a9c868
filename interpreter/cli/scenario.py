"""``dday scenario run PATH...``: run scenario files and check what follows (docs/scenarios.md).

The scenarios themselves (reading, checking, setting up, running, the checks) are
:mod:`ddaydice.interpreter.tools.scenario`; one file checked and run, as the editor's server runs it too, is
:mod:`ddaydice.interpreter.tools.scenario_check`; this module runs the files given and reports.
"""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING

import click

from ddaydice.dsl.writing import write_atomically, write_problem
from ddaydice.interpreter.cli.common import SuggestingGroup, echo, input_file

if TYPE_CHECKING:
    from ddaydice.interpreter.tools.scenario import Result
    from ddaydice.interpreter.tools.scenario_check import ContentCache
    from ddaydice.interpreter.tools.scenario_report import Unusable


@click.group(cls=SuggestingGroup)
def scenario() -> None:
    """Scenario files: set up a situation, run it, check what follows (docs/scenarios.md)."""


@scenario.command(name="run")
@click.argument("paths", nargs=-1, required=True, type=click.Path(path_type=Path, exists=True))
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
@click.option("--verbose", "-v", is_flag=True, help="List every check, not only failures.")
@click.option("--junit", "junit", type=click.Path(path_type=Path, dir_okay=False), default=None,
              help="Also write a JUnit XML report to this file (for CI).")
@click.option("--trace", is_flag=True,
              help="Also show what happened in each scenario: every effect that acted (its card and tier), every "
                   "choice, every event replaced, in order.")
def scenario_run(paths: tuple[Path, ...], fmt: str, verbose: bool, junit: Path | None, trace: bool) -> None:
    """Run scenario files (or every .yaml under a folder; a pack folder there gives only its scenarios/).
    Exit 0 all pass, 1 a check fails, 2 unusable input."""
    from ddaydice.interpreter.tools import scenario_folder
    from ddaydice.interpreter.tools import scenario_report as report

    files, refused = scenario_folder.collect(list(paths))
    if junit is not None:  # checked before any scenario runs
        problem = write_problem(junit)
        if problem is None and os.path.realpath(junit) in {os.path.realpath(f) for f in files}:
            problem = f"{junit} is one of the scenario files run: the report would replace it"
        if problem is not None:
            raise click.UsageError(f"--junit {junit}: {problem}")
    results, unusable = _run_files(files, trace)
    unusable = [report.Unusable(d.file, (d,)) for d in refused] + unusable
    if junit is not None:  # written even when nothing runs, so that a CI's report step finds it
        try:
            write_atomically(junit, report.junit_xml(results, unusable))
        except OSError as exc:
            raise click.UsageError(f"{junit}: cannot write the JUnit report: {exc.strerror}") from exc
    if not files and not refused:
        raise click.UsageError("no scenario files found")
    if fmt == "json":
        echo(json.dumps(report.json_data(results, unusable), indent=2, default=str))
    else:
        _echo_text(results, unusable, verbose)
    if unusable:
        sys.exit(2)
    sys.exit(0 if all(r.passed for r in results) else 1)


def _run_files(files: list[Path], trace: bool = False) -> tuple[list[Result], list[Unusable]]:
    """Each file's result, and the files that could not be run, each with its diagnostics."""
    from ddaydice.interpreter.tools import interrupts

    cache: ContentCache = {}
    results: list[Result] = []
    unusable: list[Unusable] = []
    # A Ctrl-C is taken between two files, never inside the (compiled) engine (tools/interrupts.py).
    with interrupts.between_games():
        for f in files:
            interrupts.check()
            _run_file(f, cache, trace, results, unusable)
    return results, unusable


def _run_file(f: Path, cache: ContentCache, trace: bool, results: list[Result], unusable: list[Unusable]) -> None:
    """One file's result, or why it could not be run."""
    import attrs

    from ddaydice.dsl.diagnostics import Diagnostic
    from ddaydice.dsl.sandbox import shown_path
    from ddaydice.interpreter.tools.scenario_check import check_file
    from ddaydice.interpreter.tools.scenario_report import Unusable

    try:
        input_file(f, "scenario")
    except click.UsageError as exc:
        problem = Diagnostic("LOAD006", exc.message.split(": ", 1)[-1], shown_path(f), 1, 1)
        unusable.append(Unusable(shown_path(f), (problem,)))
        return
    start = time.perf_counter()
    checked = check_file(f, cache, trace=trace)
    if checked.result is None:
        unusable.append(Unusable(shown_path(f), checked.problems))
    else:
        results.append(attrs.evolve(checked.result, seconds=time.perf_counter() - start))


def _echo_text(results: list[Result], unusable: list[Unusable], verbose: bool) -> None:
    from ddaydice.dsl.diagnostics import SourceCache, render_all
    from ddaydice.interpreter.tools.scenario_report import diagnostics, text_lines

    if unusable:
        echo(render_all(diagnostics(unusable), SourceCache()))
    for line in text_lines(results, verbose):
        echo(line)
    passed = sum(r.passed for r in results)
    nothing = sum(r.checks_nothing for r in results)
    echo(f"{passed} passed, {len(results) - passed} failed"
         + (f", {len(unusable)} unusable" if unusable else "")  # files, each counted once
         + (f" ({nothing} of the passed check nothing)" if nothing else ""))
