"""``dday scenario run PATH...``: run scenario files and check what follows (docs/scenarios.md).

The scenarios themselves (reading, checking, setting up, running, the checks) are
:mod:`ddaydice.interpreter.tools.scenario`; this module loads the content each file names, runs them and reports.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click

from ddaydice.interpreter.cli.common import derivation_text, input_file, scenario_packs

if TYPE_CHECKING:
    from ddaydice.dsl.diagnostics import Diagnostic
    from ddaydice.dsl.loader import Content
    from ddaydice.interpreter.tools.scenario import Result


def load_for(cache: dict[tuple[str, ...], Content], packs: tuple[str, ...]) -> Content | None:
    """The content with these packs, loaded once per run (None if it does not load)."""
    from ddaydice.dsl.loader import load_cached

    if packs not in cache:
        content, _ = load_cached(packs=list(packs))
        if content is None:
            return None
        cache[packs] = content
    return cache[packs]


@click.group()
def scenario() -> None:
    """Scenario files: set up a situation, run it, check what follows (docs/scenarios.md)."""


@scenario.command(name="run")
@click.argument("paths", nargs=-1, required=True, type=click.Path(path_type=Path, exists=True))
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
@click.option("--verbose", "-v", is_flag=True, help="List every check, not only failures.")
def scenario_run(paths: tuple[Path, ...], fmt: str, verbose: bool) -> None:
    """Run scenario files (or every .yaml under a folder). Exit 0 all pass, 1 a check fails, 2 unusable input."""
    from ddaydice.interpreter.tools import scenario as sc_mod

    files = sc_mod.collect(list(paths))
    if not files:
        raise click.UsageError("no scenario files found")
    results, problems = _run_files(files)
    if fmt == "json":
        click.echo(json.dumps({
            "scenarios": [{"file": r.file, "scenario": r.title, "passed": r.passed, "error": r.error,
                           "checks": [c.as_json() for c in r.checks]} for r in results],
            "diagnostics": [d.as_json() for d in problems],
            "passed": sum(r.passed for r in results), "failed": sum(not r.passed for r in results),
        }, indent=2, default=str))
    else:
        _echo_text(results, problems, verbose)
    if problems:
        sys.exit(2)
    sys.exit(0 if all(r.passed for r in results) else 1)


def _run_files(files: list[Path]) -> tuple[list[Result], list[Diagnostic]]:
    """Each file's result, and the diagnostics of the files that could not be run."""
    from ddaydice.interpreter.tools import scenario as sc_mod

    cache: dict[tuple[str, ...], Content] = {}
    results: list[Result] = []
    problems: list[Diagnostic] = []
    for f in files:
        try:
            input_file(f, "scenario")
        except click.UsageError as exc:
            from ddaydice.dsl.diagnostics import Diagnostic as Diag
            from ddaydice.dsl.sandbox import shown_path

            problems.append(Diag("LOAD006", exc.message.split(": ", 1)[-1], shown_path(f), 1, 1))
            continue
        named, pack_problems = scenario_packs(f)
        if pack_problems:  # a bad entry of `packs:`, at its line of the scenario file
            problems += pack_problems
            continue
        packs = tuple(named)
        content = load_for(cache, packs)
        if content is None:  # the content with these packs does not load: why, and where, as for validate
            from ddaydice.dsl.diagnostics import Diagnostic as Diag
            from ddaydice.dsl.loader import load
            from ddaydice.dsl.yamlsrc import position, read_yaml

            _, load_diags = load(packs=list(packs))
            doc, _ = read_yaml(str(f))
            line, col = position(doc.data, ["packs"]) if doc is not None else (1, 1)
            problems += [d for d in load_diags if d.severity == "error"]
            problems.append(Diag("SCEN002", "the packs this scenario names do not load (their errors are above)",
                                 str(f), line, col))
            continue
        loaded, diags = sc_mod.load_scenario(f, content)
        if loaded is None or diags:
            problems += diags
            continue
        sc, doc = loaded
        result, _game = sc_mod.run(sc, content, str(f), doc=doc)
        results.append(result)
    return results, problems


def _echo_text(results: list[Result], problems: list[Diagnostic], verbose: bool) -> None:
    from ddaydice.dsl.diagnostics import SourceCache, render_all

    if problems:
        click.echo(render_all(problems, SourceCache()))
    for r in results:
        click.echo(f"{'PASS' if r.passed else 'FAIL'} {r.file}: {r.title}")
        if r.error:
            click.echo(f"    error: {r.error}")
        for c in r.checks:
            if c.passed and not verbose:
                continue
            mark = "ok  " if c.passed else "FAIL"
            click.echo(f"    {mark} {c.label}: expected {c.expected!r}, got {c.actual!r}"
                       + (f" ({c.message})" if c.message else ""))
            if not c.passed and c.derivation is not None:
                for line in derivation_text(c.derivation):
                    click.echo(line)
    passed = sum(r.passed for r in results)
    click.echo(f"{passed} passed, {len(results) - passed} failed"
               + (f", {len(problems)} unusable" if problems else ""))
