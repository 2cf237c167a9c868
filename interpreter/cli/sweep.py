"""``dday sweep FILE.yaml``: a grid of set-ups played on Dask distributed into one results file, resumable
(docs/simulation.md). The grid, the tasks and the file are :mod:`ddaydice.interpreter.tools.sweep`."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import click

from ddaydice.interpreter.cli.common import echo, echo_diagnostics


@click.command()
@click.argument("file", type=click.Path(path_type=Path, exists=True, dir_okay=False))
@click.option("--out", "-o", "out", type=click.Path(path_type=Path, dir_okay=False), default=None,
              help="The results file (CSV; default: FILE with the suffix .csv). An existing one is resumed: its "
                   "finished chunks are kept and only the missing games are played.")
@click.option("--scheduler", metavar="ADDRESS",
              help="A running Dask scheduler to send the games to (tcp://HOST:8786); default: a LocalCluster on "
                   "this machine.")
@click.option("--workers", type=click.IntRange(min=1), default=2, show_default=True,
              help="Worker processes of the LocalCluster (not used with --scheduler).")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True,
              help="The summary by cell: a table, or JSON.")
@click.option("--quiet", "-q", is_flag=True, help="No progress bar.")
def sweep(file: Path, out: Path | None, scheduler: str | None, workers: int, fmt: str, quiet: bool) -> None:
    """Play every cell of the grid FILE.yaml describes (maps x variants x players x options x packs x cards x
    policies, 'games' each) on Dask, into one CSV file, resuming an interrupted sweep.

    A cell's games are the same whatever the number of workers (game i is seeded from the sweep's seed and i).
    Exit 0 done, 1 a sweep file with errors, 2 a usage error.
    """
    from ddaydice.interpreter.tools import sweep as sw

    if scheduler is None and workers > (os.cpu_count() or 1):
        # A LocalCluster's workers are processes of this machine: never more than its CPUs (docs/security.md).
        click.echo(f"note: --workers {workers} capped to {os.cpu_count() or 1} (the CPUs of this machine)", err=True)
        workers = os.cpu_count() or 1

    sf, diags = sw.read_file(file)
    if sf is None:
        echo_diagnostics(diags, fmt, 50)
        sys.exit(1)
    out = out or file.with_suffix(".csv")
    warnings = sw.unwinnable_cells(sf)
    if fmt == "text":
        for warning in warnings:
            echo(f"warning: {warning}", err=True)
    from ddaydice.dsl.writing import write_problem

    problem = write_problem(out)  # before the cluster starts: a sweep is never played only to be lost
    if problem is not None:
        if not out.parent.is_dir():
            problem += " (create it first, or name a results file in a folder that exists)"
        raise click.UsageError(f"--out {out}: {problem}")
    bar = None

    def started(cells: int, chunks: int, todo: int, games: int) -> None:
        nonlocal bar
        if fmt == "text":
            click.echo(f"{cells} cell(s) x {sf.games} games: {chunks} chunk(s) of up to {sf.chunk}; "
                       f"{chunks - todo} already in {out}, {todo} to play", err=True)
        if not quiet and fmt == "text" and todo:
            bar = click.progressbar(length=games, label="sweeping", file=sys.stderr)
            bar.__enter__()

    def progress(n: int) -> None:
        if bar is not None:
            bar.update(n)

    try:
        result = sw.run(sf, out, scheduler=scheduler, workers=workers, progress=progress, started=started)
    except sw.ResultsError as exc:
        raise click.UsageError(str(exc)) from exc
    finally:
        if bar is not None:
            bar.__exit__(None, None, None)
    cells = sw.summary(sf, result.rows)
    if fmt == "json":
        click.echo(json.dumps({"file": str(out), "cells": cells, "chunks": result.chunks,
                               "chunks_played": result.chunks_played, "games_played": result.games_played,
                               **({"warnings": warnings} if warnings else {})}, indent=2))
        return
    click.echo(f"{result.games_played} games played in {result.seconds:.1f} s on {result.workers} worker(s); "
               f"results in {out}")
    for line in sw.summary_table(cells):
        click.echo(line)
