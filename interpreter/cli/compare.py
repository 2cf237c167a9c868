"""``dday compare [FILE.yaml] [--setup DESCRIPTION ...]``: two or more set-ups played on the same seeds, and each
measure's difference with a paired 95% interval (docs/simulation.md).

The set-ups, the batches and the statistics are :mod:`ddaydice.interpreter.tools.compare`; this module reads the
set-ups, shows progress and prints the table, the JSON or the plot.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click

from ddaydice.interpreter.cli.common import (
    capped_jobs,
    echo,
    echo_diagnostics,
    echo_report,
    games_option,
    jobs_option,
    pack_option,
    plot_option,
    progress,
    seed_option,
    write_plot,
)

if TYPE_CHECKING:
    from ddaydice.interpreter.tools.setups import SetupEntry

SETUP_HELP = ("A set-up as key=value words (lists comma-separated): name, map, variant, players, policy, "
              "side-policy, options, packs, give (cards given to each Unit at the start), pool (cards put into the "
              "Pool), absent (cards out of the game). Repeatable; added after the file's set-ups, on its 'base'. "
              "E.g. -s 'name=medic map=omaha-beach policy=reference give=medic'.")


@click.command()
@click.argument("file", required=False, type=click.Path(path_type=Path, exists=True, dir_okay=False))
@click.option("--setup", "-s", "descriptions", multiple=True, metavar="DESCRIPTION", help=SETUP_HELP)
@games_option(None, least=2, help_text="The most games per set-up (default: the file's 'games', else 1000)")
@click.option("--batch", type=click.IntRange(min=2), default=None,
              help="Games per set-up between two looks at the intervals (default: the file's, else 200).")
@click.option("--precision", "precisions", multiple=True, metavar="[MEASURE=]WIDTH",
              help="Stop after a batch once every 95% interval is narrower than WIDTH (in the measure's unit; "
                   "won is a fraction: 0.05 = 5 points); MEASURE=WIDTH for one measure (repeatable). "
                   "Default: play all --games.")
@click.option("--measure", "measure_names", multiple=True, metavar="MEASURE",
              help="A measure to report (repeatable; default all): won, turns, turns-to-win, soldiers-left, "
                   "specialists-left, casualties, victory-points.")
@seed_option(None, "The run's seed (default: the file's, else 0); game i of every set-up is seeded from it and i.")
@jobs_option()
@pack_option("An expansion to load in every --setup, as its 'packs' (added to its own; a FILE names its own)")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True,
              help="A table, or JSON (a set-up file's errors too).")
@plot_option("Draw each measure's differences and intervals")
@click.option("--quiet", "-q", is_flag=True, help="No progress bar.")
def compare(file: Path | None, descriptions: tuple[str, ...], games: int | None, batch: int | None,
            precisions: tuple[str, ...], measure_names: tuple[str, ...], seed: int | None, jobs: int,
            packs: tuple[str, ...], fmt: str, plot_path: Path | None, quiet: bool) -> None:
    """Play two or more set-ups on the same seeds and report each measure's difference from the first set-up,
    with a paired 95% interval (Student's t) and whether it is significant (Holm's correction over every
    difference of the table).

    FILE is a YAML set-up file (docs/simulation.md): 'base' (what the set-ups share), 'setups' (a list), and
    optionally 'games', 'seed', 'batch'. Exit 0 done, 1 a set-up file with errors, 2 a usage error.
    """
    from ddaydice.interpreter.tools import compare as cmp
    from ddaydice.interpreter.tools.compare import CompareFile
    from ddaydice.interpreter.tools.setups import (
        SetupEntry,
        check,
        content_for,
        merge,
        parse_description,
        problems_text,
    )
    from ddaydice.interpreter.tools.simulate import unwinnable_warnings

    base = SetupEntry()
    raw: list[SetupEntry] = []
    cf: CompareFile | None = None
    if file is not None:
        read, diags = cmp.read_file(file, content_for)
        if read is None:
            echo_diagnostics(diags, fmt, 50)
            sys.exit(1)
        cf, _ = read
        base = cf.base
        raw = list(cf.setups)
    entries = [merge(base, e) for e in raw]
    problems: list[tuple[str, str, str | None]] = []  # every --setup's, told in one usage error
    for k, text in enumerate(descriptions, start=1):
        entry, whys = parse_description(text)
        if entry is None:
            problems += [(f"--setup {k}", why, None) for why in whys]
            continue
        entry, wrong = command_line_packs(entry)
        if wrong:
            problems += [(f"--setup {k}: packs", why, None) for why in wrong]
            continue
        merged = merge(base, entry)
        if packs:  # --pack: every --setup's, after its own (a path read from the current folder, as packs= is)
            import attrs

            merged = attrs.evolve(merged, packs=tuple(dict.fromkeys((*(merged.packs or ()), *packs))))
        problems += [(f"--setup {k}: {key.replace('_', '-')}", message, hint)
                     for key, message, hint, *_ in check(merged, content_for)]
        entries.append(merged)
    if problems:
        raise click.UsageError(problems_text(problems))
    if len(entries) < 2:
        raise click.UsageError(f"a comparison needs 2 set-ups or more (a FILE, --setup), not {len(entries)}")
    names = [e.name for e in entries if e.name]
    if len(names) != len(set(names)):
        raise click.UsageError("two set-ups have the same name")
    run_seed = seed if seed is not None else (cf.seed if cf and cf.seed is not None else 0)
    setups = [cmp.to_setup(e, i, run_seed) for i, e in enumerate(entries)]
    warnings = unwinnable_warnings([(s.name, s.spec) for s in setups], content_for)
    if fmt == "text":
        for warning in warnings:
            echo(f"warning: {warning}", err=True)
    total = games or (cf.games if cf and cf.games else 1000)
    size = batch or (cf.batch if cf and cf.batch else 200)
    measures = parse_measures(measure_names)
    precision = parse_precision(precisions, measures)
    jobs = capped_jobs(jobs, total)
    with progress(total * len(setups), "comparing", not quiet and fmt == "text") as bar:
        result = cmp.run(setups, total, batch=size, precision=precision, measures=measures, jobs=jobs, progress=bar)
    if fmt == "json":
        echo(json.dumps({**cmp.as_json(result), **({"warnings": warnings} if warnings else {})}, indent=2))
    else:
        echo_report(cmp.table(result))
    if plot_path is not None:  # after the results: a plot that fails after all loses none of them
        write_plot(lambda: cmp.plot(result, plot_path), plot_path)


def command_line_packs(entry: SetupEntry) -> tuple[SetupEntry, list[str]]:
    """A --setup's packs as --pack takes them (dsl/loader.py ``pack_argument``: a bundled pack's id, or a pack
    folder by its path from the current folder), and why each that names no pack does not (a path that does not
    exist is told so, as for --pack)."""
    import attrs

    from ddaydice.dsl.loader import pack_argument

    if not entry.packs:
        return entry, []
    found: list[str] = []
    wrong: list[str] = []
    for name in entry.packs:
        pack, why = pack_argument(name)
        if pack is None:
            wrong.append(why or name)
        else:
            found.append(pack)
    return attrs.evolve(entry, packs=tuple(dict.fromkeys(found))), wrong


def parse_measures(names: tuple[str, ...]) -> tuple[str, ...]:
    """The measures asked for with --measure (all when none), or a usage error. A name is typed with '-' or '_'
    (turns-to-win, turns_to_win), as --precision takes it."""
    from ddaydice.interpreter.tools import measures as ms

    if not names:
        return tuple(ms.MEASURES)
    out = []
    for text in names:
        name = ms.measure_name(text)
        if name not in ms.MEASURES:
            raise click.UsageError(f"--measure {text}: no such measure (measures: "
                                   f"{', '.join(ms.typed(n) for n in ms.MEASURES)})")
        out.append(name)
    return tuple(dict.fromkeys(out))


def parse_precision(texts: tuple[str, ...], measures: tuple[str, ...]) -> dict[str, float]:
    """The widths --precision asks for (by measure; ``*``: every measure reported), or a usage error: a width for
    a measure that is not reported (--measure) would stop the run on an interval nobody reads, or on none."""
    from ddaydice.interpreter.tools import compare as cmp
    from ddaydice.interpreter.tools import measures as ms

    precision, why = cmp.parse_precision(texts)
    if why:
        raise click.UsageError(why)
    unreported = [name for name in precision if name != "*" and name not in measures]
    if unreported:
        names = ", ".join(ms.typed(n) for n in unreported)
        raise click.UsageError(
            f"--precision {names}: not among the measures reported ({', '.join(ms.typed(n) for n in measures)}); "
            f"add --measure {' --measure '.join(ms.typed(n) for n in unreported)}, or drop the precision")
    return precision
